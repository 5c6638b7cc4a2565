"""Sessionize task: the day's lake events -> sessions, gated and written to the lake."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

import pandas as pd
from prefect import get_run_logger, task
from prefect.context import TaskRunContext

from omoide import __version__, quality
from omoide.core.days import day_bounds
from omoide.core.ids import stable_id
from omoide.ingest.sessionize import compression_ratio, sessions
from omoide.store.lake import partition_digest, read_events, write_sessions
from omoide.tasks.artifacts import publish_quality, publish_sessions

SESSIONIZE_VERSION = f"{__version__}-2"  # -2: a window showing a page joins its session


def sessionize_cache_key(context: TaskRunContext, parameters: dict[str, Any]) -> str:
    """Task parameters -> key from the day's event partition state and the session settings."""
    lake: Path = parameters["lake_dir"]
    day: date = parameters["day"]
    return stable_id(
        "sessionize",
        SESSIONIZE_VERSION,
        str(lake),
        day,
        parameters["tz"],
        parameters["gap_s"],
        parameters["min_dwell_s"],
        partition_digest(lake, "events", day),
    )


@task(
    name="sessionize",
    task_run_name="sessionize-{day}",
    cache_key_fn=sessionize_cache_key,
    persist_result=True,
    result_serializer="json",
)
def sessionize_day(
    lake_dir: Path, day: date, tz: str, gap_s: float, min_dwell_s: float, now: datetime
) -> dict[str, Any]:
    """Lake events of a day -> sessions parquet; returns counts and the path."""
    events = read_events(lake_dir, day)
    out = sessions(events, day, gap_s, min_dwell_s, pd.Timestamp(now))
    start, end = day_bounds(day, tz)
    check = quality.validate(out, "sessions", {"day_start": start, "day_end": end})
    publish_quality([check], f"sessions-{day}")
    quality.raise_for_failures(check)
    path = write_sessions(lake_dir, day, out)
    publish_sessions(out, day)
    n_act = int(events["event_type"].isin(["visit", "window", "web", "chat"]).sum())
    ratio = compression_ratio(n_act, len(out))
    get_run_logger().info(
        "%s: %d activity events -> %d sessions (%.1fx)", day, n_act, len(out), ratio
    )
    return {
        "path": str(path),
        "events": n_act,
        "sessions": len(out),
        "compression": round(ratio, 2),
    }
