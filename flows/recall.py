"""The recall flow: one query against the memories, for agents and deployments."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from prefect import flow

from omoide.core.days import parse_when
from omoide.core.settings import get_settings
from omoide.tasks.recall import recall_memories


@flow(name="recall", flow_run_name="recall", log_prints=False)
def recall_flow(
    query: str,
    k: int | None = None,
    since: str | None = None,
    until: str | None = None,
    kinds: list[str] | None = None,
    entities: list[str] | None = None,
    rehearse: bool = True,
) -> list[dict[str, Any]]:
    """Query (+ k, since/until as 30d or YYYY-MM-DD, kinds, entities) -> cited memories."""
    settings = get_settings()
    now = datetime.now(UTC)
    return recall_memories(
        db_dir=settings.lancedb_dir,
        embed=settings.embed,
        llm_host=settings.llm.host,
        query=query,
        now=now,
        k=k or settings.recall.k,
        since=parse_when(since, settings.timezone, now) if since else None,
        until=parse_when(until, settings.timezone, now) if until else None,
        kinds=kinds,
        entities=entities,
        decay_lambda=settings.recall.decay_lambda,
        token_budget=settings.recall.token_budget,
        rehearse=rehearse,
    )
