"""A small real home for the part-of-day, said-by and who answers: a Berlin week of ActivityWatch, Slack, chat, notes and W facts in the lake."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pandas as pd

from omoide.answer.question import Question
from omoide.core import schemas
from omoide.core.settings import Settings, get_settings
from omoide.ingest.sessionize import sessions
from omoide.memory.records import session_records
from omoide.memory.time_words import TimeWindow
from omoide.store.lake import merge_events, write_facts, write_sessions
from tests.unit.answer.test_empty_and_forgotten import _aw

TZ = "Europe/Berlin"  # UTC+1 in November
WEDNESDAY = date(2026, 11, 11)
THURSDAY = date(2026, 11, 12)
FRIDAY = date(2026, 11, 20)
NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)


@dataclass(frozen=True)
class Asked(Question):
    """A sorted question with the fields the sorter gives the new kinds: the answer's language and the speaker asked about."""

    lang: str = "en"
    speaker: str = ""


def utc(day: date, hhmm: str) -> datetime:
    """A Berlin wall-clock time in November -> UTC."""
    h, m = (int(x) for x in hhmm.split(":"))
    return datetime(day.year, day.month, day.day, h, m, tzinfo=UTC) - timedelta(hours=1)


def window(day: date, start: str, end: str, phrase: str = "") -> TimeWindow:
    """A day + Berlin hours -> the TimeWindow of them."""
    return TimeWindow(utc(day, start), utc(day, end), phrase or f"{start}-{end}")


def _rows(rows: list[dict]) -> pd.DataFrame:
    """Partial event rows -> an EVENTS frame."""
    base = {"duration_s": 0.0, "recorded_at": pd.Timestamp(NOW)}
    frame = pd.DataFrame([{**base, **r} for r in rows])
    frame["ts"] = pd.to_datetime(frame["ts"], utc=True)
    return schemas.conform(frame, schemas.EVENTS)


def _chat(
    kind: str, n: int, day: date, at: str, title: str, actor: str, text: str, ref: str
) -> dict:
    """One chat message at a Berlin time."""
    return {
        "event_id": f"{kind}{n}",
        "ts": utc(day, at),
        "source": kind,
        "source_name": kind,
        "event_type": "chat",
        "app": "chat",
        "title": title,
        "actor": actor,
        "text": text,
        "source_ref": ref,
    }


def _note(n: int, day: date, at: str | None, text: str, home: Path, **kw: object) -> dict:
    """One note line (timed or at local midnight) of that day's note file."""
    return {
        "event_id": f"note{day}{n}",
        "ts": utc(day, at or "00:00"),
        "source": "notes",
        "source_name": "notes",
        "event_type": kw.get("event_type", "note"),
        "text": text,
        "entities": kw.get("entities", []),
        "fact_kind": kw.get("fact_kind"),
        "source_ref": f"{home}/notes/{day}.md#L{n}",
    }


def _fact(mid: str, day: date, at: str, text: str) -> dict:
    """One W fact about Mina, as summarize writes a `## Retain` line to the lake."""
    return {
        "memory_id": mid,
        "day": day.isoformat(),
        "ts": pd.Timestamp(utc(day, at)),
        "kind": "W",
        "entities": ["Mina"],
        "content": text,
        "confidence": 1.0,
        "importance": 0.7,
        "source": f"sources/notes/{day}.md#L{20 + len(mid)}",
        "source_refs": [f"sources/notes/{day}.md#L20"],
        "backend": "user",
        "recorded_at": pd.Timestamp(NOW),
        "memory_type": "direct",
        "heard_from": None,
    }


