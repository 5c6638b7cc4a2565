"""A source whose records of a day all ended in quarantine fails for that day (issue 31, item 3):
one line naming the file, how many records and the first reason; a quiet day is no failure."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

from omoide.core.days import day_bounds
from omoide.core.settings import SourceConfig
from omoide.ingest.gate import sanitized
from omoide.ingest.sources import collect
from omoide.ingest.verdict import all_rejected
from tests.unit.ingest.sources.chat_exports import LINE_ISSUE, NOW, SLACK, TZ, export_source

ISSUE_DAY = date(2017, 12, 3)


def verdict(source: SourceConfig, day: date) -> str | None:
    """A source + a Tokyo day -> the ingest task's verdict on it, as tasks/ingest.py asks for it (its
    folder as the home: the refs are relative to it, the message names the file in full)."""
    raw = collect(source, *day_bounds(day, TZ), NOW)
    home = source.path.parent if source.path else Path.cwd()
    rejects = sanitized(raw, day, TZ, [], home).rejects
    return all_rejected(source, day, TZ, NOW, raw, rejects, home)


def broken_layout(folder: Path) -> Path:
    """A folder -> issue 31's export with its date line gone: 33 messages and a continuation line
    no reader can place in time."""
    lines = LINE_ISSUE.read_text("utf-8").splitlines(keepends=True)
    broken = folder / "peter_en.txt"
    broken.write_text("".join(lines[:3] + lines[4:]), encoding="utf-8")
    return broken


def test_a_source_whose_every_record_is_rejected_fails_naming_the_file(tmp_path: Path) -> None:
    broken = broken_layout(tmp_path)
    why = verdict(export_source("line", broken), ISSUE_DAY)
    assert why == (
        f"{broken}: all 34 records of {ISSUE_DAY} were rejected, and no record of any day "
        "could be read (first: line 4: message before any date line)"
    )
    # It reads nothing on any day, so every day says so, not only the day of its messages.
    assert verdict(export_source("line", broken), date(2026, 11, 20)) is not None


def test_a_day_with_events_or_with_nothing_is_fine(tmp_path: Path) -> None:
    assert verdict(export_source("line", LINE_ISSUE), ISSUE_DAY) is None  # 29 land
    assert verdict(export_source("line", LINE_ISSUE), date(2017, 12, 4)) is None  # quiet


def test_rejects_of_no_day_do_not_fail_a_quiet_day_of_a_source_that_reads(tmp_path: Path) -> None:
    shutil.copy(LINE_ISSUE, tmp_path / LINE_ISSUE.name)
    (tmp_path / "shopping.txt").write_text("milk\neggs\n", encoding="utf-8")  # on every day
    source = export_source("line", tmp_path)
    raw = collect(source, *day_bounds(date(2017, 12, 4), TZ), NOW)
    assert raw.events.empty and [r.reason[:23] for r in raw.rejects] == ["not a LINE talk history"]
    assert verdict(source, date(2017, 12, 4)) is None


def test_a_days_own_records_all_rejected_fail_it(tmp_path: Path) -> None:
    log = tmp_path / "chat.jsonl"
    good = {"ts": "2026-11-19T10:00:00+09:00", "speaker": "Aiko", "text": "hi"}
    junk = {"ts": "2026-11-20T10:00:00+09:00", "speaker": "Aiko", "text": "\x01\x02\x03\x04"}
    log.write_text(f"{json.dumps(good)}\n{json.dumps(junk)}\n", encoding="utf-8")
    source = SourceConfig(kind="chat", path=log, name="chat")
    assert verdict(source, date(2026, 11, 20)) == (
        f"{log}: the only record of 2026-11-20 was rejected "
        "(first: line 2: text is not text: mostly control or replacement characters)"
    )
    assert verdict(source, date(2026, 11, 19)) is None


def test_a_slack_day_file_whose_messages_are_all_damaged_fails_that_day(tmp_path: Path) -> None:
    export = Path(shutil.copytree(SLACK, tmp_path / "export"))
    for day_file in export.glob("*/2026-11-2*.json"):
        day_file.write_text("[1, 2]", encoding="utf-8")
    for day_file in export.glob("general/2026-11-19.json"):
        day_file.unlink()
    source = export_source("slack", export)
    why = verdict(source, date(2026, 11, 20))
    assert why is not None and why.startswith(f"{export}/") and "were rejected (first: " in why
    assert "message is not an object" in why and "no record of any day" not in why
