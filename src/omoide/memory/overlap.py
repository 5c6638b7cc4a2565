"""The lines of recalled memories: when two lines are the same line.

A line is compared by its key: whitespace-normalised, case-folded, a leading list marker
("- ") or a chat neighbour's mark ("↑ ", "↓ ") dropped. A record's line reads "who or where:
what" (a chat line "Peter: How was the dentist?", a note "Friday > Log: Called the
dentist"), while a day's digest quotes the "what" alone as a highlight ("- Called the
dentist"). So a line is shown already when its
key is a shown line's key, when its key is what a shown line says after a colon, or when
what it says after a colon is a shown line's key. Two records' "what" alone is not enough:
"Peter: ok" and "Aiko: ok" are two lines.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from omoide.memory.chat_window import AFTER, BEFORE

_MARKERS = ("- ", "* ", "• ", BEFORE, AFTER)  # list items; a chat neighbour kept as context


@dataclass(frozen=True)
class Line:
    """One shown line: its text as stored and its comparison key."""

    text: str
    key: str


def lines(content: str) -> list[Line]:
    """Content -> its non-empty lines in order, each with its key."""
    return [Line(t, line_key(t)) for t in content.splitlines() if t.strip()]


def line_key(text: str) -> str:
    """A line -> its key: whitespace-normalised, case-folded, without a leading list marker."""
    key = " ".join(text.split()).casefold()
    for marker in _MARKERS:
        if key.startswith(marker):
            return key[len(marker) :]
    return key


def said(key: str) -> list[str]:
    """A line's key -> what it says after each ': ' ("a > b: c: d" -> "c: d", "d")."""
    out = []
    at = key.find(": ")
    while at >= 0:
        out.append(key[at + 2 :])
        at = key.find(": ", at + 2)
    return [s for s in out if s]


@dataclass
class Seen:
    """The keys of the lines shown so far, and what each says after a colon."""

    keys: set[str] = field(default_factory=set)
    bodies: set[str] = field(default_factory=set)

    def add(self, keys: Iterable[str]) -> None:
        """Keys of newly shown lines -> remembered."""
        for key in keys:
            self.keys.add(key)
            self.bodies.update(said(key))

    def holds(self, key: str) -> bool:
        """A line's key -> True when that line is shown already (see the module docstring)."""
        return key in self.keys or key in self.bodies or any(b in self.keys for b in said(key))
