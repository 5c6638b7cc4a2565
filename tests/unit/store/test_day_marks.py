"""Day marks: which days a run given no day catches up, and which days `omoide status` calls missing."""

from __future__ import annotations

import json
import shutil
from datetime import date, timedelta
from pathlib import Path

import pytest

from omoide.store.day_marks import (
    backfill_command,
    catch_up,
    completed,
    mark_completed,
    mark_path,
    marked_days,
    missing_days,
)

YESTERDAY = date(2026, 11, 25)


def _days(first: date, last: date) -> list[date]:
    return [first + timedelta(days=i) for i in range((last - first).days + 1)]


def test_every_day_after_the_newest_mark_runs_oldest_first() -> None:
    plan = catch_up([date(2026, 11, 20), date(2026, 11, 22)], YESTERDAY, 14)
    assert plan.days == _days(date(2026, 11, 23), YESTERDAY)
    assert plan.gap is None and not plan.first


def test_a_gap_longer_than_catch_up_days_runs_the_newest_days_and_names_the_rest() -> None:
    plan = catch_up([date(2026, 10, 31)], YESTERDAY, 14)
    assert plan.days == _days(date(2026, 11, 12), YESTERDAY)
    assert len(plan.days) == 14
    assert plan.gap == (date(2026, 11, 1), date(2026, 11, 11))
    assert backfill_command(*plan.gap) == "omoide backfill --start 2026-11-01 --end 2026-11-11"


def test_a_gap_of_exactly_catch_up_days_leaves_nothing_behind() -> None:
    plan = catch_up([YESTERDAY - timedelta(days=14)], YESTERDAY, 14)
    assert len(plan.days) == 14 and plan.gap is None


@pytest.mark.parametrize(
    "newest", [YESTERDAY - timedelta(days=1), YESTERDAY, YESTERDAY + timedelta(days=2)]
)
def test_yesterday_runs_again_when_nothing_before_it_is_missing(newest: date) -> None:
    # Unchanged, it is served from Prefect's caches: a run given no day always ran yesterday.
    assert catch_up([newest], YESTERDAY, 14).days == [YESTERDAY]


def test_a_home_never_run_does_yesterday_only_and_says_so() -> None:
    plan = catch_up([], YESTERDAY, 14)
    assert plan.days == [YESTERDAY] and plan.first and plan.gap is None


def test_catch_up_days_of_one_is_the_old_behaviour() -> None:
    plan = catch_up([date(2026, 11, 20)], YESTERDAY, 1)
    assert plan.days == [YESTERDAY]
    assert plan.gap == (date(2026, 11, 21), date(2026, 11, 24))
    with pytest.raises(ValueError):
        catch_up([], YESTERDAY, 0)


def test_missing_days_are_the_windows_days_without_a_mark_since_the_first_one() -> None:
    marked = [date(2026, 11, 18), date(2026, 11, 19), date(2026, 11, 22)]
    assert missing_days(marked, YESTERDAY, 14) == [
        date(2026, 11, 20),
        date(2026, 11, 21),
        date(2026, 11, 23),
        date(2026, 11, 24),
        date(2026, 11, 25),
    ]
    # Before the home's first day nothing was there to run; a home never run misses all.
    assert missing_days(marked, YESTERDAY, 3) == _days(date(2026, 11, 23), YESTERDAY)
    assert missing_days([], YESTERDAY, 3) == _days(date(2026, 11, 23), YESTERDAY)


def test_marked_days_reads_marks_and_passes_over_what_is_not_one(tmp_path: Path) -> None:
    marks = tmp_path / "days"
    assert marked_days(marks) == []
    mark_completed(marks, date(2026, 11, 20), "k", [], {"events": 1}, tmp_path)
    mark_completed(
        marks, date(2026, 11, 18), None, [], {}, tmp_path
    )  # a day that could not be keyed
    mark_path(marks, date(2026, 11, 19)).write_text("{half", encoding="utf-8")
    (marks / "notes.json").write_text("{}", encoding="utf-8")
    (marks / ".2026-11-21.json.x1.tmp").write_text("{}", encoding="utf-8")
    assert marked_days(marks) == [date(2026, 11, 18), date(2026, 11, 20)]


def test_a_mark_names_its_outputs_relative_to_the_home_so_it_holds_in_a_moved_home(
    tmp_path: Path,
) -> None:
    home, day = tmp_path / "a", date(2026, 11, 20)
    part = home / "lake" / "events" / "day=2026-11-20" / "notes.parquet"
    part.parent.mkdir(parents=True)
    part.write_bytes(b"PAR1")
    mark_completed(home / "state" / "days", day, "k", [str(part)], {"events": 3}, home)
    mark = json.loads(mark_path(home / "state" / "days", day).read_text("utf-8"))
    assert mark["outputs"] == ["lake/events/day=2026-11-20/notes.parquet"]
    moved = tmp_path / "b"
    shutil.copytree(home, moved)
    shutil.rmtree(home)
    assert completed(moved / "state" / "days", day, "k", moved) == {"events": 3}
    # A mark of a home made before refs were relative: its absolute outputs still count.
    old = {"key": "k", "outputs": [str(moved / part.relative_to(home))], "figures": {"e": 1}}
    mark_path(moved / "state" / "days", day).write_text(json.dumps(old), "utf-8")
    assert completed(moved / "state" / "days", day, "k", moved) == {"e": 1}
    (moved / "lake" / "events" / "day=2026-11-20" / "notes.parquet").unlink()
    assert completed(moved / "state" / "days", day, "k", moved) is None
