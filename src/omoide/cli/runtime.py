"""OMOIDE_HOME -> the process environment for Prefect (its home under OMOIDE_HOME, telemetry off), and the flows imported after it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.console import Console

from omoide.core.offline import OFFLINE_ENV, go_offline
from omoide.core.settings import Settings
from omoide.core.writer_lock import describe, writer_lock

err = Console(stderr=True)


def prefect_environment(home: Path) -> dict[str, str]:
    """OMOIDE_HOME -> environment variables that keep Prefect local, private and quiet."""
    prefect_home = home / "prefect"
    return {
        "PREFECT_HOME": str(prefect_home),
        "PREFECT_LOCAL_STORAGE_PATH": str(prefect_home / "storage"),
        "PREFECT_LOGGING_LEVEL": os.environ.get("PREFECT_LOGGING_LEVEL", "WARNING"),
        **OFFLINE_ENV,
    }


def apply_prefect_environment(home: Path) -> None:
    """OMOIDE_HOME -> os.environ ready before Prefect is imported (privacy switches forced)."""
    go_offline()
    for key, value in prefect_environment(home).items():
        os.environ.setdefault(key, value)
    (home / "prefect").mkdir(parents=True, exist_ok=True, mode=0o700)


def flow_modules(home: Path) -> tuple[ModuleType, ModuleType, ModuleType]:
    """OMOIDE_HOME -> the (daily, backfill, reflect) flow modules, imported only after Prefect's environment is set."""
    apply_prefect_environment(home)
    import omoide.flows.backfill as backfill_module
    import omoide.flows.daily as daily_module
    import omoide.flows.reflect as reflect_module

    return daily_module, backfill_module, reflect_module


@contextmanager
def writing(settings: Settings, command: str) -> Iterator[None]:
    """Settings + the command -> the home's writer lock held (before Prefect starts), saying so when it waits."""

    def waiting(who: dict[str, Any]) -> None:
        err.print(
            f"omoide: waiting up to {settings.lock_timeout_s:.0f} s for {describe(who)} "
            f"to finish writing {settings.home}",
            highlight=False,
            soft_wrap=True,
        )

    with writer_lock(settings.home, command, settings.lock_timeout_s, on_wait=waiting):
        yield
