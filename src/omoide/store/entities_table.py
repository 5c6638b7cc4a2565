"""The LanceDB `entities` table: ENTITIES rows in (unchanged ones skipped), all rows out.

Rows are derived from the memories table (so `omoide reindex` can rebuild them) and are
upserted with `merge_insert` on slug; a row whose values are unchanged (apart from when
it was computed) is not written again, so re-running reflect creates no new versions.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from pathlib import Path

import lancedb
import pandas as pd
import pyarrow as pa

from omoide.core.errors import OmoideError
from omoide.core.schemas import ENTITIES
from omoide.store.connect import connect_db
from omoide.store.memories import sql_list

log = logging.getLogger(__name__)

TABLE = "entities"
# Columns whose change means a rewrite; computed_at alone changing is not a change.
COMPARED = [n for n in ENTITIES.names if n != "computed_at"]


@dataclass(frozen=True)
class EntityUpsertStats:
    """What one upsert did to the entities table."""

    inserted: int
    updated: int
    unchanged: int
    deleted: int

    def as_dict(self) -> dict[str, int]:
        """Stats -> plain dict of counts."""
        return asdict(self)


def open_entities(db_dir: Path, create: bool = True) -> lancedb.table.Table:
    """LanceDB folder -> the entities table (created empty if asked)."""
    db = connect_db(db_dir)
    if create:
        return db.create_table(TABLE, schema=ENTITIES, exist_ok=True)
    try:
        return db.open_table(TABLE)
    except ValueError:
        raise OmoideError(f"no entities table in {db_dir}: run `omoide reflect` first") from None


def read_entities(table: lancedb.table.Table) -> pd.DataFrame:
    """Entities table -> all rows, most mentioned first."""
    frame = table.search().to_pandas()
    return frame.sort_values(["n_memories", "slug"], ascending=[False, True], ignore_index=True)


def upsert_entities(
    table: lancedb.table.Table, records: pa.Table, prune: bool = False
) -> EntityUpsertStats:
    """ENTITIES rows -> merged on slug, unchanged rows skipped; `prune` deletes slugs not given.

    Prune only after building rows from every memory: a window's rows would delete the rest.
    """
    records = records.cast(ENTITIES)
    slugs = records["slug"].to_pylist()
    stored = {r["slug"]: r for r in table.search().select(COMPARED).to_arrow().to_pylist()}
    changed = [
        i
        for i, row in enumerate(records.select(COMPARED).to_pylist())
        if stored.get(row["slug"]) != row
    ]
    inserted = sum(1 for i in changed if slugs[i] not in stored)
    if changed:
        merge = table.merge_insert("slug").when_matched_update_all()
        merge.when_not_matched_insert_all().execute(records.take(changed))
    deleted = 0
    gone = sorted(set(stored) - set(slugs)) if prune else []
    if gone:
        where = f"slug IN ({sql_list(gone)})"
        deleted = table.count_rows(where)
        table.delete(where)
    stats = EntityUpsertStats(inserted, len(changed) - inserted, len(slugs) - len(changed), deleted)
    log.info("entities: %s", stats)
    return stats
