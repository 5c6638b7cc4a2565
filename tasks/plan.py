"""Plan task: which days of a backfill still need work (their inputs changed since they completed)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from omoide.core.ids import stable_id
from omoide.core.settings import Settings
from omoide.ingest.span_cache import KEPT_DIR, planned_fingerprints
from omoide.store.day_marks import completed
from omoide.tasks.embed import EMBED_VERSION
from omoide.tasks.ingest import INGEST_VERSION
from omoide.tasks.reflect import REFLECT_VERSION
from omoide.tasks.sessionize import SESSIONIZE_VERSION
from omoide.tasks.summarize import SUMMARIZE_VERSION

# Every stage's version: a release that changes any stage re-runs every day.
PIPELINE = (INGEST_VERSION, SESSIONIZE_VERSION, SUMMARIZE_VERSION, EMBED_VERSION, REFLECT_VERSION)
# Settings that say how and when runs happen, not what a day becomes: a change re-runs nothing.
OPERATIONAL = {
    "lock_timeout_s",
    "backfill_workers",
    "dask",
    "dask_scheduler",
    "dask_workers",
    "catch_up_days",
    "keep_versions_days",
}


@task(
    name="plan",
    task_run_name="plan",
    cache_policy=NO_CACHE,
    persist_result=False,
)
def plan_days(
    settings: Settings, days: list[date], now: datetime
) -> tuple[dict[date, str | None], dict[date, dict[str, Any]]]:
    """Settings + days -> (each day's input key, None when it cannot be keyed; the figures of days already done from these inputs)."""
    tz, kept = settings.timezone, settings.cache_dir / KEPT_DIR
    prints = [
        planned_fingerprints(s, days, tz, now, kept, INGEST_VERSION) for s in settings.sources
    ]
    config = settings.model_dump_json(exclude=OPERATIONAL)
    keys: dict[date, str | None] = {}
    for day in days:
        per_source = [p[day] for p in prints]
        keys[day] = (
            None
            if any(fp is None for fp in per_source)
            else stable_id("day", *PIPELINE, config, day, *per_source)
        )
    done = {}
    if settings.lancedb_dir.exists():
        for day, key in keys.items():
            figures = completed(settings.day_marks_dir, day, key, settings.home)
            if figures is not None:
                done[day] = figures
    get_run_logger().info(
        "plan: %d of %d days unchanged since they completed", len(done), len(days)
    )
    return keys, done
