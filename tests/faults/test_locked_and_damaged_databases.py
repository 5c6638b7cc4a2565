"""Shadow copies of databases another process holds locked, is writing, or that are broken."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from omoide.bench.throughput import synthetic_history
from omoide.core.errors import SourceError, SourceLockedError
from omoide.core.settings import SourceConfig
from omoide.ingest.sources import collect
from omoide.ingest.sources.chrome import chrome_us
from omoide.ingest.sources.sqlite_copy import shadow_copy

# Chrome History schema v36 (obsidianforensics/hindsight profile 60, Apache-2.0).
URLS = (
    "CREATE TABLE urls(id INTEGER PRIMARY KEY AUTOINCREMENT,url LONGVARCHAR,title LONGVARCHAR,"
    "visit_count INTEGER DEFAULT 0 NOT NULL,typed_count INTEGER DEFAULT 0 NOT NULL,"
    "last_visit_time INTEGER NOT NULL,hidden INTEGER DEFAULT 0 NOT NULL)"
)
VISITS = (
    "CREATE TABLE visits(id INTEGER PRIMARY KEY,url INTEGER NOT NULL,visit_time INTEGER NOT "
    "NULL,from_visit INTEGER,transition INTEGER DEFAULT 0 NOT NULL,segment_id INTEGER,"
    "visit_duration INTEGER DEFAULT 0 NOT NULL)"
)
T0 = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
WINDOW = (T0 - timedelta(hours=1), T0 + timedelta(hours=12))
NOW = datetime(2026, 11, 21, 3, 0, tzinfo=UTC)

# Plays the browser: holds History with an exclusive lock, commits visits 21..50 (which in
# WAL mode stay in the WAL: no checkpoint), then keeps a spilled write transaction open.
HOLDER = """
import sqlite3, sys
db, mode, t0 = sys.argv[1], sys.argv[2], int(sys.argv[3])
conn = sqlite3.connect(db, isolation_level=None)
conn.execute("PRAGMA locking_mode=EXCLUSIVE")
conn.execute(f"PRAGMA journal_mode={mode}")
conn.execute("PRAGMA wal_autocheckpoint=0")
conn.execute("PRAGMA cache_size=2")

def add(i, pad):
    conn.execute("INSERT INTO urls(id, url, title, last_visit_time) VALUES (?, ?, ?, ?)",
                 (i, f"https://example.org/{i}", pad, t0 + i))
    conn.execute("INSERT INTO visits(id, url, visit_time, transition) VALUES (?, ?, ?, 1)",
                 (i, i, t0 + i * 1_000_000))

conn.execute("BEGIN")
for i in range(21, 51):
    add(i, "committed")
conn.execute("COMMIT")
conn.execute("BEGIN IMMEDIATE")
for i in range(51, 251):
    add(i, "x" * 3000)
