"""JSONL chat collector: messages, local-day window, bad lines, stable ids."""

from __future__ import annotations

import functools
import shutil
from datetime import UTC, date, datetime
from pathlib import Path

import pandas as pd
import pytest

from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.core.errors import SourceError
from omoide.core.ids import stable_id
from omoide.ingest.sources.chat import collect, parse_ts
from tests.conftest import FIXTURES as CONFTEST_FIXTURES
from tests.fakes import source_config

FIXTURES = CONFTEST_FIXTURES / "chat"
TEAM = FIXTURES / "team.jsonl"
FAMILY = FIXTURES / "archive" / "family.jsonl"
NOW = datetime(2026, 11, 21, 3, 0, tzinfo=UTC)
TZ = "Europe/Berlin"
START, END = day_bounds(date(2026, 11, 20), TZ)


_source = functools.partial(source_config, "chat", name="chat")


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


def test_folder_is_searched_recursively_for_jsonl() -> None:
    out = collect(_source(FIXTURES), START, END, NOW)
    family = [r for r in _rows(out.events) if r[1] == "家族"]
    assert family == [
        ("2026-11-20 09:30:00.500", "家族", "me", "了解！", f"{FAMILY}#L2"),
        ("2026-11-20 10:15:00.250", "家族", "母", "明日の会議は10時からです。", f"{FAMILY}#L1"),
    ]
    assert len(out.events) == 5
    assert len(out.rejects) == 7


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
        ("9999-12-31T23:59:59-05:00", "timestamp out of range"),
        ({"t": 1}, "'ts' is neither ISO 8601 text nor epoch seconds"),
    ],
)
def test_parse_ts(value: object, expected: object) -> None:
    assert parse_ts(value) == expected


# --- encodings, binary files, folders (shared logic: text_files, base.folder_files) ---------


def test_utf16_and_utf32_logs_with_a_bom_are_read(tmp_path: Path) -> None:
    want = _rows(collect(_source(TEAM), START, END, NOW).events)
    for codec in ("utf-16", "utf-32"):
        log = tmp_path / codec / "team.jsonl"
        log.parent.mkdir()
        log.write_bytes(TEAM.read_text(encoding="utf-8").encode(codec))
        out = collect(_source(log), START, END, NOW)
        assert [r[:4] for r in _rows(out.events)] == [r[:4] for r in want]


def test_a_database_in_a_chat_folder_is_named_and_the_other_logs_land(tmp_path: Path) -> None:
    import sqlite3

    shutil.copy(TEAM, tmp_path / "team.jsonl")
    db = sqlite3.connect(tmp_path / "export.jsonl")
    db.executescript("CREATE TABLE m(text TEXT); INSERT INTO m VALUES ('hi');")
    db.commit()
    db.close()
    (tmp_path / "old.jsonl").symlink_to(tmp_path / "moved.jsonl")
    out = collect(_source(tmp_path), START, END, NOW)
    assert len(out.events) == len(collect(_source(TEAM), START, END, NOW).events)
    whole_files = [(r.ref, r.reason) for r in out.rejects if "#" not in r.ref]
    assert whole_files == [
        (str(tmp_path / "old.jsonl"), "chat log is a broken link"),
        (str(tmp_path / "export.jsonl"), "not text: an SQLite database"),
    ]
    # A single-file source that is not text fails as a whole, naming it.
    with pytest.raises(SourceError, match="not text: an SQLite database"):
        collect(_source(tmp_path / "export.jsonl"), START, END, NOW)


def test_a_folder_without_any_chat_log_is_a_source_error(tmp_path: Path) -> None:
    (tmp_path / "chat.json").write_text("[]")  # the wrong extension: not a JSONL log
    with pytest.raises(SourceError, match=r"no chat log \(\*\.jsonl\) in this folder") as err:
        collect(_source(tmp_path), START, END, NOW)
    assert err.value.path == str(tmp_path)


def test_a_garbled_message_is_rejected_not_stored(tmp_path: Path) -> None:
    log = tmp_path / "chat.jsonl"
    log.write_text(
        '{"ts": "2026-11-20T10:00:00+01:00", "speaker": "Peter", "text": "\\u0000\\u0001\\u0002"}\n'
        '{"ts": "2026-11-20T10:01:00+01:00", "speaker": "Peter", "text": "fine"}\n'
    )
    out = collect(_source(log), START, END, NOW)
    assert list(out.events["text"]) == ["fine"]
    assert [(r.ref, r.reason) for r in out.rejects] == [
        (f"{log}#L1", "text is not text: mostly control or replacement characters")
    ]
