"""The home's recall endpoint: `omoide recall` and `omoide ask` answered by a long-lived process that keeps
LanceDB imported and the embedding model loaded (started by `omoide server`).

A fresh recall spends most of its second importing LanceDB and loading the model; the search
is tens of milliseconds. While `omoide server` (or the service, which runs it) is up, this
endpoint answers the commands with exactly what `--json` prints (the same functions,
`cli.memory.recall_items` and `cli.ask.ask_found`, on settings read afresh for every question);
`omoide.cli.recall_route` is the commands' side.

Why the standard library's http.server: one POST route on 127.0.0.1, answered one request at
a time (a recall's rehearsal is a table write; answering in turn keeps two from racing), by a
client that is itself stdlib only. uvicorn and starlette are installed, but only as Prefect's
dependencies, and an ASGI server brings an event loop this needs nothing of.

Safety: bound to 127.0.0.1 on a port the OS picks; a random token, written with the port to a
private file (`OMOIDE_HOME/state/recall-endpoint.json`, removed on stop), must come with every
request, addressed to 127.0.0.1 or localhost at its port from no web page (`Host`, `Origin`:
a page whose name is rebound to 127.0.0.1 is refused before the token is read); a request from another home or with other OMOIDE_* variables is refused (the command
then answers itself, so the output never depends on which process answered); nothing is
logged but error types (questions and memories are personal text).
"""

from __future__ import annotations

import hmac
import json
import logging
import secrets
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

from omoide.cli.recall_route import PATH, configuration, endpoint_file, running_endpoint
from omoide.core.errors import OmoideError
from omoide.core.files import private_dir, write_text_atomic
from omoide.core.home import home_from_env
from omoide.core.server_auth import refusal

if TYPE_CHECKING:
    from omoide.core.settings import Settings

log = logging.getLogger(__name__)

MAX_REQUEST_BYTES = 1 << 20
# A client that connects and sends nothing must not hold the endpoint (it answers in turn).
REQUEST_TIMEOUT_S = 10.0


def answer(request: dict[str, Any], home: Path) -> tuple[int, dict[str, Any]]:
    """A client's request + this process's home -> HTTP status and the answer ({"result", "timezone"} or {"error"})."""
    from omoide.cli.memory import recall_items
    from omoide.core.settings import get_settings

    if request.get("home") != str(home) or request.get("env") != configuration():
        return 409, {"refused": "another home or other OMOIDE_* variables"}
    command, params = request.get("command"), request.get("params")
    answering = {"recall": recall_items, "ask": _asked}.get(str(command))
    if answering is None or not isinstance(params, dict):
        return 400, {"refused": "unknown command"}
    try:
        settings = get_settings()
        return 200, {"result": answering(settings, **params), "timezone": settings.timezone}
    except OmoideError as exc:  # what the command would print, word for word
        return 200, {"error": str(exc)}
    except Exception as exc:  # the command answers itself and reports it its own way
        log.warning("recall endpoint: %s failed (%s)", command, type(exc).__name__)
        return 500, {"refused": type(exc).__name__}


def _asked(settings: Settings, question: str, now_at: str | None = None) -> dict[str, Any]:
    """Settings + `omoide ask`'s question (+ --now) -> what `ask --json` prints, never worded by a model."""
    from omoide.cli.ask import ask_found

    return ask_found(settings, question, now_at)


def warm_up() -> None:
    """-> LanceDB imported, the model loaded and the memories table read once, so the first question is quick."""
    import omoide.answer.ask  # noqa: F401 (imported now, so the first `ask` does not wait for it)
    from omoide.cli.memory import recall_items
    from omoide.core.settings import get_settings

    try:
        recall_items(get_settings(), "warm up", k=1, rehearse=False)
    except Exception as exc:  # a home without memories yet is answered all the same
        log.info("recall endpoint: warm-up recall failed (%s)", type(exc).__name__)


