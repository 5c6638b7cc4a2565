"""A busy, shared machine: two writers never double anything, a slow Prefect start is not a crash,
and every failure is one line on stderr with the full detail in a log file."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import lancedb
import pytest

from omoide.sample import write_sample
from tests.fakes import CLI, OWN_SERVER, cli_env, run_cli

DAY = "2026-11-20"


@pytest.fixture
def held(omoide_home: Path) -> Iterator[int]:
    """Another process holding the home's writer lock, as a long `omoide run` would; its pid."""
    script = (
        "import sys, time; from pathlib import Path; from omoide.core.writer_lock import writer_lock\n"
        f"with writer_lock(Path({str(omoide_home)!r}), 'omoide run --day {DAY}', 5):\n"
        "    print('held', flush=True); time.sleep(120)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    yield holder.pid
    holder.kill()
    holder.wait()


def test_a_second_writer_waits_then_names_the_holder(omoide_home: Path, held: int) -> None:
    r = run_cli("reindex", home=omoide_home, OMOIDE_LOCK_TIMEOUT_S="1")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    waiting, error = r.stderr.strip().splitlines()
    assert waiting.startswith("omoide: waiting up to 1 s for pid ") and str(held) in waiting
    assert error.startswith("omoide: ") and "is being written by pid" in error
    assert f"(`omoide run --day {DAY}`, since " in error and "gave up after 1 s" in error


def test_readers_never_wait_for_a_writer(home_with_memories: Path) -> None:
    script = (
        "import time; from pathlib import Path; from omoide.core.writer_lock import writer_lock\n"
        f"with writer_lock(Path({str(home_with_memories)!r}), 'omoide backfill', 5):\n"
        "    print('held', flush=True); time.sleep(120)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        r = run_cli(
            "recall", "warelay", "--no-rehearse", home=home_with_memories, OMOIDE_LOCK_TIMEOUT_S="0"
        )
        assert r.returncode == 0, r.stderr
        assert "Lance is the right store for warelay." in r.stdout
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.slow
def test_two_runs_started_together_double_nothing(omoide_home: Path) -> None:
    write_sample(omoide_home, days=1)
    runs = [
        subprocess.Popen(
            [*CLI, "run", "--day", DAY],
            env=cli_env(omoide_home),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outcomes = [(p.wait(timeout=900), p.stderr.read() if p.stderr else "") for p in runs]
    assert [code for code, _ in outcomes] == [0, 0], outcomes
    assert any("waiting up to" in err for _, err in outcomes)  # one waited for the other
    table = lancedb.connect(omoide_home / "lancedb").open_table("memories")
    ids = table.search().select(["memory_id"]).limit(None).to_arrow()["memory_id"].to_pylist()
    assert ids and len(ids) == len(set(ids))


# Python imports `sitecustomize` from PYTHONPATH at start: this one holds back the start of
# any Prefect API server child (omoide's early one and Prefect's own run the same app factory).
_SLOW_SERVER = """import sys, time
if "prefect.server.api.server:create_app" in sys.argv:
    time.sleep(30)
"""


def test_a_prefect_server_too_slow_to_start_is_one_line(omoide_home: Path, tmp_path: Path) -> None:
    write_sample(omoide_home, days=1)
    slow = tmp_path / "slow-server"
    slow.mkdir()
    (slow / "sitecustomize.py").write_text(_SLOW_SERVER, encoding="utf-8")
    # A server slower than the budget fails as on a loaded laptop: the early start, then
    # Prefect's own. Without the slowed child, a server up before the flows imported (a quick
    # machine) would count as started, whatever the budget.
    r = run_cli(
        "run",
        "--day",
        DAY,
        home=omoide_home,
        PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS="0",
        PYTHONPATH=os.pathsep.join(filter(None, [str(slow), os.environ.get("PYTHONPATH")])),
        **OWN_SERVER,
    )
    assert r.returncode == 1 and "Traceback" not in r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert "Prefect's local API server did not start within 0 s, twice" in line
    log = Path(line.rsplit("(details: ", 1)[1].rstrip(")"))
    assert log.parent == omoide_home / "logs" and log.exists()


def test_a_failed_run_is_one_line_and_its_detail_is_in_the_log(omoide_home: Path) -> None:
    write_sample(omoide_home, days=1)
    history = omoide_home / "sources/chrome/Default/History"
    history.write_bytes(b"this is not a database")
    r = run_cli("run", "--day", DAY, home=omoide_home)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith(f"omoide: 1 of 5 sources failed for {DAY}: chrome: {history}: ")
    log = Path(line.rsplit("(details: ", 1)[1].rstrip(")"))
    assert log.parent == omoide_home / "logs"
    detail = log.read_text(encoding="utf-8")
    assert "Traceback" in detail and "not a SQLite database" in detail
