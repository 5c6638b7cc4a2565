"""A ServiceSpec -> the launchd agent (macOS) that starts omoide at login and keeps it alive."""

from __future__ import annotations

import plistlib

from omoide.service.spec import LAUNCHD_LABEL, ServiceSpec


def launchd_agent(spec: ServiceSpec) -> str:
    """Spec -> the text of `io.omoide.service.plist`, a per-user LaunchAgent."""
    agent = {
        "Label": LAUNCHD_LABEL,
        "ProgramArguments": spec.arguments(),
        "EnvironmentVariables": dict(sorted(spec.env.items())),
        "WorkingDirectory": spec.home,
        "RunAtLoad": True,
        # Restarted when it fails, not after `launchctl bootout` or a clean stop.
        "KeepAlive": {"SuccessfulExit": False},
        "ThrottleInterval": 15,
        # `omoide service run` stops the scheduler, then the server (which allows its own 30 s).
        "ExitTimeOut": 60,
        "StandardOutPath": spec.output(),
        "StandardErrorPath": spec.output(),
    }
    return plistlib.dumps(agent, sort_keys=False).decode("utf-8")
