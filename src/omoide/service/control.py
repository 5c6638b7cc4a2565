"""The platform's own service manager, asked through its command-line tool: install, uninstall, and what state the service is in.

systemctl --user on Linux, launchctl on macOS, schtasks on Windows. Every call goes through
a `Tool` (a command line -> its exit code and output, or None when the tool is missing or
hangs), so the sequences can be exercised without touching the machine's own manager.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from omoide.core.errors import OmoideError
from omoide.service.spec import LAUNCHD_LABEL, SYSTEMD_UNIT, TASK_NAME

TOOL_TIMEOUT_S = 60.0


class Answer(NamedTuple):
    """What a tool said: its exit code and its output (stdout, then stderr)."""

    code: int
    out: str
    err: str


Tool = Callable[[Sequence[str]], Answer | None]


def run_tool(command: Sequence[str]) -> Answer | None:
    """A command line -> its exit code and output; None when the program is missing or does not answer."""
    try:
        done = subprocess.run(
            list(command),
            capture_output=True,
            text=True,
            timeout=TOOL_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return Answer(done.returncode, done.stdout, done.stderr)


class ServiceToolError(OmoideError):
    """The platform's service manager is missing or refused a step."""


def _first_line(answer: Answer | None) -> str:
    """A tool's answer -> the first line it said (stderr first), or why there was none."""
    if answer is None:
        return "not found or did not answer"
    text = (answer.err.strip() or answer.out.strip() or f"exit code {answer.code}").splitlines()
    return text[0].strip()


def _must(tool: Tool, command: Sequence[str], hint: str = "") -> Answer:
    """A command that has to succeed -> its answer; ServiceToolError naming it and its first line otherwise."""
    answer = tool(command)
    if answer is None or answer.code != 0:
        raise ServiceToolError(f"`{' '.join(command)}` failed ({_first_line(answer)}){hint}")
    return answer


def _gui_domain() -> str:
    """-> launchd's domain of this user's login session, gui/<uid>."""
    # os.getuid exists wherever launchctl does; elsewhere the question gets "unknown" anyway.
    return f"gui/{os.getuid() if hasattr(os, 'getuid') else 0}"


# -- availability -------------------------------------------------------------------------


def check_available(platform: str, tool: Tool = run_tool) -> None:
    """Platform -> returns when its service manager answers; ServiceToolError with one line and a way out otherwise."""
    if platform == "linux":
        answer = tool(["systemctl", "--user", "show-environment"])
    elif platform == "macos":
        answer = tool(["launchctl", "print", _gui_domain()])
    else:
        answer = tool(["schtasks", "/Query", "/FO", "LIST"])
    if answer is None or answer.code != 0:
        manager = {
            "linux": "systemctl --user",
            "macos": "launchctl (this user's login session)",
            "windows": "schtasks",
        }[platform]
        raise ServiceToolError(
            f"{manager} is not available ({_first_line(answer)}): run `omoide service run` "
            "in a terminal instead, or write the file with --unit-dir and install it yourself"
        )


# -- install and uninstall ----------------------------------------------------------------


def enable(platform: str, path: Path, tool: Tool = run_tool) -> None:
    """Platform + the service file just written -> the service registered, enabled and (re)started."""
    if platform == "linux":
        _must(tool, ["systemctl", "--user", "daemon-reload"])
        _must(tool, ["systemctl", "--user", "enable", SYSTEMD_UNIT])
        # restart, not start: a second install must run the unit it just rewrote
        _must(tool, ["systemctl", "--user", "restart", SYSTEMD_UNIT])
    elif platform == "macos":
        target = f"{_gui_domain()}/{LAUNCHD_LABEL}"
        _must(tool, ["launchctl", "enable", target])
        tool(["launchctl", "bootout", target])  # a loaded copy is replaced; none is fine too
        _must(tool, ["launchctl", "bootstrap", _gui_domain(), str(path)])
    else:
        tool(["schtasks", "/End", "/TN", TASK_NAME])  # a running copy is replaced
        _must(tool, ["schtasks", "/Create", "/TN", TASK_NAME, "/XML", str(path), "/F"])
        _must(tool, ["schtasks", "/Run", "/TN", TASK_NAME])


