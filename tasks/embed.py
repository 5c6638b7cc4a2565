"""Embed task: a day's memory rows from the lake -> LanceDB `memories`, gated."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

import numpy as np
from prefect import get_run_logger, task
from prefect.context import TaskRunContext

from omoide import __version__, quality
from omoide.core.ids import stable_id
from omoide.core.settings import EmbedSettings
from omoide.embed import get_embedder
from omoide.embed.cache import CachedEmbedder
from omoide.memory.reindex import open_for_embedding
from omoide.store.lake import partition_digest, read_facts
from omoide.store.memories import day_rows, replace_day
from omoide.store.profile_table import drop_missing_evidence
from omoide.tasks.artifacts import publish_quality

EMBED_VERSION = f"{__version__}-1"


def embed_cache_key(context: TaskRunContext, parameters: dict[str, Any]) -> str:
    """Task parameters -> key from the day's facts partition and the embedding model."""
    embed: EmbedSettings = parameters["embed"]
    lake: Path = parameters["lake_dir"]
    day: date = parameters["day"]
    return stable_id(
        "embed",
        EMBED_VERSION,
        str(lake),
        str(parameters["db_dir"]),
        day,
        embed.backend,
        embed.model,
        partition_digest(lake, "facts", day),
    )


@task(
    name="embed",
    task_run_name="embed-{day}",
    cache_key_fn=embed_cache_key,
    persist_result=True,
    result_serializer="json",
    retries=2,
    retry_delay_seconds=[5, 30],
)
def embed_day(
    lake_dir: Path,
    db_dir: Path,
    day: date,
    embed: EmbedSettings,
    llm_host: str,
    now: datetime,
    cache_dir: Path,
    maintain: bool = True,
) -> dict[str, Any]:
    """Lake facts of a day -> upserted into LanceDB (unchanged rows untouched); counts.

    `maintain=False` leaves index upkeep to the caller (`index_upkeep`, once per backfill chunk).
    """
    rows = read_facts(lake_dir, day)
    embedder = CachedEmbedder(get_embedder(embed, llm_host), cache_dir)
    table, rebuilt = open_for_embedding(db_dir, lake_dir, embedder, now)
    stats = replace_day(table, day.isoformat(), rows, embedder, now, maintain=maintain)
    if stats.deleted:
        # A re-made day's rows under new ids (a collector's id changed): analyses cite what is.
        drop_missing_evidence(db_dir)
    stored = day_rows(table, day.isoformat())
    vectors = np.asarray(stored["vector"].tolist(), dtype=np.float32).reshape(len(stored), -1)
    check = quality.validate(
        stored.drop(columns=["vector"]).assign(
            vector_dim=[vectors.shape[1]] * len(stored),
            vector_norm=np.linalg.norm(vectors, axis=1) if len(stored) else [],
        ),
        "memories",
        {"dim": embedder.dim, "embed_models": [embedder.model]},
    )
    publish_quality([check], f"memories-{day}")
    quality.raise_for_failures(check)
    get_run_logger().info("%s: memories %s", day, stats)
    return {
        "memories": len(stored),
        **stats.as_dict(),
        "embed_model": embedder.model,
        "reembedded_all": rebuilt,
        # What the model itself did: texts computed (a cache hit is not), and its seconds.
        "embed_computed": embedder.computed,
        "embed_cache_hits": embedder.hits,
        "embed_s": round(embedder.seconds, 3),
    }
