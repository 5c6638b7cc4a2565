"""OMOIDE_HOME + a command -> the process set up for Prefect: its home under OMOIDE_HOME, telemetry off,
the home's long-lived server when `omoide server` runs one, its log in a file, the flows imported after
it, and a flow call that survives a slow server start."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from rich.console import Console

from omoide.cli import early_server, quick_exit
from omoide.cli.early_server import STARTUP_FAILED
from omoide.cli.stop import stop_on_signals
from omoide.core.errors import Incomplete, OmoideError
from omoide.core.files import private_dir, write_text_atomic
from omoide.core.malloc_arenas import cap_malloc_arenas
from omoide.core.offline import OFFLINE_ENV, go_offline
from omoide.core.server_auth import auth_string, own_origins

if TYPE_CHECKING:
    from omoide.core.settings import Settings

err = Console(stderr=True)

# Prefect's ephemeral API server runs its database migrations on a home's first start; on a
# busy two-core laptop that took longer than Prefect's 20 s default.
STARTUP_TIMEOUT_S = "90"
KEPT_LOGS = 30
SERVER_FILE = "server.json"  # under OMOIDE_HOME/prefect while `omoide server` runs
# Not Prefect's default name (PREFECT_HOME/logging.yml): every process on this Prefect home (the
# server, a worker, deployment runs) would read it and log into the last command's file.
LOGGING_FILE = "cli-logging.yml"
GUARD_KEYS = (
    "PREFECT_API_AUTH_STRING",
    "PREFECT_SERVER_API_AUTH_STRING",
    "PREFECT_SERVER_API_CORS_ALLOWED_ORIGINS",
)
_run_log: list[Path] = []  # the log file of this process's command, once it has one


def prefect_environment(home: Path) -> dict[str, str]:
    """OMOIDE_HOME -> environment variables that keep Prefect local, private and quiet."""
    prefect_home = home / "prefect"
    return {
        "PREFECT_HOME": str(prefect_home),
        "PREFECT_LOCAL_STORAGE_PATH": str(prefect_home / "storage"),
        "PREFECT_LOGGING_LEVEL": os.environ.get("PREFECT_LOGGING_LEVEL", "INFO"),
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": STARTUP_TIMEOUT_S,
        **OFFLINE_ENV,
        **guarded_server_environment(home),
    }


def guarded_server_environment(home: Path, port: int | None = None) -> dict[str, str]:
    """OMOIDE_HOME (+ the port of a server with a UI) -> Prefect's settings that close its server
    to all but this home's processes: the auth string both ways, CORS for the UI's origin only."""
    secret = auth_string(home)
    # A server without a UI (a command's own) is read by no page at all: no origin matches "".
    origins = ",".join(own_origins(port)) if port is not None else ""
    return dict(zip(GUARD_KEYS, (secret, secret, origins), strict=True))


def deployment_environment(home: Path) -> dict[str, str]:
    """OMOIDE_HOME -> the environment of every deployment run: this home, Prefect's home and results under it, telemetry off."""
    # Absolute: a deployment run starts in whatever folder its worker or `serve` process chose.
    prefect_home = home.resolve() / "prefect"
    return {
        "OMOIDE_HOME": str(home.resolve()),
        "PREFECT_HOME": str(prefect_home),
        "PREFECT_LOCAL_STORAGE_PATH": str(prefect_home / "storage"),
        **OFFLINE_ENV,
    }


