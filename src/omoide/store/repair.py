"""LanceDB tables -> rows sharing a key removed but one, each table in one commit.

Upserts are idempotent (merge_insert on the key), and one writer per home keeps two runs
apart, but two processes that race anyway (a lock bypassed, another tool) can each insert
the same new key. The next run repairs that before it writes: for every key found more
than once, the first row (lowest row id) is kept and the rest are deleted by row id, so
the repair is a single delete and a crash in it loses nothing.
"""

from __future__ import annotations

import logging
from pathlib import Path

import lancedb
import pyarrow.compute as pc

from omoide.store.connect import connect_db

log = logging.getLogger(__name__)


def drop_duplicate_keys(table: lancedb.table.Table, key: str) -> int:
    """Table + key column -> rows whose key appeared before deleted; how many."""
    keys = table.search().with_row_id(True).select([key]).limit(None).to_arrow()
    if keys.num_rows == pc.count_distinct(keys[key]).as_py():
        return 0
    ordered = keys.sort_by("_rowid").to_pandas()
    extra = ordered.loc[ordered.duplicated(key, keep="first"), "_rowid"].astype("int64").tolist()
    table.delete(f"_rowid IN ({', '.join(map(str, extra))})")
    log.warning("%s: removed %d duplicate row(s) of %s", table.name, len(extra), key)
    return len(extra)


# Each LanceDB table omoide writes, and the key its upserts merge on.
KEYS = {
    "memories": "memory_id",
    "entities": "slug",
    "opinions": "opinion_id",
    "profile_history": "analysis_id",
}


def repair_tables(db_dir: Path) -> dict[str, int]:
    """LanceDB folder -> duplicate keys removed from every table present; {table: rows removed}."""
    if not db_dir.exists():
        return {}
    db = connect_db(db_dir)
    removed = {}
    for name, key in KEYS.items():
        try:
            table = db.open_table(name)
        except ValueError:  # not created yet
            continue
        removed[name] = drop_duplicate_keys(table, key)
    return removed
