"""The service files as each platform reads them: a systemd unit systemd-analyze accepts, a plist, Task Scheduler XML."""

from __future__ import annotations

import os
import plistlib
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from omoide.core.errors import OmoideError
from omoide.core.offline import OFFLINE_ENV
from omoide.service import (
    ServiceSpec,
    launchd_agent,
    omoide_executable,
    scheduler_task,
    systemd_unit,
    unit_bytes,
)
from omoide.service.state import served_home
from omoide.service.windows import NAMESPACE

TASK = f"{{{NAMESPACE}}}"


def _spec(home: Path, **changes: object) -> ServiceSpec:
    """A home -> the spec `omoide service install` would build for it (this venv's omoide)."""
    values: dict[str, object] = {
        "omoide": str(omoide_executable()),
        "home": str(home),
        "env": {"OMOIDE_HOME": str(home), **OFFLINE_ENV},
    }
    return ServiceSpec(**{**values, **changes})  # type: ignore[arg-type]


def verify_units(folder: Path) -> subprocess.CompletedProcess[str] | None:
    """A folder of systemd user units -> `systemd-analyze verify --user` on them, or None where it is not installed."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        return None
    # --user wants a runtime directory, even without a user session
    with tempfile.TemporaryDirectory(prefix="omoide-systemd-runtime-") as runtime:
        return subprocess.run(
            [analyze, "verify", "--user", *(str(p) for p in sorted(folder.glob("*.service")))],
            capture_output=True,
            text=True,
            env={**os.environ, "XDG_RUNTIME_DIR": runtime},
            timeout=120,
        )


def test_the_systemd_unit_starts_at_login_restarts_and_names_the_home(tmp_path: Path):
    home = tmp_path / "home"
    text = systemd_unit(_spec(home))
    assert "\n[Service]\n" in text and "\nType=simple\n" in text
    assert f"\nExecStart={omoide_executable()} service run --home {home} --port 4200\n" in text
    assert "\nRestart=on-failure\n" in text and "\nWantedBy=default.target\n" in text
    assert f'\nEnvironment="OMOIDE_HOME={home}"\n' in text
    for key, value in OFFLINE_ENV.items():
        assert f'\nEnvironment="{key}={value}"\n' in text


def test_a_home_with_spaces_percent_and_dollar_is_escaped_for_systemd(tmp_path: Path):
    home = tmp_path / "my home 100% $HOME"
    home.mkdir()
    unit = tmp_path / "units" / "omoide.service"
    unit.parent.mkdir()
    unit.write_text(systemd_unit(_spec(home)))
    text = unit.read_text()
    assert (
        f'--home "{tmp_path}/my home 100%% $$HOME"' in text
    )  # one word, no specifier, no variable
    assert f'Environment="OMOIDE_HOME={tmp_path}/my home 100%% $HOME"' in text
    assert f"WorkingDirectory={tmp_path}/my home 100%% $HOME\n" in text
    assert served_home("linux", unit) == str(home)
    checked = verify_units(unit.parent)
    if checked is not None:  # systemd's own checker, where the machine has it (CI does)
        assert checked.returncode == 0, checked.stderr
        assert checked.stderr.strip() == "", checked.stderr


def test_the_launchd_agent_is_a_plist_that_runs_at_load_and_keeps_alive(tmp_path: Path):
    home = tmp_path / "home"
    agent = plistlib.loads(launchd_agent(_spec(home)).encode())
    assert agent["Label"] == "io.omoide.service"
    assert agent["ProgramArguments"] == [
        str(omoide_executable()),
        "service",
        "run",
        "--home",
        str(home),
        "--port",
        "4200",
    ]
    assert agent["RunAtLoad"] is True
    assert agent["KeepAlive"] == {"SuccessfulExit": False}
    assert agent["EnvironmentVariables"]["OMOIDE_HOME"] == str(home)
    assert agent["EnvironmentVariables"]["HF_HUB_OFFLINE"] == "1"
    assert agent["StandardOutPath"] == str(home / "logs" / "service.out")


def test_the_task_scheduler_xml_has_a_logon_trigger_and_no_time_limit(tmp_path: Path):
    spec = _spec(
        tmp_path / "C home", omoide=r"C:\venv\Scripts\omoide.exe", env={}, user=r"LAPTOP\ana"
    )
    task = ET.fromstring(scheduler_task(spec))
    assert task.tag == f"{TASK}Task" and task.get("version") == "1.2"
    logon = task.find(f"{TASK}Triggers/{TASK}LogonTrigger")
    assert logon is not None and logon.findtext(f"{TASK}UserId") == r"LAPTOP\ana"
    settings = task.find(f"{TASK}Settings")
    assert settings is not None
    assert settings.findtext(f"{TASK}ExecutionTimeLimit") == "PT0S"
    assert settings.findtext(f"{TASK}DisallowStartIfOnBatteries") == "false"
    assert settings.find(f"{TASK}RestartOnFailure") is not None
    run = task.find(f"{TASK}Actions/{TASK}Exec")
    assert run is not None
    assert run.findtext(f"{TASK}Command") == r"C:\venv\Scripts\omoide.exe"
    assert run.findtext(f"{TASK}Arguments") == f'service run --home "{tmp_path}/C home" --port 4200'


def test_the_task_xml_is_written_as_utf16_and_still_names_its_home(tmp_path: Path):
    spec = _spec(tmp_path / "Zoë", env={}, user="ana")
    path = tmp_path / "omoide-task.xml"
    path.write_bytes(unit_bytes("windows", spec))
    assert path.read_bytes()[:2] in (
        b"\xff\xfe",
        b"\xfe\xff",
    )  # the BOM Task Scheduler's own exports carry
    assert served_home("windows", path) == str(tmp_path / "Zoë")


def test_a_path_with_a_line_break_is_refused(tmp_path: Path):
    with pytest.raises(OmoideError, match="control character"):
        _spec(tmp_path / "two\nlines")
