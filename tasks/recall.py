"""Recall task: a query against LanceDB memories -> ranked, cited results (as JSON dicts)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from prefect import get_run_logger, task

from omoide.core.settings import EmbedSettings
from omoide.embed import get_embedder
from omoide.memory.recall import recall
from omoide.store.memories import open_memories
from omoide.store.validity_table import load_validity


@task(name="recall", task_run_name="recall", persist_result=False)
def recall_memories(
    db_dir: Path,
    embed: EmbedSettings,
    llm_host: str,
    query: str,
    now: datetime,
    k: int,
    since: datetime | None,
    until: datetime | None,
    kinds: list[str] | None,
    entities: list[str] | None,
    decay_lambda: float,
    token_budget: int,
    rehearse: bool,
) -> list[dict[str, Any]]:
    """Query + filters -> recalled memories as JSON dicts (never persisted: they hold personal text)."""
    embedder = get_embedder(embed, llm_host)
    table = open_memories(db_dir, embedder.model, embedder.dim, create=False)
    results = recall(
        table,
        embedder,
        query,
        now,
        k=k,
        since=since,
        until=until,
        kinds=kinds,
        entities=entities,
        decay_lambda=decay_lambda,
        token_budget=token_budget,
        rehearse=rehearse,
        validity=load_validity(db_dir),
    )
    get_run_logger().info("recall: %d result(s)", len(results))
    return [r.to_json() for r in results]
