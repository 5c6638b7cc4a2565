"""Sanitize task: gate the raw edge, redact PII, gate the clean edge; in memory only."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pandas as pd
from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from omoide import quality
from omoide.core.days import day_bounds
from omoide.ingest.sanitize import pii_residue, sanitize
from omoide.ingest.sources import Collected
from omoide.tasks.artifacts import publish_quality, publish_redactions


@dataclass
class Sanitized:
    """Clean events plus what was rejected on the way (refs and reasons only)."""

    events: pd.DataFrame
    rejects: pd.DataFrame
    redactions: dict[str, int]


@task(
    name="sanitize",
    task_run_name="sanitize-{source_name}-{day}",
    persist_result=False,
    cache_policy=NO_CACHE,
)
def sanitize_events(
    raw: Collected, source_name: str, day: date, tz: str, excluded_domains: list[str]
) -> Sanitized:
    """Raw events -> redacted events that passed both edge checks; bad rows set aside."""
    start, end = day_bounds(day, tz)
    params = {"day_start": start, "day_end": end}
    events = raw.events.drop_duplicates("event_id", keep="last")
    raw_check = quality.validate(events, "events_raw", params)
    kept, bad = quality.quarantine_split(events, raw_check)
    quality.raise_for_failures(raw_check)
    clean, counts = sanitize(kept, excluded_domains)
    clean_check = quality.validate(
        clean.assign(pii_residue=pii_residue(clean)), "events_clean", params
    )
    publish_quality([raw_check, clean_check], f"{source_name}-{day}")
    publish_redactions(counts, f"{source_name}-{day}")
    quality.raise_for_failures(clean_check)
    rejects = pd.concat(
        [
            pd.DataFrame(
                [{"ref": r.ref, "reason": r.reason} for r in raw.rejects], columns=["ref", "reason"]
            ),
            bad.rename(columns={"source_ref": "ref"})[["ref", "reason"]],
        ],
        ignore_index=True,
    )
    get_run_logger().info(
        "%s: %d events kept, %d rejected, redactions %s",
        source_name,
        len(clean),
        len(rejects),
        counts,
    )
    return Sanitized(clean, rejects, counts)
