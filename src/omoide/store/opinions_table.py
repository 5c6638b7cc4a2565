"""The LanceDB `opinions` table: one row per opinion, its whole history kept in the row.

The history is a `list<struct<at, memory_id, delta, confidence_after, reason>>` column,
so a row is the complete record of an opinion and the vault page can be rebuilt from the
table alone. Writes go through `merge_insert` on opinion_id and only rows that differ
from the stored ones are written, so upserting the same opinions twice adds no version.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import lancedb
import pyarrow as pa

from omoide.core import schemas
from omoide.reflect.opinions import HistoryEntry, Opinion

log = logging.getLogger(__name__)

TABLE = "opinions"

HISTORY_ENTRY = pa.struct(
    [
        pa.field("at", schemas.TS, nullable=False),
        pa.field("memory_id", pa.string(), nullable=False),
        pa.field("delta", pa.float64(), nullable=False),
        pa.field("confidence_after", pa.float64(), nullable=False),
        pa.field("reason", pa.string(), nullable=False),
    ]
)

OPINIONS = pa.schema(
    [
        pa.field("opinion_id", pa.string(), nullable=False),
        pa.field("statement", pa.string(), nullable=False),
        pa.field("entities", pa.list_(pa.string())),
        pa.field("confidence", pa.float64(), nullable=False),
        pa.field("stated_at", schemas.TS, nullable=False),
        pa.field("origin_id", pa.string(), nullable=False),
        pa.field("last_updated", schemas.TS, nullable=False),
        pa.field("supporting_ids", pa.list_(pa.string())),
        pa.field("contradicting_ids", pa.list_(pa.string())),
        pa.field("history", pa.list_(HISTORY_ENTRY)),
        # Variable length: the dimension follows the memories' embedder; no index needs it.
        pa.field("vector", pa.list_(pa.float32())),
    ]
)


def open_opinions(db_dir: Path) -> lancedb.table.Table:
    """LanceDB folder -> the opinions table (created empty when missing)."""
    return lancedb.connect(db_dir).create_table(TABLE, schema=OPINIONS, exist_ok=True)


def to_arrow(opinions: Sequence[Opinion]) -> pa.Table:
    """Opinions -> arrow table in the OPINIONS schema."""
    rows = [
        {
            "opinion_id": o.opinion_id,
            "statement": o.statement,
            "entities": list(o.entities),
            "confidence": o.confidence,
            "stated_at": o.stated_at,
            "origin_id": o.origin_id,
            "last_updated": o.last_updated,
            "supporting_ids": list(o.supporting_ids),
            "contradicting_ids": list(o.contradicting_ids),
            "history": [
                {
                    "at": h.at,
                    "memory_id": h.memory_id,
                    "delta": h.delta,
                    "confidence_after": h.confidence_after,
                    "reason": h.reason,
                }
                for h in o.history
            ],
            "vector": list(o.vector),
        }
        for o in opinions
    ]
    return pa.Table.from_pylist(rows, schema=OPINIONS)


def from_row(row: dict[str, Any]) -> Opinion:
    """Stored row -> Opinion."""
    return Opinion(
        opinion_id=row["opinion_id"],
        statement=row["statement"],
        entities=tuple(row["entities"] or ()),
        confidence=row["confidence"],
        stated_at=row["stated_at"],
        origin_id=row["origin_id"],
        last_updated=row["last_updated"],
        vector=tuple(row["vector"] or ()),
        supporting_ids=tuple(row["supporting_ids"] or ()),
        contradicting_ids=tuple(row["contradicting_ids"] or ()),
        history=tuple(HistoryEntry(**h) for h in row["history"] or ()),
    )


def load_opinions(table: lancedb.table.Table) -> list[Opinion]:
    """Opinions table -> every opinion, ordered by when it was stated."""
    ops = [from_row(r) for r in table.to_arrow().to_pylist()]
    return sorted(ops, key=lambda o: (o.stated_at, o.origin_id))


def upsert_opinions(table: lancedb.table.Table, opinions: Sequence[Opinion]) -> int:
    """Opinions -> merged into the table by opinion_id, unchanged ones skipped; rows written."""
    stored = {o.opinion_id: o for o in load_opinions(table)} if table.count_rows() else {}
    changed = [o for o in opinions if stored.get(o.opinion_id) != o]
    if changed:
        merge = table.merge_insert("opinion_id").when_matched_update_all()
        merge.when_not_matched_insert_all().execute(to_arrow(changed))
    log.info("opinions: %d written, %d unchanged", len(changed), len(opinions) - len(changed))
    return len(changed)
