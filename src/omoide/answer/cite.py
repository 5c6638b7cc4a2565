"""What an answer is made of: its citations (`path#Lnn` or `path#id` and the day), and the answer itself as JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from omoide.core.refs import to_ref


@dataclass(frozen=True)
class Citation:
    """Where an answer's sentence comes from: a line or record (a ref: omoide.core.refs) and its local day."""

    source: str
    day: str

    def to_json(self) -> dict[str, str]:
        """Citation -> {"source", "day"}."""
        return {"source": self.source, "day": self.day}


@dataclass
class Answer:
    """One answer: the kind of question, its window (inclusive local days), the text, the figures, the citations."""

    kind: str
    window: tuple[date, date] | None
    answer: str
    citations: list[Citation] = field(default_factory=list)
    minutes: float | None = None
    when: datetime | None = None
    subject: str = ""
    basis: str = ""  # where the answer was read: the pages, the lake, recall
    matched: bool = True  # False: a lookup whose memories share no word with the question

    def to_json(self) -> dict[str, Any]:
        """Answer -> the JSON `omoide ask --json` prints (keys fixed: scripts read them)."""
        return {
            "kind": self.kind,
            "window": None
            if self.window is None
            else {"since": self.window[0].isoformat(), "until": self.window[1].isoformat()},
            "answer": self.answer,
            "minutes": self.minutes,
            "when": None if self.when is None else self.when.isoformat(),
            "citations": [c.to_json() for c in dedupe(self.citations)],
            "subject": self.subject,
            "basis": self.basis,
        }


def dedupe(citations: list[Citation]) -> list[Citation]:
    """Citations -> each once, in order."""
    return list(dict.fromkeys(citations))


def shown(ref: str, home: Path) -> str:
    """A record's ref (absolute, as older homes stored it, or already a ref) -> as cited: a ref (omoide.core.refs)."""
    return to_ref(ref, home)
