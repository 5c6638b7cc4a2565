"""Install, uninstall and state through each platform's manager, with the manager's tool recorded, never run."""

from __future__ import annotations

from pathlib import Path

import pytest

from omoide.service.control import (
    Answer,
    ServiceToolError,
    check_available,
    disable,
    enable,
    manager_state,
    run_tool,
)
from tests.fakes import FakeServiceTool

NO_BUS = Answer(1, "", "Failed to connect to bus: No medium found\n")


def test_linux_install_reloads_enables_and_restarts_the_unit(tmp_path: Path):
    tool = FakeServiceTool()
    enable("linux", tmp_path / "omoide.service", tool)
    assert tool.calls == [
        ["systemctl", "--user", "daemon-reload"],
        ["systemctl", "--user", "enable", "omoide.service"],
        ["systemctl", "--user", "restart", "omoide.service"],
    ]


def test_macos_install_replaces_a_loaded_agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr("os.getuid", lambda: 501, raising=False)
    plist = tmp_path / "io.omoide.service.plist"
    # bootout of an agent that is not loaded fails; install goes on
    tool = FakeServiceTool(
        {"launchctl bootout": Answer(3, "", "Boot-out failed: 3: No such process")}
    )
    enable("macos", plist, tool)
    assert tool.calls == [
        ["launchctl", "enable", "gui/501/io.omoide.service"],
        ["launchctl", "bootout", "gui/501/io.omoide.service"],
        ["launchctl", "bootstrap", "gui/501", str(plist)],
    ]


def test_windows_install_registers_the_xml_and_runs_it(tmp_path: Path):
    tool = FakeServiceTool(
        {"schtasks /End": Answer(1, "", "ERROR: The system cannot find the file specified.")}
    )
    xml = tmp_path / "omoide-task.xml"
    enable("windows", xml, tool)
    assert tool.calls[1:] == [
        ["schtasks", "/Create", "/TN", "omoide", "/XML", str(xml), "/F"],
        ["schtasks", "/Run", "/TN", "omoide"],
    ]


def test_a_step_the_manager_refuses_is_one_line_naming_it(tmp_path: Path):
    tool = FakeServiceTool(
        {"systemctl --user enable": Answer(1, "", "Failed to enable unit: Access denied\n")}
    )
    with pytest.raises(ServiceToolError) as caught:
        enable("linux", tmp_path / "omoide.service", tool)
    assert str(caught.value) == (
        "`systemctl --user enable omoide.service` failed (Failed to enable unit: Access denied)"
    )


def test_no_user_session_is_refused_with_the_way_out():
    with pytest.raises(ServiceToolError) as caught:
        check_available("linux", FakeServiceTool({"systemctl": NO_BUS}))
    message = str(caught.value)
    assert message.startswith("systemctl --user is not available (Failed to connect to bus")
    assert "omoide service run" in message and "--unit-dir" in message


def test_a_missing_tool_is_refused_too():
    with pytest.raises(ServiceToolError, match="schtasks is not available"):
        check_available("windows", FakeServiceTool({"schtasks": None}))


def test_uninstall_without_a_user_session_still_disables_the_unit_files():
    tool = FakeServiceTool({"systemctl --user stop": NO_BUS})
    assert disable("linux", tool) == []
    assert tool.calls == [
        ["systemctl", "--user", "stop", "omoide.service"],
        ["systemctl", "--user", "disable", "omoide.service"],
    ]


def test_uninstall_of_nothing_is_fine_everywhere(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr("os.getuid", lambda: 501, raising=False)
    gone = {
        "systemctl --user stop": Answer(
            5, "", "Failed to stop omoide.service: Unit omoide.service not loaded."
        ),
        "systemctl --user disable": Answer(
            1, "", "Failed to disable unit, unit omoide.service does not exist."
        ),
        "launchctl bootout": Answer(3, "", "Boot-out failed: 3: No such process"),
        "schtasks": Answer(1, "", "ERROR: The system cannot find the file specified."),
    }
    for platform in ("linux", "macos", "windows"):
        assert disable(platform, FakeServiceTool(gone)) == []


def test_a_stop_that_failed_is_reported():
    tool = FakeServiceTool(
        {"systemctl --user stop": Answer(1, "", "Job for omoide.service canceled.")}
    )
    assert disable("linux", tool) == [
        "`systemctl --user stop omoide.service`: Job for omoide.service canceled."
    ]


def test_state_words_of_each_manager(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr("os.getuid", lambda: 501, raising=False)
    running = FakeServiceTool(
        {
            "systemctl --user is-enabled": Answer(0, "enabled\n", ""),
            "systemctl --user is-active": Answer(0, "active\n", ""),
        }
    )
    assert manager_state("linux", running) == {"enabled": True, "running": True}
    no_session = FakeServiceTool(
        {
            "systemctl --user is-enabled": Answer(
                1, "", "Failed to get unit file state for omoide.service: No such file or directory"
            ),
            "systemctl --user is-active": NO_BUS,
        }
    )
    assert manager_state("linux", no_session) == {"enabled": False, "running": "unknown"}
    loaded = FakeServiceTool(
        {"launchctl print": Answer(0, "gui/501/io.omoide.service = {\n\tstate = running\n", "")}
    )
    assert manager_state("macos", loaded) == {"enabled": True, "running": True}
    absent = FakeServiceTool({"launchctl print": Answer(113, "", "Could not find service")})
    assert manager_state("macos", absent) == {"enabled": False, "running": False}
    ready = FakeServiceTool({"schtasks": Answer(0, '"\\omoide","N/A","Ready"\n', "")})
    assert manager_state("windows", ready) == {"enabled": True, "running": False}
    assert manager_state("windows", FakeServiceTool({"schtasks": None})) == {
        "enabled": "unknown",
        "running": "unknown",
    }


def test_a_program_that_is_not_installed_answers_none():
    assert run_tool(["omoide-no-such-manager", "--user"]) is None
    assert run_tool(["true"]) == Answer(0, "", "")
