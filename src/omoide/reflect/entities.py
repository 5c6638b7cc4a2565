"""Entities (people, projects, places) from memory rows: slugs, pages, and "tell me about X".

Names come from each memory row's `entities` list (@mentions, `## Retain` tags, chat
partners, LLM facts). A name's slug is python-slugify's: lower case, accents folded to
ASCII, non-Latin scripts transliterated, any run of other characters (space, `_`, `.`,
`@`) one hyphen; so `@Peter`, `peter`, `Péter` share `peter` and `Peter Schmidt`,
`Peter_Schmidt` share `peter-schmidt`. Beyond equal slugs exactly one merge is made: a
one-word name that looks like a person's (some spelling capitalised) joins the one
known multi-word name that starts with it, and only when that name is unique (`Peter`
joins `Peter Schmidt` unless a `Peter Müller` is known too).

What an entity's page says is decided here (`entity_views`: its rows, key facts, related
entities, relationship and summary); `omoide.vault.entity_pages` only renders and writes it.
Only an entity that is a person has a relationship: `people` (omoide.reflect.people) names
them, and each name is resolved to an entity as a typed name is (`resolve_slug`).
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations
from typing import Any

import pandas as pd
import pyarrow as pa
from slugify import slugify

from omoide.core.ids import stable_id
from omoide.core.kinds import DERIVED_KINDS, MEMORY_KINDS
from omoide.core.schemas import ENTITIES
from omoide.reflect.relationships import Relationship, relationships_for

log = logging.getLogger(__name__)

KEY_FACTS = 5  # facts in a page's summary, by importance x confidence


def entity_slug(name: str) -> str:
    """Entity name as written (`@Peter`, `Péter`, `Peter_Schmidt`) -> stable ASCII slug."""
    slug = slugify(name.strip().lstrip("@"))
    # Names made only of symbols or emoji slugify to nothing; a hash keeps them apart.
    return slug or "entity-" + stable_id("entity", name.strip())[:8]


def _clean(name: str) -> str:
    """Raw entity name -> the spelling kept (surrounding space and leading @ removed)."""
    return name.strip().lstrip("@").strip()


def _display(name: str) -> str:
    """Kept spelling -> how it reads; Retain lines write a space as `_` (`@Peter_Schmidt`)."""
    return " ".join(name.replace("_", " ").split())


def canonical_entities(names: Iterable[str]) -> dict[str, str]:
    """Names as written -> {name: canonical slug} (equal slugs, plus unambiguous first names)."""
    slugs = {n: entity_slug(n) for n in dict.fromkeys(names) if _clean(n)}
    personal = {s for n, s in slugs.items() if _display(_clean(n))[:1].isupper()}
    full = sorted({s for s in personal if "-" in s})
    merged: dict[str, str] = {}
    for slug in set(slugs.values()) & personal:
        matches = [f for f in full if f.startswith(slug + "-")]
        if "-" not in slug and len(matches) == 1:
            merged[slug] = matches[0]
    return {n: merged.get(s, s) for n, s in slugs.items()}


@dataclass(frozen=True)
class Entity:
    """One person, project or place and the memories that mention it."""

    slug: str
    name: str  # the most frequent spelling, read with `_` as space
    aliases: tuple[str, ...]  # every spelling seen, as stored (recall matches these)
    first_seen: datetime
    last_seen: datetime
    first_day: str  # the user's local days of first_seen and last_seen
    last_day: str
    memory_ids: tuple[str, ...]  # ordered by time
    count: int
    kinds: tuple[str, ...]


def _mentions(memories: pd.DataFrame) -> pd.DataFrame:
    """Memory rows -> one row per (memory, name): memory_id, ts, day, kind, raw, slug."""
    cols = memories[["memory_id", "ts", "kind", "entities"]]
    if "day" in memories.columns:
        cols = cols.assign(day=memories["day"])
    else:
        cols = cols.assign(day=pd.to_datetime(memories["ts"]).dt.strftime("%Y-%m-%d"))
    ex = cols.explode("entities").dropna(subset=["entities"])
    ex = ex.assign(raw=ex["entities"].astype(str).map(_clean))
    ex = ex[ex["raw"] != ""]
    ex = ex.assign(slug=ex["raw"].map(canonical_entities(ex["raw"].unique())))
    return ex.drop(columns="entities").sort_values(["ts", "memory_id"], kind="stable")


def _name(spellings: Counter[str], slug: str) -> str:
    """Spelling counts of one entity -> its display name (full-name spellings first)."""

    def rank(item: tuple[str, int]) -> tuple[bool, int, bool, str]:
        text, n = item
        return (entity_slug(text) == slug, n, text[:1].isupper(), text)

    shown: Counter[str] = Counter()
    for raw, n in spellings.items():
        shown[_display(raw)] += n
    return max(shown.items(), key=rank)[0]


def collect_entities(memories: pd.DataFrame) -> list[Entity]:
    """Memory rows (memory_id, ts, kind, entities) -> entities, most mentioned first."""
    if memories.empty:
        return []
    out = []
    for slug, group in _mentions(memories).groupby("slug", sort=False):
        ids = list(dict.fromkeys(group["memory_id"]))
        present = set(group["kind"])
        out.append(
            Entity(
                slug=str(slug),
                name=_name(Counter(group["raw"]), str(slug)),
                aliases=tuple(sorted(set(group["raw"]))),
                first_seen=pd.Timestamp(group["ts"].min()).to_pydatetime(),
                last_seen=pd.Timestamp(group["ts"].max()).to_pydatetime(),
                first_day=str(group["day"].iloc[0]),
                last_day=str(group["day"].iloc[-1]),
                memory_ids=tuple(ids),
                count=len(ids),
                kinds=tuple(k for k in MEMORY_KINDS if k in present),
            )
        )
    out.sort(key=lambda e: (-e.count, e.slug))
    log.info("entities: %d from %d memory rows", len(out), len(memories))
    return out


def related_entities(entities: Sequence[Entity]) -> dict[str, list[tuple[str, int]]]:
    """Entities -> {slug: [(co-mentioned slug, shared memories), ...]} most shared first."""
    by_memory: dict[str, list[str]] = defaultdict(list)
    for ent in entities:
        for mid in ent.memory_ids:
            by_memory[mid].append(ent.slug)
    pairs: Counter[tuple[str, str]] = Counter()
    for slugs in by_memory.values():
        for a, b in combinations(sorted(set(slugs)), 2):
            pairs[(a, b)] += 1
    out: dict[str, list[tuple[str, int]]] = {e.slug: [] for e in entities}
    for (a, b), n in pairs.items():
        out[a].append((b, n))
        out[b].append((a, n))
    return {s: sorted(v, key=lambda p: (-p[1], p[0])) for s, v in out.items()}


def resolve_slug(name: str, known: Mapping[str, Iterable[str]]) -> str | None:
    """Name as typed + {slug: aliases} -> the slug it means (slug, alias, unique first name)."""
    query = entity_slug(name)
    if query in known:
        return query
    hits = [s for s, aliases in known.items() if query in {entity_slug(a) for a in aliases}]
    if len(hits) != 1:
        hits = [s for s in known if s.startswith(query + "-")]
    return hits[0] if len(hits) == 1 else None


Row = dict[str, Any]
_ROW_COLUMNS = ["memory_id", "day", "ts", "kind", "content", "confidence", "importance", "source"]


def rows_by_id(memories: pd.DataFrame, entities: Sequence[Entity]) -> dict[str, Row]:
    """Memory rows + entities -> {memory_id: row} for the rows those entities name."""
    # Plain records once, then lookups: per-entity pandas filtering made 500 pages over
    # 100k rows take seconds.
    wanted = {m for e in entities for m in e.memory_ids}
    rows = memories[memories["memory_id"].isin(wanted)].drop_duplicates("memory_id")
    return {r["memory_id"]: r for r in rows[_ROW_COLUMNS].to_dict("records")}


def entity_rows(entity: Entity, by_id: Mapping[str, Row]) -> list[Row]:
    """Entity + {memory_id: row} -> its rows, oldest first (memory_ids are in order)."""
    return [by_id[m] for m in entity.memory_ids if m in by_id]


def key_facts(rows: Sequence[Row], k: int = KEY_FACTS, replaced: Collection[str] = ()) -> list[Row]:
    """An entity's rows (+ the ids of facts a later one replaced) -> its k most important facts/digests (importance x confidence), each text once, none replaced."""
    # A replaced fact ("works on the payments team" once "moved to the platform team") is
    # history, not what matters about them now.
    gone = set(replaced)
    facts = [r for r in rows if r["kind"] in DERIVED_KINDS and r["memory_id"] not in gone]
    # Newest first among equals; sorts are stable, so the secondary key goes first.
    facts.sort(key=lambda r: r["ts"], reverse=True)
    facts.sort(key=lambda r: float(r["importance"]) * float(r["confidence"]), reverse=True)
    out, said = [], set()
    for r in facts:
        text = " ".join(str(r["content"]).casefold().split())
        if text not in said:
            said.add(text)
            out.append(r)
    return out[:k]


