"""Day fingerprints for cache keys: what a source holds for one day, and only that day."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd

from omoide.core.days import day_bounds
from omoide.core.errors import OmoideError
from omoide.core.ids import SEP
from omoide.core.settings import SourceConfig
from omoide.ingest.sources import collect
from omoide.ingest.sources.base import Collected, visible_files

_DB_FILES = {"chrome": "History", "firefox": "places.sqlite", "safari": "History.db"}
DB_KINDS = frozenset(_DB_FILES)
# The files a folder source is read from (activitywatch: its *.json exports).
_FOLDER_FILES: dict[str, str | tuple[str, ...]] = {
    "chat": "*.jsonl",
    "line": "*.txt",
    "chatgpt": "conversations.json",
    "claude": "conversations.json",
    "discord": "*.json",
    "whatsapp": ("*.txt", "*.zip"),  # the chat text, or the .zip the phone shares
    "telegram": "result.json",
}
_SQLITE_SIDECARS = ("-wal", "-journal")
FileEntry = tuple[object, ...]
# A day's collections, kept from computing its key until the ingest that follows takes
# them, so a day is read once. Only the latest few are kept (a backfill works on a few
# days side by side), so raw data never piles up.
_HANDOFF: OrderedDict[tuple[str, datetime, datetime], tuple[tuple[FileEntry, ...], Collected]] = (
    OrderedDict()
)
_HANDOFF_KEPT = 32
_HANDOFF_LOCK = threading.Lock()


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
    patterns = _FOLDER_FILES.get(source.kind, "*.json")
    patterns = (patterns,) if isinstance(patterns, str) else patterns
    return sorted(f for p in patterns for f in visible_files(path, p))


def collected_fingerprint(collected: Collected) -> str:
    """A window's collected events and rejects -> content hash (times of recording left out)."""
    return _digest(event_hashes(collected.events), collected)


def event_hashes(events: pd.DataFrame) -> np.ndarray:
    """Collected events -> one uint64 per row from its content (its time of recording left out)."""
    events = events.drop(columns=["recorded_at"])
    # Lists do not hash; a name never holds the separator, so joining keeps them apart.
    events["entities"] = events["entities"].map(lambda e: SEP.join(e) if e is not None else "")
    return _row_hashes(events)


def _digest(rows: np.ndarray, collected: Collected) -> str:
    """Row hashes + what was collected with them (rejects, fixes) -> the window's content hash."""
    h = hashlib.blake2b(digest_size=16)
    h.update(rows.tobytes())
    for r in collected.rejects:
        h.update(f"{r.ref}{SEP}{r.reason}{SEP}{r.excerpt}{SEP}".encode("utf-8", "surrogatepass"))
    h.update(repr(sorted(collected.fixed.items())).encode())
    return h.hexdigest()


def _row_hashes(events: pd.DataFrame) -> np.ndarray:
    """Events -> one uint64 hash per row, whatever their strings hold.

    pandas hashes strings as UTF-8, which a lone surrogate (a `\\ud800` escape in a
    collector's JSON) cannot be: such values are hashed by their surrogate-passing bytes
    instead, so a key is computed (and the day cached) rather than a traceback logged.
    """
    try:
        return pd.util.hash_pandas_object(events, index=False).to_numpy()
    except UnicodeEncodeError:
        safe = events.copy()
        for col in safe.columns:
            if safe[col].dtype == object:
                safe[col] = safe[col].map(_passable)
        return pd.util.hash_pandas_object(safe, index=False).to_numpy()


def _passable(value: object) -> object:
    """A value -> the same value, a string with lone surrogates as the hex of its bytes."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-8", "surrogatepass").hex()
    return value


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
        collected = collect(source, start, end, now)
    except OmoideError:
        return None
    state = _files_state(source, day)
    with _HANDOFF_LOCK:
        key = (source.model_dump_json(), start, end)
        _HANDOFF[key] = (state, collected)
        _HANDOFF.move_to_end(key)
        while len(_HANDOFF) > _HANDOFF_KEPT:
            _HANDOFF.popitem(last=False)
    return collected_fingerprint(collected)


def collected_day(source: SourceConfig, day: date, tz: str, now: datetime) -> Collected:
    """Source + local day -> its records: the ones its key was computed from if its files are unchanged, else read now."""
    start, end = day_bounds(day, tz)
    with _HANDOFF_LOCK:
        kept = _HANDOFF.pop((source.model_dump_json(), start, end), None)
    if kept is not None and kept[0] == _files_state(source, day):
        return kept[1]
    return collect(source, start, end, now)


def _files_state(source: SourceConfig, day: date) -> tuple[FileEntry, ...]:
    """Source + day -> identity, size and times of the files its day is read from."""
    return tuple(file_entry(f) for f in input_files(source, day))


def file_entry(path: Path) -> FileEntry:
    """Path -> (path, inode, size, modified, changed time); (path, errno) when it cannot be read."""
    try:
        st = path.stat()
    except OSError as exc:
        return (str(path), exc.errno)
    return (str(path), st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def span_prints(
    source: SourceConfig, days: Sequence[date], tz: str, now: datetime
) -> tuple[dict[date, str | None], bool, bool]:
    """Source + local days -> (each day's records hash, the source read once for the whole span;
    whether any later `now` gives the same hashes; whether each day's hash is its own records'
    alone, the same in any span).

    What a backfill checks before deciding which days still need work: one read of a year of
    browser history costs about what one day's read does. Notes are read per day (one file
    each). A span's rejected or fixed records and records without a time count in every day's
    hash, so a new damaged record re-runs the span rather than hiding. None for a day that
    cannot be keyed (a live server, an unreadable source). `now` only sets which times are
    impossible (more than a day after it): hashes hold for a later `now` when every day ends
    before now + 1 day and nothing was rejected as impossible.
    """
    if source.url is not None or not days:
        return dict.fromkeys(days), False, False
    bounds = {d: day_bounds(d, tz) for d in days}
    ends_past = max(b[1] for b in bounds.values()) <= now + timedelta(days=1)
    if source.kind == "notes":
        # A note's times come from its day and its text, never from `now`; each day is read alone.
        return {d: day_fingerprint(source, d, tz, now) for d in days}, ends_past, True
    try:
        whole = collect(
            source, min(b[0] for b in bounds.values()), max(b[1] for b in bounds.values()), now
        )
    except OmoideError:
        return dict.fromkeys(days), False, False
    timed = whole.events["ts"].notna()
    # Records without a time belong to no day: like the rejects, they count in every day.
    untimed = event_hashes(whole.events[~timed])
    events = whole.events[timed].sort_values("ts", kind="stable", ignore_index=True)
    # A row's hash is its content's alone: hashed once for the span, each day takes its slice
    # (the same bytes as hashing each day's rows on their own, without a frame per day).
    rows = event_hashes(events)
    out: dict[date, str | None] = {}
    for d, (start, end) in bounds.items():
        lo, hi = events["ts"].searchsorted([pd.Timestamp(start), pd.Timestamp(end)])
        out[d] = _digest(np.concatenate([rows[lo:hi], untimed]), whole)
    steady = ends_past and not any("impossible" in r.reason for r in whole.rejects)
    return out, steady, not (len(untimed) or whole.rejects or whole.fixed)
