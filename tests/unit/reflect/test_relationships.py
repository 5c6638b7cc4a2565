from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pandas as pd
import pytest

from omoide.reflect import relationships as r
from omoide.reflect.entities import collect_entities
from omoide.reflect.relationships import (
    bond_strength,
    evidence_confidence,
    infer_relationship,
    recency_factor,
    relationship_type,
    relationships_for,
)

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("count", "importance", "bond", "expected"),
    [
        (20, 0.9, r.CLOSE_FRIEND_MIN_BOND, r.CLOSE_FRIEND),
        (20, 0.9, 1.0, r.CLOSE_FRIEND),
        (20, 0.9, r.CLOSE_FRIEND_MIN_BOND - 1e-9, r.FRIEND),
        (10, 0.5, r.FRIEND_MIN_BOND, r.FRIEND),
        (10, 0.5, r.FRIEND_MIN_BOND - 1e-9, r.ACQUAINTANCE),
        (10, r.VALUED_MIN_IMPORTANCE, r.ACQUAINTANCE_MIN_BOND, r.VALUED_ACQUAINTANCE),
        (10, r.VALUED_MIN_IMPORTANCE - 1e-9, r.ACQUAINTANCE_MIN_BOND, r.ACQUAINTANCE),
        (r.REGULAR_CONTACT_MIN_COUNT, 0.9, r.ACQUAINTANCE_MIN_BOND - 1e-9, r.REGULAR_CONTACT),
        (r.REGULAR_CONTACT_MIN_COUNT - 1, 0.9, r.ACQUAINTANCE_MIN_BOND - 1e-9, r.DISTANT),
        (0, 0.0, 0.0, r.DISTANT),
    ],
)
def test_relationship_types_follow_the_thresholds(count, importance, bond, expected):
    assert relationship_type(count, importance, bond) == expected
    assert expected in r.RELATIONSHIP_TYPES


def test_thresholds_are_ordered():
    assert 1 >= r.CLOSE_FRIEND_MIN_BOND > r.FRIEND_MIN_BOND > r.ACQUAINTANCE_MIN_BOND > 0


def test_confidence_grows_with_evidence():
    values = [evidence_confidence(n) for n in range(0, 40)]
    assert values[0] == 0.0
    assert all(b > a for a, b in zip(values, values[1:], strict=False))
    assert all(0 <= v < 1 for v in values)
    assert evidence_confidence(5) == pytest.approx(1 - math.exp(-1))
    # close to aigpt's table: 0.2 at one interaction, 0.5 at five, 0.8 at ten
    assert 0.1 < evidence_confidence(1) < 0.3
    assert 0.5 <= evidence_confidence(5) < 0.7
    assert evidence_confidence(10) >= 0.8


def test_bond_is_monotone_in_count_and_recency():
    by_count = [bond_strength(n, 0.5, 3.0) for n in range(0, 60)]
    assert all(b >= a for a, b in zip(by_count, by_count[1:], strict=False))
    assert by_count[10] > by_count[1]
    by_age = [bond_strength(10, 0.5, d) for d in range(0, 400, 5)]
    assert all(b <= a for a, b in zip(by_age, by_age[1:], strict=False))
    assert by_age[0] > by_age[-1]


def test_recency_fades_to_the_floor_and_no_further():
    assert recency_factor(0) == 1.0
    assert recency_factor(r.RECENCY_HALF_LIFE_DAYS) == pytest.approx(0.75)
    assert recency_factor(10_000) == pytest.approx(r.RECENCY_FLOOR)
    assert recency_factor(-3) == 1.0  # a timestamp after `now` counts as today


def test_traits_modifier_is_bounded():
    extremes = [
        None,
        {},
        {"extraversion": 0.0},
        {"extraversion": 1.0},
        {"extraversion": 7.0},
        {"extraversion": -3.0},
        {"extraversion": float("nan")},
        {"agreeableness": 1.0},
    ]
    for traits in extremes:
        for n in (0, 1, 5, 20, 50, 500):
            for imp in (0.0, 0.5, 1.0, 3.0):
                for days in (0.0, 30.0, 1000.0):
                    assert 0.0 <= bond_strength(n, imp, days, traits) <= 1.0
    # Out-of-range scores are clipped, missing or broken ones are neutral.
    assert bond_strength(20, 0.5, 0, {"extraversion": 7.0}) == bond_strength(
        20, 0.5, 0, {"extraversion": 1.0}
    )
    assert bond_strength(20, 0.5, 0, {"extraversion": float("nan")}) == bond_strength(20, 0.5, 0)
    assert bond_strength(20, 0.5, 0, {"extraversion": r.NEUTRAL_TRAIT}) == bond_strength(20, 0.5, 0)


def test_introverts_weigh_count_extraverts_weigh_importance():
    # aigpt: an introvert's many ordinary interactions make a strong bond ...
    introvert = bond_strength(20, 0.3, 0, {"extraversion": 0.0})
    extravert = bond_strength(20, 0.3, 0, {"extraversion": 1.0})
    assert introvert == pytest.approx(0.6 * 1.0 + 0.4 * 0.3)
    assert extravert == pytest.approx(0.4 * 20 / 50 + 0.6 * 0.3)
    assert introvert > extravert
    # ... while an extravert's few important ones count for more.
    assert bond_strength(2, 0.95, 0, {"extraversion": 1.0}) > bond_strength(
        2, 0.95, 0, {"extraversion": 0.0}
    )


def test_infer_relationship_reads_counts_importance_and_recency():
    last = NOW - timedelta(days=3)
    rel = infer_relationship("peter", [0.9, 0.8, 0.7, 0.9, 0.8, 0.9], last, NOW)
    assert rel.interaction_count == 6
    assert rel.avg_importance == pytest.approx(0.8333, abs=1e-4)
    assert rel.days_since_last == pytest.approx(3.0)
    assert rel.relationship_type == relationship_type(6, 0.8333, rel.bond_strength)
    assert rel.confidence == pytest.approx(evidence_confidence(6), abs=1e-4)
    none = infer_relationship("ghost", [], last, NOW)
    assert (none.bond_strength, none.relationship_type, none.confidence) == (0.0, r.DISTANT, 0.0)


def test_relationships_for_entities_of_a_frame():
    rows = []
    for i in range(25):
        rows.append(
            {
                "memory_id": f"p{i}",
                "ts": NOW - timedelta(days=1, hours=i),
                "kind": "chat",
                "entities": ["Peter"],
                "importance": 0.9,
            }
        )
    rows.append(
        {
            "memory_id": "m0",
            "ts": NOW - timedelta(days=200),
            "kind": "note",
            "entities": ["Mina"],
            "importance": 0.2,
        }
    )
    frame = pd.DataFrame(rows)
    rels = relationships_for(
        collect_entities(frame), frame, NOW, {"extraversion": 0.2}, persons={"peter", "mina"}
    )
    assert rels["peter"].interaction_count == 25
    assert rels["peter"].relationship_type == r.CLOSE_FRIEND
    assert rels["mina"].relationship_type == r.DISTANT
    assert rels["peter"].confidence > rels["mina"].confidence
    assert rels["mina"].days_since_last == pytest.approx(200.0)
