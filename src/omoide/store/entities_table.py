"""The LanceDB `entities` table: one row per entity with its summary and relationship.

Rows are derived from the memories table (so `omoide reindex` can rebuild them) and are
upserted with `merge_insert` on slug; a row whose values are unchanged (apart from when
it was computed) is not written again, so re-running reflect creates no new versions.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import lancedb
import pandas as pd
import pyarrow as pa

from omoide.core import schemas
from omoide.core.errors import OmoideError
from omoide.memory.recall import prefilter
from omoide.reflect.entities import (
    Entity,
    entity_report,
    related_entities,
    resolve_slug,
    summary_text,
)
from omoide.reflect.relationships import relationships_for
from omoide.store.memories import sql_list

log = logging.getLogger(__name__)

TABLE = "entities"
ENTITIES = pa.schema(
    [
        pa.field("slug", pa.string(), nullable=False),
        pa.field("name", pa.string(), nullable=False),
        pa.field("aliases", pa.list_(pa.string())),  # spellings as stored in memories
        pa.field("first_seen", schemas.TS, nullable=False),
        pa.field("last_seen", schemas.TS, nullable=False),
        pa.field("first_day", pa.string(), nullable=False),
        pa.field("last_day", pa.string(), nullable=False),
        pa.field("n_memories", pa.int64(), nullable=False),
        pa.field("memory_ids", pa.list_(pa.string())),
        pa.field("kinds", pa.list_(pa.string())),
        pa.field("summary", pa.string(), nullable=False),
        pa.field("related", pa.list_(pa.string())),  # co-mentioned slugs, most shared first
        pa.field("related_counts", pa.list_(pa.int64())),  # shared memories, same order
        pa.field("interaction_count", pa.int64(), nullable=False),
        pa.field("avg_importance", pa.float64(), nullable=False),
        pa.field("days_since_last", pa.float64(), nullable=False),
        pa.field("bond_strength", pa.float64(), nullable=False),
        pa.field("relationship_type", pa.string(), nullable=False),
        pa.field("relationship_confidence", pa.float64(), nullable=False),
        pa.field("computed_at", schemas.TS, nullable=False),
    ]
)
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


def entity_records(
    entities: Sequence[Entity],
    memories: pd.DataFrame,
    now: datetime,
    traits: Mapping[str, float] | None = None,
) -> pa.Table:
    """Entities + memory rows + now (+ Big Five) -> rows in the ENTITIES schema."""
    related = related_entities(entities)
    rels = relationships_for(entities, memories, now, traits)
    rows = []
    for ent in entities:
        rel = rels[ent.slug]
        rows.append(
            {
                **{k: getattr(ent, k) for k in ("slug", "name", "first_seen", "last_seen")},
                "first_day": ent.first_day,
                "last_day": ent.last_day,
                "aliases": list(ent.aliases),
                "n_memories": ent.count,
                "memory_ids": list(ent.memory_ids),
                "kinds": list(ent.kinds),
                "summary": summary_text(ent, rel),
                "related": [s for s, _ in related[ent.slug]],
                "related_counts": [n for _, n in related[ent.slug]],
                "interaction_count": rel.interaction_count,
                "avg_importance": rel.avg_importance,
                "days_since_last": rel.days_since_last,
                "bond_strength": rel.bond_strength,
                "relationship_type": rel.relationship_type,
                "relationship_confidence": rel.confidence,
                "computed_at": now,
            }
        )
    return pa.Table.from_pylist(rows, schema=ENTITIES)


def open_entities(db_dir: Path, create: bool = True) -> lancedb.table.Table:
    """LanceDB folder -> the entities table (created empty if asked)."""
    db = lancedb.connect(db_dir)
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


def known_aliases(entities: pd.DataFrame) -> dict[str, list[str]]:
    """Rows of the entities table -> {slug: spellings} for resolving names."""
    return {
        str(s): [str(a) for a in (aliases if aliases is not None else [])]
        for s, aliases in zip(entities["slug"], entities["aliases"], strict=True)
    }


def entity_memory_rows(memories: lancedb.table.Table, names: Iterable[str]) -> pd.DataFrame:
    """Memories table + spellings of one entity -> the memory rows naming it (no vectors)."""
    where = prefilter(entities=list(names))
    if where is None:
        return schemas.empty(schemas.FACTS)
    return memories.search().where(where).select(schemas.FACTS.names).to_pandas()


def entity_report_from_store(
    entities: lancedb.table.Table,
    memories: lancedb.table.Table,
    name: str,
    now: datetime,
    traits: Mapping[str, float] | None = None,
    limit: int = 20,
) -> dict[str, Any]:
    """Entities and memories tables + name as typed -> `entity_report` dict (for `omoide entity`).

    Reads only the memories naming the entity: its aliases come from the entities table
    when it knows the name, else the name itself is matched.
    """
    known = known_aliases(read_entities(entities)) if entities.count_rows() else {}
    slug = resolve_slug(name, known) if known else None
    names = known[slug] if slug else [name.strip().lstrip("@")]
    rows = entity_memory_rows(memories, names)
    return entity_report(name, rows, now, known=known, traits=traits, limit=limit)
