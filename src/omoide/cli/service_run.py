"""`omoide service run`: what the per-user service runs — the home's Prefect server, then `omoide serve`
attached to it, both restarted when either stops, both stopped in order on SIGTERM or Ctrl-C.

Why both: Prefect's scheduler lives in the server. `omoide serve` on an ephemeral server registers
its deployments but no run is ever scheduled (Prefect: "Cannot schedule flows on an ephemeral
server"), so a service of `omoide serve` alone would never run the 02:00 flow. One process keeps
one file per platform, and the order (serve only once the server answers) the same on systemd,
launchd and Task Scheduler, which alone has no dependencies between tasks.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from omoide.cli.runtime import new_log, running_server
from omoide.core.errors import OmoideError
from omoide.core.files import private_dir
from omoide.core.offline import go_offline
from omoide.service import DEFAULT_PORT, omoide_executable

out = Console()

RESTART_DELAY_S = 30.0  # first wait before starting a stopped pair again; doubles up to the cap
MAX_RESTART_DELAY_S = 900.0
STEADY_S = 600.0  # a pair that ran this long resets the wait to RESTART_DELAY_S
SERVE_GRACE_S = 20.0
SERVER_GRACE_S = 45.0  # `omoide server` itself allows Prefect's server 30 s
WATCH_S = 1.0
SERVICE_LOCK = "service.lock"  # under OMOIDE_HOME/prefect, held while `service run` runs


class _Stop:
    """A stop asked by a signal: a flag its handler sets, and waits that end early once it is."""

    def __init__(self) -> None:
        self.asked = False

    def set(self) -> None:
        """-> the stop asked (all a signal handler does: no lock it could deadlock on)."""
        self.asked = True

    def is_set(self) -> bool:
        """-> whether a stop was asked."""
        return self.asked

    def wait(self, seconds: float) -> bool:
        """Seconds -> slept that long, or less once a stop is asked; whether one was."""
        deadline = time.monotonic() + seconds
        while not self.asked and time.monotonic() < deadline:
            time.sleep(min(0.2, max(deadline - time.monotonic(), 0.0)))
        return self.asked


def service_run(
    home: Annotated[
        Path | None,
        typer.Option(help="The OMOIDE_HOME to keep (default: the OMOIDE_HOME variable)."),
    ] = None,
    port: Annotated[
        int, typer.Option(min=1, max=65535, help="Loopback port of the Prefect server it starts.")
    ] = DEFAULT_PORT,
) -> None:
    """Run the home's Prefect server and `omoide serve` on it, restarted when one stops (what the service runs; Ctrl-C stops)."""
    from omoide.core.settings import home_from_env

    if home is not None:
        # Before anything reads settings; the server and serve inherit it (a task has no environment).
        os.environ["OMOIDE_HOME"] = str(home.expanduser().resolve())
    go_offline()
    the_home = home_from_env()
    if not the_home.is_dir():
        raise OmoideError(f"{the_home} does not exist: run `omoide init` there first")
    from filelock import FileLock, Timeout

    # One per home: a second would start a second scheduler on the same deployments.
    lock = FileLock(private_dir(the_home / "prefect") / SERVICE_LOCK)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise OmoideError(f"omoide service run already keeps {the_home}") from None
    log = new_log(the_home, "service", datetime.now())
    say = _teller(log)
    stop = _Stop()
    previous = _on_stop_signals(stop)
    say(f"keeping {the_home} (log {log})")
    delay = RESTART_DELAY_S
    try:
        while not stop.is_set():
            started = time.monotonic()
            _run_pair(the_home, port, stop, say)
            if stop.is_set():
                break
            if time.monotonic() - started >= STEADY_S:
                delay = RESTART_DELAY_S
            say(f"starting again in {delay:.0f} s")
            stop.wait(delay)
            delay = min(delay * 2, MAX_RESTART_DELAY_S)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        lock.release()
    say("stopped")


def _run_pair(home: Path, port: int, stop: _Stop, say: Callable[[str], None]) -> None:
    """Home + port -> the server (unless one already runs for the home) and serve run until one stops or a stop is asked; both ended."""
    omoide = str(omoide_executable())
    children: list[tuple[str, subprocess.Popen[bytes]]] = []
    try:
        url = running_server(home)
        own_server = url is None
        if url is None:
            server = _start([omoide, "server", "--port", str(port)], dict(os.environ))
            children.append(("omoide server", server))
            say(f"started omoide server on 127.0.0.1:{port} (pid {server.pid})")
            url = _server_url(home, server, stop)
            if url is None:
                if server.poll() is not None:
                    say(f"omoide server exited while starting (exit code {server.returncode})")
                return
        else:
            say(f"using the Prefect server already running for {home} at {url}")
        serve = _start([omoide, "serve"], {**os.environ, "PREFECT_API_URL": url})
        children.append(("omoide serve", serve))
        say(f"started omoide serve on {url} (pid {serve.pid})")
        _watch(home, children, own_server, stop, say)
    finally:
        # serve first, so its runs report to a server that still answers
        for name, child in reversed(children):
            _end(child, SERVER_GRACE_S if name == "omoide server" else SERVE_GRACE_S)


def _watch(
    home: Path,
    children: list[tuple[str, subprocess.Popen[bytes]]],
    own_server: bool,
    stop: _Stop,
    say: Callable[[str], None],
) -> None:
    """The running pair -> returns once a stop is asked, a child exits, or a server it did not start goes away."""
    while not stop.wait(WATCH_S):
        for name, child in children:
            if child.poll() is not None:
                say(f"{name} exited (exit code {child.returncode})")
                return
        if not own_server and running_server(home) is None:
            say("the Prefect server serve was using stopped")
            return


def _server_url(home: Path, server: subprocess.Popen[bytes], stop: _Stop) -> str | None:
    """A starting `omoide server` -> its API URL once it answers; None if it exits or a stop is asked first."""
    # No deadline of its own: `omoide server` gives up (and exits) after its start-up budget.
    while not stop.is_set() and server.poll() is None:
        url = running_server(home)
        if url is not None:
            return url
        stop.wait(WATCH_S)
    return None


def _start(command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    """A command line + its environment -> it running, its output going where this process's goes."""
    return subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL)


def _end(child: subprocess.Popen[bytes], grace_s: float) -> None:
    """A child process -> ended: SIGTERM, then SIGKILL once the grace period is over."""
    if child.poll() is not None:
        return
    child.terminate()
    try:
        child.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


def _on_stop_signals(stop: _Stop) -> dict[int, object]:
    """A stop event -> SIGTERM, SIGINT and SIGHUP set it; the handlers they replaced."""
    previous: dict[int, object] = {}
    for name in ("SIGTERM", "SIGINT", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None:
            previous[sig] = signal.signal(sig, lambda signum, frame: stop.set())
    return previous


def _teller(log: Path) -> Callable[[str], None]:
    """Log file -> a function printing a line on stdout and appending it, timed, to the file."""

    def say(line: str) -> None:
        out.print(f"omoide service: {escape(line)}", highlight=False, soft_wrap=True)
        with log.open("a", encoding="utf-8") as sink:
            sink.write(f"{datetime.now():%Y-%m-%d %H:%M:%S} {line}\n")

    return say
