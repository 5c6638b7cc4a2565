"""Browser SQLite databases -> private, consistent, read-only shadow copies."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential

from omoide.core.errors import SourceError, SourceLockedError

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


def _copy_files(db: Path, into: Path) -> tuple[Path, tuple[object, ...]]:
    """Database + journal siblings -> their copies in `into`: the copied database, and the
    state of the files copied (identity, size and time of each; the same state, the same bytes)."""
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
    return into / db.name, (str(db), *before)


def damage(copy: Path) -> str | None:
    """Private copy of a database -> what is wrong with it, or None when SQLite finds it sound.

    A file that is not a whole number of pages was cut short; otherwise `PRAGMA
    quick_check` reads every page and reports the first problem it finds.
    """
    size = copy.stat().st_size
    if size == 0:
        return None  # what SQLite itself creates before the first write
    with copy.open("rb") as fh:
        header = fh.read(100)
    if len(header) < 100:
        return f"cut short inside its header ({size} bytes)"
    page = int.from_bytes(header[16:18], "big")
    page = 65_536 if page == 1 else page
    if page < 512 or page & (page - 1) or size % page:
        return f"cut short: {size} bytes is not a whole number of {page}-byte pages"
    try:
        with closing(sqlite3.connect(f"{copy.as_uri()}?mode=ro", uri=True)) as conn:
            conn.text_factory = bytes  # a damaged page can hold anything, even in a message
            found = conn.execute("PRAGMA quick_check").fetchall()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        return _one_line(exc)
    if found == [(b"ok",)]:
        return None
    return _one_line(found[0][0].decode("utf-8", "replace"))


def _one_line(reason: object) -> str:
    """Exception or text -> one short line."""
    return " ".join(str(reason).split())[:200]


def _damaged(db: Path, reason: str) -> SourceError:
    """Database + what is wrong -> the error a user sees (damaged, not locked: retrying won't help)."""
    return SourceError(
        db,
        f"damaged ({reason}); the browser usually repairs it when it next starts, "
        "or recover it with `sqlite3 FILE .recover`",
    )


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
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        raise _classify(exc, copy, db) from exc
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        conn.close()
        raise _classify(exc, copy, db) from exc
    return conn


def _classify(exc: Exception, copy: Path, db: Path) -> Exception:
    """Error opening the private copy -> SourceError when the file is damaged, else _Transient.

    Nobody else uses the copy, so a failure there is damage unless the copy itself was
    caught mid-write: `damage` tells them apart, and only a sound file is retried.
    """
    if getattr(exc, "sqlite_errorname", "") == "SQLITE_NOTADB":
        return SourceError(db, f"not a SQLite database ({exc})")
    found = damage(copy)
    if found is not None:
        return _damaged(db, found)
    return _Transient(_one_line(exc))


# Files found sound, by state: a backfill reads one History for every day, and checking
# every page of a 50 MB file each time would cost more than reading the day's visits.
_SOUND: set[tuple[object, ...]] = set()


def _remember_sound(state: tuple[object, ...]) -> None:
    """State of a database found sound -> remembered for this process (a bounded set)."""
    if len(_SOUND) >= 256:
        _SOUND.clear()
    _SOUND.add(state)


def _tables(conn: sqlite3.Connection) -> set[str]:
    """Connection -> the names of its tables and views."""
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
    return {str(name) for (name,) in rows}


def _snapshot(db: Path, into: Path, tables: tuple[str, ...]) -> sqlite3.Connection:
    """Database -> connection to a fresh, sound copy of it inside `into`.

    A WAL beside the database that spoils it is not applied: one left by another database
    (its pages replace the browser's tables) or a damaged one. The copy is then read
    without it, when that is sound and has the browser's `tables`, and a warning names it.
    """
    copy, state = _copy_files(db, into)
    conn = _open_copy(copy, db)
    if state in _SOUND:
        return conn
    found = damage(copy)
    if found is None and set(tables) <= _tables(conn):
        _remember_sound(state)
        return conn
    wal = copy.with_name(copy.name + "-wal")
    if not wal.exists():
        if found is None:
            return conn  # the browser's tables are missing: require_columns says which
        conn.close()
        raise _damaged(db, found)
    conn.close()
    for leftover in (wal, copy.with_name(copy.name + "-shm")):
        leftover.unlink(missing_ok=True)
    if damage(copy) is None:
        alone = _open_copy(copy, db)
        if set(tables) <= _tables(alone):
            log.warning("%s-wal does not belong to %s or is damaged: read without it", db, db.name)
            return alone
        alone.close()
    if found is not None:
        raise _damaged(db, found)
    return _open_copy(_copy_files(db, into)[0], db)


@contextmanager
def shadow_copy(
    db: Path,
    *,
    tables: tuple[str, ...] = (),
    attempts: int = 5,
    wait_s: float = 0.2,
    tmp_root: Path | None = None,
) -> Iterator[sqlite3.Connection]:
    """Live SQLite file -> read-only connection to a private copy, removed on exit.

    Retries copy+open with exponential backoff (wait_s, doubling) on locks, mid-write
    copies and I/O errors; raises SourceLockedError after `attempts`, SourceError at once
    for a missing file, one that is not SQLite, or a damaged one (`PRAGMA quick_check` on
    the private copy).
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
            conn = retrying(_snapshot, db, workdir, tables)
        except _Transient as exc:
            raise SourceLockedError(
                db, f"could not read a consistent copy after {attempts} attempts: {exc}"
            ) from exc
        try:
            yield conn
        finally:
            conn.close()


UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


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
