"""Ingest task: one source's day collected, sanitized and merged into the lake.

It is the cache unit of the daily flow: its key is the content hash of the source's records
of that day (omoide.ingest.fingerprint.day_fingerprint), so an unchanged day does no work
and new data invalidates only the days it falls on, while the raw data in between never leaves memory
(DESIGN: the collect→sanitize edge is not persisted or cached).
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

import pandas as pd
from prefect import get_run_logger, task
from prefect.context import TaskRunContext

from omoide import __version__
from omoide.core.ids import stable_id
from omoide.core.settings import SourceConfig
from omoide.ingest.fingerprint import day_fingerprint
from omoide.store.lake import merge_events, part_path
from omoide.store.quarantine import quarantine
from omoide.tasks.collect import collect_raw
from omoide.tasks.sanitize import sanitize_events

# Bump when collect/sanitize logic changes, so cached days are recomputed.
INGEST_VERSION = f"{__version__}-3"
# Sources that are the whole truth of their day when read: an edited note replaces itself.
_SNAPSHOT_KINDS = {"notes"}


def ingest_cache_key(context: TaskRunContext, parameters: dict[str, Any]) -> str | None:
    """Task parameters -> key from the day's records, day and policy (None: never cache)."""
    source: SourceConfig = parameters["source"]
    fp = day_fingerprint(source, parameters["day"], parameters["tz"], parameters["now"])
    if fp is None:
        return None
    return stable_id(
        "ingest",
        INGEST_VERSION,
        source.model_dump_json(),
        parameters["day"],
        parameters["tz"],
        sorted(parameters["excluded_domains"]),
        str(parameters["lake_dir"]),
        fp,
    )


@task(
    name="ingest",
    task_run_name="ingest-{source.name}-{day}",
    cache_key_fn=ingest_cache_key,
    persist_result=True,
    result_serializer="json",
)
def ingest_source(
    source: SourceConfig,
    day: date,
    tz: str,
    excluded_domains: list[str],
    lake_dir: Path,
    quarantine_dir: Path,
    now: datetime,
) -> dict[str, Any]:
    """Source + day -> its sanitized events merged into the lake; returns counts and the path."""
    raw = collect_raw(source, day, tz, now)
    clean = sanitize_events(raw, source.name, day, tz, excluded_domains)
    merged = merge_events(
        lake_dir, day, source.name, clean.events, replace=source.kind in _SNAPSHOT_KINDS
    )
    quarantine(quarantine_dir, "collect", day, source.name, clean.rejects, pd.Timestamp(now))
    get_run_logger().info("%s %s: lake %s", source.name, day, merged)
    return {
        "source": source.name,
        "path": str(part_path(lake_dir, "events", day, source.name)),
        "events": len(clean.events),
        "added": merged.added,
        "updated": merged.updated,
        "total": merged.total,
        "quarantined": len(clean.rejects),
        "redactions": clean.redactions,
    }
