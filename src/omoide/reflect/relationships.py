"""Relationship inference per entity: interactions, bond strength, type and confidence.

Follows the relationship inference of aigpt (syui/aigpt `src/core/relationship.rs`, its
"Layer 4" built on the Layer 3.5 integrated profile): the bond is a weighted mix of how
often the entity comes up (saturating count) and how important those memories are, and
the user's extraversion decides the mix: introverts weigh the count more and saturate
sooner (20 memories), extraverts weigh importance more and saturate later (50). Two
changes, both documented in the README: aigpt switches branch at extraversion 0.5 while
here the weights and saturation are interpolated linearly (a small change in a trait
score never jumps the bond), and the bond is multiplied by a recency factor (aigpt
reports days since last but does not use it), so an entity not seen for months fades
towards half its bond but never below. Types and thresholds are aigpt's.

Only a person has a relationship (omoide.reflect.people decides who is one): a place, a
project, an organisation, a bot and the user themself get NO_RELATIONSHIP, bond 0.

aigpt's types measure closeness only, so a colleague one works with every day would read as a
"friend". Where the records naming a person show the circle they come from
(omoide.reflect.circles: a work workspace or work words -> colleague; a kinship word ->
family), that circle is the type; the bond still says how close.

One figure everywhere: the reflection computes each bond once, at its `now` and with the
current Big Five, and stores it in the `entities` table beside the page it writes; the
entity page, `omoide entity`, the profile (page and command) and the MCP tools all show that
stored value (`stored_relationships`), so they cannot disagree. It moves when the next
reflection runs (every `omoide run`), not between two commands.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import pandas as pd

from omoide.core.kinds import NO_RELATIONSHIP
from omoide.reflect.circles import COLLEAGUE, FAMILY, circle_evidence, circle_of

if TYPE_CHECKING:
    from omoide.reflect.entities import Entity

# Relationship types, strongest first, and the thresholds that pick them (aigpt's).
CLOSE_FRIEND = "close_friend"
FRIEND = "friend"
VALUED_ACQUAINTANCE = "valued_acquaintance"
ACQUAINTANCE = "acquaintance"
REGULAR_CONTACT = "regular_contact"
DISTANT = "distant"
RELATIONSHIP_TYPES = (
    CLOSE_FRIEND,
    FRIEND,
    VALUED_ACQUAINTANCE,
    ACQUAINTANCE,
    REGULAR_CONTACT,
    DISTANT,
)
CLOSE_FRIEND_MIN_BOND = 0.8  # bond >= 0.8
FRIEND_MIN_BOND = 0.6  # 0.6 <= bond < 0.8
ACQUAINTANCE_MIN_BOND = 0.4  # 0.4 <= bond < 0.6: valued when average importance >= 0.6
VALUED_MIN_IMPORTANCE = 0.6
REGULAR_CONTACT_MIN_COUNT = 5  # bond < 0.4 but at least 5 interactions; else distant

# Bond strength: count weight and saturation at extraversion 0 (introvert) and 1 (extravert).
INTROVERT_COUNT_WEIGHT, EXTRAVERT_COUNT_WEIGHT = 0.6, 0.4
INTROVERT_SATURATION, EXTRAVERT_SATURATION = 20.0, 50.0
NEUTRAL_TRAIT = 0.5  # extraversion assumed when no Big Five score is given
# Recency: the bond halves its recency factor every 30 days, down to RECENCY_FLOOR.
RECENCY_HALF_LIFE_DAYS = 30.0
RECENCY_FLOOR = 0.5
# Confidence 1 - exp(-n / 5): 0.18 after one interaction, 0.63 after 5, 0.86 after 10; a
# smooth version of aigpt's table (0.2, 0.5, 0.8 at 1, 5, 10).
CONFIDENCE_SCALE = 5.0


@dataclass(frozen=True)
class Relationship:
    """The inferred relationship between the user and one entity."""

    slug: str
    interaction_count: int
    avg_importance: float
    days_since_last: float
    bond_strength: float
    relationship_type: str
    confidence: float

    def as_dict(self) -> dict[str, Any]:
        """Relationship -> JSON-ready dict."""
        return asdict(self)

    @property
    def is_person(self) -> bool:
        """-> is this a relationship with a person (not NO_RELATIONSHIP)?"""
        return self.relationship_type != NO_RELATIONSHIP


def _extraversion(traits: Mapping[str, float] | None) -> float:
    """Big Five scores (or None) -> extraversion in [0, 1] (neutral when missing or not finite)."""
    value = (traits or {}).get("extraversion", NEUTRAL_TRAIT)
    try:
        value = float(value)
    except (TypeError, ValueError):
        return NEUTRAL_TRAIT
    return min(max(value, 0.0), 1.0) if math.isfinite(value) else NEUTRAL_TRAIT


def recency_factor(days_since_last: float) -> float:
    """Days since the last interaction -> multiplier in [RECENCY_FLOOR, 1], 1 for today."""
    decay = 0.5 ** (max(days_since_last, 0.0) / RECENCY_HALF_LIFE_DAYS)
    return RECENCY_FLOOR + (1.0 - RECENCY_FLOOR) * decay


def bond_strength(
    interaction_count: int,
    avg_importance: float,
    days_since_last: float,
    traits: Mapping[str, float] | None = None,
) -> float:
    """Interactions, their average importance, recency (+ Big Five) -> bond strength in [0, 1]."""
    e = _extraversion(traits)
    weight = INTROVERT_COUNT_WEIGHT + (EXTRAVERT_COUNT_WEIGHT - INTROVERT_COUNT_WEIGHT) * e
    saturation = INTROVERT_SATURATION + (EXTRAVERT_SATURATION - INTROVERT_SATURATION) * e
    count = min(max(interaction_count, 0) / saturation, 1.0)
    importance = min(max(avg_importance, 0.0), 1.0)
    base = weight * count + (1.0 - weight) * importance
    return min(max(base * recency_factor(days_since_last), 0.0), 1.0)


def relationship_type(
    interaction_count: int, avg_importance: float, bond: float, circle: str = ""
) -> str:
    """Interactions, average importance, bond strength (+ the circle the evidence shows) -> one of RELATIONSHIP_TYPES, or the circle (colleague, family)."""
    if circle in (COLLEAGUE, FAMILY):
        return circle
    if bond >= CLOSE_FRIEND_MIN_BOND:
        return CLOSE_FRIEND
    if bond >= FRIEND_MIN_BOND:
        return FRIEND
    if bond >= ACQUAINTANCE_MIN_BOND:
        return VALUED_ACQUAINTANCE if avg_importance >= VALUED_MIN_IMPORTANCE else ACQUAINTANCE
    if interaction_count >= REGULAR_CONTACT_MIN_COUNT:
        return REGULAR_CONTACT
    return DISTANT


def evidence_confidence(interaction_count: int) -> float:
    """Number of interactions -> confidence in the inference, 1 - exp(-n/5), in [0, 1)."""
    return 1.0 - math.exp(-max(interaction_count, 0) / CONFIDENCE_SCALE)


def _days_since(last_seen: datetime, now: datetime) -> float:
    """Last time seen + now -> whole calendar days between them (UTC), never negative."""
    # Whole days: a re-run on the same day gives the same bond, to the byte.
    return float(max((now.astimezone(UTC).date() - last_seen.astimezone(UTC).date()).days, 0))


def infer_relationship(
    slug: str,
    importances: Sequence[float],
    last_seen: datetime,
    now: datetime,
    traits: Mapping[str, float] | None = None,
    circle: str = "",
) -> Relationship:
    """Entity slug, importance of each memory with it, last time seen, now (+ Big Five, the circle the evidence shows) -> Relationship."""
    n = len(importances)
    avg = float(sum(importances) / n) if n else 0.0
    days = _days_since(last_seen, now)
    bond = bond_strength(n, avg, days, traits)
    return Relationship(
        slug=slug,
        interaction_count=n,
        avg_importance=round(avg, 4),
        days_since_last=round(days, 2),
        bond_strength=round(bond, 4),
        relationship_type=relationship_type(n, avg, bond, circle),
        confidence=round(evidence_confidence(n), 4),
    )


def no_relationship(
    slug: str, importances: Sequence[float], last_seen: datetime, now: datetime
) -> Relationship:
    """An entity that is not a person + its memories' importance, last seen, now -> NO_RELATIONSHIP, bond 0."""
    n = len(importances)
    return Relationship(
        slug=slug,
        interaction_count=n,
        avg_importance=round(float(sum(importances) / n) if n else 0.0, 4),
        days_since_last=round(_days_since(last_seen, now), 2),
        bond_strength=0.0,
        relationship_type=NO_RELATIONSHIP,
        confidence=0.0,
    )