def disable(platform: str, tool: Tool = run_tool) -> list[str]:
    """Platform -> the service stopped and unregistered; what could not be done (a step that found nothing to do is fine)."""
    problems: list[str] = []

    def attempt(command: list[str], nothing_there: tuple[str, ...]) -> None:
        answer = tool(command)
        if answer is None and shutil.which(command[0]) is None:
            return  # no such manager on this machine: nothing can be registered with it
        said = "" if answer is None else (answer.out + answer.err).lower()
        if answer is None or (answer.code != 0 and not any(n in said for n in nothing_there)):
            problems.append(f"`{' '.join(command)}`: {_first_line(answer)}")

    if platform == "linux":
        # Without a user manager (no bus) nothing runs; `disable` then still works on the files.
        attempt(
            ["systemctl", "--user", "stop", SYSTEMD_UNIT],
            ("not loaded", "failed to connect to bus"),
        )
        attempt(
            ["systemctl", "--user", "disable", SYSTEMD_UNIT],
            ("does not exist", "not found", "no such file"),
        )
    elif platform == "macos":
        attempt(
            ["launchctl", "bootout", f"{_gui_domain()}/{LAUNCHD_LABEL}"],
            ("no such process", "could not find", "not find"),
        )
    else:
        attempt(
            ["schtasks", "/End", "/TN", TASK_NAME],
            ("cannot find", "not running", "no running instance"),
        )
        attempt(["schtasks", "/Delete", "/TN", TASK_NAME, "/F"], ("cannot find",))
    return problems


def reload(platform: str, tool: Tool = run_tool) -> None:
    """Platform -> its manager told that a service file went away (systemd only needs telling)."""
    if platform == "linux":
        tool(["systemctl", "--user", "daemon-reload"])


# -- state ------------------------------------------------------------------------------------


def manager_state(platform: str, tool: Tool = run_tool) -> dict[str, bool | str]:
    """Platform -> {"enabled", "running"}: True, False, or "unknown" when the manager cannot be asked."""
    if platform == "linux":
        return {
            "enabled": _systemctl(
                tool,
                "is-enabled",
                {
                    "enabled": True,
                    "enabled-runtime": True,
                    "linked": True,
                    "disabled": False,
                    "masked": False,
                    "not-found": False,
                },
            ),
            "running": _systemctl(
                tool,
                "is-active",
                {
                    "active": True,
                    "reloading": True,
                    "activating": True,
                    "deactivating": True,
                    "inactive": False,
                    "failed": False,
                },
            ),
        }
    if platform == "macos":
        answer = tool(["launchctl", "print", f"{_gui_domain()}/{LAUNCHD_LABEL}"])
        if answer is None:
            return {"enabled": "unknown", "running": "unknown"}
        if answer.code == 0:
            return {"enabled": True, "running": "state = running" in answer.out}
        if answer.code == 113 or "could not find" in (answer.out + answer.err).lower():
            return {"enabled": False, "running": False}
        return {"enabled": "unknown", "running": "unknown"}
    answer = tool(["schtasks", "/Query", "/TN", TASK_NAME, "/FO", "CSV", "/NH"])
    if answer is None:
        return {"enabled": "unknown", "running": "unknown"}
    if answer.code != 0:
        absent = "cannot find" in (answer.out + answer.err).lower()
        return (
            {"enabled": False, "running": False}
            if absent
            else {"enabled": "unknown", "running": "unknown"}
        )
    status = (
        answer.out.strip().splitlines()[-1].rsplit(",", 1)[-1].strip().strip('"').lower()
        if answer.out.strip()
        else ""
    )
    if not status:
        return {"enabled": "unknown", "running": "unknown"}
    return {"enabled": status != "disabled", "running": status == "running"}


def _systemctl(tool: Tool, verb: str, meaning: dict[str, bool]) -> bool | str:
    """`systemctl --user <verb> omoide.service` -> what its one word means, or "unknown" without a user session."""
    answer = tool(["systemctl", "--user", verb, SYSTEMD_UNIT])
    if answer is None:
        return "unknown"
    if (
        "no such file" in answer.err.lower()
    ):  # is-enabled reads the unit files, with or without a session
        return False
    word = answer.out.strip().splitlines()[0].strip() if answer.out.strip() else ""
    return meaning.get(word, "unknown")
