"""What summarize produces for a day, whichever backend wrote it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Fact:
    """A fact with the records it rests on; `origin` says who stated it (user, llm, digest)."""

    kind: str
    content: str
    entities: tuple[str, ...]
    confidence: float
    importance: float
    refs: tuple[str, ...]
    ts: str  # ISO UTC of the earliest record it rests on
    origin: str  # "retain" (the user's own ## Retain line), "llm", "digest"
    memory_id: str


@dataclass(frozen=True)
class Highlight:
    """A highlight sentence and the refs it came from."""

    text: str
    refs: tuple[str, ...] = ()


@dataclass
class DaySummary:
    """The day's digest: narrative, highlights, time per activity, facts; and who wrote it."""

    day: str
    backend: str  # "ollama" or "embedded"
    model: str
    summary: str
    highlights: list[Highlight] = field(default_factory=list)
    time_by_activity: list[tuple[str, float]] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    refs: tuple[str, ...] = ()  # every record the digest was made from
    llm_calls: int = 0
    cached_calls: int = 0

    @property
    def produced_by(self) -> str:
        """-> "backend:model", recorded on every row derived from this summary."""
        return f"{self.backend}:{self.model}"