def summary_text(entity: Entity, rel: Relationship | None = None) -> str:
    """Entity (+ relationship) -> a deterministic one-paragraph summary of its span and, for a person, the bond."""
    first, last = entity.first_day, entity.last_day
    span = f"on {first}" if first == last else f"from {first} to {last}"
    # The first and last memories are quoted in the timeline; ids are for tools, not for reading.
    text = f"{entity.name} appears in {entity.count} memories ({', '.join(entity.kinds)}) {span}."
    if rel is not None and rel.is_person:
        text += (
            f" Relationship: {rel.relationship_type} (bond {rel.bond_strength:.2f}, "
            f"confidence {rel.confidence:.2f}, average importance {rel.avg_importance:.2f})."
        )
    return text


@dataclass(frozen=True)
class EntityView:
    """Everything an entity's page and table row say: rows, key facts, related, relationship."""

    entity: Entity
    rows: tuple[Row, ...]  # oldest first
    key_facts: tuple[Row, ...]
    related: tuple[tuple[str, str, int], ...]  # (slug, name, shared memories), most shared first
    relationship: Relationship
    summary: str


def entities_on(memories: pd.DataFrame, days: Iterable[str]) -> set[str]:
    """Memory rows + local days -> slugs of the entities that memories of those days mention."""
    if memories.empty:
        return set()
    # Names are made canonical over all rows, as collect_entities does, so slugs agree.
    mentions = _mentions(memories)
    return set(mentions.loc[mentions["day"].isin(set(days)), "slug"])


