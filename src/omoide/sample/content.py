"""The sample's scripted content (package data under `sample/data/`) -> one typed, cached Content.

Everything a person might want to read or change about the fictional person lives in data
files: who she is (`person.yaml`), the pages she visits (`pages.yaml`), her desk
(`desk.yaml`), the planted PII and look-alikes (`pii.yaml`, `planted.yaml`), each
weekday's plan (`week.yaml`), the story month's days, each with its own note
(`notes/<YYYY-MM-DD>.md`) and chat script (`chats/<YYYY-MM-DD>.txt`) and maybe its own plan
(`story.yaml`), and the routine note and chat of any other day by its weekday
(`notes/<weekday>.md`, `chats/<weekday>.txt`). The generator only turns them into the real
formats.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from datetime import date
from importlib import resources
from typing import Any

import yaml

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY_FILE = re.compile(r"(\d{4}-\d{2}-\d{2})\.md")


@dataclass(frozen=True)
class Planted:
    """One hand-placed item: browser visits, a window, a note line or chat messages."""

    at: str  # local HH:MM
    kind: str  # "visits" | "window" | "note" | "chat"
    payload: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class DayScript:
    """One weekday's plan: segments "HH:MM-HH:MM mode topic; ...", note Markdown, chat lines."""

    segments: str  # week.yaml's lines for the weekday, joined by "; "
    note: str
    chat: str


@dataclass(frozen=True)
class Content:
    """The whole scripted sample, as the generator reads it."""

    host: str
    timezone: str
    excluded_domain: str
    user_speaker: str
    people: tuple[str, ...]
    speakers: dict[str, str]  # chat-script code -> speaker name
    pii: dict[str, str]  # planted PII by name; the sanitizer must remove each value
    lookalikes: tuple[str, ...]  # PII look-alikes the sanitizer must keep
    injection_title: str
    pages: dict[str, tuple[str, tuple[tuple[str, str], ...]]]  # topic -> (browser, pages)
    searches: dict[str, tuple[str, ...]]
    apps: dict[str, str]  # browser -> its window class
    code_files: tuple[str, ...]
    terminals: tuple[str, ...]
    slack: tuple[str, ...]
    zoom: tuple[str, ...]
    dwell: dict[str, tuple[tuple[float, float, float], ...]]  # app -> (weight, low s, high s)
    flip_p: float
    modes: dict[str, dict[str, float]]  # mode -> app weights
    planted: tuple[Planted, ...]
    days: tuple[DayScript, ...]  # routine days by weekday, 0 = Monday
    story: dict[date, DayScript]  # the story month's days, each its own
    relations: dict[str, tuple[str, ...]] = field(default_factory=dict)  # person -> relations

    def day_script(self, day: date) -> DayScript:
        """Local day -> its script: the story's own day, or its weekday's routine."""
        return self.story.get(day) or self.days[day.weekday()]

    @property
    def pii_samples(self) -> tuple[str, ...]:
        """-> every planted PII value, in the order pii.yaml lists them."""
        return tuple(self.pii.values())


def _text(name: str) -> str:
    """Data file path under `sample/data/` -> its text."""
    return resources.files("omoide.sample").joinpath("data", name).read_text(encoding="utf-8")


def data_yaml(name: str) -> dict[str, Any]:
    """Data file name -> its YAML mapping."""
    return yaml.safe_load(_text(name))


def _rows(rows: list[list[str]]) -> tuple[tuple[str, ...], ...]:
    """YAML list of lists -> tuple of tuples."""
    return tuple(tuple(r) for r in rows)


def _hhmm(value: object) -> str:
    """A planted item's `at` -> 'HH:MM'; an unquoted YAML time reads as a number, so say so."""
    if not (isinstance(value, str) and len(value) == 5 and value[2] == ":"):
        raise ValueError(f"planted.yaml: quote the time as 'HH:MM', got {value!r}")
    return value


@functools.cache
def content() -> Content:
    """-> the sample's content, read once from the package data."""
    person, pii, pages = data_yaml("person.yaml"), data_yaml("pii.yaml"), data_yaml("pages.yaml")
    desk, week = data_yaml("desk.yaml"), data_yaml("week.yaml")
    names = {
        **pii["planted"],
        "user_speaker": person["user_speaker"],
        "injection_title": pii["injection_title"],
    }
    planted = tuple(
        Planted(
            _hhmm(p["at"]),
            p["kind"],
            tuple(tuple(cell.format_map(names) for cell in row) for row in p["rows"]),
        )
        for p in data_yaml("planted.yaml")["planted"]
    )
    days = tuple(
        DayScript("; ".join(week["segments"][d]), _text(f"notes/{d}.md"), _text(f"chats/{d}.txt"))
        for d in WEEKDAYS
    )
    plans = data_yaml("story.yaml")["plans"]
    story = {day: _story_day(day, plans.get(day), days[day.weekday()]) for day in _story_days()}
    return Content(
        host=person["host"],
        timezone=person["timezone"],
        excluded_domain=person["excluded_domain"],
        user_speaker=person["user_speaker"],
        people=tuple(person["people"]),
        speakers={k: v.format_map(names) for k, v in person["chat_codes"].items()},
        pii=dict(pii["planted"]),
        lookalikes=tuple(pii["lookalikes"]),
        injection_title=pii["injection_title"],
        pages={t: (p["browser"], _rows(p["pages"])) for t, p in pages["pages"].items()},
        searches={t: tuple(q) for t, q in pages["searches"].items()},
        apps=dict(desk["apps"]),
        code_files=tuple(desk["code_files"]),
        terminals=tuple(desk["terminals"]),
        slack=tuple(desk["slack"]),
        zoom=tuple(desk["zoom"]),
        dwell={app: tuple(tuple(b) for b in bands) for app, bands in desk["dwell"].items()},
        flip_p=float(desk["flip_p"]),
        modes={m: dict(w) for m, w in desk["modes"].items()},
        planted=planted,
        days=days,
        story=story,
        relations={k: tuple(v) for k, v in person.get("relations", {}).items()},
    )


def _story_days() -> list[date]:
    """-> the story month's days: those with a dated note under `sample/data/notes/`."""
    folder = resources.files("omoide.sample").joinpath("data", "notes")
    found = (_DAY_FILE.fullmatch(entry.name) for entry in folder.iterdir())
    return sorted(date.fromisoformat(m.group(1)) for m in found if m)


def _story_day(day: date, plan: list[str] | None, routine: DayScript) -> DayScript:
    """Story day + its own plan (or None) + its weekday's routine -> its script: own note and chat."""
    segments = "; ".join(plan) if plan else routine.segments
    return DayScript(segments, _text(f"notes/{day}.md"), _text(f"chats/{day}.txt"))