def build(home: Path) -> Settings:
    """OMOIDE_HOME -> its settings, with the week's lake written."""
    (home / "omoide.toml").write_text(
        f'timezone = "{TZ}"\nuser_name = "Aiko"\npeople = ["Peter", "Mina"]\n', encoding="utf-8"
    )
    settings = get_settings()
    lake = settings.lake_dir
    aw = [
        _aw("afk", f"{utc(WEDNESDAY, '08:50'):%Y-%m-%dT%H:%M}", 600, title="not-afk"),
        _aw(
            "window", f"{utc(WEDNESDAY, '09:00'):%Y-%m-%dT%H:%M}", 60, "Code", "notes.md — journal"
        ),
        _aw(
            "window",
            f"{utc(WEDNESDAY, '12:10'):%Y-%m-%dT%H:%M}",
            60,
            "Firefox",
            "warelay PR #42 · GitHub — Mozilla Firefox",
        ),
        _aw(
            "web",
            f"{utc(WEDNESDAY, '12:10'):%Y-%m-%dT%H:%M}",
            60,
            "Firefox",
            "warelay PR #42 · GitHub",
            url="https://github.com/x/warelay/pull/42",
        ),
        _aw(
            "window",
            f"{utc(WEDNESDAY, '13:10'):%Y-%m-%dT%H:%M}",
            45,
            "Code",
            "storage.py — warelay",
        ),
        _aw("window", f"{utc(WEDNESDAY, '15:00'):%Y-%m-%dT%H:%M}", 30, "zoom", "Zoom Meeting"),
        # The zoom call also shows in a second window stream: counted once.
        {
            **_aw(
                "window", f"{utc(WEDNESDAY, '15:00'):%Y-%m-%dT%H:%M}", 30, "zoom", "Zoom Meeting"
            ),
            "event_id": "dup",
            "source_name": "aw2",
        },
    ]
    events = schemas.conform(pd.DataFrame(aw), schemas.EVENTS)
    merge_events(lake, WEDNESDAY, "aw", events)
    found = sessions(events, WEDNESDAY, now=pd.Timestamp(NOW))
    write_sessions(lake, WEDNESDAY, found)
    facts = [session_records(found, WEDNESDAY, TZ, NOW)]
    slack = f"{home}/slack/D1/2026-11-11.json#ts="
    peter = f"{home}/whatsapp/Peter.txt#L"
    # (kind, line, day, Berlin time, conversation, speaker, text)
    said = [
        (
            "slack",
            1,
            WEDNESDAY,
            "16:05",
            "Mina",
            "Mina",
            "Can you review the storage migration PR?",
        ),
        ("slack", 2, WEDNESDAY, "16:07", "Mina", "Aiko", "On it after the standup"),
        (
            "whatsapp",
            3,
            WEDNESDAY,
            "17:55",
            "Peter",
            "Peter",
            "Drinks tonight? The ryokan photos are up.",
        ),
        ("whatsapp", 4, WEDNESDAY, "17:57", "Peter", "Aiko", "Can't tonight"),
        (
            "whatsapp",
            5,
            THURSDAY,
            "10:00",
            "Peter",
            "Peter",
            "Booked the ryokan in Higashiyama for April",
        ),
        (
            "whatsapp",
            6,
            THURSDAY,
            "10:02",
            "Peter",
            "Aiko",
            "The ryokan looks great, and the onsen too",
        ),
        ("whatsapp", 7, THURSDAY, "10:05", "Peter", "Peter", "Lunch at 13:00?"),
    ]
    for day in (WEDNESDAY, THURSDAY):
        rows = [
            _chat(
                kind, n, d, at, title, actor, text, (slack if kind == "slack" else peter) + str(n)
            )
            for kind, n, d, at, title, actor, text in said
            if d == day
        ]
        merge_events(lake, day, "chats", _rows(rows))
    merge_events(
        lake,
        WEDNESDAY,
        "notes",
        _rows(
            [
                _note(4, WEDNESDAY, None, "Water the plants", home),
                _note(
                    5,
                    WEDNESDAY,
                    "14:00",
                    "Release sync with @Mina and @Peter",
                    home,
                    entities=["Mina", "Peter"],
                ),
                _note(
                    6,
                    WEDNESDAY,
                    "08:30",
                    "Sprint planning with @Mina: the storage migration is the goal",
                    home,
                    entities=["Mina"],
                ),
            ]
        ),
    )
    merge_events(
        lake,
        FRIDAY,
        "notes",
        _rows(
            [
                _note(
                    8,
                    FRIDAY,
                    "09:30",
                    "Demo of the sync fix to the team with @Mina",
                    home,
                    entities=["Mina"],
                )
            ]
        ),
    )
    facts.append(
        pd.DataFrame(
            [
                _fact("w1", WEDNESDAY, "08:40", "Mina lives in Hamburg."),
                _fact(
                    "w2",
                    WEDNESDAY,
                    "08:45",
                    "Mina leads the warelay storage migration this sprint.",
                ),
            ]
        )
    )
    write_facts(lake, WEDNESDAY, pd.concat(facts, ignore_index=True))
    write_facts(
        lake,
        FRIDAY,
        pd.DataFrame([_fact("w3", FRIDAY, "09:40", "Mina moved to Berlin last weekend.")]),
    )
    return settings
