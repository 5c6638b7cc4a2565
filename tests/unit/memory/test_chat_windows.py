"""A chat memory's context: its neighbours in the conversation and the sitting, never across a silence."""

from __future__ import annotations

from datetime import date, timedelta

import pandas as pd

from omoide.core import schemas
from omoide.memory.records import SITTING_GAP_S, chat_records, day_records

DAY = date(2026, 11, 19)
NOW = pd.Timestamp("2026-11-20T03:00:00Z")


def _chat(messages: list[tuple[str, float, str]]) -> pd.DataFrame:
    """(conversation, minutes after midnight UTC, text) per message -> chat events in the lake's schema."""
    start = pd.Timestamp(f"{DAY}T00:00:00Z")
    rows = [
        {
            "event_id": f"e{i:02d}",
            "ts": start + timedelta(minutes=minutes),
            "duration_s": 0.0,
            "source": "chat",
            "source_name": "chat",
            "event_type": "chat",
            "entities": [],
            "source_ref": f"chat.jsonl#L{i + 1}",
            "recorded_at": NOW,
            "title": title,
            "actor": "Peter" if i % 2 else "Aiko",
            "text": text,
        }
        for i, (title, minutes, text) in enumerate(messages)
    ]
    return schemas.conform(pd.DataFrame(rows), schemas.EVENTS)


def _spans(events: pd.DataFrame, records: pd.DataFrame) -> dict[str, list[pd.Timestamp]]:
    """Chat events + their records -> each record's own ref: the times of the messages its text shows."""
    at = {f"{e.actor}: {e.text}": e.ts for e in events.itertuples(index=False)}
    return {r.source: [at[line] for line in r.content.splitlines()] for r in records.itertuples()}


def test_a_window_never_crosses_a_silence_longer_than_the_sitting_gap() -> None:
    # Peter: 00:18-00:21, then 19:30 (a new sitting 19 hours later), 19:32, 19:40 (8 minutes:
    # another one); a second conversation interleaved in time never lends its lines.
    events = _chat(
        [
            ("Peter", 18, "You're up late"),
            ("Peter", 20, "Ryokan rabbit hole. Higashiyama or Gion?"),
            ("Peter", 21, "Higashiyama, quieter. Go to sleep!"),
            ("Mina", 19 * 60 + 31, "Standup moved to ten"),
            ("Peter", 19 * 60 + 30, "The flat was great, I applied!"),
            ("Peter", 19 * 60 + 32, "Yay! Flights to Osaka are 640 euros"),
            ("Peter", 19 * 60 + 40, "Book them before the price goes up"),
        ]
    )
    records = chat_records(events, DAY, NOW)
    assert len(records) == 7
    spans = _spans(events, records)
    for ref, times in spans.items():
        gaps = [(b - a).total_seconds() for a, b in zip(times, times[1:], strict=False)]
        assert all(0 < g <= SITTING_GAP_S for g in gaps), (ref, gaps)
    lines = {r.source: r.content.splitlines() for r in records.itertuples()}
    assert lines["chat.jsonl#L3"] == [
        "Peter: Ryokan rabbit hole. Higashiyama or Gion?",
        "Aiko: Higashiyama, quieter. Go to sleep!",
    ]
    assert lines["chat.jsonl#L5"] == [
        "Aiko: The flat was great, I applied!",
        "Peter: Yay! Flights to Osaka are 640 euros",
    ]
    assert lines["chat.jsonl#L7"] == ["Aiko: Book them before the price goes up"]
    assert lines["chat.jsonl#L4"] == ["Peter: Standup moved to ten"]
    # Refs still name the message alone: the context is there to be found by, not cited.
    assert all(list(r.source_refs) == [r.source] for r in records.itertuples())


def test_the_configured_gap_cuts_the_sitting() -> None:
    events = _chat([("Peter", 0, "Ramen tomorrow?"), ("Peter", 2, "13:00, the usual place")])
    together = chat_records(events, DAY, NOW)
    assert all(len(c.splitlines()) == 2 for c in together["content"])
    apart = day_records(events, schemas.empty(schemas.SESSIONS), DAY, "UTC", NOW, gap_s=60.0)
    assert all(len(c.splitlines()) == 1 for c in apart["content"])
