"""`omoide service install | uninstall | status`, run as a user runs it: the interface outside scripts call.

Nothing here enables a service: `--dry-run` prints and `--unit-dir` writes to a temp folder; the
refusals tested stop before any manager is asked to change anything.
"""

from __future__ import annotations

import json
import plistlib
import xml.etree.ElementTree as ET
from pathlib import Path

from omoide.service import omoide_executable
from omoide.service.windows import NAMESPACE
from tests.fakes import run_cli
from tests.unit.service.test_units import verify_units

omoide = run_cli


def test_dry_run_linux_prints_a_user_unit_naming_the_home(omoide_home: Path):
    r = omoide("service", "install", "--dry-run", "--platform", "linux", home=omoide_home)
    assert r.returncode == 0, r.stderr
    for line in ("[Service]", "WantedBy=default.target", "Restart=on-failure"):
        assert f"\n{line}\n" in r.stdout
    assert f"\nExecStart={omoide_executable()} service run --home {omoide_home} " in r.stdout
    assert str(omoide_home.resolve()) in r.stdout
    # where it would go, on stderr: stdout stays the file itself
    assert "# would write, then systemctl --user daemon-reload" in r.stderr
    assert "systemd/user/omoide.service" in r.stderr


def test_dry_run_macos_prints_one_plist(omoide_home: Path):
    r = omoide("service", "install", "--dry-run", "--platform", "macos", home=omoide_home)
    assert r.returncode == 0, r.stderr
    agent = plistlib.loads(r.stdout.encode())
    assert agent["RunAtLoad"] is True and agent["KeepAlive"] == {"SuccessfulExit": False}
    assert agent["ProgramArguments"][:3] == [str(omoide_executable()), "service", "run"]
    assert str(omoide_home.resolve()) in agent["ProgramArguments"]
    assert agent["EnvironmentVariables"]["OMOIDE_HOME"] == str(omoide_home.resolve())
    assert "Library/LaunchAgents/io.omoide.service.plist" in r.stderr


def test_dry_run_windows_prints_task_scheduler_xml(omoide_home: Path):
    r = omoide("service", "install", "--dry-run", "--platform", "windows", home=omoide_home)
    assert r.returncode == 0, r.stderr
    task = ET.fromstring(r.stdout)
    ns = f"{{{NAMESPACE}}}"
    assert task.find(f"{ns}Triggers/{ns}LogonTrigger") is not None
    assert str(omoide_home.resolve()) in task.findtext(f"{ns}Actions/{ns}Exec/{ns}Arguments", "")


def test_dry_run_needs_no_omoide_toml_but_says_so(omoide_home: Path):
    r = omoide("service", "install", "--dry-run", "--platform", "linux", home=omoide_home)
    assert r.returncode == 0
    assert "has no omoide.toml yet: run `omoide init`" in r.stderr


def test_unit_dir_writes_a_unit_systemd_accepts_then_uninstall_removes_it(
    tmp_path: Path, omoide_home: Path
):
    units = tmp_path / "units"
    for _ in range(2):  # installing twice rewrites the same file
        r = omoide(
            "service", "install", "--unit-dir", str(units), "--platform", "linux", home=omoide_home
        )
        assert r.returncode == 0, r.stderr
        assert "nothing enabled" in r.stdout
    assert [p.name for p in units.iterdir()] == ["omoide.service"]
    checked = verify_units(units)
    if checked is not None:  # systemd's own checker, where the machine has it (CI does)
        assert checked.returncode == 0, checked.stderr
        assert checked.stderr.strip() == "", checked.stderr

    r = omoide(
        "service",
        "status",
        "--json",
        "--platform",
        "linux",
        "--unit-dir",
        str(units),
        home=omoide_home,
    )
    assert r.returncode == 0, r.stderr
    state = json.loads(r.stdout)
    assert {"installed", "running", "platform", "unit_paths"} <= set(state)
    assert state["installed"] is True and state["platform"] == "linux"
    assert state["unit_paths"] == [str(units / "omoide.service")]
    assert state["this_home"] is True and state["running"] in (True, False, "unknown")

    for said in ("Removed", "No service file at"):  # uninstalling twice is fine
        r = omoide(
            "service",
            "uninstall",
            "--platform",
            "linux",
            "--unit-dir",
            str(units),
            home=omoide_home,
        )
        assert r.returncode == 0, r.stderr
        assert r.stdout.startswith(said)
    assert list(units.iterdir()) == []
    r = omoide(
        "service", "status", "--platform", "linux", "--unit-dir", str(units), home=omoide_home
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].startswith("installed: no")


def test_status_says_which_home_an_installed_file_keeps(tmp_path: Path, omoide_home: Path):
    units = tmp_path / "units"
    other = tmp_path / "other"
    other.mkdir()
    omoide("service", "install", "--unit-dir", str(units), "--platform", "macos", home=other)
    r = omoide(
        "service", "status", "--platform", "macos", "--unit-dir", str(units), home=omoide_home
    )
    assert r.returncode == 0, r.stderr
    assert f"for {other}, not this home ({omoide_home})" in r.stdout


def test_install_without_omoide_toml_says_init_first(omoide_home: Path):
    r = omoide("service", "install", home=omoide_home)
    assert r.returncode == 1
    assert "has no omoide.toml: run `omoide init` first" in r.stderr


def test_install_for_another_platform_needs_dry_run_or_unit_dir(omoide_home: Path):
    (omoide_home / "omoide.toml").write_text('timezone = "UTC"\n')
    here = json.loads(omoide("service", "status", "--json", home=omoide_home).stdout)["platform"]
    other = "windows" if here != "windows" else "linux"
    r = omoide("service", "install", "--platform", other, home=omoide_home)
    assert r.returncode == 1
    assert (
        f"cannot install a {other} service on this {here} machine: add --dry-run or --unit-dir"
        in r.stderr
    )


def test_service_run_refuses_a_second_copy_for_the_same_home(omoide_home: Path):
    from filelock import FileLock

    from omoide.cli.service_run import SERVICE_LOCK

    (omoide_home / "prefect").mkdir()
    with FileLock(omoide_home / "prefect" / SERVICE_LOCK):  # as a running `service run` holds it
        r = omoide("service", "run", "--home", str(omoide_home), home=omoide_home)
    assert r.returncode == 1
    assert f"omoide service run already keeps {omoide_home}" in r.stderr


def test_service_run_refuses_a_home_that_does_not_exist(tmp_path: Path, omoide_home: Path):
    r = omoide("service", "run", "--home", str(tmp_path / "nowhere"), home=omoide_home)
    assert r.returncode == 1
    assert f"{tmp_path / 'nowhere'} does not exist: run `omoide init` there first" in r.stderr
    assert not (tmp_path / "nowhere").exists()
