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
"friend". Where the records naming a person show the circles they come from
(omoide.reflect.circles: a work workspace or work words -> colleague; a kinship word of the
user's -> family; meeting socially -> friend), those circles are the type, joined when there
are several ("friend, colleague": a colleague met for ramen and birthdays), each with the
memories that show it (`evidence`, cited on the entity page); the bond still says how close.
`person_relations` reads them back as sets ({"peter": {"colleague", "friend"}}), with
"other" for a person no circle names.

One figure everywhere: the reflection computes each bond once, at its `now` and with the
current Big Five, and stores it in the `entities` table beside the page it writes; the
entity page, `omoide entity`, the profile (page and command) and the MCP tools all show that
stored value (`stored_relationships`), so they cannot disagree. It moves when the next
reflection runs (every `omoide run`), not between two commands.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import pandas as pd

from omoide.core.kinds import NO_RELATIONSHIP
from omoide.reflect.circles import (
    CIRCLES,
    circle_evidence,
    circles_held,
)

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
EVIDENCE_PER_CIRCLE = 3  # memories cited for each circle on a page
OTHER = "other"  # a person whom no circle names, as `person_relations` reports them
# Own words first among a circle's evidence: a fact or note says it better than a chat turn.
_EVIDENCE_KIND_RANK = {"W": 0, "B": 1, "note": 2, "chat": 3}


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
    # (circle, memory ids that show it), the first circle first; empty when no circle is read.
    evidence: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def circles(self) -> tuple[str, ...]:
        """-> the circles the relationship is in (colleague, friend, family), from its type."""
        return circles_in(self.relationship_type)

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
    interaction_count: int, avg_importance: float, bond: float, circle: str | Sequence[str] = ""
) -> str:
    """Interactions, average importance, bond strength (+ the circles the evidence shows) -> one of RELATIONSHIP_TYPES, or the circles joined ("friend, colleague")."""
    circles = [circle] if isinstance(circle, str) else list(circle)
    circles = [c for c in circles if c]
    if circles:
        # A friend's closeness is still the bond's: a close friend stays one.
        close = CLOSE_FRIEND if bond >= CLOSE_FRIEND_MIN_BOND else FRIEND
        return ", ".join(close if c == FRIEND else c for c in circles)
    if bond >= CLOSE_FRIEND_MIN_BOND:
        return CLOSE_FRIEND
    if bond >= FRIEND_MIN_BOND:
        return FRIEND
    if bond >= ACQUAINTANCE_MIN_BOND:
        return VALUED_ACQUAINTANCE if avg_importance >= VALUED_MIN_IMPORTANCE else ACQUAINTANCE
    if interaction_count >= REGULAR_CONTACT_MIN_COUNT:
        return REGULAR_CONTACT
    return DISTANT


def circles_in(relationship_type: str) -> tuple[str, ...]:
    """A stored relationship type ("friend, colleague", "close_friend", "acquaintance") -> the circles it names."""
    out = []
    for part in relationship_type.split(","):
        part = part.strip()
        part = FRIEND if part == CLOSE_FRIEND else part
        if part in CIRCLES and part not in out:
            out.append(part)
    return tuple(out)


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
    circle: str | Sequence[str] = "",
    evidence: Sequence[tuple[str, Sequence[str]]] = (),
) -> Relationship:
    """Entity slug, importance of each memory with it, last time seen, now (+ Big Five, the circles the evidence shows and its memory ids) -> Relationship."""
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
        evidence=tuple((c, tuple(ids)) for c, ids in evidence),
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
    kinds = dict(zip(unique["memory_id"], unique["kind"], strict=True)) if "kind" in unique else {}
    people = set(persons)
    out: dict[str, Relationship] = {}
    for ent in entities:
        values = [importance[m] for m in ent.memory_ids if m in importance]
        if ent.slug in people:
            names = (ent.name, *ent.aliases)
            read = [
                (m, circle_evidence(said[m][0], names, ref=said[m][1]))
                for m in ent.memory_ids
                if m in said
            ]
            held = circles_held(c for _, c in read)
            shown = [(c, _cited(c, read, importance, kinds, said)) for c in held]
            out[ent.slug] = infer_relationship(
                ent.slug, values, ent.last_seen, now, traits, held, shown
            )
        else:
            out[ent.slug] = no_relationship(ent.slug, values, ent.last_seen, now)
    return out


def _words(text: str) -> frozenset[str]:
    """A record's text -> its words of three letters or more, case-folded (to tell a repeat)."""
    return frozenset(w.casefold() for w in re.findall(r"\w{3,}", text))


def _cited(
    circle: str,
    read: Sequence[tuple[str, str]],
    importance: Mapping[str, float],
    kinds: Mapping[str, str],
    said: Mapping[str, tuple[str, str]],
) -> list[str]:
    """A circle + (memory id, circle it shows) of a person's records -> the memory ids cited for it: own words and importance first, a repeated saying once."""
    ids = [m for m, c in read if c == circle]
    ids.sort(key=lambda m: (_EVIDENCE_KIND_RANK.get(kinds.get(m, ""), 9), -importance.get(m, 0.0)))
    out: list[str] = []
    seen: list[frozenset[str]] = []
    for m in ids:
        words = _words(said[m][0])
        # "works on the payments team" three times, or with "this sprint" added, is one saying.
        if any(words <= w or w <= words for w in seen):
            continue
        seen.append(words)
        out.append(m)
        if len(out) == EVIDENCE_PER_CIRCLE:
            break
    return out


def person_relations(rows: pd.DataFrame) -> dict[str, set[str]]:
    """Rows of the `entities` table -> {slug: relations} for each person: colleague, friend, family, or {"other"}."""
    out: dict[str, set[str]] = {}
    for slug, kind in zip(rows["slug"], rows["relationship_type"], strict=True):
        if kind == NO_RELATIONSHIP:
            continue
        out[str(slug)] = set(circles_in(str(kind))) or {OTHER}
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
