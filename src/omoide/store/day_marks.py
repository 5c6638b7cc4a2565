"""Day marks: which days a backfill completed and from which inputs, so an unchanged day is skipped.

A mark is a small JSON file per day holding the day's input key (its sources' records, the
settings and the pipeline's versions, hashed), the files the day produced and the figures
shown for it. A day counts as done only while its key is the same and every output is still
there; a mark that cannot be read counts as no mark (the day simply runs again).
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

from omoide.core.files import write_text_atomic


def mark_path(marks_dir: Path, day: date) -> Path:
    """Marks folder + day -> that day's mark file."""
    return marks_dir / f"{day.isoformat()}.json"


def completed(marks_dir: Path, day: date, key: str | None) -> dict[str, Any] | None:
    """Marks folder + day + its input key -> the day's recorded figures if it completed from these inputs and its outputs remain, else None."""
    if key is None:
        return None
    try:
        mark = json.loads(mark_path(marks_dir, day).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(mark, dict) or mark.get("key") != key:
        return None
    if not all(Path(p).exists() for p in mark.get("outputs", [])):
        return None
    figures = mark.get("figures")
    return figures if isinstance(figures, dict) else None


def mark_completed(
    marks_dir: Path, day: date, key: str, outputs: list[str], figures: dict[str, Any]
) -> None:
    """Marks folder + day + input key + its output files + figures -> the day's mark, written atomically."""
    mark = {"key": key, "outputs": sorted(outputs), "figures": figures}
    write_text_atomic(json.dumps(mark, sort_keys=True), mark_path(marks_dir, day))
