"""Browser visit tables (Chrome `visits`, Firefox `moz_historyvisits`) -> events, columnar.

Rows are read with the Arrow ADBC SQLite driver: it steps through the result in C and
fills Arrow arrays directly, where Python's sqlite3 would build a tuple of objects per
row (most of the cost of reading a million visits).
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import adbc_driver_manager
import adbc_driver_sqlite.dbapi as adbc_sqlite
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from omoide.core import schemas
from omoide.core.errors import SourceError
from omoide.core.row_ids import row_ids, stable_seeds
from omoide.core.settings import SourceConfig
from omoide.ingest.sources.base import (
    GARBLED,
    Collected,
    Reject,
    categorical,
    constant,
    empty_lists,
)
from omoide.ingest.sources.text_files import garbled_positions

log = logging.getLogger(__name__)

_PARALLEL_BYTES = 8 << 20  # smaller databases are read in one go
_BUSY_TIMEOUT_MS = 5000
NO_URL = "visit has no URL (missing or empty url row)"
IMPOSSIBLE = "impossible visit time (none, not a number, before 1990 or in the future)"


@dataclass(frozen=True)
class VisitTable:
    """Where a browser keeps visits and the pages they point at (SQL names and expressions)."""

    visits: str  # visits table: an integer `id` plus the columns below
    page: str  # its column holding the page row id
    time: str  # its timestamp column, in the browser's own clock
    duration_us: str  # its duration in µs, or "0" when the schema has none
    transition: str  # its transition column, or "NULL" when the schema has none
    transition_nullable: bool  # whether NULL transitions must stay NULL
    pages: str  # pages table: integer `id`, `url`, `title`
    # Its columns that hold numbers or flags: a visit with text or a blob in one is rejected,
    # not read as 0 (SQLite stores any value in any column; CAST makes 'yes' a 0).
    numeric: tuple[str, ...] = ()


@dataclass(frozen=True)
class Visits:
    """One window's visits, columnar and ordered by (time, id), with the pages they point at."""

    visit_id: np.ndarray  # int64
    raw_time: np.ndarray  # int64, the browser's clock
    duration_us: np.ndarray  # int64
    transition: np.ndarray  # int64 (0 where NULL)
    transition_null: np.ndarray  # bool
    page: np.ndarray  # int64 row in urls/titles, -1 when the page row is missing
    urls: pa.Array  # strings, one per page row
    titles: pa.Array  # strings, one per page row
    impossible: np.ndarray  # int64 ids of visits whose time no browser could have written
    wrong_type: tuple[tuple[int, str], ...] = ()  # (id, why) of visits of the window rejected


@contextmanager
def _reading(origin: Path) -> Iterator[None]:
    """Context: a read of the private copy failing -> SourceError naming the user's file."""
    try:
        yield
    except (adbc_driver_manager.Error, OSError) as exc:
        # e.g. a damaged page deep in the file: the copy opened, but a row cannot be read.
        raise SourceError(origin, f"cannot be read: {exc}") from exc


def _query(db: Path, sql: str, params: tuple[object, ...]) -> pa.Table:
    """Database file + SQL -> the result as an Arrow table (read-only connection)."""
    with (
        adbc_sqlite.connect(f"{db.as_uri()}?mode=ro", autocommit=True) as conn,
        conn.cursor() as cur,
    ):
        # Readers of a WAL copy can briefly lock each other out while one sets up the shared
        # WAL index; wait as Python's sqlite3 does by default instead of failing at once.
        cur.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
        cur.fetchall()
        cur.execute(sql, params)
        return cur.fetch_arrow_table()


