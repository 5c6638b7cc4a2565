"""Firefox collector on places.sqlite files built from real CREATE statements."""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.core.row_ids import row_ids, stable_seeds
from omoide.core.settings import SourceConfig
from omoide.ingest.sources import collect
from omoide.ingest.sources.sqlite_copy import unix_us

# mozilla/gecko-dev toolkit/components/places/nsPlacesTables.h @6aa1ccb2 (MPL-2.0).
CURRENT = [
    "CREATE TABLE moz_origins ( id INTEGER PRIMARY KEY, prefix TEXT NOT NULL, host TEXT NOT "
    "NULL, frecency INTEGER NOT NULL, recalc_frecency INTEGER NOT NULL DEFAULT 0, alt_frecency "
    "INTEGER, recalc_alt_frecency INTEGER NOT NULL DEFAULT 0, UNIQUE (prefix, host) )",
    "CREATE TABLE moz_places (  id INTEGER PRIMARY KEY, url LONGVARCHAR, title LONGVARCHAR, "
    "rev_host LONGVARCHAR, visit_count INTEGER DEFAULT 0, hidden INTEGER DEFAULT 0 NOT NULL, "
    "typed INTEGER DEFAULT 0 NOT NULL, frecency INTEGER DEFAULT -1 NOT NULL, last_visit_date "
    "INTEGER , guid TEXT, foreign_count INTEGER DEFAULT 0 NOT NULL, url_hash INTEGER DEFAULT 0 "
    "NOT NULL , description TEXT, preview_image_url TEXT, site_name TEXT, origin_id INTEGER "
    "REFERENCES moz_origins(id), recalc_frecency INTEGER NOT NULL DEFAULT 0, alt_frecency "
    "INTEGER, recalc_alt_frecency INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE moz_historyvisits (  id INTEGER PRIMARY KEY, from_visit INTEGER, place_id "
    "INTEGER, visit_date INTEGER, visit_type INTEGER, session INTEGER, source INTEGER DEFAULT 0 "
    "NOT NULL, triggeringPlaceId INTEGER)",
]
# google/grr test_data/places.sqlite (Firefox 3.x era): no guid, no moz_origins, favicon_id.
OLD = [
    "CREATE TABLE moz_places (   id INTEGER PRIMARY KEY, url LONGVARCHAR, title LONGVARCHAR, "
    "rev_host LONGVARCHAR, visit_count INTEGER DEFAULT 0, hidden INTEGER DEFAULT 0 NOT NULL, "
    "typed INTEGER DEFAULT 0 NOT NULL, favicon_id INTEGER, frecency INTEGER DEFAULT -1 NOT NULL, "
    "last_visit_date INTEGER )",
    "CREATE TABLE moz_historyvisits (  id INTEGER PRIMARY KEY, from_visit INTEGER, place_id "
    "INTEGER, visit_date INTEGER, visit_type INTEGER, session INTEGER)",
]

TZ = "Europe/Berlin"
NOW = datetime(2026, 11, 21, 3, 0, tzinfo=UTC)
# 00:00 on 2026-11-20 in Berlin (CET, UTC+1) is 23:00 UTC on the 19th.
MIDNIGHT = datetime(2026, 11, 19, 23, 0, tzinfo=UTC)
US = timedelta(microseconds=1)

PLACES = [
    (1, "https://example.org/late", "Late night"),
    (2, "https://example.org/", "Example"),
    (3, "https://news.example.com/a?x=1", None),
]
# (visit id, place id, UTC time, visit_type)
VISITS = [
    (1, 1, MIDNIGHT - US, 1),  # last microsecond of the 19th, local time
    (2, 2, MIDNIGHT, 2),  # first microsecond of the 20th
    *[(10 + t, 3, MIDNIGHT + timedelta(hours=t), t) for t in range(3, 10)],
    (20, 2, MIDNIGHT + timedelta(hours=12), 11),  # a type newer than this code
    (21, 99, MIDNIGHT + timedelta(hours=13), 1),  # place row gone
    (22, 3, MIDNIGHT + timedelta(hours=14), 5),  # redirect: same URL, same microsecond
    (23, 3, MIDNIGHT + timedelta(hours=14), 1),
    (30, 2, MIDNIGHT + timedelta(days=1), 1),  # first microsecond of the 21st
]


def build(path: Path, statements: list[str], visits: list[tuple] = VISITS) -> Path:
    """CREATE statements + rows -> a places.sqlite at path."""
    with sqlite3.connect(path) as conn:
        for stmt in statements:
            conn.execute(stmt)
        if any("moz_origins" in s for s in statements):
            conn.execute(
                "INSERT INTO moz_origins VALUES (1, 'https://', 'example.org', 1, 0, 0, 0)"
            )
        conn.executemany("INSERT INTO moz_places (id, url, title) VALUES (?, ?, ?)", PLACES)
        conn.executemany(
            "INSERT INTO moz_historyvisits (id, place_id, visit_date, visit_type) VALUES (?,?,?,?)",
            [(i, p, unix_us(t), vt) for i, p, t, vt in visits],
        )
    return path