def person_slugs(people: Iterable[str], entities: Sequence[Entity]) -> set[str]:
    """People's names + entities -> the slugs of the entities those names mean (as `resolve_slug`)."""
    slugs = {e.slug for e in entities}
    by_alias: dict[str, set[str]] = defaultdict(set)
    for ent in entities:
        for alias in ent.aliases:
            by_alias[entity_slug(alias)].add(ent.slug)
    found = set()
    for name in people:
        query = entity_slug(name)
        hits = [query] if query in slugs else sorted(by_alias.get(query, ()))
        if len(hits) != 1:
            hits = [s for s in slugs if s.startswith(query + "-")]
        if len(hits) == 1:
            found.add(hits[0])
    return found


def entity_views(
    entities: Sequence[Entity],
    memories: pd.DataFrame,
    now: datetime,
    traits: Mapping[str, float] | None = None,
    only: Collection[str] | None = None,
    people: Iterable[str] = (),
    replaced: Collection[str] = (),
) -> list[EntityView]:
    """Entities + memory rows + now (+ Big Five, the slugs wanted, the people's names, ids of replaced facts) -> what each entity's page and row say."""
    # Shared memories are counted over every entity, even when only some views are wanted.
    related = related_entities(entities)
    names = {e.slug: e.name for e in entities}
    shown = [e for e in entities if only is None or e.slug in only]
    rels = relationships_for(shown, memories, now, traits, person_slugs(people, entities))
    by_id = rows_by_id(memories, shown)
    views = []
    for ent in shown:
        rows = entity_rows(ent, by_id)
        views.append(
            EntityView(
                entity=ent,
                rows=tuple(rows),
                key_facts=tuple(key_facts(rows, replaced=replaced)),
                related=tuple((s, names.get(s, s), n) for s, n in related[ent.slug]),
                relationship=rels[ent.slug],
                summary=summary_text(ent, rels[ent.slug]),
            )
        )
    return views


def entity_records(views: Sequence[EntityView], now: datetime) -> pa.Table:
    """Entity views + now -> rows in the ENTITIES schema (the `entities` table's shape)."""
    rows = []
    for view in views:
        ent, rel = view.entity, view.relationship
        rows.append(
            {
                **{k: getattr(ent, k) for k in ("slug", "name", "first_seen", "last_seen")},
                "first_day": ent.first_day,
                "last_day": ent.last_day,
                "aliases": list(ent.aliases),
                "n_memories": ent.count,
                "memory_ids": list(ent.memory_ids),
                "kinds": list(ent.kinds),
                "summary": view.summary,
                "related": [s for s, _, _ in view.related],
                "related_counts": [n for _, _, n in view.related],
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
