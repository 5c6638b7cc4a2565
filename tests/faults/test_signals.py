"""SIGTERM or Ctrl-C stops `omoide server`, `omoide serve` and a backfill in progress within the bound,
leaving no process behind and no half-written file; the next run completes.

Each command runs as a user starts it, a real subprocess in its own session on a scratch home;
the signal goes to the command's process alone (a child that outlives it is an orphan, which
`os.killpg(session, 0)` finds). Measured on a quiet 2-core machine the stops take 0.5-5 s
(docs/benchmarks.md, "Stopping"); the bound asserted here is 10 s with a margin for a loaded
CI machine.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pyarrow.parquet as pq
import pytest

from omoide.cli.recall_route import endpoint_file, running_endpoint
from omoide.cli.runtime import running_server, server_file
from omoide.sample import write_sample
from tests.fakes import CLI
from tests.prefect_server import STARTUP_S, background, clean_env, free_port

BOUND_S = 20.0  # the 10 s, doubled for a CI machine running other suites beside this one
DAY_BEFORE, DAY = "2026-11-19", "2026-11-20"


def _until(what: str, check, process: subprocess.Popen[bytes], log: Path) -> None:  # noqa: ANN001
    """A check -> returns once it is true; fails the test if the process exits first or time runs out."""
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"exited ({process.returncode}) before {what}: {log.read_text()[-3000:]}")
        if check():
            return
        time.sleep(0.3)
    pytest.fail(f"no {what} within {STARTUP_S:.0f} s: {log.read_text()[-3000:]}")


def _unchanged(log: Path, seconds: float) -> bool:
    """A log file -> whether nothing was written to it for `seconds` (waited here)."""
    before = log.stat().st_size
    time.sleep(seconds)
    return log.stat().st_size == before


def _stop(process: subprocess.Popen[bytes], sig: int, log: Path) -> tuple[int, float]:
    """A running command + a signal -> (exit code, seconds to exit); asserts nothing it started is left."""
    began = time.monotonic()
    process.send_signal(sig)
    code = process.wait(timeout=120)
    took = time.monotonic() - began
    time.sleep(0.5)  # a child the command stopped is reaped by now; one left behind is not
    with pytest.raises(ProcessLookupError):
        os.killpg(process.pid, 0)  # its session has no process left
    print(f"{sig!r} stopped in {took:.1f} s: {log.read_text()[-300:]}")
    return code, took


def _temporary_files(home: Path) -> list[Path]:
    """Home -> omoide's temporary files under it (what a write cut short would leave)."""
    return sorted(p for p in home.rglob(".*.tmp") if p.is_file())


# A command inside stop_on_signals whose main thread waits on a lock for good, as one waiting on
# a task's future does, with a child process; `blocked` keeps the signal off the main thread, as
# when the kernel hands it to one of LanceDB's or onnxruntime's threads.
BUSY = """
import signal, subprocess, sys, threading, time
from omoide.cli.stop import stop_on_signals
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])

def ready():  # the child's pid, once the main thread waits (before, it would see the signal)
    main = threading.main_thread().ident
    while sys._current_frames()[main].f_code.co_name != "wait":
        time.sleep(0.01)
    time.sleep(0.2)
    print(child.pid, flush=True)

with stop_on_signals("the test flow", "run it again"):
    if sys.argv[1] == "blocked":
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    threading.Thread(target=ready, daemon=True).start()
    threading.Event().wait()
"""


@pytest.mark.parametrize("where", ["main", "blocked"])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_command_stuck_in_a_wait_still_ends_with_its_child(where: str, sig: int) -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", BUSY, where],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert process.stdout is not None
    child = int(process.stdout.readline())
    began = time.monotonic()
    process.send_signal(sig)
    _, said = process.communicate(timeout=60)
    took = time.monotonic() - began
    assert took < BOUND_S and process.returncode == 128 + sig, said
    assert (
        said.strip() == f"omoide: the test flow stopped by {signal.Signals(sig).name}; run it again"
    )
    print(f"{where}, {sig!r}: ended in {took:.1f} s")
    with contextlib.suppress(psutil.NoSuchProcess):
        psutil.Process(child).wait(timeout=5)  # reaped once its parent is gone
    assert not psutil.pid_exists(child)


