"""ActivityWatch collector: export JSON and the REST API served on loopback."""

from __future__ import annotations

import json
import shutil
import socket
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pandas as pd
import pytest

from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.core.errors import SourceError
from omoide.core.ids import stable_id
from omoide.core.settings import SourceConfig
from omoide.ingest.sources import activitywatch
from omoide.ingest.sources.activitywatch import collect

FIXTURE = Path(__file__).parents[2] / "fixtures" / "activitywatch" / "aw-export.json"
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
    assert code["event_id"] == stable_id(
        "activitywatch", "aw", "aw-watcher-window_laptop", "2026-11-20T08:15:30.250000+00:00"
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


def test_malformed_events_are_rejected_with_refs_and_incognito_is_dropped() -> None:
    out = collect(_source(FIXTURE), START, END, NOW)
    win = f"{FIXTURE}#buckets[aw-watcher-window_laptop].events"
    assert sorted((r.ref, r.reason, r.excerpt) for r in out.rejects) == sorted(
        [
            (f"{win}[0]", "unparseable timestamp", ""),
            (f"{win}[3]", "event data is not an object", ""),
            (f"{win}[4]", "duration is not a non-negative number", ""),
            (f"{win}[5]", "event without timestamp", ""),
            (
                f"{FIXTURE}#buckets[aw-watcher-afk_laptop].events[0]",
                "afk event status is not 'afk' or 'not-afk'",
                "",
            ),
        ]
    )
    stored = " ".join(str(v) for v in out.events.to_numpy().ravel())
    assert "private.example" not in stored and "private tab" not in stored


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


def test_truncated_export_names_file_and_position(tmp_path: Path) -> None:
    cut = tmp_path / "aw-export.json"
    text = FIXTURE.read_text()
    cut.write_text(text[: len(text) // 2])
    with pytest.raises(SourceError) as err:
        collect(_source(cut), START, END, NOW)
    assert err.value.path == str(cut)
    assert err.value.reason.startswith("invalid JSON at line ")
    assert " col " in err.value.reason
    assert not err.value.transient


def test_missing_and_foreign_files_are_source_errors(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such file"):
        collect(_source(tmp_path / "nope.json"), START, END, NOW)
    other = tmp_path / "other.json"
    other.write_text('{"hello": []}')
    with pytest.raises(SourceError, match="not an ActivityWatch export"):
        collect(_source(other), START, END, NOW)


# --- REST API on a loopback server -------------------------------------------------------


class _AW:
    """Serves /api/0/buckets/ and /api/0/buckets/<id>/events from the fixture, like aw-server."""

    def __init__(self, fail_first: int = 0, status: int = 500) -> None:
        self.buckets = json.loads(FIXTURE.read_text())["buckets"]
        self.fail_first = fail_first
        self.status = status
        self.requests: list[str] = []

    def respond(self, path: str) -> tuple[int, Any]:
        """Request path -> (status, JSON body)."""
        self.requests.append(path)
        if len(self.requests) <= self.fail_first:
            return self.status, {"message": "boom"}
        parts = urlsplit(path)
        if parts.path == "/api/0/buckets/":
            return 200, {k: {**v, "events": None} for k, v in self.buckets.items()}
        prefix, suffix = "/api/0/buckets/", "/events"
        if parts.path.startswith(prefix) and parts.path.endswith(suffix):
            bid = unquote(parts.path[len(prefix) : -len(suffix)])
            q = parse_qs(parts.query)
            lo = pd.Timestamp(q["start"][0])
            hi = pd.Timestamp(q["end"][0])
            keep = []
            for ev in self.buckets[bid]["events"]:
                try:
                    ts = pd.Timestamp(ev["timestamp"])
                    dur = pd.Timedelta(seconds=float(ev["duration"]))
                except (KeyError, ValueError, TypeError):
                    keep.append(ev)  # let the collector judge what it cannot parse
                    continue
                if ts <= hi and ts + dur >= lo:
                    keep.append(ev)
            return 200, keep
        return 404, {"message": "not found"}


@pytest.fixture
def serve() -> Iterator[Callable[[_AW], str]]:
    """Start loopback HTTP servers for _AW backends; yields a starter returning the base URL."""
    servers: list[ThreadingHTTPServer] = []

    def start(backend: _AW) -> str:
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server API
                status, body = backend.respond(self.path)
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def test_rest_api_gives_the_same_events_as_the_export(serve: Callable[[_AW], str]) -> None:
    backend = _AW()
    url = serve(backend)
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


def test_rest_api_retries_a_transient_500(serve: Callable[[_AW], str]) -> None:
    backend = _AW(fail_first=2)
    out = collect(_source(url=serve(backend)), START, END, NOW)
    assert len(out.events) == len(EXPECTED_DAY)
    assert backend.requests[:3] == ["/api/0/buckets/"] * 3


def test_rest_api_persistent_500_is_a_transient_source_error(
    serve: Callable[[_AW], str],
) -> None:
    backend = _AW(fail_first=100)
    url = serve(backend)
    with pytest.raises(SourceError) as err:
        collect(_source(url=url), START, END, NOW)
    assert err.value.path == url
    assert "HTTP 500" in err.value.reason
    assert err.value.transient
    assert len(backend.requests) == activitywatch.ATTEMPTS


def test_rest_api_404_is_not_retried(serve: Callable[[_AW], str]) -> None:
    backend = _AW(fail_first=100, status=404)
    with pytest.raises(SourceError, match="HTTP 404") as err:
        collect(_source(url=serve(backend)), START, END, NOW)
    assert not err.value.transient
    assert len(backend.requests) == 1


def test_rest_api_refused_port_is_a_transient_source_error() -> None:
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    with pytest.raises(SourceError) as err:
        activitywatch.fetch_buckets(url, START, END, attempts=2, backoff_s=0.01)
    assert err.value.path == url
    assert "ConnectError" in err.value.reason
    assert err.value.transient