def apply_prefect_environment(home: Path) -> None:
    """OMOIDE_HOME -> os.environ ready before Prefect is imported (privacy switches forced), pointed at
    the home's long-lived server when one answers and no PREFECT_API_URL was given."""
    go_offline()
    given = os.environ.get("PREFECT_API_URL")
    for key, value in prefect_environment(home).items():
        if key in GUARD_KEYS and not (given and key == "PREFECT_API_AUTH_STRING"):
            # Forced: a server this command starts, or the home's own, knows only this secret. A
            # PREFECT_API_URL of the person's choosing may come with an auth string of its own.
            os.environ[key] = value
        else:
            os.environ.setdefault(key, value)
    private_dir(home / "prefect")
    if not given:
        url = running_server(home)
        if url is not None:
            os.environ["PREFECT_API_URL"] = url
    elif _is_loopback(given) and _refused(given.rstrip("/")):
        # The docs have people export it for `omoide server`; once that stops, say so in one line.
        raise OmoideError(
            f"PREFECT_API_URL={given} does not answer: start `omoide server`, or unset "
            "PREFECT_API_URL to run on a short-lived server of this command's own"
        )


def server_file(home: Path) -> Path:
    """OMOIDE_HOME -> the file `omoide server` writes (pid and port) while its Prefect server runs."""
    return home / "prefect" / SERVER_FILE


def api_url(port: int) -> str:
    """Port -> the URL of a Prefect API on that loopback port."""
    return f"http://127.0.0.1:{port}/api"


def is_healthy(url: str, timeout_s: float = 2.0) -> bool:
    """A Prefect API URL -> whether its GET /health answers true."""
    # The standard library's client, not httpx: an httpx client loads a TLS context with the
    # CA bundle each time (35 ms of CPU, against 0.14 ms), and a command polls its starting
    # server every 0.1 s beside that server's own start. http.client never consults a proxy,
    # so a loopback request stays on this machine.
    from http.client import HTTPConnection, HTTPException, HTTPSConnection

    parts = urlsplit(url)
    kind = HTTPSConnection if parts.scheme == "https" else HTTPConnection
    try:
        connection = kind(parts.hostname or "", parts.port, timeout=timeout_s)
        try:
            connection.request("GET", f"{parts.path.rstrip('/')}/health")
            response = connection.getresponse()
            body = response.read()
        finally:
            connection.close()
    except (OSError, HTTPException, ValueError):
        return False
    return response.status == 200 and body.strip() == b"true"