@pytest.mark.prefect_server
def test_the_server_stops_with_its_prefect_server(omoide_home: Path, tmp_path: Path) -> None:
    log = tmp_path / "server.out"
    command = [*CLI, "server", "--port", str(free_port()), "--no-ui"]
    with background(command, clean_env(OMOIDE_HOME=str(omoide_home)), log) as process:
        _until("server", lambda: running_server(omoide_home) is not None, process, log)
        # It answers recall and ask too, once LanceDB and the model are loaded.
        _until("recall endpoint", lambda: running_endpoint(omoide_home), process, log)
        code, took = _stop(process, signal.SIGTERM, log)
    assert took < BOUND_S and code == 0
    assert not server_file(omoide_home).exists()
    assert not endpoint_file(omoide_home).exists()


@pytest.mark.prefect_server
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_stops_and_says_so(
    omoide_home: Path, tmp_path: Path, prefect_api: str, sig: int
) -> None:
    write_sample(omoide_home, days=1)
    log = tmp_path / "serve.out"
    env = clean_env(OMOIDE_HOME=str(omoide_home), PREFECT_API_URL=prefect_api)
    with background([*CLI, "serve"], env, log) as process:
        _until("deployments served", lambda: b"being served" in log.read_bytes(), process, log)
        # Prefect prints the table of deployments after "being served", in several writes: a
        # stop in the middle of them (a busy machine) puts the stop line above the table's end.
        _until("the table printed", lambda: _unchanged(log, 1.0), process, log)
        code, took = _stop(process, sig, log)
    assert took < BOUND_S and code == 0
    assert log.read_text().rstrip().endswith(f"omoide: serve stopped by {signal.Signals(sig).name}")


def _has_prefect_server(pid: int) -> bool:
    """A process id -> whether one of its children is a Prefect API server (uvicorn)."""
    try:
        return any("uvicorn" in c.cmdline() for c in psutil.Process(pid).children(recursive=True))
    except psutil.Error:
        return False


def test_a_backfill_stopped_while_its_flows_import_leaves_no_prefect_server(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    write_sample(home, days=1)
    log = tmp_path / "backfill.out"
    env = clean_env(OMOIDE_HOME=str(home))
    with background([*CLI, "backfill", "--start", DAY, "--end", DAY], env, log) as process:
        # Its short-lived server starts first, then the flows import (seconds): stopped then.
        _until("a Prefect server", lambda: _has_prefect_server(process.pid), process, log)
        code, took = _stop(process, signal.SIGTERM, log)
    assert took < BOUND_S and code == 128 + signal.SIGTERM
    said = log.read_text().rstrip().splitlines()[-1]
    assert said == "omoide: the backfill command stopped by SIGTERM; run the command again"


@pytest.mark.slow
@pytest.mark.prefect_server
def test_a_backfill_stopped_mid_day_leaves_nothing_behind_and_the_next_run_completes(
    tmp_path: Path, prefect_api: str
) -> None:
    home = tmp_path / "home"
    write_sample(home, days=2)
    log = tmp_path / "backfill.out"
    args = ["backfill", "--start", DAY_BEFORE, "--end", DAY, "--json"]
    # On its own short-lived Prefect server, as a user's first backfill runs: a child process
    # that a stop used to leave running.
    env = clean_env(OMOIDE_HOME=str(home))
    with background([*CLI, *args], env, log) as process:
        # The first day's memories are being embedded and written: the middle of a flow run.
        _until("day in progress", lambda: (home / "lancedb").exists(), process, log)
        code, took = _stop(process, signal.SIGTERM, log)
    assert took < BOUND_S and code == 128 + signal.SIGTERM
    said = log.read_text().rstrip().splitlines()[-1]
    assert said.startswith("omoide: the backfill flow stopped by SIGTERM; what it wrote is whole")
    # Every file left is whole: each parquet file reads.
    for part in home.rglob("*.parquet"):
        pq.read_metadata(part)
    left = _temporary_files(home)
    # The next run takes the lock at once (the kernel dropped it) and completes both days.
    rerun = subprocess.run(
        [*CLI, *args],
        env=clean_env(
            OMOIDE_HOME=str(home), PREFECT_API_URL=prefect_api, OMOIDE_LOCK_TIMEOUT_S="0"
        ),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    days = json.loads(rerun.stdout)
    assert all(days[d]["ok"] for d in (DAY_BEFORE, DAY)), days
    # A temporary file a stop cut short is removed by the next writer.
    assert _temporary_files(home) == [], left
