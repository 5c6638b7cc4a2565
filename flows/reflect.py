"""The weekly reflect flow: re-evaluate opinions, links, Big Five and the profile over a window."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from prefect import flow
from prefect.runtime import flow_run

from omoide.core.days import local_day
from omoide.core.settings import get_settings
from omoide.tasks.reflect import reflect_memories
from omoide.tasks.summarize import choose_llm


def reflect_run_name() -> str:
    """Flow-run parameters -> 'reflect-YYYY-MM-DD' (the window's last day)."""
    end = flow_run.parameters.get("end")
    if end is None:
        end = local_day(datetime.now(UTC), get_settings().timezone)
    return f"reflect-{end}"


@flow(name="reflect", flow_run_name=reflect_run_name, log_prints=False)
def reflect_flow(end: date | None = None, days: int = 7, analyse: bool = True) -> dict[str, Any]:
    """Window end (default today) + length -> a reflection with a fresh Big Five analysis."""
    settings = get_settings()
    now = datetime.now(UTC)
    end = end or local_day(now, settings.timezone)
    window = [(end - timedelta(days=i)).isoformat() for i in range(days)][::-1]
    return reflect_memories(
        db_dir=settings.lancedb_dir,
        vault_dir=settings.vault_dir,
        cache_dir=settings.cache_dir,
        embed=settings.embed,
        llm=choose_llm(settings.llm),
        llm_host=settings.llm.host,
        days=window,
        label=f"{window[0]}..{window[-1]}",
        now=now,
        me=[settings.user_name] if settings.user_name else [],
        people=settings.people,
        tz=settings.timezone,
        analyse=analyse,
    )
