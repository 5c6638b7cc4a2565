"""A name as typed + the memory and entities tables -> "tell me about X": summary, timeline, related.

The relationship shown is the one the last reflection stored in the `entities` table, the
same figure as the entity page, the profile and the MCP tools (see
omoide.reflect.relationships); it is computed here only for an entity no reflection has
stored yet, from the rows read (their speakers tell who is a person).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

import lancedb
import pandas as pd

from omoide.core import schemas
from omoide.core.errors import OmoideError
from omoide.core.quotes import short_quote
from omoide.memory.recall import prefilter
from omoide.reflect.entities import (
    collect_entities,
    entity_rows,
    entity_slug,
    key_facts,
    person_slugs,
    related_entities,
    resolve_slug,
    rows_by_id,
    summary_text,
)
from omoide.reflect.people import people_in
from omoide.reflect.relationships import Relationship, relationships_for, stored_relationships
from omoide.reflect.validity import now_and_was
from omoide.store.entities_table import read_entities
from omoide.store.validity_table import Validity


def _record(row: Mapping[str, Any]) -> dict[str, Any]:
    """Memory row -> JSON-ready timeline entry with its citation and a short quote to show."""
    ts = pd.Timestamp(row["ts"]).isoformat()
    keys = ("day", "kind", "content", "source", "memory_id")
    return {
        "ts": ts,
        **{k: row[k] for k in keys},
        "quote": short_quote(str(row["content"])),
        "importance": float(row["importance"]),
    }


def entity_report(
    name: str,
    memories: pd.DataFrame,
    now: datetime,
    known: Mapping[str, Iterable[str]] | None = None,
    traits: Mapping[str, float] | None = None,
    limit: int = 20,
    validity: Mapping[str, Validity] | None = None,
    stored: Relationship | None = None,
) -> dict[str, Any]:
    """Name as typed + memory rows (+ {slug: aliases} from the entities table, the facts' validities, its stored relationship) -> report dict.

    `memories` may be every row or only those naming the entity (and so its co-mentions);
    raises OmoideError when the name matches no entity or several. `facts` are its W facts
    that stand, `was` those a later fact replaced (latest change first). `relationship` is
    `stored` when given, else inferred from the rows; null when the entity is not a person.
    """
    entities = collect_entities(memories)
    found = {e.slug: e for e in entities}
    slug = resolve_slug(name, {e.slug: e.aliases for e in entities})
    if slug is None and known:
        wanted = resolve_slug(name, known)
        spellings = {entity_slug(a) for a in known.get(wanted, ())} if wanted else set()
        hits = [e.slug for e in entities if spellings & {entity_slug(a) for a in e.aliases}]
        slug = hits[0] if len(hits) == 1 else None
    if slug is None:
        raise OmoideError(f"no single entity matches {name!r} ({len(entities)} known)")
    ent = found[slug]
    rows = entity_rows(ent, rows_by_id(memories, [ent]))
    rel = stored
    if rel is None:
        persons = person_slugs(people_in(memories, (), ()), entities)
        rel = relationships_for([ent], memories, now, traits, persons)[slug]
    names = {e.slug: e.name for e in entities}
    related = related_entities(entities)[slug]
    return {
        "slug": ent.slug,
        "name": ent.name,
        "aliases": list(ent.aliases),
        "first_seen": ent.first_seen.isoformat(),
        "last_seen": ent.last_seen.isoformat(),
        "n_memories": ent.count,
        "kinds": list(ent.kinds),
        "summary": summary_text(ent, rel),
        "relationship": rel.as_dict() if rel.is_person else None,
        "key_facts": [
            _record(r)
            for r in key_facts(
                rows, replaced={m for m, v in (validity or {}).items() if v.superseded_by}
            )
        ],
        **_facts(rows, validity or {}),
        "timeline": [_record(r) for r in rows[max(len(rows) - limit, 0) :]],
        "related": [{"slug": s, "name": names[s], "shared": n} for s, n in related],
    }


def _facts(rows: Sequence[Mapping[str, Any]], validity: Mapping[str, Validity]) -> dict[str, Any]:
    """An entity's rows + validities -> {"facts": W facts that stand, "was": the replaced ones, latest first}."""
    now, was = now_and_was(rows, validity)
    return {
        "facts": [_record(r) for r in now],
        "was": [
            {
                **_record(old.row),
                "valid_to": pd.Timestamp(validity[old.row["memory_id"]].valid_to).isoformat(),
                "superseded_by": validity[old.row["memory_id"]].superseded_by,
                "until": old.until,  # the local day of the fact that replaced it
            }
            for old in was
        ],
    }


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
    validity: Mapping[str, Validity] | None = None,
) -> dict[str, Any]:
    """Entities and memories tables + name as typed (+ the facts' validities) -> `entity_report` dict (for `omoide entity`).

    Reads only the memories naming the entity: its aliases come from the entities table
    when it knows the name, else the name itself is matched. The relationship is the one
    that table stores for it (the figure every other place shows).
    """
    table = read_entities(entities) if entities.count_rows() else None
    known = known_aliases(table) if table is not None else {}
    slug = resolve_slug(name, known) if known else None
    names = known[slug] if slug else [name.strip().lstrip("@")]
    rows = entity_memory_rows(memories, names)
    mine = table[table["slug"] == slug] if table is not None and slug else None
    stored = stored_relationships(mine).get(slug) if mine is not None else None
    return entity_report(
        name,
        rows,
        now,
        known=known,
        traits=traits,
        limit=limit,
        validity=validity,
        stored=stored,
    )
