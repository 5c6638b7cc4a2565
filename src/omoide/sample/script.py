"""A sample home + its first and last day -> its script: what happened when, and the line telling of it.

The script is the truth that benchmarks on the sample are scored against: each story event
of the days written, with its day, local time, kind, people and the source line it was
written to (`sources/notes/2026-11-02.md#L12`, `sources/chat/chat.jsonl#L40`: paths relative
to the home, lines counted from 1 as omoide's own refs count them); promises with to whom,
when said, when due and where kept; each fact's values with the day each holds from; counts,
days and first and last times per kind; and every day's note lines and chat messages.
It is read back from the files written, so every citation is checked: words of the story
found in no line of their day, or in several, are a ValueError (the story and the day files
disagree). It lies beside the sources (`sample-script.json`), never under `sources/`, so
omoide never ingests it.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from omoide.sample.content import WEEKDAYS, content
from omoide.sample.generate import CHAT_LOG, NOTES_DIR, SCRIPT
from omoide.sample.story import Anchor, Event, Fact, story
from omoide.sample.texts import TIMED_LINE

SCHEMA = 2  # 2: `activities` (every planned segment of every day) and `people` (relations)
# Plan modes that are not an activity on screen: away from the computer.
AWAY_MODE = "afk"


@dataclass(frozen=True)
class _Line:
    """One line of a day's note or one chat message: where it is, when and what it says."""

    source: str  # path#Lnn, relative to the home
    time: str | None  # a note's HH:MM, a message's HH:MM:SS; None for an untimed note line
    text: str
    section: str | None = None  # a note line's heading
    conversation: str | None = None
    speaker: str | None = None

    def place(self, day: date) -> dict[str, Any]:
        """Its day -> the line as the script cites it."""
        out: dict[str, Any] = {"day": day.isoformat(), "time": self.time}
        if self.speaker is not None:
            out |= {"conversation": self.conversation, "speaker": self.speaker}
        return out | {"source": self.source, "text": self.text}


def _note_lines(home: Path, day: date) -> list[_Line]:
    """Home + day -> the lines of that day's note with words (front matter and headings left out)."""
    path = NOTES_DIR / f"{day.isoformat()}.md"
    if not (home / path).is_file():
        return []
    lines = (home / path).read_text(encoding="utf-8").splitlines()
    out, section, front = [], None, lines[:1] == ["---"]
    for n, line in enumerate(lines, start=1):
        if front:
            front = n == 1 or line != "---"
        elif line.startswith("#"):
            section = line[3:].strip() if line.startswith("## ") else None
        elif line.strip():
            timed = TIMED_LINE.match(line)
            time = timed.group(1) if timed else None
            out.append(_Line(f"{path.as_posix()}#L{n}", time, line, section))
    return out


def _chat_lines(home: Path) -> dict[date, list[_Line]]:
    """Home -> its chat log's messages by local day."""
    out: dict[date, list[_Line]] = defaultdict(list)
    text = (home / CHAT_LOG).read_text(encoding="utf-8")
    for n, raw in enumerate(text.splitlines(), start=1):
        m = json.loads(raw)
        out[date.fromisoformat(m["ts"][:10])].append(
            _Line(
                f"{CHAT_LOG.as_posix()}#L{n}",
                m["ts"][11:19],
                m["text"],
                conversation=m["conversation"],
                speaker=m["speaker"],
            )
        )
    return out


class _Lines:
    """The written days' note lines and messages, to find the story's words in."""

    def __init__(self, home: Path, first: date, last: date) -> None:
        self.first, self.last = first, last
        days = [first + timedelta(days=i) for i in range((last - first).days + 1)]
        self.notes = {day: _note_lines(home, day) for day in days}
        self.chats = _chat_lines(home)

    def within(self, day: date) -> bool:
        """Day -> whether the sample holds it."""
        return self.first <= day <= self.last

    def find(self, anchor: Anchor) -> _Line:
        """Anchor -> the one line of its day holding its words (a ValueError if not exactly one)."""
        if anchor.conversation is None:
            found = [x for x in self.notes.get(anchor.day, []) if anchor.text in x.text]
        else:
            found = [
                x
                for x in self.chats.get(anchor.day, [])
                if (x.conversation, x.speaker) == (anchor.conversation, anchor.speaker)
                and anchor.text in x.text
            ]
        if len(found) != 1:
            where = anchor.conversation or "note"
            raise ValueError(
                f"story: {anchor.text!r} is in {len(found)} lines of {anchor.day} ({where}), not one"
            )
        return found[0]

    def places(self, anchors: tuple[Anchor, ...]) -> list[dict[str, Any]]:
        """Anchors -> the lines citing those of them on the sample's days."""
        return [self.find(a).place(a.day) for a in anchors if self.within(a.day)]


def _id(day: date, kind: str, what: str) -> str:
    """Event's day, kind and label -> its id, e.g. '2026-11-02/cooking/dashi'."""
    return f"{day.isoformat()}/{kind}/{re.sub(r'[^a-z0-9]+', '-', what.lower()).strip('-')}"


