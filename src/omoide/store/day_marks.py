"""Day marks: which days a backfill completed and from which inputs, so an unchanged day is skipped.

A mark is a small JSON file per day holding the day's input key (its sources' records, the
settings and the pipeline's versions, hashed), the files the day produced (refs relative to
the home, omoide.core.refs, so a mark moves with its home) and the figures shown for it. A
day counts as done only while its key is the same and every output is still there; a mark
that cannot be read counts as no mark (the day simply runs again). A day that cannot be keyed
(a live aw-server) is marked with no key: never skipped, but known to have completed, which
is all the catch-up (`catch_up`) and `omoide status` ask of a mark.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from omoide.core.days import days_between
from omoide.core.files import write_text_atomic
from omoide.core.refs import resolve_ref, to_ref


def mark_path(marks_dir: Path, day: date) -> Path:
    """Marks folder + day -> that day's mark file."""
    return marks_dir / f"{day.isoformat()}.json"


def completed(marks_dir: Path, day: date, key: str | None, home: Path) -> dict[str, Any] | None:
    """Marks folder + day + its input key + OMOIDE_HOME -> the day's recorded figures if it completed from these inputs and its outputs remain, else None."""
    if key is None:
        return None
    try:
        mark = json.loads(mark_path(marks_dir, day).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(mark, dict) or mark.get("key") != key:
        return None
    for ref in mark.get("outputs", []):
        path = resolve_ref(str(ref), home)
        if path is None or not path.exists():
            return None
    figures = mark.get("figures")
    return figures if isinstance(figures, dict) else None


def mark_completed(
    marks_dir: Path,
    day: date,
    key: str | None,
    outputs: list[str],
    figures: dict[str, Any],
    home: Path,
) -> None:
    """Marks folder + day + input key + its output files + figures + OMOIDE_HOME -> the day's mark, written atomically."""
    mark = {"key": key, "outputs": sorted(to_ref(o, home) for o in outputs), "figures": figures}
    write_text_atomic(json.dumps(mark, sort_keys=True), mark_path(marks_dir, day))


def marked_days(marks_dir: Path) -> list[date]:
    """Marks folder -> the days with a mark that can be read, oldest first."""
    if not marks_dir.is_dir():
        return []
    days = []
    for path in marks_dir.glob("*.json"):
        try:
            day = date.fromisoformat(path.stem)
            mark = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(mark, dict):
            days.append(day)
    return sorted(days)


@dataclass(frozen=True)
class CatchUp:
    """What a run given no day works on: `days` oldest first; `gap` the older unmarked days it leaves to a backfill; `first` when no day was ever marked."""

    days: list[date]
    gap: tuple[date, date] | None
    first: bool


def catch_up(marked: Sequence[date], yesterday: date, limit: int) -> CatchUp:
    """Marked days + yesterday + catch_up_days -> every day after the newest mark up to yesterday, at most `limit`.

    Yesterday always runs (an unchanged day is served from Prefect's caches), as a run with no
    day always did. A home with no mark at all runs yesterday alone: its history is the job
    of `omoide backfill --all`, not of a nightly run.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    if not marked:
        return CatchUp([yesterday], None, True)
    after = max(marked) + timedelta(days=1)
    if after >= yesterday:
        return CatchUp([yesterday], None, False)
    earliest = yesterday - timedelta(days=limit - 1)
    gap = (after, earliest - timedelta(days=1)) if after < earliest else None
    return CatchUp(days_between(max(after, earliest), yesterday), gap, False)


def missing_days(marked: Sequence[date], yesterday: date, window: int) -> list[date]:
    """Marked days + yesterday + window length -> the window's days without a mark, from the first marked day on (all of them when none is)."""
    days = [yesterday - timedelta(days=i) for i in reversed(range(window))]
    if not marked:
        return days
    first, have = min(marked), set(marked)
    return [d for d in days if d >= first and d not in have]


def backfill_command(start: date, end: date) -> str:
    """First + last day -> the `omoide backfill` command line that runs them."""
    return f"omoide backfill --start {start.isoformat()} --end {end.isoformat()}"
