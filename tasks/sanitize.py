"""Sanitize task: gate the raw edge, redact PII, gate the clean edge, for a day's sources; in memory only."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from omoide.ingest.gate import Sanitized, sanitized_day
from omoide.ingest.sources import Collected
from omoide.tasks.artifacts import publish_redactions, publish_source_quality


@task(name="sanitize", task_run_name="sanitize-{day}", persist_result=False, cache_policy=NO_CACHE)
def sanitize_day(
    parts: dict[str, Collected], day: date, tz: str, excluded_domains: list[str], home: Path
) -> dict[str, Sanitized]:
    """Raw events by source + OMOIDE_HOME -> each source's redacted events (refs home-relative) and checks; bad rows set aside.

    Critical failures are published, not raised: the caller refuses only the failing sources.
    """
    out = sanitized_day(parts, day, tz, excluded_domains, home)
    publish_source_quality({name: s.checks for name, s in out.items()}, f"events-{day}")
    publish_redactions({name: s.redactions for name, s in out.items()}, str(day))
    log = get_run_logger()
    for name, s in out.items():
        log.info(
            "%s: %d events kept, %d rejected, redactions %s",
            name,
            len(s.events),
            len(s.rejects),
            s.redactions,
        )
    return out
