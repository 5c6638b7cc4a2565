"""JSONL chat collector: messages, local-day window, bad lines, stable ids."""

from __future__ import annotations

import shutil
from datetime import UTC, date, datetime
from pathlib import Path

import pandas as pd
import pytest

from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.core.errors import SourceError
from omoide.core.ids import stable_id
from omoide.core.settings import SourceConfig
from omoide.ingest.sources.chat import collect, parse_ts

FIXTURES = Path(__file__).parents[2] / "fixtures" / "chat"
TEAM = FIXTURES / "team.jsonl"
FAMILY = FIXTURES / "archive" / "family.jsonl"
NOW = datetime(2026, 11, 21, 3, 0, tzinfo=UTC)
TZ = "Europe/Berlin"
START, END = day_bounds(date(2026, 11, 20), TZ)


def _source(path: Path) -> SourceConfig:
    """Path -> chat SourceConfig named 'chat'."""
    return SourceConfig(kind="chat", path=path, name="chat")


def _rows(df: pd.DataFrame) -> list[tuple[str, str, str, str, str]]:
    """Events -> (Berlin time, conversation, speaker, text, ref) sorted by time."""
    out = [
        (
            r.ts.tz_convert(TZ).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3],
            r.title,
            r.actor,
            r.text,
            r.source_ref,
        )
        for r in df.itertuples()
    ]
    return sorted(out)


def test_file_gives_the_local_days_messages() -> None:
    out = collect(_source(TEAM), START, END, NOW)
    assert _rows(out.events) == [
        ("2026-11-20 00:00:05.000", "team", "me", "Yes, finishing the collector.", f"{TEAM}#L2"),
        ("2026-11-20 09:30:00.000", "team", "Anna", "Standup moved to 09:45", f"{TEAM}#L4"),
        ("2026-11-20 23:59:59.500", "team", "Peter", "Good night", f"{TEAM}#L12"),
    ]
    assert list(out.events.columns) == schemas.EVENTS.names
    schemas.to_table(out.events, schemas.EVENTS)
    assert set(out.events["event_type"]) == {"chat"} and set(out.events["app"]) == {"chat"}
    assert set(out.events["source"]) == {"chat"} and set(out.events["source_name"]) == {"chat"}
    assert (out.events["recorded_at"] == pd.Timestamp(NOW)).all()
    anna = out.events[out.events["actor"] == "Anna"].iloc[0]
    assert anna["event_id"] == stable_id(
        "chat",
        "chat",
        "team",
        "2026-11-20T08:30:00.000000+00:00",
        "Anna",
        "Standup moved to 09:45",
    )


def test_previous_day_gets_the_message_before_midnight() -> None:
    out = collect(_source(TEAM), *day_bounds(date(2026, 11, 19), TZ), NOW)
    assert _rows(out.events) == [
        ("2026-11-19 23:59:30.000", "team", "Peter", "Still up?", f"{TEAM}#L1")
    ]


def test_bad_lines_are_rejected_with_refs_and_reasons() -> None:
    out = collect(_source(TEAM), START, END, NOW)
    got = [(r.ref.rsplit("#", 1)[1], r.reason, r.excerpt) for r in out.rejects]
    assert got[0][0] == "L5" and got[0][1].startswith("invalid JSON at col ")
    assert got[1:] == [
        ("L6", "timestamp without timezone", ""),
        ("L7", "missing 'ts'", ""),
        ("L8", "missing or empty 'text'", ""),
        ("L9", "unparseable timestamp", ""),
        ("L10", "line is not a JSON object", ""),
        ("L11", "'speaker' is not a string", ""),
    ]
    assert all(r.ref.startswith(f"{TEAM}#") for r in out.rejects)


def test_folder_is_searched_recursively_for_jsonl() -> None:
    out = collect(_source(FIXTURES), START, END, NOW)
    family = [r for r in _rows(out.events) if r[1] == "家族"]
    assert family == [
        ("2026-11-20 09:30:00.500", "家族", "me", "了解！", f"{FAMILY}#L2"),
        ("2026-11-20 10:15:00.250", "家族", "母", "明日の会議は10時からです。", f"{FAMILY}#L1"),
    ]
    assert len(out.events) == 5
    assert len(out.rejects) == 7


def test_invalid_utf8_line_is_rejected_and_others_kept(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    good = b'{"ts": "2026-11-20T12:00:00+01:00", "speaker": "me", "text": "ok"}\n'
    bad = b'{"ts": "2026-11-20T12:01:00+01:00", "speaker": "me", "text": "caf\xff\xfe"}\n'
    log.write_bytes(good + bad + good.replace(b"ok", b"still ok"))
    out = collect(_source(log), START, END, NOW)
    offset = len(good) + bad.index(b"\xff")
    assert [(r.ref, r.reason) for r in out.rejects] == [
        (f"{log}#L2", f"invalid UTF-8 at byte offset {offset}")
    ]
    assert out.events["text"].tolist() == ["ok", "still ok"]
    assert out.events["title"].isna().all()  # no conversation given


def test_ids_are_stable_across_reformatting_and_repeats_merge(tmp_path: Path) -> None:
    log = tmp_path / "a.jsonl"
    line = '{"ts": "%s", "speaker": "Peter", "text": "hi", "conversation": "team"}\n'
    log.write_text(line % "2026-11-20T10:00:00+01:00" + line % "2026-11-20T09:00:00Z")
    out = collect(_source(log), START, END, NOW)
    assert len(out.events) == 1 and out.events["source_ref"].tolist() == [f"{log}#L1"]
    shutil.copy(log, tmp_path / "b.jsonl")
    again = collect(_source(tmp_path), START, END, NOW)
    assert again.events["event_id"].tolist() == out.events["event_id"].tolist()


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-11-20T09:00:00Z", datetime(2026, 11, 20, 9, tzinfo=UTC)),
        ("2026-11-20T10:00:00.123+01:00", datetime(2026, 11, 20, 9, 0, 0, 123000, tzinfo=UTC)),
        (1795163400, datetime(2026, 11, 20, 8, 30, tzinfo=UTC)),
        ("2026-11-20 09:00:00", "timestamp without timezone"),
        (True, "missing or non-time 'ts'"),
        (float("nan"), "epoch timestamp is not finite"),
        (1e20, "epoch timestamp out of range"),
        ({"t": 1}, "'ts' is neither ISO 8601 text nor epoch seconds"),
    ],
)
def test_parse_ts(value: object, expected: object) -> None:
    assert parse_ts(value) == expected


def test_missing_path_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such chat log"):
        collect(_source(tmp_path / "gone.jsonl"), START, END, NOW)
