"""Chat and note records: relative time resolved to the dates it meant, long neighbours cut to their gist."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pandas as pd
import pytest

from omoide.memory.records import chat_records, note_records
from omoide.memory.said_dates import annotated, date_label, stated_spans

SAID = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a Monday

CASES = [
    ("I went to a support group yesterday.", "yesterday [2023-05-07]."),
    ("Last Saturday we hiked.", "Last Saturday [2023-05-06] we"),
    ("two weeks ago I ran", "two weeks ago [2023-04-24/2023-04-30] I"),
    ("a couple of days ago", "a couple of days ago [2023-05-06]"),
    ("next month I move", "next month [2023-06] I"),
    ("see you tomorrow", "tomorrow [2023-05-09]"),
    ("next Friday", "next Friday [2023-05-12]"),
    ("last year was hard", "last year [2022] was"),
    ("last night I slept badly", "last night [2023-05-07] I"),
    ("先週の土曜日に京都へ行った", "先週の土曜日 [2023-05-06]に"),
    ("来月は東京", "来月 [2023-06]は"),
    ("3日後に会う", "3日後 [2023-05-11]に"),
    ("I took my niece to the museum on 2/8", "on 2/8 [2023-02-08]"),
    ("in March and April I flew a lot", "in March and April [2023-03-01/2023-04-30] I"),
    ("On Valentine's Day I flew Delta", "On Valentine's Day [2023-02-14] I"),
    ("去年のクリスマスに京都へ行った", "去年のクリスマス [2022-12-25]に"),
]


@pytest.mark.parametrize(("text", "part"), CASES, ids=[c[0] for c in CASES])
def test_relative_time_is_followed_by_the_date_it_meant_when_said(text: str, part: str) -> None:
    assert part in annotated(text, SAID, "UTC")


@pytest.mark.parametrize(
    "text",
    [
        "on 7 May 2023 I did it",  # names its year already
        "2023-05-07 was the day",
        "see you on Friday",  # a bare weekday looks back or ahead
        "the next day we went home",  # the story's day, not the speaker's
        "I need a Christmas gift for mom",  # a thing, not a day
        "I finished the book",
        "",
    ],
)
def test_text_without_a_relative_time_is_kept_as_it_was(text: str) -> None:
    assert annotated(text, SAID, "UTC") == text


def test_the_local_day_of_the_speaker_counts() -> None:
    # 23:30 in Tokyo on the 8th is 14:30 UTC on the 8th; 00:30 in Tokyo on the 9th is the 8th in UTC
    late = datetime(2023, 5, 9, 0, 30, tzinfo=ZoneInfo("Asia/Tokyo"))
    assert "yesterday [2023-05-08]" in annotated("yesterday", late, "Asia/Tokyo")
    assert "yesterday [2023-05-07]" in annotated("yesterday", late, "UTC")


def test_annotating_twice_adds_nothing() -> None:
    once = annotated("yesterday and last week", SAID, "UTC")
    assert annotated(once, SAID, "UTC") == once


def test_labels_round_trip_to_their_spans() -> None:
    tz = "Europe/Berlin"
    z = ZoneInfo(tz)

    def local(d: date) -> datetime:
        return datetime.combine(d, datetime.min.time(), tzinfo=z).astimezone(UTC)

    for first, stop, label in [
        (date(2023, 5, 7), date(2023, 5, 8), "2023-05-07"),
        (date(2023, 3, 1), date(2023, 4, 1), "2023-03"),  # across the DST change
        (date(2022, 1, 1), date(2023, 1, 1), "2022"),
        (date(2023, 4, 24), date(2023, 5, 1), "2023-04-24/2023-04-30"),
    ]:
        assert date_label(local(first), local(stop), tz) == label
        assert stated_spans(f"did it [{label}]", tz) == [(local(first), local(stop))]


def test_brackets_that_are_not_dates_state_nothing() -> None:
    assert stated_spans("see [EMAIL] and [2023-13-45] and [12] and [note]", "UTC") == []


def _events(rows: list[tuple[str, str, datetime]], kind: str) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "event_id": [f"e{i}" for i in range(len(rows))],
            "event_type": kind,
            "ts": pd.to_datetime([r[2] for r in rows], utc=True),
            "actor": [r[0] for r in rows],
            "title": "Caroline" if kind == "chat" else "Journal",
            "text": [r[1] for r in rows],
            "source": "chat",
            "source_ref": [f"/c.jsonl#L{i + 1}" for i in range(len(rows))],
            "entities": [[] for _ in rows],
        }
    )


def test_chat_records_carry_each_messages_own_date() -> None:
    said = [
        ("Caroline", "I went to a support group yesterday.", SAID),
        ("Melanie", "How was it? I ran a race last Sunday.", SAID + timedelta(minutes=1)),
    ]
    rows = chat_records(_events(said, "chat"), SAID.date(), SAID, tz="UTC")
    first = rows.loc[rows["source"] == "/c.jsonl#L1", "content"].item()
    assert "Caroline: I went to a support group yesterday [2023-05-07]." in first
    assert "last Sunday [2023-05-07]" in first  # the neighbour, resolved at its own time


def test_note_records_resolve_against_the_notes_day() -> None:
    day = datetime(2026, 11, 18, tzinfo=ZoneInfo("Europe/Berlin"))
    rows = note_records(
        _events([("me", "Called mum the day before yesterday.", day)], "note"),
        day.date(),
        day,
        tz="Europe/Berlin",
    )
    assert "the day before yesterday [2026-11-16]" in rows["content"].item()
