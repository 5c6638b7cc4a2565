"""Long-lived Prefect servers and workers for tests, as subprocesses on free loopback ports, always stopped.

`prefect_api` (module-scoped, registered in conftest) is `prefect server start` as `omoide server`
runs it (collection views offline), with its home in a temp dir; `WORKER_SERVER` is the same on
the worker's Prefect home, shared by the flow commands `tests.fakes.run_cli` starts (started on
first use, stopped with the session); `background` runs any such command (`omoide server`, `prefect worker
start`) in its own process group, so teardown ends it and everything it started.
`health_endpoint` is the one fake: a loopback server answering only GET /api/health, for the
unit tests of server detection.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from omoide.cli.runtime import is_healthy
from omoide.cli.server import server_command
from omoide.core.offline import OFFLINE_ENV

STARTUP_S = 180.0  # a fresh database runs every migration first; the 2-core CI machine is busy


def free_port() -> int:
    """-> a loopback port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clean_env(**extra: str) -> dict[str, str]:
    """Variables -> this process's environment without any PREFECT_* or OMOIDE_* setting, telemetry off, plus them."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "OMOIDE_"))}
    return {**base, **OFFLINE_ENV, **extra}


@contextmanager
def background(
    command: list[str], env: dict[str, str], log: Path, cwd: Path | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """A command + its environment + a log file -> the command running in its own process group, ended on exit."""
    with log.open("ab") as sink:
        process = subprocess.Popen(
            command,
            env=env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield process
    finally:
        stop_group(process)


def stop_group(process: subprocess.Popen[bytes], grace_s: float = 20.0) -> None:
    """A process started in its own session -> it and every process of its group ended (SIGTERM, then SIGKILL)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            continue
        # The leader is gone; children it left in the group get the same signal once more.
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        break
    process.wait()


def wait_healthy(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """A starting server -> returns once its API answers; fails the test if it exits or takes too long."""
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server exited ({process.returncode}): {log.read_text()[-2000:]}")
        if is_healthy(url):
            return
        time.sleep(0.5)
    pytest.fail(f"the server did not answer within {STARTUP_S:.0f} s: {log.read_text()[-2000:]}")


@contextmanager
def prefect_server(prefect_home: Path, log: Path | None = None) -> Iterator[str]:
    """A Prefect home (+ its log file) -> a `prefect server start` on a free loopback port using it
    -> its API URL; stopped on exit."""
    port = free_port()
    env = clean_env(PREFECT_HOME=str(prefect_home), PREFECT_SERVER_UI_ENABLED="false")
    log = log or prefect_home.parent / f"{prefect_home.name}-server.log"
    url = f"http://127.0.0.1:{port}/api"
    # omoide's own server command (collection views offline), without the UI: tests need the API.
    with background([*server_command(port), "--no-ui"], env, log) as process:
        wait_healthy(url, process, log)
        yield url


@pytest.fixture(scope="module")
def prefect_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A long-lived local Prefect server with a temp home, shared by a module's tests -> its API URL."""
    with prefect_server(tmp_path_factory.mktemp("prefect-server")) as url:
        yield url


class WorkerServer:
    """The Prefect server a test worker's flow commands share (`tests.fakes.flow_env`), as a
    user's `omoide server` is shared by their runs: started when the first command needs it."""

    def __init__(self) -> None:
        self.prefect_home: Path | None = None  # the worker's, set by conftest
        self._stack: ExitStack | None = None
        self._url = ""

    def url(self) -> str:
        """-> its API URL, the server started now if it is not running yet."""
        if not self._url:
            # On the Prefect home every `omoide` command of the worker uses, so the commands
            # and the server keep one database, as with `omoide server`.
            assert self.prefect_home is not None, "conftest sets the worker's Prefect home"
            self._stack = ExitStack()
            log = self.prefect_home / "server.log"
            self._url = self._stack.enter_context(prefect_server(self.prefect_home, log))
        return self._url

    def stop(self) -> None:
        """-> the server stopped, if it was started."""
        if self._stack is not None:
            self._stack.close()
        self._stack, self._url = None, ""


WORKER_SERVER = WorkerServer()


@contextmanager
def health_endpoint(status: int = 200, body: bytes = b"true") -> Iterator[int]:
    """An answer -> a loopback HTTP server giving it to GET /api/health (404 elsewhere) -> its port."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            code, payload = (status, body) if self.path == "/api/health" else (404, b"")
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