def relationships_for(
    entities: Sequence[Entity],
    memories: pd.DataFrame,
    now: datetime,
    traits: Mapping[str, float] | None = None,
    persons: Collection[str] = (),
) -> dict[str, Relationship]:
    """Entities + memory rows (memory_id, importance; content and source when the circle is to be read) + now (+ Big Five, the slugs of people) -> Relationship per slug.

    Only the entities whose slug is in `persons` get a bond; the others NO_RELATIONSHIP.
    """
    unique = memories.drop_duplicates("memory_id")
    importance = dict(zip(unique["memory_id"], unique["importance"].astype(float), strict=True))
    said = _said(unique)
    people = set(persons)
    out: dict[str, Relationship] = {}
    for ent in entities:
        values = [importance[m] for m in ent.memory_ids if m in importance]
        if ent.slug in people:
            names = (ent.name, *ent.aliases)
            texts = [said[m] for m in ent.memory_ids if m in said]
            circle = circle_of(circle_evidence(t, names, ref=ref) for t, ref in texts)
            out[ent.slug] = infer_relationship(ent.slug, values, ent.last_seen, now, traits, circle)
        else:
            out[ent.slug] = no_relationship(ent.slug, values, ent.last_seen, now)
    return out


def _said(rows: pd.DataFrame) -> dict[str, tuple[str, str]]:
    """Memory rows -> {memory_id: (content, source)} ({} when the rows carry no content)."""
    if "content" not in rows.columns:
        return {}
    sources = rows["source"] if "source" in rows.columns else pd.Series("", index=rows.index)
    return {
        str(m): (str(c), str(s) if isinstance(s, str) else "")
        for m, c, s in zip(rows["memory_id"], rows["content"], sources, strict=True)
    }


def stored_relationships(rows: pd.DataFrame) -> dict[str, Relationship]:
    """Rows of the `entities` table -> the Relationship each stores, by slug (the one figure shown)."""
    return {
        str(r["slug"]): Relationship(
            slug=str(r["slug"]),
            interaction_count=int(r["interaction_count"]),
            avg_importance=float(r["avg_importance"]),
            days_since_last=float(r["days_since_last"]),
            bond_strength=float(r["bond_strength"]),
            relationship_type=str(r["relationship_type"]),
            confidence=float(r["relationship_confidence"]),
        )
        for r in rows.to_dict("records")
    }
