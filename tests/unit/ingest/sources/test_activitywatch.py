"""ActivityWatch collector: export JSON and the REST API served on loopback."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pandas as pd
import pytest

from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.core.errors import SourceError
from omoide.core.ids import stable_id
from omoide.core.settings import SourceConfig
from omoide.ingest.sources.activitywatch import collect
from tests.aw_server import FakeAwServer
from tests.conftest import FIXTURES

FIXTURE = FIXTURES / "activitywatch" / "aw-export.json"
NOW = datetime(2026, 11, 21, 3, 0, tzinfo=UTC)
TZ = "Europe/Berlin"
START, END = day_bounds(date(2026, 11, 20), TZ)  # 2026-11-19T23:00Z .. 2026-11-20T23:00Z


def _source(path: Path | None = None, url: str | None = None) -> SourceConfig:
    """Path or url -> an ActivityWatch SourceConfig named 'aw'."""
    return SourceConfig(kind="activitywatch", path=path, url=url, name="aw")


def _local(ts: pd.Timestamp) -> str:
    """UTC timestamp -> Berlin wall-clock text with milliseconds."""
    return ts.tz_convert(TZ).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


def _rows(df: pd.DataFrame) -> list[tuple[Any, ...]]:
    """Events -> sorted (local time, type, app, title, url, duration) tuples."""
    return sorted(
        (_local(r.ts), r.event_type, r.app, r.title, r.url, r.duration_s) for r in df.itertuples()
    )


EXPECTED_DAY = [
    ("2026-11-20 00:00:00.000", "window", "Terminal", "~/omoide", None, 42.0),
    ("2026-11-20 08:55:00.000", "afk", "afk", "not-afk", None, 3900.0),
    (
        "2026-11-20 09:15:30.250",
        "window",
        "Code",
        "activitywatch.py - omoide - Visual Studio Code",
        None,
        1500.25,
    ),
    (
        "2026-11-20 09:20:00.000",
        "web",
        "Google Chrome",
        "ActivityWatch documentation",
        "https://docs.activitywatch.net/en/latest/",
        95.5,
    ),
    ("2026-11-20 10:00:00.000", "afk", "afk", "afk", None, 1800.0),
    ("2026-11-20 10:10:00.000", "window", "Firefox", "ActivityWatch documentation", None, 300.0),
    (
        "2026-11-20 20:45:00.000",
        "web",
        "Firefox",
        "OpenStreetMap",
        "https://www.openstreetmap.org/",
        600.0,
    ),
    ("2026-11-20 23:59:59.999", "window", "Slack", "#general", None, 0.001),
]


def test_export_keeps_exactly_the_local_day() -> None:
    out = collect(_source(FIXTURE), START, END, NOW)
    assert _rows(out.events) == EXPECTED_DAY
    assert list(out.events.columns) == schemas.EVENTS.names
    schemas.to_table(out.events, schemas.EVENTS)  # casts cleanly to the contract
    assert set(out.events["source"]) == {"activitywatch"}
    assert set(out.events["source_name"]) == {"aw"}
    assert (out.events["recorded_at"] == pd.Timestamp(NOW)).all()
    code = out.events[out.events["app"] == "Code"].iloc[0]
    assert code["source_ref"] == f"{FIXTURE}#buckets[aw-watcher-window_laptop].events[7]"
    # The id says what the event is (bucket, start, app, title, url), never how long it lasted.
    assert code["event_id"] == stable_id(
        "activitywatch",
        "aw",
        "aw-watcher-window_laptop",
        "2026-11-20T08:15:30.250000+00:00",
        "Code",
        "activitywatch.py - omoide - Visual Studio Code",
        None,
    )


def test_previous_local_day_gets_the_event_before_midnight() -> None:
    start, end = day_bounds(date(2026, 11, 19), TZ)
    out = collect(_source(FIXTURE), start, end, NOW)
    assert _rows(out.events) == [
        ("2026-11-19 23:58:00.000", "window", "Firefox", "Tagesschau", None, 119.5)
    ]
    # Flaws of events on other days are reported on their day; timeless ones every time.
    win = f"{FIXTURE}#buckets[aw-watcher-window_laptop].events"
    assert sorted(r.ref for r in out.rejects) == [f"{win}[0]", f"{win}[5]"]


def test_heartbeat_extended_event_keeps_its_id(tmp_path: Path) -> None:
    first = collect(_source(FIXTURE), START, END, NOW).events
    doc = json.loads(FIXTURE.read_text())
    # aw-server merges heartbeats into the last event: same timestamp, longer duration.
    doc["buckets"]["aw-watcher-window_laptop"]["events"][2]["duration"] = 75.5
    later = tmp_path / "later.json"
    later.write_text(json.dumps(doc))
    second = collect(_source(later), START, END, NOW).events
    assert sorted(first["event_id"]) == sorted(second["event_id"])
    slack = second[second["app"] == "Slack"].iloc[0]
    assert slack["duration_s"] == 75.5
    assert first["event_id"].is_unique


def test_folder_of_exports_merges_duplicates_keeping_longest(tmp_path: Path) -> None:
    shutil.copy(FIXTURE, tmp_path / "a.json")
    doc = json.loads(FIXTURE.read_text())
    doc["buckets"]["aw-watcher-window_laptop"]["events"][2]["duration"] = 75.5
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.json").write_text(json.dumps(doc))
    out = collect(_source(tmp_path), START, END, NOW)
    assert len(out.events) == len(EXPECTED_DAY)
    assert out.events.loc[out.events["app"] == "Slack", "duration_s"].tolist() == [75.5]
    assert len(out.rejects) == 10  # five bad records in each file


def test_bucket_list_form_is_accepted(tmp_path: Path) -> None:
    doc = json.loads(FIXTURE.read_text())
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps({"buckets": list(doc["buckets"].values())}))
    out = collect(_source(listed), START, END, NOW)
    assert _rows(out.events) == EXPECTED_DAY


# --- REST API on a loopback server (tests/aw_server.py) -----------------------------------


def test_rest_api_gives_the_same_events_as_the_export(
    aw_server: Callable[[FakeAwServer], str],
) -> None:
    backend = FakeAwServer()
    url = aw_server(backend)
    out = collect(_source(url=url + "/"), START, END, NOW)
    assert _rows(out.events) == EXPECTED_DAY
    exported = collect(_source(FIXTURE), START, END, NOW).events
    assert sorted(out.events["event_id"]) == sorted(exported["event_id"])
    slack = out.events[out.events["app"] == "Slack"].iloc[0]
    assert slack["source_ref"] == f"{url}/api/0/buckets/aw-watcher-window_laptop/events/108"
    assert f"{url}/api/0/buckets/aw-watcher-window_laptop/events/110" in {
        r.ref for r in out.rejects
    }
    # Only the three handled bucket types are asked for their events, with the window.
    event_calls = [p for p in backend.requests if "/events" in p]
    assert len(event_calls) == 4
    query = parse_qs(urlsplit(event_calls[0]).query)
    assert pd.Timestamp(query["start"][0]) == pd.Timestamp(START)
    assert pd.Timestamp(query["end"][0]) == pd.Timestamp(END)
    assert not any("aw-watcher-input" in p for p in backend.requests)


def test_rest_api_404_is_not_retried(aw_server: Callable[[FakeAwServer], str]) -> None:
    backend = FakeAwServer(fail_first=100, status=404)
    with pytest.raises(SourceError, match="HTTP 404") as err:
        collect(_source(url=aw_server(backend)), START, END, NOW)
    assert not err.value.transient
    assert len(backend.requests) == 1
