"""Browser SQLite databases: private read-only shadow copies, and visit rows -> events."""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential

from omoide import schemas
from omoide.errors import SourceError, SourceLockedError
from omoide.ids import row_ids, stable_seeds
from omoide.settings import SourceConfig
from omoide.sources.base import Collected, Reject, categorical, constant, empty_lists

log = logging.getLogger(__name__)

SQLITE_MAGIC = b"SQLite format 3\x00"

# The rollback journal and the WAL hold committed-but-not-checkpointed pages (WAL) or the
# pages needed to undo a half-written transaction (journal); both must travel with the copy.
# The -shm wal-index is not copied: the first connection to the copy rebuilds it from the WAL.
SIBLINGS = ("-wal", "-journal")


class _Transient(Exception):
    """A copy or open failed in a way a later attempt may not (lock, mid-write copy)."""


def _state(path: Path) -> tuple[object, ...] | None:
    """File -> what must not change while it is copied (None when it does not exist)."""
    try:
        st = path.stat()
        if path.name.endswith("-wal"):
            # A WAL only grows between checkpoints and a copy with a torn tail is still
            # consistent (recovery stops at the first frame whose checksum fails), so only
            # a new file or a restart (new salts in the 32-byte header) spoils the copy.
            with path.open("rb") as fh:
                return st.st_ino, fh.read(32)
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def _check_header(db: Path) -> None:
    """Database path -> None; raises SourceError when it is missing or not SQLite at all."""
    if not db.exists():
        raise SourceError(db, "not found")
    if not db.is_file():
        raise SourceError(db, "not a file")
    try:
        with db.open("rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise SourceError(db, f"cannot be read: {exc.strerror or exc}") from exc
    # An empty file is what SQLite itself creates before the first write: not corrupt.
    if head and head != SQLITE_MAGIC:
        raise SourceError(db, "not a SQLite database (bad file header)")


def _copy_files(db: Path, into: Path) -> Path:
    """Database + journal siblings -> their copies in `into`; path of the copied database."""
    # Journals first: a commit racing the copy then leaves the database beside the journal
    # that can roll it back, never a half-written database without its journal; the stat
    # comparison below catches what ordering cannot (WAL appends, checkpoints).
    sources = [db.with_name(db.name + s) for s in SIBLINGS] + [db]
    for stale in into.iterdir():  # a previous attempt's copy, WAL and wal-index
        stale.unlink()
    before = [_state(p) for p in sources]
    for src in sources:
        dst = into / src.name
        try:
            shutil.copyfile(src, dst)
        except FileNotFoundError:
            if src == db:
                raise SourceError(db, "not found") from None
            continue  # a journal vanishing mid-copy shows up in the stat comparison below
        except OSError as exc:
            raise _Transient(f"copy failed: {exc.strerror or exc}") from exc
    # A writer that touched any file while we copied can leave the set inconsistent
    # (e.g. a checkpoint between copying the database and its WAL), so copy again.
    if [_state(p) for p in sources] != before:
        raise _Transient("database changed while it was being copied")
    return into / db.name


def _open_copy(copy: Path, db: Path) -> sqlite3.Connection:
    """Copied database -> verified read-only connection; raises _Transient or SourceError."""
    journal = copy.with_name(copy.name + "-journal")
    try:
        if journal.exists() and journal.stat().st_size > 0:
            # A hot journal cannot be rolled back by a read-only connection
            # (SQLITE_READONLY_ROLLBACK); roll it back once in the private copy.
            with closing(sqlite3.connect(copy)) as rw:
                rw.execute("SELECT count(*) FROM sqlite_master").fetchone()
        conn = sqlite3.connect(f"{copy.as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise _classify(exc, db) from exc
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as exc:
        conn.close()
        raise _classify(exc, db) from exc
    return conn


def _classify(exc: sqlite3.Error, db: Path) -> Exception:
    """SQLite error -> SourceError when retrying cannot help, else _Transient."""
    if getattr(exc, "sqlite_errorname", "") == "SQLITE_NOTADB":
        return SourceError(db, f"not a SQLite database ({exc})")
    return _Transient(str(exc))


def _snapshot(db: Path, into: Path) -> sqlite3.Connection:
    """Database -> connection to a fresh consistent copy of it inside `into`."""
    return _open_copy(_copy_files(db, into), db)


@contextmanager
def shadow_copy(
    db: Path, *, attempts: int = 5, wait_s: float = 0.2, tmp_root: Path | None = None
) -> Iterator[sqlite3.Connection]:
    """Live SQLite file -> read-only connection to a private copy, removed on exit.

    Retries copy+open with exponential backoff (wait_s, doubling) on locks, mid-write
    copies and I/O errors; raises SourceLockedError after `attempts`, SourceError at once
    for a missing file or one that is not SQLite.
    """
    db = Path(db).expanduser().absolute()
    _check_header(db)
    # mkdtemp creates the folder with mode 0700: raw history is readable only by us.
    with tempfile.TemporaryDirectory(prefix="omoide-sqlite-", dir=tmp_root) as tmp:
        workdir = Path(tmp)
        os.chmod(workdir, 0o700)
        retrying = Retrying(
            stop=stop_after_attempt(max(1, attempts)),
            wait=wait_exponential(multiplier=wait_s, exp_base=2),
            retry=retry_if_exception_type(_Transient),
            before_sleep=lambda rs: log.info(
                "shadow copy attempt %d failed, retrying", rs.attempt_number
            ),
            reraise=True,
        )
        try:
            conn = retrying(_snapshot, db, workdir)
        except _Transient as exc:
            raise SourceLockedError(
                db, f"could not read a consistent copy after {attempts} attempts: {exc}"
            ) from exc
        try:
            yield conn
        finally:
            conn.close()


UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_PARALLEL_BYTES = 8 << 20  # smaller databases are read in one go
NO_URL = "visit has no URL (missing or empty url row)"


def unix_us(ts: datetime) -> int:
    """Aware datetime -> exact integer microseconds since 1970-01-01 UTC."""
    return (ts - UNIX_EPOCH) // timedelta(microseconds=1)


def database_file(path: Path | None, filename: str, source_name: str) -> Path:
    """Configured file or profile folder -> the database file inside it."""
    if path is None:
        raise SourceError(source_name, "no path configured")
    path = Path(path).expanduser().absolute()
    return path / filename if path.is_dir() else path


def table_columns(conn: sqlite3.Connection, table: str) -> set[str]:
    """Connection + table name -> its column names (empty when the table does not exist)."""
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def require_columns(
    conn: sqlite3.Connection, table: str, needed: set[str], db: Path, what: str
) -> set[str]:
    """Connection + table -> its columns; SourceError when the table lacks any of `needed`."""
    cols = table_columns(conn, table)
    if not cols:
        raise SourceError(db, f"no '{table}' table (not a {what} database?)")
    missing = sorted(needed - cols)
    if missing:
        raise SourceError(db, f"table '{table}' lacks column(s) {', '.join(missing)}")
    return cols


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


def _int_columns(
    conn: sqlite3.Connection, exprs: list[str], source: str, params: tuple[object, ...]
) -> list[np.ndarray]:
    """Integer SQL expressions + `FROM ... WHERE ...` -> one int64 array each (NULL as 0)."""
    # Python's sqlite3 builds a tuple of int objects per row, most of the cost of reading a
    # million visits; group_concat runs that loop in SQLite's C code (without the GIL) and
    # numpy parses the text (as bytes: no str object), about 3x faster. One aggregate query
    # feeds every row to all its aggregates in the same order, so the columns stay aligned;
    # NULLs, which group_concat would skip, are read as 0. SQLite caps a string at 1e9
    # bytes, about 50 million visits for one window.
    aggs = ", ".join(f"CAST(group_concat(ifnull(CAST({e} AS INTEGER), 0)) AS BLOB)" for e in exprs)
    count, *texts = conn.execute(f"SELECT count(*), {aggs} {source}", params).fetchone()
    if not count:
        return [np.empty(0, dtype=np.int64) for _ in exprs]
    return [np.fromstring(text, dtype=np.int64, sep=",") for text in texts]


def _sliced_int_columns(
    conn: sqlite3.Connection, exprs: list[str], table: str, time: str, lo: int, hi: int
) -> list[np.ndarray]:
    """Integer expressions over rows with `time` in [lo, hi) -> int64 arrays, read in slices."""
    path = Path(conn.execute("PRAGMA database_list").fetchone()[2])
    # SQLite releases the GIL while it aggregates, so time slices of a big file, each on its
    # own read-only connection to the private copy, use every core.
    parts = 1 if path.stat().st_size < _PARALLEL_BYTES else min(os.cpu_count() or 1, 4)
    bounds = [lo + (hi - lo) * i // parts for i in range(parts)] + [hi]
    source = f"FROM {table} WHERE {time} >= ? AND {time} < ?"

    def read(i: int) -> list[np.ndarray]:
        if i == 0:
            return _int_columns(conn, exprs, source, (bounds[0], bounds[1]))
        with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as own:
            return _int_columns(own, exprs, source, (bounds[i], bounds[i + 1]))

    if parts == 1:
        return read(0)
    with ThreadPoolExecutor(max_workers=parts - 1) as pool:
        rest = pool.map(read, range(1, parts))
        slices = [read(0), *rest]
    return [np.concatenate(columns) for columns in zip(*slices, strict=True)]


def _pages(conn: sqlite3.Connection, pages: str, ids: np.ndarray) -> tuple[np.ndarray, ...]:
    """Pages table + distinct row ids -> (found ids, their urls, their titles)."""
    # One JSON array per column instead of a Python tuple per row: SQLite escapes the text
    # and keeps NULLs, and the C JSON decoder reads a day's pages in a few milliseconds.
    found, urls, titles = conn.execute(
        "SELECT json_group_array(p.id), json_group_array(CAST(p.url AS TEXT)), "
        f"json_group_array(CAST(p.title AS TEXT)) FROM json_each(?) AS j JOIN {pages} AS p "
        "ON p.id = j.value",
        (json.dumps(ids.tolist()),),
    ).fetchone()
    return np.array(json.loads(found), dtype=np.int64), json.loads(urls), json.loads(titles)


def read_visits(conn: sqlite3.Connection, table: VisitTable, lo: int, hi: int) -> Visits:
    """Connection + tables + [lo, hi) in the browser's clock -> the visits in that window."""
    exprs = ["id", table.time, table.duration_us, table.page, table.transition]
    if table.transition_nullable:
        exprs.append(f"{table.transition} IS NULL")
    columns = _sliced_int_columns(conn, exprs, table.visits, table.time, lo, hi)
    visit_id, raw_time, duration_us, page_id, transition = columns[:5]
    null = columns[5].astype(bool) if table.transition_nullable else np.zeros(len(visit_id), bool)
    # Visits are appended in time order, so the sort is usually a check.
    later = np.diff(raw_time)
    if (later < 0).any() or (np.diff(visit_id)[later == 0] <= 0).any():
        order = np.lexsort((visit_id, raw_time))
        visit_id, raw_time, duration_us = visit_id[order], raw_time[order], duration_us[order]
        page_id, transition, null = page_id[order], transition[order], null[order]
    # Pages are read once each (a day revisits the same pages), joined here by row id.
    codes, wanted = pd.factorize(page_id)
    found, urls, titles = _pages(conn, table.pages, wanted)
    page = pd.Index(found).get_indexer(wanted)[codes]  # -1 where the page row is gone
    return Visits(
        visit_id=visit_id,
        raw_time=raw_time,
        duration_us=duration_us,
        transition=transition,
        transition_null=null,
        page=page,
        urls=pa.array(urls, type=pa.string()),
        titles=pa.array(titles, type=pa.string()),
    )


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
    rejects = [Reject(ref, NO_URL) for ref in refs.filter(no_url).to_pylist()]
    keep = np.flatnonzero(~no_url) if no_url.any() else slice(None)
    page = visits.page[keep]
    url, title = url_of_page[page], title_of_page[page]
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
            "source_ref": refs.filter(~no_url).to_pandas() if no_url.any() else refs.to_pandas(),
            "recorded_at": pd.Timestamp(now).tz_convert("UTC"),
        },
        index=index,
    )
    return Collected(events=frame, rejects=rejects)
