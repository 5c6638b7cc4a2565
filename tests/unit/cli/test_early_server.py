"""A flow command starts Prefect's short-lived server while its flows import, and its flow runs on that one server."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from omoide.cli import early_server, runtime
from omoide.core.errors import OmoideError

_RUN = """
import base64
import http.client
import os
import sys
from pathlib import Path

import psutil

from omoide.cli import early_server, runtime

runtime.flow_modules(Path(sys.argv[1]), "test", start_server=True)
assert early_server.starting(), "the server did not start early"
assert "great_expectations" in sys.modules, "GX was not imported while the server started"
from prefect import flow
from prefect.settings import get_current_settings

(early,) = early_server._servers


@flow
def seven() -> str:
    return get_current_settings().api.url


state = runtime.run_flow(seven)
servers = [p for p in psutil.Process().children(recursive=True) if "uvicorn" in p.cmdline()]
# Prefect's own ephemeral server was never started, nor its server code imported here.
print(state.result() == early.url, "prefect.server.api.server" in sys.modules, len(servers))


def status(**headers: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", early.port, timeout=30)
    connection.request("POST", "/api/flow_runs/filter", body="{}", headers=headers)
    return connection.getresponse().status


login = "Basic " + base64.b64encode(os.environ["PREFECT_API_AUTH_STRING"].encode()).decode()
json_body = {"Content-Type": "application/json"}
# Closed to all but this home's processes: its auth string, its own name, no web page.
print(
    status(**json_body, Authorization=login),
    status(**json_body),
    status(**json_body, Authorization=login, Host="evil.example"),
    status(**json_body, Authorization=login, Origin="https://evil.example"),
)
runtime.stop_servers()
print(early.process.poll() is not None, "PREFECT_API_URL" in os.environ)
"""


def test_the_flow_runs_on_the_server_started_while_the_flows_imported(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env["OMOIDE_HOME"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", _RUN, str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[-9:] == [
        *("True", "False", "1"),
        *("200", "401", "403", "403"),
        *("True", "False"),
    ]


def _early(command: str, monkeypatch: pytest.MonkeyPatch, age_s: float = 0.0) -> subprocess.Popen:
    """A command -> it running as the server started early, `age_s` seconds ago."""
    process = subprocess.Popen([sys.executable, "-c", command])
    started = time.monotonic() - age_s
    monkeypatch.setattr(early_server, "_servers", [early_server.EarlyServer(process, 9, started)])
    monkeypatch.setattr(early_server, "_applied", [])
    return process


def test_an_early_start_that_timed_out_was_the_first_try(monkeypatch: pytest.MonkeyPatch) -> None:
    # A process that never answers, started longer ago than the startup timeout allows.
    never = _early("import time; time.sleep(60)", monkeypatch, age_s=10_000)
    calls: list[int] = []

    def slow_server_flow(**_: object) -> None:
        calls.append(1)
        raise RuntimeError("Timed out while attempting to connect to ephemeral Prefect API server.")

    with pytest.raises(OmoideError, match="did not start within .* twice"):
        runtime.run_flow(slow_server_flow)
    assert calls == [1]  # one more try, not two
    assert never.poll() is not None  # stopped, not left starting
    assert early_server._servers == [] and "PREFECT_API_URL" not in os.environ


def test_an_early_server_that_exited_is_the_commands_error(monkeypatch: pytest.MonkeyPatch) -> None:
    _early("raise SystemExit(1)", monkeypatch)
    with pytest.raises(RuntimeError, match="exited with code 1"):
        runtime.run_flow(lambda **_: None)
    assert early_server._servers == []


@pytest.mark.usefixtures("prefect_harness")
def test_no_early_server_when_a_server_is_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(early_server, "_servers", [])
    assert not early_server.start()
    assert early_server._servers == []


def test_an_early_server_that_lost_its_port_starts_on_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _early("raise SystemExit(3)", monkeypatch, age_s=10_000)  # uvicorn's "port in use"
    ports: list[int] = []

    def spawn(port: int) -> subprocess.Popen:
        ports.append(port)
        return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])

    monkeypatch.setattr(early_server, "_spawn", spawn)
    time.sleep(0.5)  # it has exited
    assert early_server.await_ready(timeout_s=0) is False  # then timed out: stopped
    assert len(ports) == 1 and ports[0] != 9
    assert early_server._servers == []


def test_a_prefect_profile_naming_a_server_stops_the_early_one(tmp_path: Path) -> None:
    # Only Prefect, once imported, knows its profile: the child started before is stopped.
    prefect_home = tmp_path / "prefect"
    prefect_home.mkdir()
    (prefect_home / "profiles.toml").write_text(
        'active = "mine"\n\n[profiles.mine]\nPREFECT_API_URL = "http://127.0.0.1:9/api"\n'
    )
    code = (
        "import psutil\n"
        "from omoide.cli import early_server\n"
        "started = early_server.start()\n"
        "left = [p for p in psutil.Process().children(recursive=True) if p.is_running()]\n"
        "print(started, len(left))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env["PREFECT_HOME"] = str(prefect_home)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["False", "0"]
