"""`omoide server` and how flow commands find it: the server file, the health check, PREFECT_API_URL."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from omoide.cli.runtime import (
    KEPT_LOGS,
    api_url,
    apply_prefect_environment,
    deployment_environment,
    new_log,
    running_server,
    server_file,
)
from omoide.cli.server import _forget, server_command, server_environment
from omoide.core.offline import OFFLINE_ENV
from tests.fakes import run_cli
from tests.prefect_server import health_endpoint


def _record(home: Path, port: int, pid: int | None = None) -> Path:
    """Home + port (+ pid, default this test's) -> the server file `omoide server` would write."""
    path = server_file(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"pid": pid or os.getpid(), "port": port, "url": api_url(port)}))
    return path


@pytest.fixture
def environ() -> Iterator[None]:
    """-> os.environ as it was before the test, whatever apply_prefect_environment set in it."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


def _dead_pid() -> int:
    """-> the pid of a process that has exited (and been reaped)."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_no_server_file_means_no_server(omoide_home: Path):
    assert running_server(omoide_home) is None


def test_a_live_process_with_a_healthy_api_is_the_server(omoide_home: Path):
    with health_endpoint() as port:
        _record(omoide_home, port)
        assert running_server(omoide_home) == f"http://127.0.0.1:{port}/api"


def test_a_server_file_left_by_a_dead_process_is_ignored(omoide_home: Path):
    # Something else answers on the port now: the pid is what tells it is not this home's server.
    with health_endpoint() as port:
        _record(omoide_home, port, pid=_dead_pid())
        assert running_server(omoide_home) is None


def test_a_refused_or_unhealthy_port_is_no_server(omoide_home: Path, refused_host: str):
    _record(omoide_home, int(refused_host.rsplit(":", 1)[1]))
    assert running_server(omoide_home, timeout_s=0.5) is None
    with health_endpoint(status=503, body=b"false") as port:
        _record(omoide_home, port)
        assert running_server(omoide_home) is None


@pytest.mark.parametrize("text", ["", "{", '{"pid": 1}', '{"pid": "x", "port": 4200}', "[]"])
def test_a_damaged_server_file_is_no_server(omoide_home: Path, text: str):
    server_file(omoide_home).parent.mkdir(parents=True)
    server_file(omoide_home).write_text(text)
    assert running_server(omoide_home) is None


def test_the_file_names_only_a_port_and_the_url_stays_on_loopback(omoide_home: Path):
    with health_endpoint() as port:
        path = _record(omoide_home, port)
        record = json.loads(path.read_text())
        path.write_text(json.dumps({**record, "url": "http://example.com/api"}))
        assert running_server(omoide_home) == f"http://127.0.0.1:{port}/api"


def test_flow_commands_point_prefect_at_the_running_server(omoide_home: Path, environ: None):
    os.environ.pop("PREFECT_API_URL", None)
    with health_endpoint() as port:
        _record(omoide_home, port)
        apply_prefect_environment(omoide_home)
    assert os.environ["PREFECT_API_URL"] == f"http://127.0.0.1:{port}/api"


def test_without_a_server_prefect_keeps_its_ephemeral_one(omoide_home: Path, environ: None):
    os.environ.pop("PREFECT_API_URL", None)
    apply_prefect_environment(omoide_home)
    assert "PREFECT_API_URL" not in os.environ


def test_an_api_url_the_user_set_wins(omoide_home: Path, environ: None):
    with health_endpoint() as theirs, health_endpoint() as ours:
        os.environ["PREFECT_API_URL"] = api_url(theirs)
        _record(omoide_home, ours)
        apply_prefect_environment(omoide_home)
    assert os.environ["PREFECT_API_URL"] == api_url(theirs)


