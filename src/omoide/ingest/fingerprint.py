"""Day fingerprints for cache keys: what a source holds for one day, and only that day."""

from __future__ import annotations

import hashlib
from datetime import date, datetime, timedelta
from pathlib import Path

import pandas as pd

from omoide.core.days import day_bounds
from omoide.core.errors import OmoideError
from omoide.core.ids import SEP
from omoide.core.settings import SourceConfig
from omoide.ingest.sources import collect
from omoide.ingest.sources.base import Collected, visible_files

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


def collected_fingerprint(collected: Collected) -> str:
    """A window's collected events and rejects -> content hash (times of recording left out)."""
    events = collected.events.drop(columns=["recorded_at"])
    # Lists do not hash; a name never holds the separator, so joining keeps them apart.
    events["entities"] = events["entities"].map(lambda e: SEP.join(e) if e is not None else "")
    h = hashlib.blake2b(digest_size=16)
    h.update(pd.util.hash_pandas_object(events, index=False).to_numpy().tobytes())
    for r in collected.rejects:
        h.update(f"{r.ref}{SEP}{r.reason}{SEP}{r.excerpt}{SEP}".encode("utf-8", "surrogatepass"))
    h.update(repr(sorted(collected.fixed.items())).encode())
    return h.hexdigest()


def day_fingerprint(source: SourceConfig, day: date, tz: str, now: datetime) -> str | None:
    """Source + local day -> hash of that day's records; None when not cacheable.

    The day is collected (in memory, never stored) and its records hashed, so a new visit
    or note changes only the key of the day it falls on, however large the database or
    export. None for a live ActivityWatch server (it changes under us: always ask it) and
    when the source cannot be read (the ingest task then reports why).
    """
    if source.url is not None:
        return None
    start, end = day_bounds(day, tz)
    try:
        return collected_fingerprint(collect(source, start, end, now))
    except OmoideError:
        return None
