"""Sanitize task: gate the raw edge, redact PII, gate the clean edge; in memory only."""

from __future__ import annotations

from datetime import date

from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from omoide import quality
from omoide.ingest.gate import Sanitized, sanitized
from omoide.ingest.sources import Collected
from omoide.tasks.artifacts import publish_quality, publish_redactions


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
    out = sanitized(raw, day, tz, excluded_domains)
    publish_quality(out.checks, f"{source_name}-{day}")
    publish_redactions(out.redactions, f"{source_name}-{day}")
    for check in out.checks:
        quality.raise_for_failures(check)
    get_run_logger().info(
        "%s: %d events kept, %d rejected, redactions %s",
        source_name,
        len(out.events),
        len(out.rejects),
        out.redactions,
    )
    return out
