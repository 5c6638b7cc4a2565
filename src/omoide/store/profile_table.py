"""The LanceDB `profile_history` table: one row per Big Five analysis in, every row out, oldest first.

Rows are keyed by `analysis_id`, which is derived from an analysis' source and inputs, so
recording the same analysis twice changes nothing: an existing id is never rewritten (the
history keeps when an analysis was first made) and a new one is inserted with
`merge_insert(...).when_not_matched_insert_all()`. Sources stay in separate rows; nothing here
averages them.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import lancedb
import pyarrow as pa

from omoide.core.schemas import PROFILE_HISTORY
from omoide.store.connect import connect_db
from omoide.store.memories import sql_str

log = logging.getLogger(__name__)

TABLE = "profile_history"


def open_profile_history(db_dir: Path) -> lancedb.table.Table:
    """LanceDB folder -> the profile_history table (created when missing)."""
    return connect_db(db_dir).create_table(TABLE, schema=PROFILE_HISTORY, exist_ok=True)


def insert_analysis_row(table: lancedb.table.Table, row: dict[str, Any]) -> bool:
    """PROFILE_HISTORY row -> stored unless its id is already there; True when inserted."""
    # Checking first keeps a repeated analysis from creating a new table version.
    if table.count_rows(f"analysis_id = {sql_str(row['analysis_id'])}"):
        return False
    data = pa.Table.from_pylist([row], schema=PROFILE_HISTORY)
    result = table.merge_insert("analysis_id").when_not_matched_insert_all().execute(data)
    log.info("profile_history: recorded one %s analysis", row["source"])
    return result.num_inserted_rows > 0


def read_analysis_rows(table: lancedb.table.Table) -> list[dict[str, Any]]:
    """Table -> every stored row, oldest first (ties by id)."""
    rows = table.to_arrow().to_pylist()
    rows.sort(key=lambda r: (r["analyzed_at"], r["analysis_id"]))
    return rows
