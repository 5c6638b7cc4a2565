"""What summarize produces for a day, whichever backend wrote it: DaySummary, Fact, Highlight; the user's `## Retain` lines as facts."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from omoide.core.ids import stable_id


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


@dataclass(frozen=True)
class DayLine:
    """A line the person wrote, decided or was told that day: local time ("" when untimed), kind, who spoke, text, ref."""

    at: str  # local "HH:MM"; "" for a note paragraph without a time of its own
    kind: str  # "wrote" (a note line), "decided", "said" (own message), "told" (someone else's message)
    who: str  # the other person of a message ("" for a note line)
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
    lines: list[DayLine] = field(
        default_factory=list
    )  # what was written, decided and told, in time order
    tz: str = "UTC"  # the zone the page shows local times in
    refs: tuple[str, ...] = ()  # every record the digest was made from
    llm_calls: int = 0
    cached_calls: int = 0
    ungrounded: int = 0  # the model's statements dropped as not grounded in the day's items
    # block id -> the model's label of that block, grounded in its own items (none without a model)
    block_labels: dict[str, str] = field(default_factory=dict)

    @property
    def produced_by(self) -> str:
        """-> "backend:model", recorded on every row derived from this summary."""
        return f"{self.backend}:{self.model}"


# What the user wrote down on purpose outranks anything inferred from logs.
RETAIN_IMPORTANCE = 0.9


def fact_id(day: str, kind: str, content: str) -> str:
    """Day, kind, content -> the memory id of a derived fact (same statement, same id)."""
    return stable_id("memory", "fact", day, kind, " ".join(content.lower().split()))


def retained_facts(events: pd.DataFrame) -> list[Fact]:
    """Events -> one Fact per `## Retain` line, exactly as written (O keeps its c=...)."""
    kept = events[events["event_type"] == "retain"].sort_values(["ts", "source_ref"])
    out = []
    for e in kept.itertuples(index=False):
        conf = e.confidence
        out.append(
            Fact(
                kind=str(e.fact_kind),
                content=str(e.text),
                entities=tuple(e.entities) if e.entities is not None else (),
                confidence=float(conf) if pd.notna(conf) else 1.0,
                importance=RETAIN_IMPORTANCE,
                refs=(e.source_ref,),
                ts=pd.Timestamp(e.ts).isoformat(),
                origin="retain",
                memory_id=stable_id("memory", "retain", e.event_id),
            )
        )
    return out
