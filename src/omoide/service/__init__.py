"""The per-user service that keeps omoide running from login: its file rendered per platform
(systemd user unit, launchd agent, Task Scheduler task), installed through the platform's own
tool, and its state read back. No Prefect here: the CLI runs what the service starts."""

from __future__ import annotations

from omoide.service.control import (
    ServiceToolError,
    check_available,
    disable,
    enable,
    manager_state,
    reload,
)
from omoide.service.launchd import launchd_agent
from omoide.service.spec import (
    DEFAULT_PORT,
    PLATFORMS,
    ServiceSpec,
    default_unit_dir,
    omoide_executable,
    this_platform,
    unit_path,
)
from omoide.service.state import service_state
from omoide.service.systemd import systemd_unit
from omoide.service.windows import scheduler_task

_RENDERERS = {"linux": systemd_unit, "macos": launchd_agent, "windows": scheduler_task}


def unit_text(platform: str, spec: ServiceSpec) -> str:
    """Platform + spec -> the text of that platform's service file."""
    return _RENDERERS[platform](spec)


def unit_bytes(platform: str, spec: ServiceSpec) -> bytes:
    """Platform + spec -> the service file as written to disk (Task Scheduler's XML as UTF-16, as it exports its own)."""
    text = unit_text(platform, spec)
    return text.encode("utf-16") if platform == "windows" else text.encode("utf-8")


__all__ = [
    "DEFAULT_PORT",
    "PLATFORMS",
    "ServiceSpec",
    "ServiceToolError",
    "check_available",
    "default_unit_dir",
    "disable",
    "enable",
    "launchd_agent",
    "manager_state",
    "omoide_executable",
    "reload",
    "scheduler_task",
    "service_state",
    "systemd_unit",
    "this_platform",
    "unit_bytes",
    "unit_path",
    "unit_text",
]
