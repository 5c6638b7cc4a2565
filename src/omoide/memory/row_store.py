"""Candidate rows from memory: a long-lived reader keeps the columns a recall ranks by, for the
memories table's current version, so a recall takes its few hundred candidates from there.

Why: reading ~200 candidates by row id from LanceDB is ~200 random reads of 14 columns, about
12 ms of a 40 ms recall at 100,000 memories (docs/benchmarks.md, "Where a recall at 100k spends
its time"); from memory it is an Arrow `take`. The columns without the vector are small: 28 MB
for the bench's 100,000 memories, read in one scan of 0.13 s (~0.3 KB a memory).

Only a process that answers many questions keeps one (the MCP server): a one-shot `omoide
recall` would pay the scan for one question, and the recall endpoint rehearses, which writes a
new version after every question. A store is kept per table version. When the table is at
another version (a run wrote since), the first recall that asks starts a scan on a background
thread and reads LanceDB as before; recalls use the store once the scan is done. So a question
never waits for it, and a store never serves rows of another version.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import lancedb
import numpy as np
import pyarrow as pa

from omoide.store.table_version import VersionKey, version_key

log = logging.getLogger(__name__)
LOOKUP = "memory_id"  # `having` finds the fact that replaced another by it


@dataclass(frozen=True)
class _Held:
    """One version's rows: sorted by row id, and their memory ids sorted with their positions."""

    rows: pa.Table
    ids: np.ndarray  # row ids, ascending
    keys: np.ndarray  # memory ids as bytes, ascending
    at: np.ndarray  # each sorted memory id's row position


class RowStore:
    """The given columns (+ `memory_id`, `_rowid`) of one version of a table, held in memory once scanned.

    Rows are found by row id (`take`) or by memory id (`having`).
    """

    def __init__(self, columns: Sequence[str]) -> None:
        self._columns = list(dict.fromkeys([*columns, LOOKUP]))
        self._lock = threading.Lock()
        self._key: VersionKey | None = None  # the version held (`version_key`)
        self._held_rows: _Held | None = None
        self._scan_thread: threading.Thread | None = None  # reading a version, while it runs

    def load(self, table: lancedb.table.Table) -> None:
        """Table -> its current version scanned into memory on a background thread (unless held or being read)."""
        self._held(table)

    def wait(self, timeout_s: float) -> None:
        """Seconds -> returned once a running scan is done, or after that long."""
        thread = self._scan_thread
        if thread is not None:
            thread.join(timeout_s)

    def take(self, table: lancedb.table.Table, rowids: Sequence[int]) -> pa.Table | None:
        """Table + row ids -> those rows (the columns and `_rowid`) from memory, or None while this version is not held.

        None starts a scan of the table's version on a background thread (unless one runs).
        """
        held = self._held(table)
        if held is None or not len(held.ids):
            return None
        wanted = np.asarray(rowids, dtype=np.uint64)
        at = np.searchsorted(held.ids, wanted)
        at[at >= len(held.ids)] = 0
        if not np.array_equal(held.ids[at], wanted):
            return None  # not a row of this version: the caller reads LanceDB
        return held.rows.take(pa.array(at, pa.int64()))

    def having(self, table: lancedb.table.Table, values: Sequence[str]) -> pa.Table | None:
        """Table + memory ids -> the held rows with one of them (in row order), or None while this version is not held."""
        held = self._held(table)
        if held is None:
            return None
        # A binary search of the sorted values: a LanceDB scan filtering the same column (no
        # index on it) takes ~16 ms at 100,000 rows, a hashed pass over it in Arrow ~2 ms.
        wanted = np.array(sorted({v.encode() for v in values}), dtype=bytes)
        at = np.searchsorted(held.keys, wanted)
        found = at < len(held.keys)
        found[found] = held.keys[at[found]] == wanted[found]
        return held.rows.take(pa.array(np.sort(held.at[at[found]]), pa.int64()))

    def _held(self, table: lancedb.table.Table) -> _Held | None:
        """Table -> what is held for its version, or None (a scan is then started, unless one runs)."""
        key = version_key(table)
        with self._lock:
            if self._key == key:
                return self._held_rows
            running = self._scan_thread is not None and self._scan_thread.is_alive()
            if not running:
                # The rows of an older version are of no use any more: not kept beside the new.
                self._key, self._held_rows = None, None
                self._scan_thread = threading.Thread(
                    target=self._scan, args=(table, key), name="omoide-row-store", daemon=True
                )
                self._scan_thread.start()
        return None

    def _scan(self, table: lancedb.table.Table, key: VersionKey) -> None:
        """Table + the version it was at (`version_key`) -> that version's rows held, sorted by row id (dropped if the table moved meanwhile)."""
        try:
            rows = table.search().select(self._columns).with_row_id(True).limit(None).to_arrow()
        except Exception as exc:  # the next recall tries again; this one reads LanceDB
            log.warning("keeping the recall columns in memory failed: %s", type(exc).__name__)
            return
        if version_key(table) != key:
            return  # a write came between: which version was read is not known
        rows, ids = sorted_by_rowid(rows)
        # Sorted here, off the question's path: ~40 MB and a second at a million rows.
        values = np.array(rows[LOOKUP].cast(pa.binary()).to_pylist(), dtype=bytes)
        order = np.argsort(values, kind="stable")
        held = _Held(rows, ids, values[order], order)
        with self._lock:
            self._key, self._held_rows = key, held


def sorted_by_rowid(rows: pa.Table) -> tuple[pa.Table, np.ndarray]:
    """Rows with `_rowid` -> them in one chunk sorted by row id, and the sorted row ids."""
    ids = rows["_rowid"].to_numpy().astype(np.uint64)
    if not np.all(ids[1:] > ids[:-1]):  # a scan reads fragments in order: rarely needed
        rows = rows.sort_by("_rowid")
        ids = rows["_rowid"].to_numpy().astype(np.uint64)
    return rows.combine_chunks(), ids