def running_server(home: Path, timeout_s: float = 2.0) -> str | None:
    """OMOIDE_HOME -> the API URL of the Prefect server `omoide server` runs for it, or None when none answers."""
    try:
        record = json.loads(server_file(home).read_text(encoding="utf-8"))
        pid, port = int(record["pid"]), int(record["port"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    # A server killed without cleaning up leaves its file; its port may since serve another home.
    if not _alive(pid):
        return None
    url = api_url(port)  # only ever loopback, whatever the file says
    return url if is_healthy(url, timeout_s) else None


def _refused(url: str) -> bool:
    """A loopback Prefect API URL -> whether nothing listens there (a slow answer is not a refusal)."""
    import httpx

    try:
        httpx.get(f"{url}/health", timeout=10.0, trust_env=False)
    except httpx.ConnectError:
        return True
    except httpx.HTTPError:  # busy, not gone: Prefect's own client retries and reports
        return False
    return False


def _is_loopback(url: str) -> bool:
    """A URL -> whether it names this machine (127.0.0.1, localhost or ::1)."""
    import httpx

    return httpx.URL(url).host in ("127.0.0.1", "localhost", "::1")


def _writer_pid(log: Path) -> int:
    """A log file's path -> the id of the process that wrote it (the name's last part), 0 if none."""
    last = log.stem.rsplit("-", 1)[-1]
    return int(last) if last.isdigit() else 0


def _alive(pid: int) -> bool:
    """Process id -> whether such a process exists (on every platform: os.kill(pid, 0) ends it on Windows)."""
    import psutil

    return pid > 0 and psutil.pid_exists(pid)


def run_log(home: Path, command: str, now: datetime) -> Path:
    """Home + command + now -> a fresh log file under home/logs/ that Prefect's output goes to.

    Prefect logs task failures with their tracebacks; on the terminal a failed run would
    bury omoide's one-line message under a hundred lines. They go to this file instead (its
    path is printed with any failure), and only the newest KEPT_LOGS files are kept.
    """
    import yaml

    path = new_log(home, command, now)
    config = _file_logging(path)
    settings = home / "prefect" / LOGGING_FILE
    write_text_atomic(yaml.safe_dump(config, sort_keys=False), settings)
    os.environ["PREFECT_LOGGING_SETTINGS_PATH"] = str(settings)
    return path


def new_log(home: Path, command: str, now: datetime) -> Path:
    """Home + command + now -> the path of this command's log file under home/logs/ (older ones pruned)."""
    logs = private_dir(home / "logs")
    for old in sorted(logs.glob("*.log"))[: -KEPT_LOGS + 1]:
        # A log still being written stays: `omoide serve` writes one for weeks, and
        # `omoide status` reads its runs from it.
        if not _alive(_writer_pid(old)):
            old.unlink(missing_ok=True)
    name = re.sub(r"[^\w.-]+", "-", command).strip("-")
    path = logs / f"{now:%Y%m%d-%H%M%S}-{name}-{os.getpid()}.log"
    _run_log[:] = [path]
    return path


def _file_logging(path: Path) -> dict[str, Any]:
    """Log file -> Prefect's own logging configuration with its console handler writing there."""
    from importlib.util import find_spec

    import yaml

    # Located, not imported: importing prefect sets its logging up before we point it here.
    spec = find_spec("prefect")
    if spec is None or spec.origin is None:  # pragma: no cover - prefect is a dependency
        raise OmoideError("Prefect is not installed")
    text = (Path(spec.origin).parent / "logging" / "logging.yml").read_text(encoding="utf-8")
    config = yaml.safe_load(text)
    # With the date: `omoide serve` logs to one file for weeks, and `omoide status` reads when
    # each run ended from it (omoide.core.run_logs).
    for formatter in config["formatters"].values():
        if "datefmt" in formatter:
            formatter["datefmt"] = "%Y-%m-%d %H:%M:%S"
    # Prefect fills ${SETTING} placeholders when it loads the file: a `$` in the path must stay one.
    config["handlers"]["console"] = {
        "level": 0,
        "class": "logging.FileHandler",
        "formatter": "standard",
        "filename": str(path).replace("$", "$$"),
        "encoding": "utf-8",
        "delay": True,
    }
    return config


def current_log() -> Path | None:
    """-> the log file of this process's command, when it started Prefect."""
    return _run_log[0] if _run_log else None


def flow_modules(
    home: Path, command: str, *, start_server: bool = False
) -> tuple[ModuleType, ModuleType, ModuleType]:
    """OMOIDE_HOME + command (+ whether a flow runs next) -> the (daily, backfill, reflect) flow
    modules, imported only after Prefect's environment and the command's log file are set; glibc's
    malloc held to two arenas for the run (and the runs `serve` starts), not for recall, which it
    slows. `start_server`: a short-lived Prefect server starts meanwhile (cli/early_server.py), for
    `run_flow` to wait on.
    """
    if command != "serve":
        # Before anything registers an exit handler (the early server's stop among them).
        quick_exit.arm_after_cleanup()
    apply_prefect_environment(home)
    cap_malloc_arenas()
    run_log(home, command, datetime.now())
    # A stop while the flows import must not leave an early server behind (SIGTERM's default
    # ends the process without atexit, where Prefect stops it).
    with stop_on_signals(f"the {command} command", "run the command again"):
        if start_server:
            early_server.start()
        import omoide.flows.backfill as backfill_module
        import omoide.flows.daily as daily_module
        import omoide.flows.reflect as reflect_module

        if early_server.starting():
            # Every flow validates with GX (~4 s to import): done now, while the server starts.
            from omoide.quality import gx_context

            gx_context()
    return daily_module, backfill_module, reflect_module


def await_early_server() -> bool:
    """-> the server `flow_modules` started waited for; whether its start timed out (it is stopped then)."""
    if not early_server.starting():
        return False
    from prefect.settings import get_current_settings

    timeout_s = get_current_settings().server.ephemeral.startup_timeout_seconds
    return not early_server.await_ready(float(timeout_s))


def run_flow(flow: Callable[..., Any], **parameters: Any) -> Any:
    """A flow + its parameters -> its final state; a server that was slow to start is tried once more.

    SIGTERM or Ctrl-C ends the command within 10 s, its ephemeral server with it (cli/stop.py).
    """
    what = f"the {getattr(flow, 'name', 'omoide')} flow"
    # Days complete or not at all (day marks), so running the command again finishes the job.
    then = "what it wrote is whole; run the command again to finish"
    with stop_on_signals(what, then, drain=drain_logs):
        # A server started early that timed out was the first try.
        for attempt in (2,) if await_early_server() else (1, 2):
            try:
                return flow(**parameters, return_state=True)
            except RuntimeError as exc:
                if STARTUP_FAILED not in str(exc):
                    raise
                stop_servers()
                if attempt == 2:
                    timeout = os.environ.get(
                        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "?"
                    )
                    raise OmoideError(
                        f"Prefect's local API server did not start within {timeout} s, twice "
                        "(the machine may be busy): run the command again, or allow it more "
                        "time with PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS"
                    ) from exc
    return None  # pragma: no cover - the loop returns or raises


def drain_logs() -> None:
    """-> this process's queued Prefect log lines and events sent to the server (for a stop: bounded by its caller)."""
    from prefect._internal.concurrency.services import QueueService

    QueueService.drain_all()


def stop_servers() -> None:
    """-> every short-lived Prefect server this process started, stopped: omoide's early one and Prefect's own.

    A server that timed out is still starting: left alone it would outlive the command, and
    the next start would leave it orphaned. Prefect keeps its own per port in `_instances`.
    """
    early_server.stop()
    prefect_server = sys.modules.get("prefect.server.api.server")  # none started if not imported
    if prefect_server is not None:
        for server in list(prefect_server.SubprocessASGIServer._instances.values()):
            server.stop()


def quiesce(timeout_s: float = 30.0) -> None:
    """-> this process's Prefect log and event queues sent to the server, then its ephemeral servers stopped.

    Stopping a server with logs still queued makes Prefect print "Error logging to API" and
    retry; draining first lets the server take them, and write what it buffered as it stops.
    """
    from prefect._internal.concurrency.services import QueueService

    QueueService.drain_all(timeout=timeout_s)
    stop_servers()


def outcome(state: Any, what: str) -> Any:
    """A flow's final state + what it was -> its result, or OmoideError with the flow's own error."""
    result, error = partial_outcome(state, what)
    if error is not None:
        raise error
    return result


def partial_outcome(state: Any, what: str) -> tuple[Any, OmoideError | None]:
    """A flow's final state + what it was -> its result (or what a run that ended incomplete still
    produced, else None), and the OmoideError with the flow's own error when it failed."""
    if state.is_completed():
        return state.result(), None
    try:
        state.result()
    except Exception as exc:  # noqa: BLE001 - whatever failed the flow becomes its one line
        error = OmoideError(str(exc) or f"{what} failed")
        error.__cause__ = exc
        return (exc.partial if isinstance(exc, Incomplete) else None), error
    return None, OmoideError(state.message or f"{what} failed")


@contextmanager
def writing(settings: Settings, command: str) -> Iterator[None]:
    """Settings + the command -> the home's writer lock held (before Prefect starts), saying so when it waits."""
    from omoide.core.writer_lock import describe, writer_lock

    def waiting(who: dict[str, Any]) -> None:
        err.print(
            f"omoide: waiting up to {settings.lock_timeout_s:.0f} s for {describe(who)} "
            f"to finish writing {settings.home}",
            highlight=False,
            soft_wrap=True,
        )

    with writer_lock(
        settings.home,
        command,
        settings.lock_timeout_s,
        on_wait=waiting,
        sweep=settings.written_dirs,
        store=settings.storage_root,
    ):
        yield