class _Server(HTTPServer):
    """HTTPServer on a loopback port that knows its token and home."""

    def __init__(self, home: Path, token: str) -> None:
        self.home = home
        self.token = token
        super().__init__(("127.0.0.1", 0), _Handler)

    def server_bind(self) -> None:
        """-> bound without HTTPServer's reverse name lookup (getfqdn) of the address."""
        super(HTTPServer, self).server_bind()
        self.server_name, self.server_port = self.server_address[:2]

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A request that failed past its answer (a client gone after its timeout) -> its type logged, no traceback."""
        log.info("recall endpoint: a request failed (%s)", type(sys.exc_info()[1]).__name__)


class _Handler(BaseHTTPRequestHandler):
    """One POST to PATH with the token -> the answer as JSON; anything else refused."""

    server: _Server
    timeout = REQUEST_TIMEOUT_S

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        """A request -> answered when its path, token and size are right, else refused."""
        expected = f"Bearer {self.server.token}".encode()
        given = self.headers.get("Authorization", "").encode()
        why = refusal(self.server.server_port, self.headers.get("Host"), self.headers.get("Origin"))
        if why is not None:
            self._send(403, {"refused": why})
        elif self.path != PATH:
            self._send(404, {"refused": "unknown path"})
        elif not hmac.compare_digest(given, expected):
            self._send(403, {"refused": "wrong token"})
        else:
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_REQUEST_BYTES:
                self._send(413, {"refused": "request size"})
                return
            try:
                request = json.loads(self.rfile.read(length))
            except ValueError:
                self._send(400, {"refused": "not JSON"})
                return
            if not isinstance(request, dict):
                self._send(400, {"refused": "not an object"})
                return
            self._send(*answer(request, self.server.home))

    def _send(self, status: int, body: dict[str, Any]) -> None:
        """Status + JSON body -> the response written."""
        data = json.dumps(body, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (http.server's name)
        """-> nothing: request lines are not logged."""


class RecallEndpoint:
    """The endpoint of one home: bound at once, named in its file once warm, served on a daemon thread."""

    def __init__(self, home: Path) -> None:
        self.home = home.resolve()  # as the commands name it (`home_from_env`)
        self.file = endpoint_file(home)
        self.token = secrets.token_urlsafe(32)
        self.ready = threading.Event()
        self._httpd = _Server(self.home, self.token)
        self._lock = threading.Lock()
        self._stopped = False
        self._thread = threading.Thread(
            target=self._run, name="omoide-recall-endpoint", daemon=True
        )

    @property
    def port(self) -> int:
        """-> the loopback port it listens on."""
        return int(self._httpd.server_address[1])

    def start(self) -> RecallEndpoint:
        """-> warming up and then serving on its thread."""
        self._thread.start()
        return self

    def _run(self) -> None:
        """-> warm, the file written, requests answered until stopped."""
        warm_up()
        with self._lock:
            if self._stopped:
                return
            private_dir(self.file.parent)
            record = {"port": self.port, "token": self.token, "home": str(self.home)}
            write_text_atomic(json.dumps(record), endpoint_file(self.home))
            self.ready.set()
        self._httpd.serve_forever(poll_interval=0.2)

    def stop(self) -> None:
        """-> the file removed (if still its own), the server stopped and its port closed."""
        with self._lock:
            self._stopped = True
            serving = self.ready.is_set()
            _forget(self.file, self.token)
        if serving:
            self._httpd.shutdown()
        self._httpd.server_close()


def _forget(file: Path, token: str) -> None:
    """The endpoint file + the token it should hold -> removed, unless another endpoint wrote it since."""
    try:
        if json.loads(file.read_text(encoding="utf-8")).get("token") == token:
            file.unlink()
    except (OSError, ValueError, AttributeError):
        pass


@contextmanager
def recall_endpoint(home: Path) -> Iterator[RecallEndpoint]:
    """OMOIDE_HOME -> its recall endpoint, started for the block (answering once warm) and stopped after."""
    endpoint = RecallEndpoint(home).start()
    try:
        yield endpoint
    finally:
        endpoint.stop()


def main() -> None:
    """`python -m omoide.cli.recall_endpoint`: the endpoint alone for this OMOIDE_HOME (`omoide bench cli`), until SIGTERM or Ctrl-C.

    Prints one line once it answers; refuses (exit 1) when an endpoint already answers for the home.
    """
    from omoide.core.offline import go_offline

    go_offline()
    home = home_from_env()
    if running_endpoint(home) is not None:
        sys.exit(f"omoide: a recall endpoint already answers for {home} (omoide server)")
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    with recall_endpoint(home) as endpoint:
        while not endpoint.ready.wait(0.2):
            if stop.is_set():
                return
        print(f"recall endpoint for {home} on 127.0.0.1:{endpoint.port}", flush=True)
        while not stop.wait(0.5):
            pass


if __name__ == "__main__":  # pragma: no cover
    main()
