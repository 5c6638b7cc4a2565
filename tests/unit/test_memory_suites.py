"""The GX gates on the summarize → embed edge (facts) and on the day's LanceDB rows (memories)."""

from __future__ import annotations

import pandas as pd
import pytest

from omoide import quality
from omoide.core import schemas
from omoide.ingest.sanitize import pii_residue

START, END = pd.Timestamp("2026-11-19T23:00Z"), pd.Timestamp("2026-11-20T23:00Z")


def _facts(**changes: object) -> pd.DataFrame:
    row = {
        "memory_id": "m1",
        "day": "2026-11-20",
        "ts": pd.Timestamp("2026-11-20T09:00Z"),
        "kind": "B",
        "entities": ["Mina"],
        "content": "Demoed the sync fix with Mina.",
        "confidence": 0.9,
        "importance": 0.5,
        "source": "vault/memory/2026-11-20.md#L40",
        "source_refs": ["n#L3"],
        "backend": "ollama:x",
        "recorded_at": START,
        "memory_type": "inferred",
    }
    df = schemas.conform(pd.DataFrame([{**row, **changes}]), schemas.FACTS)
    return df.assign(pii_residue=pii_residue(df.rename(columns={"content": "text"})))


def _failed(df: pd.DataFrame) -> set[str]:
    res = quality.validate(
        df, "facts", {"day_start": START.to_pydatetime(), "day_end": END.to_pydatetime()}
    )
    return {f"{f['expectation']}:{f.get('column')}" for f in quality.failures(res)}


def test_good_facts_pass():
    assert _failed(_facts()) == set()


@pytest.mark.parametrize(
    ("change", "expect"),
    [
        ({"kind": "X"}, "expect_column_values_to_be_in_set:kind"),
        ({"memory_type": "rumour"}, "expect_column_values_to_be_in_set:memory_type"),
        ({"memory_type": None}, "expect_column_values_to_not_be_null:memory_type"),
        ({"confidence": 1.5}, "expect_column_values_to_be_between:confidence"),
        ({"ts": pd.Timestamp("2026-11-22T09:00Z")}, "expect_column_values_to_be_between:ts"),
        (
            {"content": "mail me at aiko.tanaka@example.com"},
            "expect_column_values_to_not_match_regex:content",
        ),
        (
            {"content": "card 4111 1111 1111 1111 for the hotel"},
            "expect_column_values_to_be_in_set:pii_residue",
        ),
    ],
)
def test_bad_facts_fail_naming_the_expectation(change, expect):
    assert expect in _failed(_facts(**change))


def test_memories_suite_checks_dimension_model_and_norm():
    df = pd.DataFrame(
        {
            "memory_id": ["a", "b"],
            "embed_model": ["m", "other"],
            "recall_count": [0, 0],
            "vector_dim": [384, 383],
            "vector_norm": [1.0, 0.0],
        }
    )
    res = quality.validate(df, "memories", {"dim": 384, "embed_models": ["m"]})
    bad = {(f["expectation"], f.get("column")) for f in quality.failures(res)}
    assert ("expect_column_values_to_be_between", "vector_dim") in bad
    assert ("expect_column_values_to_be_in_set", "embed_model") in bad
    assert ("expect_column_values_to_be_between", "vector_norm") in bad
