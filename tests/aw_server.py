"""A real HTTP server on loopback speaking aw-server's REST API, for the ActivityWatch collector's tests."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pandas as pd
import pytest

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "activitywatch" / "aw-export.json"


class FakeAwServer:
    """Serves /api/0/buckets/ and /api/0/buckets/<id>/events from the export fixture, like aw-server.

    The first `fail_first` requests get `status` instead: an aw-server restarting or broken.
    """

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
def aw_server() -> Iterator[Callable[[FakeAwServer], str]]:
    """Start loopback HTTP servers for FakeAwServer backends; yields a starter returning the base URL."""
    servers: list[ThreadingHTTPServer] = []

    def start(backend: FakeAwServer) -> str:
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
