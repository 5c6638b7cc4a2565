"""Entity tags and authorship in recall: a tagged memory is found without the name in its
text, rare entities count more than common ones, and the user's own words beat browsing."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from omoide.memory.query_entities import entity_credits, entity_index, query_grams
from omoide.memory.recall import BROWSED, recall
from tests.fakes import FakeEmbedder, rows_at, stored_memories

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)
rec = rows_at(NOW)


def store(tmp_path: Path, emb: FakeEmbedder, *rows: dict):
    return stored_memories(tmp_path / "db", emb, NOW, *rows)


@pytest.fixture
def emb() -> FakeEmbedder:
    return FakeEmbedder()


def test_query_grams_are_word_ngrams_as_entity_keys():
    grams = query_grams("Where is @Peter's new team, Kumo Labs?")
    assert {"peter's", "kumo labs", "kumo", "labs", "new team"} <= set(grams)
    assert len(grams) == len(set(grams))
    assert query_grams("   ") == []


def test_rare_entities_are_credited_more_than_common_ones(tmp_path: Path, emb):
    rows = [rec(f"c{i}", f"chat line {i}", 1, kind="chat", entities=["Peter"]) for i in range(20)]
    rows.append(rec("k", "The ryokan is booked", 1, kind="W", entities=["Kyoto", "Peter"]))
    table = store(tmp_path, emb, *rows)
    credits = entity_credits(entity_index(table), query_grams("Peter in Kyoto"))
    # ln(21/1)/ln(21) = 1 for the entity on one memory; ln(21/21) = 0 for the one on all.
    assert credits["kyoto"] == pytest.approx(1.0)
    assert credits["peter"] == pytest.approx(0.0)
    assert "in" not in credits
    # One scan per table version: the same index until the table changes.
    assert entity_index(table) is entity_index(table)


def test_a_tagged_memory_is_found_without_the_name_in_its_text(tmp_path: Path, emb):
    # Importances as the pipeline gives them: a 10-minute session 0.34, a retained fact 0.9.
    decoys = [
        rec(
            f"s{i}",
            f"japan-guide.com (10 min): Kyoto travel guide page {i}",
            2,
            kind="session",
            importance=0.34,
        )
        for i in range(60)
    ]
    table = store(
        tmp_path,
        emb,
        *decoys,
        rec(
            "fact",
            "The ryokan in Higashiyama is booked for April",
            2,
            kind="W",
            entities=["Kyoto"],
            importance=0.9,
        ),
    )
    found = recall(table, emb, "where am I staying in Kyoto", NOW, k=3, rehearse=False)
    top = found[0]
    assert top.memory_id == "fact"
    assert top.parts.entity == pytest.approx(1.0) and top.parts.lexical == pytest.approx(1.0)
    assert top.parts.authorship == 1.0
    assert all(r.parts.authorship == BROWSED for r in found[1:])


def test_own_words_rank_above_browsing_at_equal_relevance(tmp_path: Path, emb):
    text = "Higashiyama ryokan booking for April"
    table = store(
        tmp_path,
        emb,
        rec("seen", text, 2, kind="session", importance=0.5),
        rec("mine", text, 3, kind="note", importance=0.5),
    )
    # Different days (same-day near-copies fold into one result); no decay, so only authorship differs.
    found = recall(table, emb, "Higashiyama ryokan", NOW, k=2, rehearse=False, decay_lambda=0.0)
    assert [r.memory_id for r in found] == ["mine", "seen"]
    assert found[1].score == pytest.approx(found[0].score * BROWSED)
