"""The story month's events and standing facts (`sample/data/story.yaml`) -> one typed, cached Story."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date
from typing import Any

from omoide.sample.content import content, data_yaml


@dataclass(frozen=True)
class Anchor:
    """Where words of the story are: text in one line of a day's note, or in one chat message."""

    day: date
    text: str
    conversation: str | None = None  # a chat anchor's conversation; None for a note
    speaker: str | None = None  # a chat anchor's speaker, by name


@dataclass(frozen=True)
class Event:
    """One thing that happened on its day, the place that tells of it and the others that do too."""

    day: date
    kind: str  # run, cooking, booking, dentist, move, social, work, promise, said
    what: str
    people: tuple[str, ...]
    anchor: Anchor
    also: tuple[Anchor, ...] = ()
    to: str | None = None  # a promise: to whom
    due: date | None = None  # a promise: by when, if it says
    kept: Anchor | None = None  # a promise: where it is kept, or None
    happened: str | None = None  # when it happened, if not on the day that tells of it


@dataclass(frozen=True)
class FactValue:
    """One value a standing fact had, when it began (if the sources say) and every place saying it."""

    value: str
    since: date | None
    said: tuple[Anchor, ...]


@dataclass(frozen=True)
class Fact:
    """A standing fact about someone or something and its values, oldest first."""

    subject: str
    attribute: str
    values: tuple[FactValue, ...]


@dataclass(frozen=True)
class Story:
    """What the story month holds: its events and its standing facts."""

    events: tuple[Event, ...]
    facts: tuple[Fact, ...]


def _anchor(raw: dict[str, Any], day: date | None = None) -> Anchor:
    """A story.yaml anchor ({note: text} or {chat: [conversation, code, text]}, maybe a day) -> Anchor."""
    on = raw.get("day", day)
    if not isinstance(on, date):
        raise ValueError(f"story.yaml: an anchor needs its day, got {raw!r}")
    if "note" in raw:
        return Anchor(on, str(raw["note"]))
    conversation, code, text = raw["chat"]
    return Anchor(on, str(text), str(conversation), content().speakers[code])


def _event(raw: dict[str, Any]) -> Event:
    """A story.yaml event -> Event (a promise must say to whom, its due day and where it is kept)."""
    day = raw["day"]
    if raw["kind"] == "promise" and not {"to", "due", "kept"} <= set(raw):
        raise ValueError(f"story.yaml: a promise needs to, due and kept, got {raw!r}")
    kept = raw.get("kept")
    return Event(
        day=day,
        kind=raw["kind"],
        what=str(raw["what"]),
        people=tuple(raw.get("people", ())),
        anchor=_anchor(raw, day),
        also=tuple(_anchor(a, day) for a in raw.get("also", ())),
        to=raw.get("to"),
        due=raw.get("due"),
        kept=_anchor(kept) if kept else None,
        happened=raw.get("happened"),
    )


@functools.cache
def story() -> Story:
    """-> the story month's events and facts, read once from the package data."""
    raw = data_yaml("story.yaml")
    facts = tuple(
        Fact(
            f["subject"],
            f["attribute"],
            tuple(
                FactValue(str(v["value"]), v.get("since"), tuple(_anchor(a) for a in v["said"]))
                for v in f["values"]
            ),
        )
        for f in raw["facts"]
    )
    return Story(tuple(_event(e) for e in raw["events"]), facts)
