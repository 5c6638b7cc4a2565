"""The LanceDB `opinions` table: rows in the OPINIONS schema in and out, unchanged rows never rewritten.

The history is a `list<struct<at, memory_id, delta, confidence_after, reason>>` column,
so a row is the complete record of an opinion and the vault page can be rebuilt from the
table alone. Writes go through `merge_insert` on opinion_id and only rows that differ
from the stored ones are written, so upserting the same opinions twice adds no version.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import lancedb
import pyarrow as pa

from omoide.core.schemas import OPINIONS
from omoide.store.connect import connect_db

log = logging.getLogger(__name__)

TABLE = "opinions"


def open_opinions(db_dir: Path) -> lancedb.table.Table:
    """LanceDB folder -> the opinions table (created empty when missing)."""
    return connect_db(db_dir).create_table(TABLE, schema=OPINIONS, exist_ok=True)


def read_opinion_rows(table: lancedb.table.Table) -> list[dict[str, Any]]:
    """Opinions table -> every stored row as a dict."""
    return table.to_arrow().to_pylist()


def upsert_opinion_rows(table: lancedb.table.Table, rows: pa.Table) -> int:
    """OPINIONS rows -> merged into the table by opinion_id, unchanged ones skipped; rows written."""
    rows = rows.cast(OPINIONS)
    stored = {r["opinion_id"]: r for r in read_opinion_rows(table)} if table.count_rows() else {}
    # Both sides went through Arrow, so equal opinions compare equal row for row.
    changed = [i for i, r in enumerate(rows.to_pylist()) if stored.get(r["opinion_id"]) != r]
    if changed:
        merge = table.merge_insert("opinion_id").when_matched_update_all()
        merge.when_not_matched_insert_all().execute(rows.take(changed))
    log.info("opinions: %d written, %d unchanged", len(changed), rows.num_rows - len(changed))
    return len(changed)
