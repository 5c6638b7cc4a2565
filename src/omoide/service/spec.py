"""What the per-user service runs and where each platform keeps it: the spec the renderers share, the names, the places."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from omoide.core.errors import OmoideError

PLATFORMS = ("linux", "macos", "windows")
DEFAULT_PORT = 4200  # `omoide server`'s own default: the UI stays at http://127.0.0.1:4200
SYSTEMD_UNIT = "omoide.service"
LAUNCHD_LABEL = "io.omoide.service"
TASK_NAME = "omoide"
FILE_NAMES = {
    "linux": SYSTEMD_UNIT,
    "macos": f"{LAUNCHD_LABEL}.plist",
    "windows": "omoide-task.xml",
}


@dataclass(frozen=True)
class ServiceSpec:
    """What a service runs: the venv's omoide, the home it keeps (absolute), the server's port, its environment."""

    omoide: str
    home: str
    port: int = DEFAULT_PORT
    env: Mapping[str, str] = field(default_factory=dict)
    user: str = ""  # Windows: the account whose logon starts the task

    def __post_init__(self) -> None:
        # A unit file is line-based and a plist or task XML cannot carry control characters.
        for what, value in (("omoide", self.omoide), ("home", self.home), *self.env.items()):
            if any(ord(c) < 32 for c in value):
                raise OmoideError(
                    f"{what} {value!r} holds a control character: no service file can name it"
                )

    def arguments(self) -> list[str]:
        """-> the command line the service starts: `omoide service run` for this home and port."""
        return [self.omoide, "service", "run", "--home", self.home, "--port", str(self.port)]

    def output(self) -> str:
        """-> the file under OMOIDE_HOME/logs where launchd appends the process's own output."""
        # Not `*.log`: omoide keeps only the newest 30 of those (one per command).
        return str(Path(self.home) / "logs" / "service.out")


def this_platform() -> str:
    """-> "linux", "macos" or "windows": the platform this process runs on."""
    if sys.platform == "darwin":
        return "macos"
    if sys.platform.startswith(("win", "cygwin")):
        return "windows"
    return "linux"


def default_unit_dir(platform: str) -> Path:
    """Platform -> the folder its per-user service file lives in (systemd user units, LaunchAgents, omoide's own)."""
    if platform == "linux":
        config = os.environ.get("XDG_CONFIG_HOME") or ""
        base = Path(config) if Path(config).is_absolute() else Path.home() / ".config"
        return base / "systemd" / "user"
    if platform == "macos":
        return Path.home() / "Library" / "LaunchAgents"
    # Task Scheduler keeps the registered task itself; the XML it was made from stays here.
    local = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
    return Path(local) / "omoide"


def unit_path(platform: str, unit_dir: Path | None = None) -> Path:
    """Platform (+ a folder) -> the path of its service file there (default: the platform's own folder)."""
    return (unit_dir if unit_dir is not None else default_unit_dir(platform)) / FILE_NAMES[platform]


def omoide_executable() -> Path:
    """-> the absolute path of this venv's `omoide` (beside the running Python), else the one on PATH."""
    name = "omoide.exe" if this_platform() == "windows" else "omoide"
    beside = Path(sys.executable).parent / name
    if beside.is_file():
        return beside.resolve()
    found = shutil.which("omoide")
    if found is None:
        raise OmoideError(
            f"cannot find the omoide command beside {sys.executable} or on PATH: "
            "install omoide into this environment (pip install -e .) first"
        )
    return Path(found).resolve()
