"""The `omoide server` command: a long-lived local Prefect server whose home is OMOIDE_HOME/prefect.

Flow commands (`run`, `backfill`, `reflect`, `serve`) find it through the file it writes
(`OMOIDE_HOME/prefect/server.json`, see `runtime.running_server`) and use it instead of an
ephemeral server, so the CLI, deployment runs and the UI share one database and one cache.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer
from rich.console import Console

from omoide.cli.runtime import (
    api_url,
    guarded_server_environment,
    is_healthy,
    new_log,
    prefect_environment,
    running_server,
    server_file,
)
from omoide.core.errors import OmoideError
from omoide.core.files import private_dir, write_text_atomic
from omoide.core.server_auth import auth_path

out = Console()

# A first start on a fresh home runs every database migration: slow on a busy two-core laptop.
STARTUP_BUDGET_S = 180.0
# A stop must end within 10 s: Prefect's server takes about half a second; one that hangs is
# killed (its SQLite database is safe: a killed writer's transaction is rolled back).
STOP_GRACE_S = 8.0


class _Stop(Exception):
    """SIGTERM or SIGHUP reached `omoide server`."""


def server_environment(home: Path, port: int, ui: bool) -> dict[str, str]:
    """OMOIDE_HOME + port + UI switch -> the environment of the `prefect server start` subprocess."""
    env = {k: v for k, v in os.environ.items() if k not in ("PREFECT_API_URL", "PREFECT_UI_URL")}
    # The server's own home is forced: its database, results and logs belong under OMOIDE_HOME.
    env.update(prefect_environment(home))
    env.update(guarded_server_environment(home, port))  # its UI's origin, the one CORS allows
    env.update(
        {
            "PREFECT_SERVER_API_HOST": "127.0.0.1",
            "PREFECT_SERVER_API_PORT": str(port),
            "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
            "PREFECT_SERVER_UI_ENABLED": "true" if ui else "false",
        }
    )
    env.pop("PREFECT_LOGGING_SETTINGS_PATH", None)  # the server logs to its own file (stdout)
    return env


def server_command(port: int) -> list[str]:
    """Port -> the `prefect server start` command line, bound to loopback, its collection views offline."""
    return [
        sys.executable,
        "-m",
        "omoide.cli.prefect_offline",
        "server",
        "start",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--analytics-off",
    ]


def port_is_free(port: int) -> bool:
    """Port -> whether 127.0.0.1 can bind it now."""
    with socket.socket() as s:
        if os.name != "nt":
            # As uvicorn binds: a port whose last connection waits out TIME_WAIT (the server
            # restarted by its service a moment ago) is free to it. On Windows the option
            # would let two listeners share a port.
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def server(
    port: Annotated[
        int, typer.Option(min=1, max=65535, help="Loopback port of the API and the UI.")
    ] = 4200,
    ui: Annotated[bool, typer.Option(help="Serve Prefect's UI as well.")] = True,
    recall: Annotated[
        bool,
        typer.Option(
            help="Answer `omoide recall` and `omoide ask` from this process, with LanceDB and the "
            "model kept loaded (a loopback endpoint only they know the token of)."
        ),
    ] = True,
) -> None:
    """Run a long-lived Prefect server on 127.0.0.1 with its home under OMOIDE_HOME/prefect (Ctrl-C stops)."""
    from omoide.core.settings import get_settings

    settings = get_settings()
    home = settings.home
    running = running_server(home)
    if running is not None:
        raise OmoideError(f"a Prefect server for {home} already runs at {running}")
    if not port_is_free(port):
        raise OmoideError(f"port {port} on 127.0.0.1 is in use: choose another with --port")
    private_dir(home / "prefect")
    log = new_log(home, "server", datetime.now())
    with log.open("ab") as sink:
        process = subprocess.Popen(
            server_command(port),
            env=server_environment(home, port, ui),
            stdin=subprocess.DEVNULL,  # never a prompt (Prefect offers to switch profiles on a TTY)
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    previous = {sig: signal.signal(sig, _raise_stop) for sig in (signal.SIGTERM, signal.SIGHUP)}
    record = server_file(home)
    endpoint = None
    try:
        if recall:
            from omoide.cli.recall_endpoint import RecallEndpoint

            # Warms up (LanceDB, the model) while Prefect's server starts; answers once warm.
            endpoint = RecallEndpoint(home).start()
        url = _wait_until_healthy(process, port)
        started = datetime.now(UTC).isoformat(timespec="seconds")
        write_text_atomic(
            json.dumps({"pid": process.pid, "port": port, "url": url, "started": started}),
            record,
        )
        base = url.removesuffix("/api")
        login = auth_path(home)
        out.print(
            f"Prefect server for {home} at {base} (pid {process.pid}; log {log}).\n"
            f"The UI asks for a login: paste the line of {login} (cat it; only you can read it). "
            "It answers its own pages on 127.0.0.1 and localhost, nothing else.\n"
            "omoide run, backfill, reflect and serve use it while it runs; for prefect's own "
            f'commands: export PREFECT_API_URL={url} PREFECT_API_AUTH_STRING="$(cat {login})"',
            highlight=False,
            soft_wrap=True,
        )
        code = process.wait()
        raise OmoideError(f"the Prefect server stopped by itself (exit code {code})")
    except (KeyboardInterrupt, _Stop):
        out.print("Stopping the Prefect server.", highlight=False)
    finally:
        if endpoint is not None:
            endpoint.stop()  # first: its file goes, so the commands answer themselves at once
        _stop(process)
        _forget(record, process.pid)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    """A termination signal -> _Stop raised in the main thread, so the server is stopped and forgotten."""
    raise _Stop(signum)


def _wait_until_healthy(process: subprocess.Popen[bytes], port: int) -> str:
    """The starting server -> its API URL once /health answers; OmoideError if it exits or takes too long."""
    url = api_url(port)
    deadline = time.monotonic() + STARTUP_BUDGET_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise OmoideError(
                f"the Prefect server exited while starting (exit code {process.returncode})"
            )
        if is_healthy(url, timeout_s=2.0):
            return url
        time.sleep(0.5)
    raise OmoideError(f"the Prefect server did not answer within {STARTUP_BUDGET_S:.0f} s")


def _stop(process: subprocess.Popen[bytes]) -> None:
    """A server subprocess -> stopped (SIGTERM, then SIGKILL after a grace period)."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=STOP_GRACE_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _forget(record: Path, pid: int) -> None:
    """The server file + the pid it should name -> removed, unless another server wrote it since."""
    try:
        if json.loads(record.read_text(encoding="utf-8")).get("pid") == pid:
            record.unlink()
    except (OSError, ValueError):
        pass
