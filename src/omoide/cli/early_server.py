"""-> Prefect's short-lived API server for one command, started by omoide before the flows import.

Without `omoide server`, Prefect starts its ephemeral server when a flow first calls the API:
its `SubprocessASGIServer` runs uvicorn on Prefect's app in a child process. Only to reach that
class, the command imported Prefect's whole server (~5 s of its main thread) and then waited
for the child's start. Here the same child (Prefect's app factory behind omoide's Host and Origin
check, `cli/host_guard.py`; Prefect's environment for an ephemeral server, with the home's auth
string; the same loopback host and database) starts before Prefect is even imported,
so its start overlaps all the imports, and the command talks to it as to any API URL.
Prefect's own path stays the fallback: a start that timed out or failed leaves the URL unset.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

# What Prefect's SubprocessASGIServer gives its child (prefect/server/api/server.py, 3.8–3.9):
# no UI, and the settings of an ephemeral server.
_SERVER_ENV = {
    "PREFECT_UI_ENABLED": "0",
    "PREFECT__SERVER_EPHEMERAL": "1",
    "PREFECT__SERVER_FINAL": "1",
}
_PORT_IN_USE = 3  # uvicorn's exit code when its port was taken meanwhile
STARTUP_FAILED = "ephemeral Prefect API server"  # in Prefect's own timeout message too


@dataclass
class EarlyServer:
    """One started child: its process, its port and when it started."""

    process: subprocess.Popen[bytes]
    port: int
    started: float

    @property
    def url(self) -> str:
        """-> its API URL."""
        from omoide.cli.runtime import api_url  # runtime imports this module

        return api_url(self.port)


_servers: list[EarlyServer] = []  # at most one: started, not yet stopped
_applied: list[str] = []  # the variables set to point this process's Prefect at the server


def wanted() -> bool:
    """-> whether a flow here would start Prefect's ephemeral server (no API URL, ephemeral allowed)
    and this Prefect can be pointed at another server once imported."""
    import prefect.context
    from prefect.settings import get_current_settings

    settings = get_current_settings()
    usable = hasattr(prefect.context, "refresh_global_settings_context")
    return usable and not settings.api.url and settings.server.ephemeral.enabled


def _free_port() -> int:
    """-> a loopback port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _spawn(port: int) -> subprocess.Popen[bytes]:
    """Port -> Prefect's app served by uvicorn on it, in a child process, as Prefect starts it.

    Before Prefect is imported here: the child reads the same environment and Prefect home
    (profiles included) that Prefect's own child would have been given.
    """
    spec = importlib.util.find_spec("prefect")
    assert spec is not None and spec.origin is not None
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--app-dir",
            str(Path(spec.origin).parent.parent),
            "--factory",
            # Prefect's app behind omoide's Host and Origin check (cli/host_guard.py).
            "omoide.cli.host_guard:create_app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "error",
            "--lifespan",
            "on",
        ],
        env={**os.environ, **_SERVER_ENV},
        stdin=subprocess.DEVNULL,  # its output goes where the command's goes, as Prefect's does
    )


def start() -> bool:
    """-> whether a server was started now (not when one is configured, disallowed or already started).

    Started before Prefect is imported when it can be (~2 s sooner); a Prefect profile that names
    a server or forbids the ephemeral one is only known after, and the child is stopped then.
    """
    if _servers or _applied or os.environ.get("PREFECT_API_URL"):
        return False
    if "prefect.context" in sys.modules and not wanted():
        return False
    port = _free_port()
    _servers.append(EarlyServer(_spawn(port), port, time.monotonic()))
    atexit.register(stop)
    if not wanted():
        stop()
        return False
    return True


def starting() -> bool:
    """-> whether a server started by `start` has not been waited for yet."""
    return bool(_servers) and not _applied


def await_ready(timeout_s: float) -> bool:
    """Seconds allowed since its start -> True once Prefect here uses the started server; False
    (it is stopped) when it did not answer in time. A child that lost its port starts on another."""
    from omoide.cli.runtime import is_healthy

    server = _servers[0]
    while True:
        code = server.process.poll()
        if code == _PORT_IN_USE:
            server.port = _free_port()
            server.process = _spawn(server.port)
        elif code is not None:
            stop()
            raise RuntimeError(f"Prefect's API server exited with code {code} as it started")
        elif is_healthy(server.url, timeout_s=1.0):
            _point_prefect_at(server.url)
            return True
        if time.monotonic() - server.started > timeout_s:
            stop()
            return False
        time.sleep(0.1)


def _point_prefect_at(url: str | None) -> None:
    """An API URL (None: none) -> this process's Prefect settings and child processes use it."""
    from prefect.context import refresh_global_settings_context

    if url is None:
        for key in _applied:
            os.environ.pop(key, None)
        _applied.clear()
    else:
        os.environ["PREFECT_API_URL"] = url
        _applied.append("PREFECT_API_URL")
        if "PREFECT_UI_URL" not in os.environ:
            # Its UI is off, as in Prefect's ephemeral server: no "View at" link to a page that
            # never answers (an empty UI URL is how Prefect is told there is none).
            os.environ["PREFECT_UI_URL"] = ""
            _applied.append("PREFECT_UI_URL")
    refresh_global_settings_context()


def stop() -> None:
    """-> the started server stopped (SIGTERM, then SIGKILL after 5 s) and Prefect no longer pointed at it."""
    while _servers:
        server = _servers.pop()
        if server.process.poll() is None:
            server.process.terminate()
            try:
                server.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                server.process.kill()
                server.process.wait()
    if _applied:
        _point_prefect_at(None)