def _event(event: Event, lines: _Lines) -> dict[str, Any]:
    """Story event + the written lines -> the event as the script lists it."""
    line = lines.find(event.anchor)
    out: dict[str, Any] = {
        "id": _id(event.day, event.kind, event.what),
        "weekday": WEEKDAYS[event.day.weekday()].capitalize(),
        "kind": event.kind,
        "what": event.what,
        "people": list(event.people),
        **line.place(event.day),
        "also": lines.places(event.also),
    }
    if event.happened:
        out["happened"] = event.happened
    if event.kind == "promise":
        kept = event.kept if event.kept and lines.within(event.kept.day) else None
        overdue = event.due is not None and event.due < lines.last
        out |= {
            "by": content().user_speaker,
            "to": event.to,
            "due": event.due.isoformat() if event.due else None,
            "kept": lines.find(kept).place(kept.day) if kept else None,
            "status": "kept" if kept else "not kept" if overdue else "open",
        }
    return out


def _facts(fact: Fact, lines: _Lines) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Standing fact + the written lines -> (its values said on the sample's days, its changes as events)."""
    starts = [
        v.since or (min(a.day for a in v.said) if i else None) for i, v in enumerate(fact.values)
    ]
    values, changes = [], []
    for i, value in enumerate(fact.values):
        said = lines.places(value.said)
        if not said:
            continue
        before = fact.values[i - 1].value if i else None
        values.append(
            {
                "subject": fact.subject,
                "attribute": fact.attribute,
                "value": value.value,
                "valid_from": starts[i].isoformat() if starts[i] else None,
                "valid_to": starts[i + 1].isoformat() if i + 1 < len(starts) else None,
                "replaces": before,
                "said": said,
            }
        )
        if i:
            day = date.fromisoformat(said[0]["day"])
            changes.append(
                {
                    "id": _id(day, "fact", f"{fact.subject} {fact.attribute}"),
                    "weekday": WEEKDAYS[day.weekday()].capitalize(),
                    "kind": "fact",
                    "what": f"{fact.subject} {fact.attribute}",
                    "people": [fact.subject] if fact.subject in content().people else [],
                    **said[0],
                    "also": said[1:],
                    "value": value.value,
                    "replaces": before,
                }
            )
    return values, changes


def _when(event: dict[str, Any]) -> dict[str, Any]:
    """Listed event -> its day, time and source."""
    return {k: event[k] for k in ("day", "time", "source")}


def _tallies(events: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Events in time order -> per kind and per kind/what: count, distinct days, first and last."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in events:
        groups[e["kind"]].append(e)
        groups[f"{e['kind']}/{e['what']}"].append(e)
    return {
        key: {
            "count": len(group),
            "days": sorted({e["day"] for e in group}),
            "first": _when(group[0]),
            "last": _when(group[-1]),
        }
        for key, group in sorted(groups.items())
    }


def _days(lines: _Lines) -> list[dict[str, Any]]:
    """Written lines -> each day's note lines and chat messages, as the script lists them."""
    out = []
    for day, notes in lines.notes.items():
        out.append(
            {
                "day": day.isoformat(),
                "weekday": WEEKDAYS[day.weekday()].capitalize(),
                "story": day in content().story,
                "note": [x.place(day) | {"section": x.section} for x in notes],
                "chat": [x.place(day) for x in lines.chats.get(day, [])],
            }
        )
    return out


def _activities(first: date, last: date) -> list[dict[str, Any]]:
    """First and last day -> every planned segment of every day: day, local start and end, mode, topic.

    Away segments are left out, and so is the excluded domain's topic (its visits are never
    recorded, so nothing could show it).
    """
    excluded = content().excluded_domain.split(".")[0]
    out = []
    for i in range((last - first).days + 1):
        day = first + timedelta(days=i)
        for part in content().day_script(day).segments.split(";"):
            span, mode, topic = part.split()
            if mode == AWAY_MODE or topic == excluded:
                continue
            start, end = span.split("-")
            out.append(
                {"day": day.isoformat(), "start": start, "end": end, "mode": mode, "topic": topic}
            )
    return out


def sample_script(home: Path, first: date, last: date) -> dict[str, Any]:
    """Sample home + its first and last day -> the script of what happened when (see the module)."""
    lines = _Lines(home, first, last)
    events = [_event(e, lines) for e in story().events if lines.within(e.day)]
    facts: list[dict[str, Any]] = []
    for fact in story().facts:
        values, changes = _facts(fact, lines)
        facts += values
        events += changes
    events.sort(key=lambda e: (e["day"], e["time"] is None, e["time"] or "", e["id"]))
    ids = [e["id"] for e in events]
    if len(set(ids)) < len(ids):
        raise ValueError(f"story: two events share an id among {sorted(ids)}")
    return {
        "schema": SCHEMA,
        "sample": {
            "first": first.isoformat(),
            "last": last.isoformat(),
            "days": (last - first).days + 1,
            "timezone": content().timezone,
            "user": content().user_speaker,
            "people": list(content().people),
        },
        "events": events,
        "activities": _activities(first, last),
        "people": [
            {"name": name, "relations": list(content().relations.get(name, ()))}
            for name in content().people
        ],
        "facts": facts,
        "tallies": _tallies(events),
        "days": _days(lines),
    }


def write_script(home: Path, first: date, last: date) -> Path:
    """Sample home + its first and last day -> its script written as `sample-script.json`; the path."""
    path = home / SCRIPT
    text = json.dumps(sample_script(home, first, last), ensure_ascii=False, indent=1)
    path.write_text(text + "\n", encoding="utf-8", newline="\n")
    return path