print("ready", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
"""

# Plays a browser in use: commits one visit every 10 ms until its stdin closes.
WRITER = """
import sqlite3, sys, threading, time
db, mode, t0 = sys.argv[1], sys.argv[2], int(sys.argv[3])
conn = sqlite3.connect(db, isolation_level=None)
conn.execute(f"PRAGMA journal_mode={mode}")
stop = threading.Event()
threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()
print("ready", flush=True)
i = 21
while not stop.is_set():
    with conn:
        conn.execute("INSERT INTO urls(id, url, title, last_visit_time) VALUES (?, ?, 'w', ?)",
                     (i, f"https://example.org/{i}", t0 + i))
        conn.execute("INSERT INTO visits(id, url, visit_time, transition) VALUES (?, ?, ?, 1)",
                     (i, i, t0 + i * 1_000_000))
    i += 1
    time.sleep(0.01)
"""


def make_history(path: Path, n: int = 20) -> Path:
    """Path -> a Chrome History (rollback journal) with visits 1..n, one second apart."""
    t0 = chrome_us(T0)
    with sqlite3.connect(path) as conn:
        conn.execute(URLS)
        conn.execute(VISITS)
        for i in range(1, n + 1):
            conn.execute(
                "INSERT INTO urls(id, url, title, last_visit_time) VALUES (?, ?, 'seed', ?)",
                (i, f"https://example.org/{i}", t0 + i),
            )
            conn.execute(
                "INSERT INTO visits(id, url, visit_time, transition) VALUES (?, ?, ?, 0)",
                (i, i, t0 + i * 1_000_000),
            )
    return path


@contextmanager
def browser(script: str, db: Path, mode: str) -> Iterator[subprocess.Popen[str]]:
    """Script + database -> a running process that has it open, stopped on exit."""
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(db), mode, str(chrome_us(T0))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        yield proc
    finally:
        if proc.poll() is None:
            assert proc.stdin is not None
            proc.stdin.close()
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def visit_ids(db: Path) -> list[int]:
    """History -> visit ids the chrome collector returns for the test window."""
    got = collect(SourceConfig(kind="chrome", path=db, name="chrome"), *WINDOW, NOW)
    assert got.rejects == []
    return sorted(int(r.rsplit("=", 1)[1]) for r in got.events["source_ref"])


@pytest.mark.parametrize("mode", ["wal", "delete", "truncate"])
def test_exclusive_lock_held_by_another_process(tmp_path: Path, mode: str) -> None:
    db = make_history(tmp_path / "History")
    with browser(HOLDER, db, mode):
        # The lock is real: a plain reader of the original is refused.
        with pytest.raises(sqlite3.OperationalError, match="database is locked"):
            with sqlite3.connect(db, timeout=0) as direct:
                direct.execute("SELECT count(*) FROM visits").fetchone()
        journal = db.with_name("History-wal" if mode == "wal" else "History-journal")
        assert journal.stat().st_size > 0
        # Every committed visit, none of the 200 still-open ones.
        assert visit_ids(db) == list(range(1, 51))
        if mode == "wal":
            # Visits 21..50 live only in the WAL: the main file alone does not have them.
            alone = tmp_path / "alone"
            alone.mkdir()
            shutil.copyfile(db, alone / "History")
            uri = f"file:{alone / 'History'}?mode=ro&immutable=1"
            with sqlite3.connect(uri, uri=True) as conn:
                assert conn.execute("SELECT max(id) FROM visits").fetchone() == (20,)
    assert not any(p.name.startswith("omoide-sqlite-") for p in tmp_path.iterdir())


@pytest.mark.parametrize("mode", ["wal", "delete"])
def test_copies_stay_consistent_while_the_browser_writes(tmp_path: Path, mode: str) -> None:
    db = make_history(tmp_path / "History")
    seen = 20
    with browser(WRITER, db, mode):
        for _ in range(15):
            ids = visit_ids(db)
            # A consistent snapshot: a gap-free prefix that never shrinks.
            assert ids == list(range(1, len(ids) + 1))
            assert len(ids) >= seen
            seen = len(ids)
            time.sleep(0.03)
    assert seen > 20


def test_copy_lives_in_a_private_folder_removed_afterwards(tmp_path: Path) -> None:
    db = make_history(tmp_path / "History")
    with shadow_copy(db, tmp_root=tmp_path) as conn:
        (row,) = conn.execute("PRAGMA database_list").fetchall()
        folder = Path(row[2]).parent
        assert folder.parent == tmp_path and folder.stat().st_mode & 0o777 == 0o700
        assert conn.execute("SELECT count(*) FROM visits").fetchone() == (20,)
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("DELETE FROM visits")
    assert not folder.exists()


def test_random_bytes_fail_at_once_naming_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "History"
    bad.write_bytes(os.urandom(64 * 1024))
    started = time.monotonic()
    with pytest.raises(SourceError, match=r"History: not a SQLite database") as info:
        collect(SourceConfig(kind="chrome", path=bad, name="chrome"), *WINDOW, NOW)
    assert time.monotonic() - started < 0.5
    assert not isinstance(info.value, SourceLockedError)
    assert info.value.path == str(bad)


def test_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "places.sqlite"
    with pytest.raises(SourceError, match=r"places.sqlite: not found"):
        collect(SourceConfig(kind="firefox", path=missing, name="firefox"), *WINDOW, NOW)


def test_a_damaged_database_is_reported_as_damaged_at_once_not_as_a_lock(tmp_path: Path) -> None:
    db = make_history(tmp_path / "History")
    with db.open("r+b") as fh:  # keep the header, wreck the schema page behind it
        fh.seek(100)
        fh.write(b"\xff" * 3900)
    started = time.monotonic()
    with pytest.raises(SourceError, match=r"History: damaged \(.+\); .*\.recover") as info:
        with shadow_copy(db, attempts=3, wait_s=0.05):
            pass
    assert not isinstance(info.value, SourceLockedError) and not info.value.transient
    assert time.monotonic() - started < 0.15  # not retried: waiting cannot repair a file


def test_damaged_page_deep_in_the_file_names_the_file(tmp_path: Path) -> None:
    # The header and schema are intact, so the copy opens; quick_check finds the bad page.
    db = tmp_path / "History"
    synthetic_history(db, 20_000, seed=1)
    with db.open("r+b") as fh:
        fh.seek(db.stat().st_size // 2)
        fh.write(b"\xff" * 8192)
    everything = (datetime(2000, 1, 1, tzinfo=UTC), datetime(2030, 1, 1, tzinfo=UTC))
    with pytest.raises(SourceError, match=r"History: damaged \(.+\)") as info:
        collect(SourceConfig(kind="chrome", path=db, name="chrome"), *everything, NOW)
    assert info.value.path == str(db)