def test_a_loopback_api_url_that_does_not_answer_is_one_clear_line(
    omoide_home: Path, refused_host: str
):
    (omoide_home / "omoide.toml").write_text('[[sources]]\nkind = "notes"\npath = "notes"\n')
    r = run_cli(
        "run", "--day", "2026-11-20", home=omoide_home, PREFECT_API_URL=f"{refused_host}/api"
    )
    assert r.returncode == 1
    assert f"PREFECT_API_URL={refused_host}/api does not answer: start `omoide server`" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_the_server_runs_on_loopback_with_its_home_under_omoide_home(
    omoide_home: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("PREFECT_HOME", "/somewhere/else")
    monkeypatch.setenv("PREFECT_API_URL", "http://127.0.0.1:9/api")
    env = server_environment(omoide_home, 4321, ui=True)
    assert env["PREFECT_HOME"] == str(omoide_home / "prefect")
    assert env["PREFECT_LOCAL_STORAGE_PATH"] == str(omoide_home / "prefect" / "storage")
    assert env["PREFECT_SERVER_API_HOST"] == "127.0.0.1"
    assert env["PREFECT_SERVER_API_PORT"] == "4321"
    assert env["PREFECT_SERVER_ANALYTICS_ENABLED"] == "false"
    assert {k: env[k] for k in OFFLINE_ENV} == OFFLINE_ENV
    assert "PREFECT_API_URL" not in env
    command = server_command(4321)
    assert command[command.index("--host") + 1] == "127.0.0.1"
    assert command[command.index("--port") + 1] == "4321"


def test_deployment_runs_get_the_home_prefects_home_and_telemetry_off(tmp_path: Path):
    env = deployment_environment(tmp_path)
    assert env["OMOIDE_HOME"] == str(tmp_path.resolve())
    assert env["PREFECT_HOME"] == str(tmp_path.resolve() / "prefect")
    assert env["PREFECT_LOCAL_STORAGE_PATH"] == str(tmp_path.resolve() / "prefect" / "storage")
    assert {k: env[k] for k in OFFLINE_ENV} == OFFLINE_ENV


def test_a_stopped_server_forgets_only_its_own_file(omoide_home: Path):
    path = _record(omoide_home, 4200, pid=4242)
    _forget(path, 4343)  # another server wrote the file since
    assert path.exists()
    _forget(path, 4242)
    assert not path.exists()
    _forget(path, 4242)  # gone already: nothing to do


def test_server_refuses_a_busy_port_in_one_line(omoide_home: Path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = run_cli("server", "--port", str(port), home=omoide_home, timeout=60)
    assert r.returncode == 1
    assert f"port {port} on 127.0.0.1 is in use" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_server_refuses_to_start_a_second_one_for_the_home(omoide_home: Path):
    with health_endpoint() as port:
        _record(omoide_home, port)
        r = run_cli("server", home=omoide_home, timeout=60)
    assert r.returncode == 1
    assert f"already runs at http://127.0.0.1:{port}/api" in r.stderr


def test_the_server_reads_collection_views_from_prefects_own_copies():
    # Prefect's server would download them from raw.githubusercontent.com (`work-pool create` asks).
    import asyncio

    import prefect.server.api.collections as collections

    from omoide.cli.prefect_offline import install, local_collection_view

    assert server_command(4200)[:3] == [sys.executable, "-m", "omoide.cli.prefect_offline"]
    saved = collections.get_collection_view
    try:
        install()
        assert collections.get_collection_view is local_collection_view
        workers = asyncio.run(collections.get_collection_view("aggregate-worker-metadata"))
        assert "process" in json.dumps(workers)
        with pytest.raises(KeyError):
            asyncio.run(local_collection_view("demo-flows"))  # no shipped copy: a 404, no download
    finally:
        collections.get_collection_view = saved


def test_old_logs_go_but_one_still_being_written_stays(tmp_path: Path):
    logs = tmp_path / "logs"
    logs.mkdir()
    # The oldest was written by this (living) process, as `omoide serve` writes one for weeks.
    serving = logs / f"20250101-000000-serve-{os.getpid()}.log"
    serving.write_text("")
    finished = []
    for n in range(KEPT_LOGS + 5):
        finished.append(logs / f"20250102-0000{n:02d}-run-{10_000_000 + n}.log")
        finished[-1].write_text("")
    new = new_log(tmp_path, "omoide run", datetime(2026, 11, 26, 12, tzinfo=UTC))
    left = sorted(logs.glob("*.log"))
    assert serving in left and new.parent == logs
    assert left[1:] == finished[-(KEPT_LOGS - 1) :]
