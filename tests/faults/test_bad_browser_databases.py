"""Browser databases that are not what they claim: bad visits quarantined, foreign files named."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.core.errors import SourceError
from omoide.ingest.sources import collect
from tests.unit.ingest.sources.test_chrome import ALL_TIME, NOW, V22, chrome
from tests.unit.ingest.sources.test_firefox import CURRENT, TZ, build, firefox


def test_visit_without_url_row_is_rejected_not_lost(tmp_path: Path) -> None:
    db = tmp_path / "History"
    shutil.copyfile(V22, db)
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM urls WHERE id = (SELECT url FROM visits WHERE id = 3)")
    got = collect(chrome(db), *ALL_TIME, NOW)
    assert len(got.events) == 57
    assert [(r.ref, r.excerpt) for r in got.rejects] == [(f"{db}#visits.id=3", "")]


def test_not_a_history_database(tmp_path: Path) -> None:
    db = tmp_path / "History"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE other(x)")
    with pytest.raises(SourceError, match=r"History: no 'visits' table"):
        collect(chrome(db), *ALL_TIME, NOW)
    empty_profile = tmp_path / "Default"
    empty_profile.mkdir()
    with pytest.raises(SourceError, match=r"Default/History: not found"):
        collect(chrome(empty_profile), *ALL_TIME, NOW)


def test_empty_window_and_wrong_database(tmp_path: Path) -> None:
    db = build(tmp_path / "places.sqlite", CURRENT)
    got = collect(firefox(db), *day_bounds(date(2020, 1, 1), TZ), NOW)
    assert got.events.empty and list(got.events.columns) == schemas.EVENTS.names
    assert schemas.to_table(got.events, schemas.EVENTS).num_rows == 0
    other = tmp_path / "cookies.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE moz_cookies(id INTEGER PRIMARY KEY)")
    with pytest.raises(SourceError, match=r"cookies.sqlite: no 'moz_historyvisits' table"):
        collect(firefox(other), *day_bounds(date(2026, 11, 20), TZ), NOW)


def test_a_blob_where_a_url_or_title_belongs_is_never_stored_as_text(tmp_path: Path) -> None:
    db = tmp_path / "History"
    shutil.copyfile(V22, db)
    with sqlite3.connect(db) as conn:
        page, title_page = (
            r[0] for r in conn.execute("SELECT url FROM visits WHERE id IN (3, 4) ORDER BY id")
        )
        conn.execute("UPDATE urls SET url = X'FFFE00' WHERE id = ?", (page,))
        conn.execute("UPDATE urls SET title = X'0001FFFE' WHERE id = ?", (title_page,))
        visits_of_page = conn.execute("SELECT count(*) FROM visits WHERE url = ?", (page,))
        lost = visits_of_page.fetchone()[0]
        titled = conn.execute("SELECT count(*) FROM visits WHERE url = ?", (title_page,))
        untitled = titled.fetchone()[0]
    got = collect(chrome(db), *ALL_TIME, NOW)
    assert len(got.events) == 58 - lost
    assert {r.reason for r in got.rejects} == {
        "url is not text: mostly control or replacement characters"
    }
    assert f"{db}#visits.id=3" in {r.ref for r in got.rejects}
    assert got.fixed == {"garbled_title_dropped": untitled}
    visit4 = got.events[got.events["source_ref"] == f"{db}#visits.id=4"].iloc[0]
    assert visit4["title"] is None or pd.isna(visit4["title"])
