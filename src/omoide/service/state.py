"""OMOIDE_HOME -> whether the per-user service is installed, for which home, enabled and running (a pure read)."""

from __future__ import annotations

import plistlib
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from omoide.service.control import Tool, manager_state, run_tool
from omoide.service.spec import PLATFORMS, this_platform, unit_path
from omoide.service.windows import NAMESPACE

_LINUX_HOME = re.compile(r"^# Written by `omoide service install` for OMOIDE_HOME=(.*)$", re.M)


def service_state(
    home: Path,
    platform: str | None = None,
    unit_dir: Path | None = None,
    tool: Tool = run_tool,
) -> dict[str, Any]:
    """OMOIDE_HOME (+ platform, the folder of the file) -> {platform, installed, unit_paths, home,
    this_home, enabled, running}; enabled and running are "unknown" when the manager cannot be asked."""
    platform = platform or this_platform()
    if platform not in PLATFORMS:
        raise ValueError(f"platform must be one of {', '.join(PLATFORMS)}, not {platform!r}")
    path = unit_path(platform, unit_dir)
    installed = path.is_file()
    served = served_home(platform, path) if installed else None
    return {
        "platform": platform,
        "installed": installed,
        "unit_paths": [str(path)],
        "home": served,
        "this_home": served is not None and served == str(home.resolve()),
        **manager_state(platform, tool),
    }


def served_home(platform: str, path: Path) -> str | None:
    """Platform + its service file -> the OMOIDE_HOME that file runs omoide for, or None when it names none."""
    try:
        if platform == "linux":
            found = _LINUX_HOME.search(path.read_text(encoding="utf-8", errors="replace"))
            return found.group(1) if found else None
        if platform == "macos":
            arguments = plistlib.loads(path.read_bytes()).get("ProgramArguments", [])
            return arguments[arguments.index("--home") + 1]
        description = (
            ET.parse(path)
            .getroot()
            .findtext(f"{{{NAMESPACE}}}RegistrationInfo/{{{NAMESPACE}}}Description", "")
        )
        return description.split("OMOIDE_HOME=", 1)[1] if "OMOIDE_HOME=" in description else None
    except (
        OSError,
        ValueError,
        IndexError,
        AttributeError,
        plistlib.InvalidFileException,
        ET.ParseError,
    ):
        return None
