"""Source fingerprints: which files a day's collection reads, hashed, for cache keys."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from omoide.core.ids import file_digest, stable_id
from omoide.core.settings import SourceConfig
from omoide.ingest.sources.base import visible_files

_DB_FILES = {"chrome": "History", "firefox": "places.sqlite"}
_SQLITE_SIDECARS = ("-wal", "-journal")


def input_files(source: SourceConfig, day: date) -> list[Path]:
    """Source + day -> the files its collection of that day depends on (existing ones)."""
    path = source.path
    if path is None:
        return []
    if source.kind in _DB_FILES:
        db = path / _DB_FILES[source.kind] if path.is_dir() else path
        return [p for p in [db, *(Path(f"{db}{s}") for s in _SQLITE_SIDECARS)] if p.exists()]
    if not path.is_dir():
        return [path] if path.exists() else []
    if source.kind == "notes":
        # The collector reads one day's note; its neighbours are included so the key also
        # covers the timezones where the note's name and the UTC window disagree.
        return sorted(
            f for d in (-1, 0, 1) for f in visible_files(path, f"{day + timedelta(days=d)}.md")
        )
    return visible_files(path, "*.jsonl" if source.kind == "chat" else "*.json")


def source_fingerprint(source: SourceConfig, day: date) -> str | None:
    """Source + day -> content hash of its input files; None when not cacheable (live API)."""
    if source.url is not None:
        return None  # an ActivityWatch server changes under us; always ask it
    files = input_files(source, day)
    return stable_id(source.kind, day, *((str(p), file_digest(p)) for p in files))
