"""Collect task: read one source's day into memory (raw data is never persisted or cached)."""

from __future__ import annotations

from datetime import date, datetime

from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.tasks import exponential_backoff

from omoide.core.errors import SourceError
from omoide.core.settings import SourceConfig
from omoide.ingest import sources
from omoide.ingest.fingerprint import collected_day


def _transient(task, task_run, state) -> bool:  # noqa: ANN001 - Prefect's hook signature
    """Failed state -> retry only errors that can pass (a locked DB, a server restarting)."""
    try:
        state.result()
    except SourceError as exc:
        return exc.transient
    except Exception:
        return False
    return False


@task(
    name="collect",
    task_run_name="collect-{source.name}-{day}",
    retries=3,
    retry_delay_seconds=exponential_backoff(backoff_factor=5),
    retry_condition_fn=_transient,
    persist_result=False,
    cache_policy=NO_CACHE,
)
def collect_raw(source: SourceConfig, day: date, tz: str, now: datetime) -> sources.Collected:
    """Source + local day -> raw events and rejected records, in memory only."""
    collected = collected_day(source, day, tz, now)
    get_run_logger().info(
        "collected %d events, %d rejected records from %s",
        len(collected.events),
        len(collected.rejects),
        source.name,
    )
    return collected
