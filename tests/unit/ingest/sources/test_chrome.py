"""Chrome collector on three real History files (schema v16, v22, v36), read in place."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import UTC, date, datetime
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from omoide.core import schemas
from omoide.core.days import day_bounds, local_day
from omoide.core.row_ids import row_ids, stable_seeds
from omoide.core.settings import SourceConfig
from omoide.ingest.sources import collect
from omoide.ingest.sources.chrome import browser_name, chrome_us

EVAL = Path("/work/shared/eval/browser")
V16 = EVAL / "chrome_History_hindsight_profile01.sqlite"  # visits 2013-06-05 04:26-04:38 UTC
V22 = EVAL / "chrome_History_hindsight_profile20.sqlite"  # visits 2013-06-30 21:25-21:29 UTC
V36 = EVAL / "chrome_History_hindsight_profile60.sqlite"  # visits 2017-08-05 22:06-22:09 UTC

pytestmark = pytest.mark.skipif(
    not all(p.is_file() for p in (V16, V22, V36)), reason="eval History files not present"
)

NOW = datetime(2026, 11, 21, 3, 0, tzinfo=UTC)
ALL_TIME = (datetime(2000, 1, 1, tzinfo=UTC), datetime(2030, 1, 1, tzinfo=UTC))


def chrome(path: Path, name: str = "chrome") -> SourceConfig:
    """History path -> a chrome SourceConfig."""
    return SourceConfig(kind="chrome", path=path, name=name)


def sql_visits(path: Path, start: datetime, end: datetime) -> list[int]:
    """History + UTC window -> visit ids in it, straight from SQL on the untouched original."""
    with sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True) as conn:
        rows = conn.execute(
            "SELECT id FROM visits WHERE visit_time >= ? AND visit_time < ? ORDER BY id",
            (chrome_us(start), chrome_us(end)),
        ).fetchall()
    return [r[0] for r in rows]


def visit_ids(events: pd.DataFrame) -> list[int]:
    """Events -> the Chrome visit ids their source_refs point at, sorted."""
    return sorted(int(ref.rsplit("=", 1)[1]) for ref in events["source_ref"])


def by_visit(events: pd.DataFrame, path: Path, visit_id: int) -> pd.Series:
    """Events -> the one event of a given visit id."""
    hit = events[events["source_ref"] == f"{path}#visits.id={visit_id}"]
    assert len(hit) == 1
    return hit.iloc[0]


def test_v16_visit_fields_and_new_york_day() -> None:
    start, end = day_bounds(date(2013, 6, 5), "America/New_York")
    got = collect(chrome(V16), start, end, NOW)

    assert len(got.events) == len(sql_visits(V16, start, end)) == 46
    assert visit_ids(got.events) == list(range(1, 47))
    assert got.rejects == []
    ev = by_visit(got.events, V16, 4)
    assert ev["url"] == "http://en.wikipedia.org/wiki/Computer_forensics"
    assert ev["title"] == "Computer forensics - Wikipedia, the free encyclopedia"
    assert ev["ts"] == pd.Timestamp("2013-06-05T04:27:22.170591Z")
    assert ev["transition"] == "link"
    assert ev["duration_s"] == 0.0
    assert (ev["event_type"], ev["app"], ev["source"]) == ("visit", "Google Chrome", "chrome")
    assert ev["text"] is None
    assert ev["recorded_at"] == pd.Timestamp(NOW)
    assert by_visit(got.events, V16, 1)["transition"] == "auto_toplevel"
    assert by_visit(got.events, V16, 2)["transition"] == "generated"
    assert by_visit(got.events, V16, 19)["transition"] == "form_submit"
    # v16 predates visit_duration: every duration is zero, never missing.
    assert (got.events["duration_s"] == 0.0).all()


def test_local_day_differs_from_utc_date() -> None:
    # 04:26 UTC on June 5 is 00:26 in New York (just after midnight) but 21:26 on
    # June 4 in Los Angeles: the same visits belong to different local days.
    ny_prev = collect(chrome(V16), *day_bounds(date(2013, 6, 4), "America/New_York"), NOW)
    assert ny_prev.events.empty
    la = collect(chrome(V16), *day_bounds(date(2013, 6, 4), "America/Los_Angeles"), NOW)
    assert len(la.events) == 46
    first = la.events["ts"].min()
    assert first == pd.Timestamp("2013-06-05T04:26:40.671646Z")
    assert first.date() == date(2013, 6, 5)
    assert local_day(first.to_pydatetime(), "America/Los_Angeles") == date(2013, 6, 4)
    # 21:25 UTC on June 30 is already July 1 in Tokyo.
    tokyo = collect(chrome(V22), *day_bounds(date(2013, 7, 1), "Asia/Tokyo"), NOW)
    assert len(tokyo.events) == 58
    assert collect(chrome(V22), *day_bounds(date(2013, 6, 30), "Asia/Tokyo"), NOW).events.empty


def test_half_open_window_splits_data_without_loss() -> None:
    # Visit 30 of v22 is at 21:27:50.608952 UTC; a window ending there excludes it.
    cut = datetime(2013, 6, 30, 21, 27, 50, 608952, tzinfo=UTC)
    day = day_bounds(date(2013, 6, 30), "America/New_York")
    before = collect(chrome(V22), day[0], cut, NOW).events
    after = collect(chrome(V22), cut, day[1], NOW).events
    assert visit_ids(before) == list(range(1, 30)) == sql_visits(V22, day[0], cut)
    assert visit_ids(after) == list(range(30, 59)) == sql_visits(V22, cut, day[1])
    assert by_visit(after, V22, 30)["ts"] == pd.Timestamp(cut)
    assert set(before["event_id"]).isdisjoint(after["event_id"])


@pytest.mark.parametrize(("path", "n"), [(V16, 46), (V22, 58), (V36, 61)])
def test_every_visit_is_one_event(path: Path, n: int) -> None:
    got = collect(chrome(path), *ALL_TIME, NOW)
    assert visit_ids(got.events) == sql_visits(path, *ALL_TIME)
    assert len(got.events) == n
    assert got.events["event_id"].is_unique
    assert got.events["ts"].is_monotonic_increasing
    schemas.to_table(got.events, schemas.EVENTS)  # casts cleanly to the contract


def test_durations_from_visit_duration() -> None:
    v22 = collect(chrome(V22), *ALL_TIME, NOW).events
    assert by_visit(v22, V22, 2)["duration_s"] == pytest.approx(229.50451)
    assert by_visit(v22, V22, 58)["duration_s"] == pytest.approx(0.134)
    v36 = collect(chrome(V36), *ALL_TIME, NOW).events
    ssd = by_visit(v36, V36, 13)
    assert ssd["url"] == "https://en.wikipedia.org/wiki/Solid-state_drive"
    assert ssd["duration_s"] == pytest.approx(148.894575)
    assert ssd["ts"] == pd.Timestamp("2017-08-05T22:07:31.002663Z")
    assert by_visit(v36, V36, 16)["transition"] == "form_submit"
    assert v36["duration_s"].sum() == pytest.approx(366.771295)


def visit_event_id(name: str, raw_time: int, url: str, nth: int = 0) -> str:
    """Chrome visit -> its event id: a stable seed per URL, mixed with time and repeat number."""
    seeds = stable_seeds(("chrome", name), [url])
    return row_ids(seeds, np.array([raw_time]), np.array([nth]))[0].as_py()


def test_ids_are_deterministic_and_follow_the_formula() -> None:
    first = collect(chrome(V16), *ALL_TIME, NOW).events
    again = collect(chrome(V16), *ALL_TIME, datetime(2027, 1, 1, tzinfo=UTC)).events
    assert first["event_id"].tolist() == again["event_id"].tolist()
    url = "http://en.wikipedia.org/wiki/Computer_forensics"
    assert by_visit(first, V16, 4)["event_id"] == visit_event_id("chrome", 13014880042170591, url)
    assert by_visit(first, V16, 4)["event_id"] == "379780415a0107c87900557f850c363b"
    other = collect(chrome(V16, name="chrome-work"), *ALL_TIME, NOW).events
    assert set(other["event_id"]).isdisjoint(first["event_id"])


def test_same_microsecond_redirect_visits_stay_distinct() -> None:
    # v36 visits 31 and 32 are a client redirect of one URL stored at the same microsecond.
    events = collect(chrome(V36), *ALL_TIME, NOW).events
    a, b = by_visit(events, V36, 31), by_visit(events, V36, 32)
    url = "https://www.facebook.com/pg/BillGates/photos/?ref=page_internal"
    assert a["url"] == b["url"] == url and a["ts"] == b["ts"]
    assert a["event_id"] == visit_event_id("chrome", 13146444546003040, url)
    assert b["event_id"] == visit_event_id("chrome", 13146444546003040, url, 1)


def test_profile_folder_and_browser_name(tmp_path: Path) -> None:
    profile = tmp_path / "BraveSoftware" / "Brave-Browser" / "Default"
    profile.mkdir(parents=True)
    shutil.copyfile(V36, profile / "History")
    got = collect(chrome(profile), *ALL_TIME, NOW)
    assert len(got.events) == 61
    assert set(got.events["app"]) == {"Brave"}
    assert got.events["source_ref"].iloc[0] == f"{profile / 'History'}#visits.id=1"


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("C:/Users/a/AppData/Local/Microsoft/Edge/User Data/Default/History", "Microsoft Edge"),
        ("/home/a/.config/microsoft-edge/Default/History", "Microsoft Edge"),
        ("/home/a/.config/BraveSoftware/Brave-Browser/Default/History", "Brave"),
        ("/home/a/.config/chromium/Default/History", "Chromium"),
        ("/Users/a/Library/Application Support/Chromium/Default/History", "Chromium"),
        ("/Users/a/Library/Application Support/Google/Chrome/Default/History", "Google Chrome"),
    ],
)
def test_browser_name(path: str, name: str) -> None:
    assert browser_name(Path(path)) == name