def visit_event_id(raw_time: int, url: str, nth: int = 0) -> str:
    """Firefox visit -> its event id: a stable seed per URL, mixed with time and repeat number."""
    seeds = stable_seeds(("firefox", "firefox"), [url])
    return row_ids(seeds, np.array([raw_time]), np.array([nth]))[0].as_py()


def firefox(path: Path) -> SourceConfig:
    """places path -> a firefox SourceConfig."""
    return SourceConfig(kind="firefox", path=path, name="firefox")


def one(events: pd.DataFrame, db: Path, visit_id: int) -> pd.Series:
    """Events -> the event of one moz_historyvisits id."""
    hit = events[events["source_ref"] == f"{db}#moz_historyvisits.id={visit_id}"]
    assert len(hit) == 1
    return hit.iloc[0]


@pytest.mark.parametrize("statements", [CURRENT, OLD], ids=["current", "old"])
def test_local_day_of_visits(tmp_path: Path, statements: list[str]) -> None:
    db = build(tmp_path / "places.sqlite", statements)
    got = collect(firefox(db), *day_bounds(date(2026, 11, 20), TZ), NOW)
    ev = got.events

    refs = sorted(int(r.rsplit("=", 1)[1]) for r in ev["source_ref"])
    assert refs == [2, 13, 14, 15, 16, 17, 18, 19, 20, 22, 23]
    assert [(r.ref, r.reason, r.excerpt) for r in got.rejects] == [
        (f"{db}#moz_historyvisits.id=21", "visit has no URL (missing or empty url row)", "")
    ]
    first = one(ev, db, 2)
    assert first["ts"] == pd.Timestamp("2026-11-19T23:00:00Z")
    assert (first["url"], first["title"], first["transition"]) == (
        "https://example.org/",
        "Example",
        "typed",
    )
    assert (first["app"], first["event_type"], first["duration_s"]) == ("Firefox", "visit", 0.0)
    assert first["event_id"] == visit_event_id(unix_us(MIDNIGHT), "https://example.org/")
    names = [one(ev, db, 10 + t)["transition"] for t in range(3, 10)]
    assert names == [
        "bookmark",
        "embed",
        "redirect_permanent",
        "redirect_temporary",
        "download",
        "framed_link",
        "reload",
    ]
    assert one(ev, db, 20)["transition"] == "type_11"
    assert pd.isna(one(ev, db, 13)["title"])
    assert ev["event_id"].is_unique
    schemas.to_table(ev, schemas.EVENTS)


def test_neighbouring_days_split_at_local_midnight(tmp_path: Path) -> None:
    db = build(tmp_path / "places.sqlite", CURRENT)
    before = collect(firefox(db), *day_bounds(date(2026, 11, 19), TZ), NOW).events
    after = collect(firefox(db), *day_bounds(date(2026, 11, 21), TZ), NOW).events
    assert before["source_ref"].tolist() == [f"{db}#moz_historyvisits.id=1"]
    assert before["ts"].iloc[0] == pd.Timestamp("2026-11-19T22:59:59.999999Z")
    assert after["source_ref"].tolist() == [f"{db}#moz_historyvisits.id=30"]


def test_ids_stable_and_redirect_pair_distinct(tmp_path: Path) -> None:
    db = build(tmp_path / "places.sqlite", CURRENT)
    window = day_bounds(date(2026, 11, 20), TZ)
    a = collect(firefox(db), *window, NOW).events
    b = collect(firefox(db), *window, NOW + timedelta(days=3)).events
    assert a["event_id"].tolist() == b["event_id"].tolist()
    url, t = "https://news.example.com/a?x=1", unix_us(MIDNIGHT + timedelta(hours=14))
    assert one(a, db, 22)["event_id"] == visit_event_id(t, url)
    assert one(a, db, 23)["event_id"] == visit_event_id(t, url, 1)


def test_profile_folder_and_null_visit_type(tmp_path: Path) -> None:
    profile = tmp_path / "abcd1234.default-release"
    profile.mkdir()
    build(profile / "places.sqlite", OLD, visits=[(1, 2, MIDNIGHT, None)])
    got = collect(firefox(profile), *day_bounds(date(2026, 11, 20), TZ), NOW)
    assert got.events["source_ref"].tolist() == [
        f"{profile / 'places.sqlite'}#moz_historyvisits.id=1"
    ]
    assert pd.isna(got.events["transition"].iloc[0])
