"""Safari collector on History.db files built from the real CREATE statements, WAL included;
`omoide init` finding it on macOS."""

from __future__ import annotations

import sqlite3
import tomllib
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from omoide.core import schemas
from omoide.core.errors import SourceError
from omoide.core.settings import SourceConfig
from omoide.ingest.discover import browser_profiles, starter_toml
from omoide.ingest.fingerprint import input_files
from omoide.ingest.sources import collect
from omoide.ingest.sources.safari import APPLE_EPOCH_S
from omoide.ingest.sources.visits import IMPOSSIBLE, NO_URL
from tests.unit.ingest.sources.chat_exports import DAY, END, NOW, START, TZ

# The tables as log2timeline/plaso's Safari plugin lists them (SCHEMAS), with the
# `status_code` column newer Safari versions add to history_items.
SCHEMA = [
    "CREATE TABLE history_items (id INTEGER PRIMARY KEY AUTOINCREMENT, url TEXT NOT NULL "
    "UNIQUE,domain_expansion TEXT NULL, visit_count INTEGER NOT NULL, daily_visit_counts BLOB "
    "NOT NULL, weekly_visit_counts BLOB NULL, autocomplete_triggers BLOB NULL, "
    "should_recompute_derived_visit_counts INTEGER NOT NULL, visit_count_score INTEGER NOT "
    "NULL, status_code INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE history_visits (id INTEGER PRIMARY KEY AUTOINCREMENT, history_item INTEGER "
    "NOT NULL REFERENCES history_items(id) ON DELETE CASCADE, visit_time REAL NOT NULL, title "
    "TEXT NULL,load_successful BOOLEAN NOT NULL DEFAULT 1, http_non_get BOOLEAN NOT NULL "
    "DEFAULT 0, synthesized BOOLEAN NOT NULL DEFAULT 0, redirect_source INTEGER NULL UNIQUE "
    "REFERENCES history_visits(id) ON DELETE CASCADE, redirect_destination INTEGER NULL UNIQUE "
    "REFERENCES history_visits(id) ON DELETE CASCADE, origin INTEGER NOT NULL DEFAULT 0, "
    "generation INTEGER NOT NULL DEFAULT 0, attributes INTEGER NOT NULL DEFAULT 0, score "
    "INTEGER NOT NULL DEFAULT 0)",
    "CREATE INDEX history_visits__last_visit ON history_visits (history_item, visit_time DESC)",
    "CREATE TABLE history_tombstones (id INTEGER PRIMARY KEY AUTOINCREMENT, start_time REAL "
    "NOT NULL, end_time REAL NOT NULL, url TEXT,generation INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE metadata (key TEXT NOT NULL UNIQUE, value)",
]
ITEMS = [
    (1, "https://www.apple.com/", "apple"),
    (2, "https://t.co/x1", "t"),
    (3, "https://example.org/kyoto-ryokan", "example"),
    (4, "https://shop.example/checkout", "shop"),
]


def local(hhmmss: str, day: int = 20) -> float:
    """Tokyo wall-clock time on November `day` -> Safari's visit_time (s since 2001 UTC)."""
    at = datetime.fromisoformat(f"2026-11-{day}T{hhmmss}+09:00")
    return at.timestamp() - APPLE_EPOCH_S


# (id, item, visit_time, title, load_successful, http_non_get, redirect_source, redirect_dest, origin)
VISITS = [
    (1, 1, local("09:00:00.250"), "Apple", 1, 0, None, None, 0),
    (2, 2, local("09:05:00"), None, 1, 0, None, 3, 0),  # a short link that redirects ...
    (3, 3, local("09:05:00.5"), "Ryokan in Higashiyama", 1, 0, 2, None, 0),  # ... to the page
    (4, 4, local("09:10:00"), "Checkout", 1, 1, None, None, 0),  # a form sent
    (5, 3, local("09:20:00"), "", 0, 0, None, None, 0),  # a load that failed: no visit
    (6, 99, local("09:30:00"), "Gone", 1, 0, None, None, 0),  # its history_items row is gone
    (7, 1, -400_000_000.0, "Apple", 1, 0, None, None, 0),  # 1988: no one recorded that
    (8, 3, local("10:00:00"), "Ryokan in Higashiyama", 1, 0, None, None, 1),  # from the iPhone
    (9, 1, local("09:00:00", day=21), "Apple", 1, 0, None, None, 0),  # the next day
]


