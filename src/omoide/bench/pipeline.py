"""A source and its days -> a fresh memories table built by the daily pipeline's library stages (for benchmarks)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from omoide.core.days import day_bounds
from omoide.core.settings import SourceConfig
from omoide.embed.base import Embedder
from omoide.ingest.sanitize import sanitize
from omoide.ingest.sessionize import sessions as sessionize
from omoide.ingest.sources import collect
from omoide.memory.day_rows import day_memories, digest_id, session_lines
from omoide.memory.records import day_records
from omoide.memory.summarize import summarize_day
from omoide.store.memories import catch_up_indices, open_memories, replace_day
from omoide.vault.daily import write_daily


def build_table(
    source: SourceConfig,
    days: Sequence[date],
    home: Path,
    embedder: Embedder,
    now: datetime,
    tz: str = "UTC",
) -> Any:
    """Source + days -> collect, sanitize, sessionize, summarize (embedded digest), vault, LanceDB; the table."""
    table = open_memories(home / "lancedb", embedder.model, embedder.dim)
    for day in days:
        start, end = day_bounds(day, tz)
        raw = collect(source, start, end, now).events
        clean, _ = sanitize(raw, [])
        sess = sessionize(clean, day, 300.0, 10.0, pd.Timestamp(now))
        summary = summarize_day(clean, sess, day, tz, None)
        written = write_daily(
            home / "vault", summary, session_lines(sess, tz), digest_id(summary.day)
        )
        rows = day_memories(
            day_records(clean, sess, day, tz, now),
            summary,
            written.path,
            written.lines,
            home,
            tz,
            now,
        )
        replace_day(table, day.isoformat(), rows, embedder, now, maintain=False)
    catch_up_indices(home / "lancedb")
    # A handle sees only its own writes (no read-consistency interval): open the indexed table.
    return open_memories(home / "lancedb", embedder.model, embedder.dim)
