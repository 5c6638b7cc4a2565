"""A flow command starts Prefect's short-lived server while its flows import, and its flow runs on that one server."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from omoide.cli import runtime
from omoide.core.errors import OmoideError

_RUN = """
import sys
from pathlib import Path

import psutil

from omoide.cli import runtime

runtime.flow_modules(Path(sys.argv[1]), "test", start_server=True)
assert runtime._starting, "the server did not start early"
assert "great_expectations" in sys.modules, "GX was not imported while the server started"
from prefect import flow
from prefect.server.api.server import SubprocessASGIServer

(early,) = SubprocessASGIServer._instances.values()


@flow
def seven() -> int:
    return 7


state = runtime.run_flow(seven)
(used,) = SubprocessASGIServer._instances.values()
servers = [p for p in psutil.Process().children(recursive=True) if "uvicorn" in p.cmdline()]
print(state.result(), used is early, len(servers))
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
    assert done.stdout.split()[-3:] == ["7", "True", "1"]


def _failed_start(error: Exception, monkeypatch: pytest.MonkeyPatch) -> None:
    """An error -> an early start that ended with it, as run_flow will find it."""
    thread = threading.Thread(target=lambda: None)
    thread.start()
    monkeypatch.setattr(runtime, "_starting", [(thread, [error])])


def test_an_early_start_that_timed_out_was_the_first_try(monkeypatch: pytest.MonkeyPatch) -> None:
    _failed_start(
        RuntimeError("Timed out while attempting to connect to ephemeral Prefect API server."),
        monkeypatch,
    )
    calls: list[int] = []

    def slow_server_flow(**_: object) -> None:
        calls.append(1)
        raise RuntimeError("Timed out while attempting to connect to ephemeral Prefect API server.")

    with pytest.raises(OmoideError, match="did not start within .* twice"):
        runtime.run_flow(slow_server_flow)
    assert calls == [1]  # one more try, not two
    assert runtime._starting == []


def test_an_early_start_that_failed_otherwise_is_the_commands_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _failed_start(OSError("no free port"), monkeypatch)
    with pytest.raises(OSError, match="no free port"):
        runtime.run_flow(lambda **_: None)


@pytest.mark.usefixtures("prefect_harness")
def test_no_early_server_when_a_server_is_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runtime, "_starting", [])
    runtime.start_server_early()
    assert runtime._starting == []