def build_history(path: Path, visits: list[tuple] = VISITS) -> Path:
    """Path + visit rows -> a Safari History.db there with the real schema."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as conn:
        for stmt in SCHEMA:
            conn.execute(stmt)
        conn.executemany(
            "INSERT INTO history_items (id, url, domain_expansion, visit_count, "
            "daily_visit_counts, should_recompute_derived_visit_counts, visit_count_score) "
            "VALUES (?, ?, ?, 1, X'', 0, 100)",
            ITEMS,
        )
        conn.executemany(
            "INSERT INTO history_visits (id, history_item, visit_time, title, load_successful, "
            "http_non_get, redirect_source, redirect_destination, origin) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            visits,
        )
        conn.execute("INSERT INTO metadata VALUES ('version', 20)")
    conn.close()
    return path


def shown(events) -> list[tuple]:
    """Events -> (Tokyo time, url, title, transition, ref tail) in time order."""
    return [
        (
            r.ts.tz_convert(TZ).strftime("%H:%M:%S.%f"),
            r.url,
            r.title if isinstance(r.title, str) else None,
            r.transition if isinstance(r.transition, str) else None,
            r.source_ref.rsplit("#", 1)[1],
        )
        for r in events.sort_values("ts").itertuples()
    ]


def test_safari_visits_of_the_local_day(tmp_path: Path) -> None:
    db = build_history(tmp_path / "Safari" / "History.db")
    out = collect(SourceConfig(kind="safari", path=db.parent, name="safari"), START, END, NOW)
    assert shown(out.events) == [
        ("09:00:00.250000", "https://www.apple.com/", "Apple", None, "history_visits.id=1"),
        ("09:05:00.000000", "https://t.co/x1", None, None, "history_visits.id=2"),
        (
            "09:05:00.500000",
            "https://example.org/kyoto-ryokan",
            "Ryokan in Higashiyama",
            "redirect",
            "history_visits.id=3",
        ),
        (
            "09:10:00.000000",
            "https://shop.example/checkout",
            "Checkout",
            "form_submit",
            "history_visits.id=4",
        ),
        (
            "10:00:00.000000",
            "https://example.org/kyoto-ryokan",
            "Ryokan in Higashiyama",
            None,
            "history_visits.id=8",
        ),
    ]  # the failed load (5) is no visit; the next day's (9) is not this day's
    assert sorted((r.ref.rsplit("#", 1)[1], r.reason) for r in out.rejects) == [
        ("history_visits.id=6", NO_URL),
        ("history_visits.id=7", IMPOSSIBLE),
    ]
    assert out.rejects[0].ref.startswith(str(db) + "#")
    events = out.events
    assert set(events["source"]) == {"safari"} and set(events["app"]) == {"Safari"}
    assert set(events["event_type"]) == {"visit"} and events["event_id"].is_unique
    schemas.to_table(events, schemas.EVENTS)
    again = collect(SourceConfig(kind="safari", path=db, name="safari"), START, END, NOW).events
    assert again["event_id"].tolist() == events["event_id"].tolist()
    assert [p.name for p in input_files(SourceConfig(kind="safari", path=db, name="s"), DAY)] == [
        "History.db"
    ]


def test_safari_reads_visits_still_in_the_wal(tmp_path: Path) -> None:
    db = build_history(tmp_path / "History.db", VISITS[:1])
    writer = sqlite3.connect(db)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute(
        "INSERT INTO history_visits (id, history_item, visit_time, title) VALUES (?, 3, ?, ?)",
        (50, local("12:00:00"), "only in the WAL"),
    )
    writer.commit()
    try:
        assert (tmp_path / "History.db-wal").stat().st_size > 0
        source = SourceConfig(kind="safari", path=db, name="safari")
        got = collect(source, START, END, NOW).events
        assert [p.name for p in input_files(source, DAY)] == ["History.db", "History.db-wal"]
    finally:
        writer.close()
    assert got["title"].tolist() == ["Apple", "only in the WAL"]


def test_safari_refusals_name_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = SourceConfig(kind="safari", path=tmp_path / "nowhere" / "History.db", name="s")
    with pytest.raises(SourceError, match="not found"):
        collect(source, START, END, NOW)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    with pytest.raises(SourceError, match="no 'history_visits' table"):
        collect(SourceConfig(kind="safari", path=other, name="s"), START, END, NOW)
    # macOS refuses ~/Library/Safari to apps without Full Disk Access (EPERM on open).
    db = build_history(tmp_path / "History.db")
    real_open = Path.open

    def guarded(self: Path, *args: object, **kwargs: object):
        if self == db:
            raise PermissionError(1, "Operation not permitted", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", guarded)
    with pytest.raises(SourceError, match="Full Disk Access") as err:
        collect(SourceConfig(kind="safari", path=db, name="s"), START, END, NOW)
    assert str(db) in str(err.value)


def test_safari_times_are_read_to_the_microsecond(tmp_path: Path) -> None:
    at = local("23:59:59.999999")  # the last microsecond of the day stays on it
    db = build_history(tmp_path / "History.db", [(1, 1, at, "late", 1, 0, None, None, 0)])
    got = collect(SourceConfig(kind="safari", path=db, name="s"), START, END, NOW).events
    assert got["ts"].iloc[0] == END - timedelta(microseconds=1)


def test_init_finds_safari_on_macos(tmp_path: Path) -> None:
    db = build_history(tmp_path / "Library" / "Safari" / "History.db", VISITS[:1])
    chrome = tmp_path / "Library/Application Support/Google/Chrome/Default/History"
    chrome.parent.mkdir(parents=True)
    chrome.write_bytes(b"")
    found = browser_profiles(tmp_path, "darwin")
    assert found == [("chrome", chrome), ("safari", db)]
    assert browser_profiles(tmp_path, "linux") == []
    text = starter_toml(found, "Asia/Tokyo")
    config = tomllib.loads(text)
    assert [(s["kind"], s["path"]) for s in config["sources"]] == [
        ("chrome", str(chrome)),
        ("safari", str(db)),
    ]
    assert "Full Disk Access" in text


def test_omoide_init_on_a_mac_lists_safari_and_doctor_reads_it(
    tmp_path: Path, omoide_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from omoide.cli.doctor import _source_check
    from omoide.cli.run import init
    from omoide.core.settings import get_settings

    user = tmp_path / "user"
    db = build_history(user / "Library" / "Safari" / "History.db")
    monkeypatch.setenv("HOME", str(user))
    monkeypatch.setattr("omoide.ingest.discover.sys.platform", "darwin")
    init()
    (source,) = get_settings().sources
    assert (source.kind, source.path, source.name) == ("safari", db, "safari-1")
    (label, ok, detail), span = _source_check(source, DAY, TZ, NOW)
    assert (label, ok) == ("source safari-1 (safari)", True)
    assert "5 events on 2026-11-20, 2 rejected" in detail and span is not None
