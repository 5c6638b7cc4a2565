"""The LanceDB `profile_history` table: one row per Big Five analysis in, every row out, oldest first.

Rows are keyed by `analysis_id`, which is derived from an analysis' source and inputs, so
recording the same analysis twice changes nothing: an existing id is never rewritten (the
history keeps when an analysis was first made) and a new one is inserted with
`merge_insert(...).when_not_matched_insert_all()`. Sources stay in separate rows; nothing here
averages them.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lancedb
import pyarrow as pa

from omoide.core.schemas import PROFILE_HISTORY
from omoide.store.connect import connect_db
from omoide.store.memories import TABLE as MEMORIES
from omoide.store.memories import sql_list, sql_str

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


def drop_evidence(db_dir: Path, gone: Callable[[str], bool]) -> int:
    """LanceDB folder + which memory ids are gone -> those ids taken out of every analysis' evidence; how many.

    An analysis is history and keeps its scores; it cites only memories that exist (a
    forgotten one, or a row a re-made day no longer has).
    """
    if not (db_dir / f"{TABLE}.lance").exists():
        return 0
    table = open_profile_history(db_dir)
    changed, removed = [], 0
    for row in read_analysis_rows(table):
        evidence = [i for i in row["evidence"] or [] if not gone(i)]
        if len(evidence) == len(row["evidence"] or []):
            continue
        traits = {
            trait: [i for i in cited if not gone(i)]
            for trait, cited in json.loads(row["trait_evidence"] or "{}").items()
        }
        removed += len(row["evidence"] or []) - len(evidence)
        changed.append(
            {**row, "evidence": evidence, "trait_evidence": json.dumps(traits, sort_keys=True)}
        )
    if changed:
        table.delete(f"analysis_id IN ({sql_list([r['analysis_id'] for r in changed])})")
        table.add(pa.Table.from_pylist(changed, schema=table.schema))
        log.info("profile_history: %d cited memory id(s) no longer exist, dropped", removed)
    return removed


def drop_missing_evidence(db_dir: Path) -> int:
    """LanceDB folder -> evidence ids of memories the table no longer holds taken out of every analysis; how many."""
    if not (db_dir / f"{TABLE}.lance").exists() or not (db_dir / f"{MEMORIES}.lance").exists():
        return 0
    memories = connect_db(db_dir).open_table(MEMORIES)
    known = set(memories.search().select(["memory_id"]).to_arrow()["memory_id"].to_pylist())
    return drop_evidence(db_dir, lambda i: i not in known)
