"""reindex: drop LanceDB's memories and rebuild them from the lake's memory rows (mirrors of the vault)."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from omoide.embed import get_embedder
from omoide.settings import Settings
from omoide.store.lake import read_facts, stage_days
from omoide.store.memories import drop_memories, open_memories, replace_day

log = logging.getLogger(__name__)


def reindex(settings: Settings, now: datetime) -> dict[str, Any]:
    """Settings -> memories table rebuilt from every day of lake/facts; counts.

    lake/facts holds, per day, exactly the rows summarize derived and cited in the vault,
    so a rebuild needs no LLM: only the embedder runs again. This is how a change of
    embedding model is applied (the old vectors are dropped, never mixed with new ones).
    """
    embedder = get_embedder(settings.embed, settings.llm.host)
    drop_memories(settings.lancedb_dir)
    table = open_memories(settings.lancedb_dir, embedder.model, embedder.dim)
    days = stage_days(settings.lake_dir, "facts")
    total = 0
    for day in days:
        rows = read_facts(settings.lake_dir, day)
        replace_day(table, day.isoformat(), rows, embedder, now)
        total += len(rows)
    log.info("reindex: %d memories over %d day(s) with %s", total, len(days), embedder.model)
    return {"days": len(days), "memories": total, "embed_model": embedder.model}
