"""Columnar visit reading shared by the browser collectors, checked against plain SQL."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
import pytest

from omoide.bench.throughput import synthetic_history
from omoide.core.settings import SourceConfig
from omoide.ingest.sources import collect
from omoide.ingest.sources.chrome import TRANSITIONS, WEBKIT_OFFSET_US

NOW = datetime(2026, 11, 21, 3, 0, tzinfo=UTC)
ALL_TIME = (datetime(2000, 1, 1, tzinfo=UTC), datetime(2030, 1, 1, tzinfo=UTC))
V36 = Path("/work/shared/eval/browser/chrome_History_hindsight_profile60.sqlite")


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 3,000-visit History with the awkward rows real files have."""
    db = tmp_path_factory.mktemp("hist") / "History"
    synthetic_history(db, 3000, seed=5)
    with sqlite3.connect(db) as conn:
        # Out of time order, tied times, duplicate URL strings, NULL titles, bad url rows.
        conn.execute("UPDATE visits SET visit_time = visit_time + 5000000 WHERE id % 17 = 0")
        conn.execute(
            "UPDATE visits SET visit_time = (SELECT visit_time FROM visits WHERE id = 100)"
            " WHERE id IN (100, 101, 102, 103)"
        )
        conn.execute("UPDATE visits SET url = 7 WHERE id IN (101, 103)")
        conn.execute(
            "INSERT INTO urls (id, url, title, last_visit_time) "
            "SELECT 900000 + id, url, NULL, 0 FROM urls WHERE id <= 20"
        )
        conn.execute("UPDATE visits SET url = 900000 + url WHERE url <= 20 AND id % 2 = 0")
        conn.execute("UPDATE urls SET title = NULL WHERE id % 9 = 0")
        conn.execute("UPDATE urls SET url = '' WHERE id = 30")
        conn.execute("UPDATE urls SET url = NULL WHERE id = 31")
        conn.execute("DELETE FROM urls WHERE id = 32")
        conn.execute("UPDATE visits SET transition = 0x30000000 | (id % 14)")
    return db


