"""reindex: drop LanceDB's memories and rebuild them from the lake's memory rows (mirrors of the vault)."""

from __future__ import annotations

import logging
from datetime import datetime
from pathlib import Path
from typing import Any

from lancedb.table import Table

from omoide.core.errors import EmbeddingMismatchError
from omoide.core.settings import Settings
from omoide.embed import get_embedder
from omoide.embed.base import Embedder
from omoide.embed.cache import CachedEmbedder
from omoide.store.lake import read_facts, stage_days
from omoide.store.memories import drop_memories, open_memories, replace_day

log = logging.getLogger(__name__)


def reindex(settings: Settings, now: datetime) -> dict[str, Any]:
    """Settings -> memories table rebuilt from every day of lake/facts; counts.

    lake/facts holds, per day, exactly the rows summarize derived and cited in the vault,
    so a rebuild needs no LLM: only the embedder runs again. This is how a change of
    embedding model is applied (the old vectors are dropped, never mixed with new ones).
    """
    embedder = CachedEmbedder(get_embedder(settings.embed, settings.llm.host), settings.cache_dir)
    return reembed_all(settings.lancedb_dir, settings.lake_dir, embedder, now)


def reembed_all(db_dir: Path, lake_dir: Path, embedder: Embedder, now: datetime) -> dict[str, Any]:
    """LanceDB folder + lake + embedder -> memories dropped and rebuilt from every day's facts."""
    drop_memories(db_dir)
    table = open_memories(db_dir, embedder.model, embedder.dim)
    days = stage_days(lake_dir, "facts")
    total = 0
    for day in days:
        rows = read_facts(lake_dir, day)
        replace_day(table, day.isoformat(), rows, embedder, now)
        total += len(rows)
    log.info("reindex: %d memories over %d day(s) with %s", total, len(days), embedder.model)
    return {"days": len(days), "memories": total, "embed_model": embedder.model}


def open_for_embedding(
    db_dir: Path, lake_dir: Path, embedder: Embedder, now: datetime
) -> tuple[Table, bool]:
    """LanceDB folder + embedder -> (memories table, whether it was rebuilt for a new model).

    A changed embedding model is a new vector space: rather than fail every nightly run
    until someone reindexes, the embed stage rebuilds the whole table with the new model
    (a clean re-embed from lake/facts), never mixing old and new vectors.
    """
    try:
        return open_memories(db_dir, embedder.model, embedder.dim), False
    except EmbeddingMismatchError as exc:
        log.warning("%s; re-embedding every memory with %s", exc, embedder.model)
        reembed_all(db_dir, lake_dir, embedder, now)
        return open_memories(db_dir, embedder.model, embedder.dim), True
