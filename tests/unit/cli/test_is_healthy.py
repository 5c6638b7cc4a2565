"""`runtime.is_healthy` asks a real HTTP server's `/health` under the API path: true only for a
200 answering `true`, false for any other answer, a closed port or a malformed URL, and a proxy
named in the environment is never consulted for it."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from omoide.cli.runtime import is_healthy

ANSWERS = {"/ok/api/health": (200, b"true"), "/no/api/health": (200, b"false")}


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        status, body = ANSWERS.get(self.path, (500, b"true"))
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        """Quiet: the test output is not the server's log."""


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _closed_port() -> int:
    """() -> a loopback port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_true_only_for_a_200_saying_true(server: str):
    assert is_healthy(f"{server}/ok/api")
    assert is_healthy(f"{server}/ok/api/")
    assert not is_healthy(f"{server}/no/api")  # answers, but not healthy
    assert not is_healthy(f"{server}/other/api")  # a 500


def test_false_for_nothing_listening_or_a_bad_url():
    assert not is_healthy(f"http://127.0.0.1:{_closed_port()}/api", timeout_s=1.0)
    assert not is_healthy("http://127.0.0.1:notaport/api")
    assert not is_healthy("not a url")


def test_a_proxy_in_the_environment_is_not_asked(server: str, monkeypatch: pytest.MonkeyPatch):
    dead = f"http://127.0.0.1:{_closed_port()}"
    for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.setenv(name, dead)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    assert is_healthy(f"{server}/ok/api")
