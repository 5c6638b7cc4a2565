"""OMOIDE_HOME -> the process environment for Prefect (its home under OMOIDE_HOME, telemetry off), and the flows imported after it."""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType


def prefect_environment(home: Path) -> dict[str, str]:
    """OMOIDE_HOME -> environment variables that keep Prefect local, private and quiet."""
    prefect_home = home / "prefect"
    return {
        "PREFECT_HOME": str(prefect_home),
        "PREFECT_LOCAL_STORAGE_PATH": str(prefect_home / "storage"),
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "DO_NOT_TRACK": "1",
        "GX_ANALYTICS_ENABLED": "false",
        "PREFECT_LOGGING_LEVEL": os.environ.get("PREFECT_LOGGING_LEVEL", "WARNING"),
    }


def apply_prefect_environment(home: Path) -> None:
    """OMOIDE_HOME -> os.environ ready before Prefect is imported (privacy switches forced)."""
    env = prefect_environment(home)
    for key in ("PREFECT_SERVER_ANALYTICS_ENABLED", "DO_NOT_TRACK", "GX_ANALYTICS_ENABLED"):
        os.environ[key] = env.pop(key)
    for key, value in env.items():
        os.environ.setdefault(key, value)
    (home / "prefect").mkdir(parents=True, exist_ok=True, mode=0o700)


def flow_modules(home: Path) -> tuple[ModuleType, ModuleType, ModuleType]:
    """OMOIDE_HOME -> the (daily, backfill, reflect) flow modules, imported only after Prefect's environment is set."""
    apply_prefect_environment(home)
    import omoide.flows.backfill as backfill_module
    import omoide.flows.daily as daily_module
    import omoide.flows.reflect as reflect_module

    return daily_module, backfill_module, reflect_module
