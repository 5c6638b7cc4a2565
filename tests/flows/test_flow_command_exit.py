"""A flow command ends without the interpreter's teardown, once its exit handlers have run: its
Prefect server stopped, its output and log whole, its exit code the command's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import psutil

from omoide.sample import write_sample
from tests.fakes import OWN_SERVER, flow_env

# The `omoide` command with an exit handler standing for the interpreter's teardown.
WITH_TEARDOWN = (
    "import atexit; atexit.register(print, 'torn down'); from omoide.cli.app import main; main()"
)


def omoide(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """OMOIDE_HOME + arguments (+ variables) -> the command run as the console script runs it."""
    return subprocess.run(
        [sys.executable, "-c", WITH_TEARDOWN, *args],
        env=flow_env(args, home, **env),
        capture_output=True,
        text=True,
        timeout=600,
    )


def servers_of(home: Path) -> list[int]:
    """OMOIDE_HOME -> pids of Prefect API servers started for it that still run."""
    found = []
    for p in psutil.process_iter(["cmdline"]):
        try:
            serving = any("create_app" in part for part in p.info["cmdline"] or ())
            if serving and p.environ().get("OMOIDE_HOME") == str(home):
                found.append(p.pid)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def test_a_backfill_ends_after_its_cleanup_without_the_teardown(omoide_home: Path) -> None:
    first, last = write_sample(omoide_home, days=1, volume=0.25)
    days = ("--start", str(first), "--end", str(last))

    # On its own short-lived server, as by hand: stopped by its exit handler.
    r = omoide(omoide_home, "backfill", *days, "--json", **OWN_SERVER)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "torn down" not in r.stdout
    assert json.loads(r.stdout)[str(first)]["ok"] is True  # the output is whole
    log = max((omoide_home / "logs").glob("*-backfill-*.log")).read_text(encoding="utf-8")
    assert log.rstrip().endswith("Finished in state Completed()")
    assert servers_of(omoide_home) == []

    # A failed day: the command's exit code and its one line, the same way.
    (omoide_home / "sources" / "firefox" / "places.sqlite").unlink()
    r = omoide(omoide_home, "backfill", *days)
    assert r.returncode == 1, r.stderr[-2000:]
    assert "torn down" not in r.stdout
    assert f"\nomoide: 1 of 1 days failed: {first} (firefox:" in r.stderr, r.stderr