def _int_columns(db: Path, exprs: list[str], table: str, time: str, lo: int, hi: int) -> pa.Table:
    """Integer SQL expressions over rows with `time` in [lo, hi) -> int64 columns."""
    # The driver infers each column's type from its first rows: CAST and ifnull make every
    # value an integer, so no later row can disagree (a NULL reads as 0).
    cols = ", ".join(f"ifnull(CAST({e} AS INTEGER), 0) AS c{i}" for i, e in enumerate(exprs))
    sql = f"SELECT {cols} FROM {table} WHERE {time} >= ? AND {time} < ?"
    # SQLite steps without holding the GIL, so time slices of a big file, each on its own
    # read-only connection to the private copy, use every core.
    parts = 1 if db.stat().st_size < _PARALLEL_BYTES else min(os.cpu_count() or 1, 4)
    bounds = [lo + (hi - lo) * i // parts for i in range(parts)] + [hi]
    slices = [(bounds[i], bounds[i + 1]) for i in range(parts)]
    if parts == 1:
        return _query(db, sql, slices[0])
    with ThreadPoolExecutor(max_workers=parts) as pool:
        return pa.concat_tables(pool.map(lambda b: _query(db, sql, b), slices))


def _texts(blobs: pa.Array, null: pa.Array, origin: Path, what: str) -> pa.Array:
    """Bytes + NULL flags read from SQLite -> strings (invalid UTF-8 replaced, with a warning)."""
    try:
        texts = pc.cast(blobs, pa.string())
    except pa.ArrowInvalid:
        # SQLite stores whatever bytes it is given; a broken title must not lose the visit.
        log.warning("%s: %s with invalid UTF-8; bad bytes replaced", origin, what)
        texts = pa.array([b.decode("utf-8", "replace") for b in blobs.to_pylist()], pa.string())
    return pc.if_else(pc.cast(null, pa.bool_()), pa.scalar(None, pa.string()), texts)


def _pages(
    db: Path, pages: str, ids: np.ndarray, origin: Path
) -> tuple[np.ndarray, pa.Array, pa.Array]:
    """Database copy + pages table + distinct row ids -> (found ids, their urls, their titles)."""
    # Text is read as bytes plus a NULL flag: types never depend on which rows come first.
    columns = (
        "p.id, ifnull(CAST(p.url AS BLOB), X''), p.url IS NULL, "
        "ifnull(CAST(p.title AS BLOB), X''), p.title IS NULL"
    )
    if not ids.size:
        return np.empty(0, np.int64), pa.array([], pa.string()), pa.array([], pa.string())
    lo, hi = int(ids.min()), int(ids.max())
    if hi - lo < 2 * len(ids):
        # Most rows of the id range are wanted (a long window): one sequential range scan
        # beats a B-tree lookup per id; the few unwanted rows are dropped.
        got = _query(db, f"SELECT {columns} FROM {pages} AS p WHERE p.id BETWEEN ? AND ?", (lo, hi))
        got = got.filter(pc.is_in(got.column(0), pa.array(ids)))
    else:
        got = _query(
            db,
            f"SELECT {columns} FROM json_each(?) AS j JOIN {pages} AS p ON p.id = j.value",
            (json.dumps(ids.tolist()),),
        )
    found, url, url_null, title, title_null = (c.combine_chunks() for c in got.columns)
    return (
        found.to_numpy(),
        _texts(url, url_null, origin, "a URL"),
        _texts(title, title_null, origin, "a title"),
    )


def read_visits(
    conn: sqlite3.Connection,
    table: VisitTable,
    lo: int,
    hi: int,
    origin: Path,
    possible: tuple[int, int] | None = None,
) -> Visits:
    """Connection to a copy of `origin` + tables + [lo, hi) in the browser's clock -> visits.

    `possible` bounds the times a visit can have (browser clock); visits outside it, or with
    no time or one that is not a number, fall in no day's window: their ids are returned in
    `impossible`, on every day, so they are quarantined instead of never seen.
    """
    db = Path(conn.execute("PRAGMA database_list").fetchone()[2])
    exprs = ["id", table.time, table.duration_us, table.page, table.transition]
    if table.transition_nullable:
        exprs.append(f"{table.transition} IS NULL")
    exprs.append(_typed(table.numeric))
    with _reading(origin):
        read = _int_columns(db, exprs, table.visits, table.time, lo, hi)
    columns = [c.to_numpy() for c in read.columns]
    visit_id, raw_time, duration_us, page_id, transition = columns[:5]
    null = columns[5].astype(bool) if table.transition_nullable else np.zeros(len(visit_id), bool)
    wrong = columns[-1]
    wrong_type = tuple(
        (int(v), _wrong_type(table.numeric, int(m)))
        for v, m in zip(visit_id[wrong != 0], wrong[wrong != 0], strict=True)
    )
    if wrong_type:
        ok = wrong == 0
        visit_id, raw_time, duration_us = visit_id[ok], raw_time[ok], duration_us[ok]
        page_id, transition, null = page_id[ok], transition[ok], null[ok]
    # Visits are appended in time order, so the sort is usually a check.
    later = np.diff(raw_time)
    if (later < 0).any() or (np.diff(visit_id)[later == 0] <= 0).any():
        order = np.lexsort((visit_id, raw_time))
        visit_id, raw_time, duration_us = visit_id[order], raw_time[order], duration_us[order]
        page_id, transition, null = page_id[order], transition[order], null[order]
    # Pages are read once each (a day revisits the same pages), joined here by row id.
    codes, wanted = pd.factorize(page_id)
    with _reading(origin):
        found, urls, titles = _pages(db, table.pages, wanted, origin)
        impossible = _impossible(db, table, possible)
    page = pd.Index(found).get_indexer(wanted)[codes]  # -1 where the page row is gone
    return Visits(
        visit_id=visit_id,
        raw_time=raw_time,
        duration_us=duration_us,
        transition=transition,
        transition_null=null,
        page=page,
        urls=urls,
        titles=titles,
        impossible=impossible,
        wrong_type=wrong_type,
    )


def _typed(numeric: tuple[str, ...]) -> str:
    """Columns that hold numbers -> an SQL bit mask: per column, bit 2i text, bit 2i+1 a blob ("0" for none)."""
    bits = [
        f"((typeof({c}) = 'text') << {2 * i}) | ((typeof({c}) = 'blob') << {2 * i + 1})"
        for i, c in enumerate(numeric)
    ]
    return " | ".join(bits) or "0"


def _wrong_type(numeric: tuple[str, ...], mask: int) -> str:
    """Columns that hold numbers + a visit's bit mask (see _typed) -> why the visit is rejected."""
    found = [
        f"'{c}' holds {'text' if mask >> 2 * i & 1 else 'a blob'}"
        for i, c in enumerate(numeric)
        if mask >> 2 * i & 3
    ]
    return f"{', '.join(found)} where a number belongs"


def _impossible(db: Path, table: VisitTable, possible: tuple[int, int] | None) -> np.ndarray:
    """Database copy + tables + possible time range -> ids of visits with a time outside it."""
    if possible is None:
        return np.empty(0, np.int64)
    # SQLite sorts text and blobs after every number, so `> latest` also finds a time
    # written as text; NULL is asked for apart.
    sql = (
        f"SELECT ifnull(CAST(id AS INTEGER), 0) FROM {table.visits} "
        f"WHERE {table.time} IS NULL OR {table.time} < ? OR {table.time} > ?"
    )
    return _query(db, sql, possible).column(0).to_numpy()


def named_codes(
    values: np.ndarray, null: np.ndarray, names: dict[int, str], other: str
) -> pd.Categorical:
    """Integer codes + NULL mask -> categorical of their names (`other` + number if unnamed)."""
    codes, uniques = pd.factorize(values)
    labels = [names.get(int(u), f"{other}{int(u)}") for u in uniques]
    codes[null] = -1
    return pd.Categorical.from_codes(codes, categories=pd.Index(labels, dtype="str"))


def _distinct(values: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """Strings -> (code per value, -1 for null; the distinct strings)."""
    encoded = pc.dictionary_encode(values)
    codes = pc.fill_null(encoded.indices, -1).to_numpy(zero_copy_only=False)
    return codes.astype(np.int32), encoded.dictionary


def _repeat_numbers(raw_time: np.ndarray, url: np.ndarray) -> np.ndarray:
    """Time-ordered visits -> how many earlier visits share their time and URL (mostly 0)."""
    nth = np.zeros(len(raw_time), dtype=np.int64)
    tied = np.flatnonzero(np.diff(raw_time) == 0)
    if tied.size:
        rows = np.union1d(tied, tied + 1)
        pairs = pd.DataFrame({"t": raw_time[rows], "u": url[rows]})
        nth[rows] = pairs.groupby(["t", "u"], sort=False).cumcount().to_numpy()
    return nth


def visit_events(
    visits: Visits,
    transition: pd.Categorical,
    source: SourceConfig,
    db: Path,
    table: str,
    app: str,
    now: datetime,
    epoch_offset_us: int = 0,
) -> Collected:
    """Visits (+ their transition names) -> EVENTS frame + rejects, without a per-row loop."""
    refs = pc.binary_join_element_wise(
        f"{db}#{table}.id=", pc.cast(pa.array(visits.visit_id), pa.string()), ""
    )
    url_of_page, urls = _distinct(visits.urls)
    title_of_page, titles = _distinct(visits.titles)
    missing = np.append(url_of_page == -1, True)  # the extra slot stands for page -1
    empty = np.flatnonzero(pc.equal(urls, "").to_numpy(zero_copy_only=False))
    missing[:-1] |= np.isin(url_of_page, empty)
    no_url = missing[visits.page]
    # A URL that is mostly control or replacement characters (a blob where text belongs) is
    # no page: the visit is rejected. Such a title is dropped from a visit that keeps its URL.
    junk = np.append(np.isin(url_of_page, garbled_positions(urls)), False)[visits.page] & ~no_url
    rejects = [Reject(ref, NO_URL) for ref in refs.filter(no_url).to_pylist()]
    rejects += [Reject(ref, GARBLED.format(column="url")) for ref in refs.filter(junk).to_pylist()]
    rejects += [Reject(f"{db}#{table}.id={int(v)}", IMPOSSIBLE) for v in visits.impossible]
    rejects += [Reject(f"{db}#{table}.id={v}", why) for v, why in visits.wrong_type]
    dropped = no_url | junk
    keep = np.flatnonzero(~dropped) if dropped.any() else slice(None)
    page = visits.page[keep]
    url, title = url_of_page[page], title_of_page[page]
    bad_title = np.isin(title, garbled_positions(titles))
    title = np.where(bad_title, -1, title)
    fixed = {"garbled_title_dropped": int(bad_title.sum())} if bad_title.any() else {}
    raw_time, n = visits.raw_time[keep], len(page)
    log.info("%s: %d visits, %d rejected", source.name, n, len(rejects))
    if n == 0:
        return Collected(events=schemas.empty(schemas.EVENTS), rejects=rejects)
    # Redirect chains store several visits of one URL in the same microsecond; the n-th of
    # them (in visit id order) gets n as an extra id part so each visit keeps its own event.
    seeds = stable_seeds((source.kind, source.name), urls.to_pylist())
    ids = row_ids(seeds[url], raw_time, _repeat_numbers(raw_time, url))
    index = pd.RangeIndex(n)
    frame = pd.DataFrame(
        {
            "event_id": ids.to_pandas(),
            "ts": pd.Series((raw_time - epoch_offset_us).view("datetime64[us]")).dt.tz_localize(
                "UTC"
            ),
            "duration_s": np.maximum(visits.duration_us[keep] / 1e6, 0.0),
            "source": constant(source.kind, n),
            "source_name": constant(source.name, n),
            "event_type": constant("visit", n),
            "app": constant(app, n),
            "title": categorical(title, titles),
            "url": categorical(url, urls),
            "text": None,
            "actor": None,
            "fact_kind": None,
            "confidence": None,
            "entities": empty_lists(n),
            "transition": transition[keep],
            "source_ref": refs.filter(~dropped).to_pandas() if dropped.any() else refs.to_pandas(),
            "recorded_at": pd.Timestamp(now).tz_convert("UTC"),
        },
        index=index,
    )
    return Collected(events=frame, rejects=rejects, fixed=fixed)
