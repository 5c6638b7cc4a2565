"""End to end, what the installed service runs: `omoide service run` starts the home's Prefect server,
then `omoide serve` on it; the server's scheduler puts the next 02:00 daily run on the calendar
(on an ephemeral server nothing is ever scheduled); SIGTERM stops both and leaves nothing behind."""

from __future__ import annotations

import os
import signal
import time
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx
import pytest

from omoide.cli.runtime import running_server, server_file
from omoide.core.server_auth import auth_string
from tests.fakes import CLI
from tests.prefect_server import STARTUP_S, background, clean_env, free_port

TIMEZONE = "Europe/Berlin"
STOP_S = 60.0  # TimeoutStopSec and ExitTimeOut of the service files: then the manager kills


def _wait_for(what: str, check, process, log: Path, timeout_s: float = STARTUP_S):  # noqa: ANN001, ANN202
    """A check -> its first truthy answer; fails the test if the service exits or time runs out."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(
                f"omoide service run exited ({process.returncode}): {log.read_text()[-3000:]}"
            )
        found = check()
        if found:
            return found
        time.sleep(1)
    pytest.fail(f"{what} within {timeout_s:.0f} s: {log.read_text()[-3000:]}")


def _scheduled_daily_runs(url: str, home: Path) -> list[dict]:
    """A Prefect API URL + its home -> the scheduled runs of the `daily` deployment, asked with the home's login."""
    body = {
        "flow_runs": {"state": {"type": {"any_": ["SCHEDULED"]}}},
        "deployments": {"name": {"any_": ["daily"]}},
    }
    user, _, password = auth_string(home).partition(":")
    response = httpx.post(
        f"{url}/flow_runs/filter", json=body, timeout=30, trust_env=False, auth=(user, password)
    )
    response.raise_for_status()
    return response.json()


@pytest.mark.prefect_server
def test_the_service_runs_the_server_then_serve_and_the_daily_run_gets_scheduled(
    tmp_path: Path, omoide_home: Path
):
    user = tmp_path / "user"  # HOME of the service: nothing may land under ~/.prefect
    user.mkdir()
    home = omoide_home  # given with --home: the service's environment names no OMOIDE_HOME
    log = tmp_path / "service.out"
    env = clean_env(HOME=str(user), OMOIDE_TIMEZONE=TIMEZONE)
    command = [*CLI, "service", "run", "--home", str(home), "--port", str(free_port())]
    with background(command, env, log) as process:
        url = _wait_for("the server did not answer", lambda: running_server(home), process, log)
        runs = _wait_for(
            "no daily run was scheduled", lambda: _scheduled_daily_runs(url, home), process, log
        )
        starts = {
            datetime.fromisoformat(r["expected_start_time"]).astimezone(ZoneInfo(TIMEZONE))
            for r in runs
        }
        assert {(s.hour, s.minute) for s in starts} == {(2, 0)}

        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=STOP_S) == 0, log.read_text()[-3000:]
        with pytest.raises(ProcessLookupError):  # the server, serve and their children ended too
            os.killpg(process.pid, 0)
    assert not server_file(home).exists()
    said = log.read_text()
    assert "started omoide server" in said and f"started omoide serve on {url}" in said
    assert said.rstrip().endswith("omoide service: stopped")
    assert not (user / ".prefect").exists()
