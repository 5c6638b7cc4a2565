"""`service_state`, the service part of `omoide status`: installed, for which home, enabled, running; never an exception."""

from __future__ import annotations

from pathlib import Path

from omoide.service import ServiceSpec, service_state, unit_bytes
from omoide.service.control import Answer
from tests.fakes import FakeServiceTool


def _install(folder: Path, platform: str, home: Path) -> Path:
    """A folder + platform + home -> the service file for that home written there, as --unit-dir writes it."""
    name = {
        "linux": "omoide.service",
        "macos": "io.omoide.service.plist",
        "windows": "omoide-task.xml",
    }
    spec = ServiceSpec(omoide="/venv/bin/omoide", home=str(home), env={"OMOIDE_HOME": str(home)})
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name[platform]
    path.write_bytes(unit_bytes(platform, spec))
    return path


def test_nothing_installed(tmp_path: Path, omoide_home: Path):
    state = service_state(omoide_home, "linux", tmp_path / "units", FakeServiceTool())
    assert state["installed"] is False and state["home"] is None and state["this_home"] is False
    assert state["unit_paths"] == [str(tmp_path / "units" / "omoide.service")]


def test_each_platform_says_which_home_its_file_keeps(tmp_path: Path, omoide_home: Path):
    other = tmp_path / "other home"
    for platform in ("linux", "macos", "windows"):
        units = tmp_path / platform
        path = _install(units, platform, omoide_home)
        state = service_state(omoide_home, platform, units, FakeServiceTool({"": None}))
        assert state["installed"] is True, platform
        assert state["home"] == str(omoide_home) and state["this_home"] is True, platform
        assert state["unit_paths"] == [str(path)]
        _install(units, platform, other)
        state = service_state(omoide_home, platform, units, FakeServiceTool({"": None}))
        assert state["home"] == str(other) and state["this_home"] is False, platform


def test_enabled_and_running_come_from_the_manager(tmp_path: Path, omoide_home: Path):
    _install(tmp_path, "linux", omoide_home)
    tool = FakeServiceTool(
        {
            "systemctl --user is-enabled": Answer(0, "enabled\n", ""),
            "systemctl --user is-active": Answer(3, "inactive\n", ""),
        }
    )
    state = service_state(omoide_home, "linux", tmp_path, tool)
    assert (state["enabled"], state["running"]) == (True, False)


def test_missing_tools_say_unknown_on_every_platform(tmp_path: Path, omoide_home: Path):
    # the real tools: on this machine at most systemctl exists, and no user session answers it
    for platform in ("linux", "macos", "windows"):
        state = service_state(omoide_home, platform, tmp_path)
        assert state["running"] in (True, False, "unknown"), platform


def test_an_unreadable_file_names_no_home(tmp_path: Path, omoide_home: Path):
    for platform, name in (("macos", "io.omoide.service.plist"), ("windows", "omoide-task.xml")):
        (tmp_path / name).write_text("not a plist or task <")
        state = service_state(omoide_home, platform, tmp_path, FakeServiceTool())
        assert state["installed"] is True and state["home"] is None, platform
