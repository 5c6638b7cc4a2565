"""Safari's `History.db` -> one event per history visit.

Where and what: `~/Library/Safari/History.db` (the source path may be that file or its
folder), a SQLite database Safari keeps open in WAL mode, so it is read like the other
browsers' through a private copy with its `-wal`/`-journal` (sqlite_copy.shadow_copy).
Shape, as published by forensic and export tools that read it (log2timeline/plaso
plaso/parsers/sqlite_plugins/safari.py, which lists the CREATE statements;
seanbreckenridge/browserexport browserexport/browsers/safari.py and karlicoss/promnesia,
which join the same two tables; the ArchiveTeam file-formats wiki page "History.db"):

    history_items  (id, url, domain_expansion, visit_count, daily_visit_counts, ...)
    history_visits (id, history_item -> history_items.id, visit_time REAL, title,
                    load_successful, http_non_get, synthesized, redirect_source,
                    redirect_destination, origin, generation, attributes, score)

`visit_time` is Core Data's clock (NSDate's reference date): seconds since 2001-01-01
00:00 UTC, a REAL with sub-second digits; it is read to the microsecond. The title is the
visit's own (Safari keeps it per visit, not per page).

What is kept, by analogy with the Chrome and Firefox readers (every visit the browser
recorded is an event, its kind in `transition`): a visit reached through a redirect
(`redirect_source` set) is kept with transition "redirect", as Firefox's redirect visit
types are; a visit that sent a form (`http_non_get`) is "form_submit" (Chrome's name);
other visits have no transition (Safari records no link/typed distinction). Visits synced
from another device through iCloud (`origin` 1) are kept, as Chrome keeps synced visits.
Skipped: failed loads (`load_successful` 0), pages that never loaded, which Chrome and
Firefox do not record as visits at all; they are counted in the log. A visit whose page row
is gone or has no URL, with a time no one could have recorded or one that is no number
(text, a blob), or with text or a blob where `load_successful` or `http_non_get` holds a
flag, is a reject naming `History.db#history_visits.id=N` (visits.visit_events): never read
as 2001-01-01 or as a failed load.

macOS guards `~/Library/Safari`: only an app with Full Disk Access may read it, and the
error says so instead of "locked".
"""

from __future__ import annotations

import logging
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd

from omoide.core.errors import SourceError
from omoide.core.settings import SourceConfig
from omoide.ingest.sources.base import EARLIEST, Collected
from omoide.ingest.sources.sqlite_copy import database_file, require_columns, shadow_copy, unix_us
from omoide.ingest.sources.visits import VisitTable, named_codes, read_visits, visit_events

log = logging.getLogger(__name__)

FILE = "History.db"
# Seconds from the Unix epoch to Core Data's reference date, 2001-01-01 00:00 UTC.
APPLE_EPOCH_S = 978_307_200
APPLE_EPOCH_US = APPLE_EPOCH_S * 1_000_000
TRANSITIONS = {1: "redirect", 2: "form_submit"}
# A failed load is a flag that is a number and 0: 'yes' (text, which CAST reads as 0) is a
# value of the wrong type, rejected by name (visits.VisitTable.numeric), not a failed load.
_FAILED = "typeof(load_successful) IN ('integer', 'real') AND load_successful = 0"
FULL_DISK_ACCESS = (
    "macOS lets only apps with Full Disk Access read Safari's folder: give it to the terminal "
    "or app that runs omoide (System Settings > Privacy & Security > Full Disk Access)"
)


def safari_us(ts: datetime) -> int:
    """Aware datetime -> Safari's clock in integer µs (since 2001-01-01 UTC)."""
    return unix_us(ts) - APPLE_EPOCH_US


def transition_names(raw: np.ndarray, null: np.ndarray) -> pd.Categorical:
    """Transition codes (1 redirect, 2 form_submit) + NULL mask -> names (NULL stays null)."""
    return named_codes(np.asarray(raw, dtype=np.int64), null, TRANSITIONS, "code_")


def _visit_table(cols: set[str], item_cols: set[str]) -> VisitTable:
    """history_visits / history_items columns -> the SQL that reads them as visits and pages."""
    # µs as an integer, so the shared columnar reader handles Safari's REAL seconds; a time
    # that is no number is NULL (CAST would make 'yesterday' 0: 2001-01-01), so impossible.
    time = (
        "CASE WHEN typeof(visit_time) IN ('integer', 'real') "
        "THEN CAST(round(visit_time * 1000000) AS INTEGER) END"
    )
    redirect = "redirect_source IS NOT NULL" if "redirect_source" in cols else "0"
    post = "http_non_get" if "http_non_get" in cols else "0"
    flags = tuple(c for c in ("load_successful", "http_non_get") if c in cols)
    loaded = f"WHERE NOT ({_FAILED})" if "load_successful" in cols else ""
    title = "v.title" if "title" in cols else "NULL"
    url = "i.url" if "url" in item_cols else "NULL"
    return VisitTable(
        visits=(
            f"(SELECT id, {time} AS t, "
            f"CASE WHEN {redirect} THEN 1 WHEN {post} THEN 2 END AS tr"
            f"{''.join(f', {c}' for c in flags)} "
            f"FROM history_visits {loaded})"
        ),
        # Titles belong to visits, so each visit is its own "page": its URL joined in.
        page="id",
        time="t",
        duration_us="0",
        transition="tr",
        transition_nullable=True,
        pages=(
            f"(SELECT v.id AS id, {url} AS url, {title} AS title FROM history_visits AS v "
            "LEFT JOIN history_items AS i ON i.id = v.history_item)"
        ),
        numeric=flags,
    )


def _failed_loads(conn: sqlite3.Connection, cols: set[str], lo: int, hi: int) -> int:
    """Connection + window in Safari µs -> how many failed loads it holds (skipped, logged)."""
    if "load_successful" not in cols:
        return 0
    sql = (
        f"SELECT count(*) FROM history_visits WHERE {_FAILED} "
        "AND visit_time >= ? AND visit_time < ?"
    )
    return int(conn.execute(sql, (lo / 1e6, hi / 1e6)).fetchone()[0])


def _readable(db: Path) -> None:
    """History.db path -> None; SourceError saying how to grant access when macOS refuses it."""
    try:
        with db.open("rb"):
            pass
    except PermissionError as exc:
        raise SourceError(db, f"cannot be read ({exc.strerror}); {FULL_DISK_ACCESS}") from exc
    except OSError:
        return  # missing, a folder, ...: shadow_copy names it


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """Safari History.db + UTC [start, end) -> visit events in that window, and rejects."""
    db = database_file(source.path, FILE, source.name)
    _readable(db)
    with shadow_copy(db, tables=("history_visits", "history_items")) as conn:
        cols = require_columns(
            conn, "history_visits", {"id", "history_item", "visit_time"}, db, "Safari History"
        )
        items = require_columns(conn, "history_items", {"id", "url"}, db, "Safari History")
        lo, hi = safari_us(start), safari_us(end)
        possible = (safari_us(EARLIEST), safari_us(now + timedelta(days=1)))
        visits = read_visits(conn, _visit_table(cols, items), lo, hi, db, possible)
        failed = _failed_loads(conn, cols, lo, hi)
    if failed:
        log.info("%s: %d failed page load(s) skipped", source.name, failed)
    return visit_events(
        visits,
        transition_names(visits.transition, visits.transition_null),
        source,
        db,
        "history_visits",
        "Safari",
        now,
        -APPLE_EPOCH_US,
    )
