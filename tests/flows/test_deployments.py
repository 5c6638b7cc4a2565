"""End to end, as docs/operations.md has people run it: `omoide server`, a process work pool,
`prefect deploy --all` from prefect.yaml, a worker, the backfill deployment over two sample days,
then `omoide run` finding the same server.

Every subprocess gets a temp HOME, so `~/.prefect` there shows whether anything would have been
written under the real one.
"""

from __future__ import annotations

import subprocess
import sys
import time
import tomllib
from datetime import date
from pathlib import Path

import pytest

from omoide.cli.runtime import api_url, running_server, server_file
from omoide.core.server_auth import auth_string
from omoide.sample import write_sample
from tests.fakes import CLI
from tests.prefect_server import background, clean_env, free_port, wait_healthy

ROOT = Path(__file__).resolve().parents[2]
PREFECT = [sys.executable, "-m", "prefect"]
DAYS = ("2026-11-19", "2026-11-20")


def _prefect(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Arguments -> `prefect ...` run from the repository root, as the docs' shell runs it."""
    result = subprocess.run(
        [*PREFECT, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, (args, result.stdout[-2000:], result.stderr[-2000:])
    return result


def _finished_backfill(client, timeout_s: float = 420):  # noqa: ANN001, ANN202
    """A Prefect client -> the backfill flow run once it is in a final state."""
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterName

    name = f"backfill-{DAYS[0]}-{DAYS[1]}"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        runs = client.read_flow_runs(
            flow_run_filter=FlowRunFilter(name=FlowRunFilterName(any_=[name]))
        )
        if runs and runs[0].state is not None and runs[0].state.is_final():
            return runs[0]
        time.sleep(2)
    pytest.fail(f"the backfill deployment run did not finish within {timeout_s:.0f} s")


@pytest.mark.prefect_server
def test_backfill_deployment_runs_on_the_long_lived_server(tmp_path: Path) -> None:
    from prefect.client.orchestration import SyncPrefectClient

    user = tmp_path / "user"  # HOME of every subprocess
    user.mkdir()
    home = tmp_path / "omoide"
    write_sample(home, days=2, end=date.fromisoformat(DAYS[-1]))
    port = free_port()
    api = api_url(port)
    # The docs' shell: OMOIDE_HOME, then PREFECT_HOME under it, the API URL and DO_NOT_TRACK.
    timezone = tomllib.loads((home / "omoide.toml").read_text())["timezone"]  # for the schedules
    shell = clean_env(HOME=str(user), OMOIDE_HOME=str(home), OMOIDE_TIMEZONE=timezone)
    prefect_shell = {
        **shell,
        "PREFECT_HOME": str(home / "prefect"),
        "PREFECT_API_URL": api,
        # export PREFECT_API_AUTH_STRING="$(cat $OMOIDE_HOME/state/prefect-auth)", as the docs say
        "PREFECT_API_AUTH_STRING": auth_string(home),
        "PREFECT_WORKER_QUERY_SECONDS": "2",  # poll often: the test waits on it
    }
    server_cmd = [*CLI, "server", "--port", str(port), "--no-ui"]
    with background(server_cmd, shell, tmp_path / "server.log") as server:
        wait_healthy(api, server, tmp_path / "server.log")
        for _ in range(40):  # the file is written just after the first healthy answer
            if running_server(home) == api:
                break
            time.sleep(0.25)
        assert running_server(home) == api

        login, offline = auth_string(home), {"trust_env": False}
        _prefect("work-pool", "create", "omoide-local", "--type", "process", env=prefect_shell)
        _prefect("--no-prompt", "deploy", "--all", env=prefect_shell)
        worker_cmd = [*PREFECT, "worker", "start", "--pool", "omoide-local"]
        with background(worker_cmd, prefect_shell, tmp_path / "worker.log", cwd=ROOT):
            _prefect(
                "deployment",
                "run",
                "backfill/backfill",
                "-p",
                f"start={DAYS[0]}",
                "-p",
                f"end={DAYS[1]}",
                env=prefect_shell,
            )
            with SyncPrefectClient(api, auth_string=login, httpx_settings=offline) as client:
                backfill_run = _finished_backfill(client)
        worker_log = (tmp_path / "worker.log").read_text()
        assert backfill_run.state.is_completed(), worker_log[-3000:]

        # A flow command without PREFECT_API_URL finds the home's server instead of its own.
        run = subprocess.run(
            [*CLI, "run", "--day", DAYS[1]], env=shell, capture_output=True, text=True, timeout=300
        )
        assert run.returncode == 0, run.stderr

        with SyncPrefectClient(api, auth_string=login, httpx_settings=offline) as client:
            runs = client.read_flow_runs()
            deployment = client.read_deployment_by_name("backfill/backfill")
            artifacts = {a.key: a for a in client.read_artifacts() if a.key}

    # The daily and reflect schedules have queued future runs too; what ran is in a final state.
    ran = [r for r in runs if r.state is not None and r.state.is_final()]
    assert all(r.state.is_completed() for r in ran), [(r.name, r.state.message) for r in ran]
    names = sorted(r.name for r in ran)
    assert names == sorted(
        [f"backfill-{DAYS[0]}-{DAYS[1]}", *(f"daily-{d}" for d in DAYS), f"daily-{DAYS[1]}"]
    )
    by_id = {r.id: r.name for r in ran}
    for day in DAYS:
        digest = artifacts[f"digest-{day}"]
        assert by_id[digest.flow_run_id] == f"daily-{day}"
        for edge in ("sessions", "facts", "memories"):
            assert by_id[artifacts[f"dq-{edge}-{day}"].flow_run_id] == f"daily-{day}"
        assert (home / "vault" / "memory" / f"{day}.md").is_file()

    # prefect.yaml's job variables, filled in from the deploying shell, keep runs on this home.
    env = deployment.job_variables["env"]
    assert env["PREFECT_HOME"] == str(home / "prefect")
    assert env["PREFECT_LOCAL_STORAGE_PATH"] == str(home / "prefect" / "storage")
    assert env["DO_NOT_TRACK"] == "1" and env["PREFECT_SERVER_ANALYTICS_ENABLED"] == "false"
    # Results and the server's database under OMOIDE_HOME; nothing under ~/.prefect.
    assert any(p.is_file() for p in (home / "prefect" / "storage").iterdir())
    assert (home / "prefect" / "prefect.db").is_file()
    dot_prefect = user / ".prefect"
    assert not dot_prefect.exists() or not any(dot_prefect.iterdir())
    # `omoide server` forgets its server when stopped.
    assert not server_file(home).exists()