def plain_sql(db: Path) -> pd.DataFrame:
    """History -> its visits read row by row with a JOIN, as the collector once did."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute(
            "SELECT v.id, v.visit_time, v.visit_duration / 1e6, u.url, u.title, v.transition "
            "FROM visits AS v LEFT JOIN urls AS u ON v.url = u.id ORDER BY v.visit_time, v.id"
        ).fetchall()
    df = pd.DataFrame(rows, columns=["id", "raw", "duration_s", "url", "title", "transition"])
    df["rejected"] = df["url"].isna() | (df["url"] == "")
    return df


def as_plain(events: pd.DataFrame) -> pd.DataFrame:
    """Events -> comparable plain columns (no categoricals, None for missing)."""
    out = pd.DataFrame(
        {
            "id": [int(r.rsplit("=", 1)[1]) for r in events["source_ref"]],
            "ts": events["ts"].astype("int64").tolist(),
            "duration_s": events["duration_s"].tolist(),
            "url": events["url"].astype(object).tolist(),
            "title": events["title"].astype(object).tolist(),
            "transition": events["transition"].astype(object).tolist(),
        }
    )
    return out.map(lambda v: None if v is None or v != v else v)


def test_columnar_read_matches_a_plain_join(history: Path) -> None:
    got = collect(SourceConfig(kind="chrome", path=history, name="h"), *ALL_TIME, NOW)
    ref = plain_sql(history)
    kept = ref[~ref["rejected"]]
    assert [r.ref.rsplit("=", 1)[1] for r in got.rejects] == [
        str(i) for i in ref.loc[ref["rejected"], "id"]
    ]
    expected = pd.DataFrame(
        {
            "id": kept["id"].tolist(),
            "ts": (kept["raw"] - WEBKIT_OFFSET_US).tolist(),
            "duration_s": kept["duration_s"].clip(lower=0).tolist(),
            "url": kept["url"].tolist(),
            "title": kept["title"].tolist(),
            "transition": [
                TRANSITIONS.get(t & 0xFF, f"core_{t & 0xFF}") for t in kept["transition"]
            ],
        }
    ).map(lambda v: None if v is None or v != v else v)
    pd.testing.assert_frame_equal(as_plain(got.events), expected)
    assert got.events["event_id"].is_unique
    for column in ("url", "title", "transition", "source", "app"):
        assert isinstance(got.events[column].dtype, pd.CategoricalDtype)


def test_parallel_slices_read_the_same_events(
    history: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = SourceConfig(kind="chrome", path=history, name="h")
    whole = collect(source, *ALL_TIME, NOW).events
    monkeypatch.setattr("omoide.ingest.sources.visits._PARALLEL_BYTES", 0)
    monkeypatch.setattr("omoide.ingest.sources.visits.os.cpu_count", lambda: 3)
    sliced = collect(source, *ALL_TIME, NOW).events
    pd.testing.assert_frame_equal(
        sliced.drop(columns="recorded_at"), whole.drop(columns="recorded_at")
    )


def test_parallel_slices_of_a_wal_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "History"
    shutil.copyfile(V36, db)
    writer = sqlite3.connect(db)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("UPDATE urls SET title = 'only in the WAL' WHERE id = 1")
    writer.commit()
    try:
        monkeypatch.setattr("omoide.ingest.sources.visits._PARALLEL_BYTES", 0)
        got = collect(SourceConfig(kind="chrome", path=db, name="c"), *ALL_TIME, NOW).events
    finally:
        writer.close()
    assert len(got) == 61
    with sqlite3.connect(f"file:{V36}?mode=ro", uri=True) as conn:
        url = conn.execute("SELECT url FROM urls WHERE id = 1").fetchone()[0]
    titles = got.loc[got["url"] == url, "title"]
    assert len(titles) > 0 and (titles == "only in the WAL").all()


def test_empty_window(history: Path) -> None:
    before = (datetime(2001, 1, 1, tzinfo=UTC), datetime(2001, 1, 2, tzinfo=UTC))
    got = collect(SourceConfig(kind="chrome", path=history, name="h"), *before, NOW)
    assert got.events.empty and got.rejects == []


def test_text_typed_oddly_still_reads(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # The reader infers column types from the first rows it sees: a long run of NULL
    # titles, a number stored as a title and bytes that are not UTF-8 must all survive.
    db = tmp_path / "History"
    synthetic_history(db, 20_000, seed=7)  # 2,500 pages
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE urls SET title = NULL WHERE id <= 2000")
        conn.execute("UPDATE urls SET title = 12345 WHERE id = 2001")
        conn.execute("UPDATE urls SET title = CAST(X'4b796f746f20ff21' AS TEXT) WHERE id = 2002")
        conn.execute("UPDATE visits SET url = 1 + (id % 2100)")
    got = collect(SourceConfig(kind="chrome", path=db, name="h"), *ALL_TIME, NOW)
    assert len(got.events) == 20_000 and got.rejects == []
    events = got.events.astype({"url": str, "title": object})
    titles = dict(zip(events["url"], events["title"], strict=True))
    with sqlite3.connect(db) as conn:
        url_of = dict(conn.execute("SELECT id, url FROM urls WHERE id IN (1, 2001, 2002)"))
    assert pd.isna(titles[url_of[1]])
    assert titles[url_of[2001]] == "12345"
    assert titles[url_of[2002]] == "Kyoto \ufffd!"
    assert f"{db}: a title with invalid UTF-8" in caplog.text


def test_pages_outside_the_window_stay_out(tmp_path: Path) -> None:
    # Dense page ids take the range-scan path; pages no visit in the window points at must
    # not ride along as unused categories (they would reach the lake's dictionaries).
    db = tmp_path / "History"
    synthetic_history(db, 4000, seed=3)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE visits SET url = 1 + (id % 400)")
        conn.execute("UPDATE visits SET url = 999 WHERE id % 400 = 7")  # page 8 unused
    events = collect(SourceConfig(kind="chrome", path=db, name="h"), *ALL_TIME, NOW).events
    used = set(events["url"].astype(str))
    assert set(events["url"].cat.categories) == used
    assert set(events["title"].cat.categories) == set(events["title"].dropna().astype(str))
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT url FROM urls WHERE id = 8").fetchone()[0] not in used
