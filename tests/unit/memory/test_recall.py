from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from omoide.core.errors import OmoideError
from omoide.memory.recall import Recalled, prefilter, recall
from tests.fakes import FakeEmbedder, rows_at, stored_memories

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)


rec = rows_at(NOW)


def store(tmp_path: Path, emb: FakeEmbedder, *rows: dict):
    return stored_memories(tmp_path / "db", emb, NOW, *rows)


def ids(results: list[Recalled]) -> list[str]:
    return [r.memory_id for r in results]


@pytest.fixture
def emb() -> FakeEmbedder:
    return FakeEmbedder()


@pytest.fixture
def diary(tmp_path: Path, emb: FakeEmbedder):
    return store(
        tmp_path,
        emb,
        rec("run", "Ran the Kyoto marathon with Alice", 2, entities=["Alice"]),
        rec("bob", "Bob said the marathon route changed", 40, kind="chat", entities=["Bob"]),
        rec("fact", "Alice prefers tea over coffee", 10, kind="W", entities=["Alice", "Tea"]),
        rec("docs", "Read the LanceDB indexing docs", 1, kind="B"),
        rec("plan", "Plan: buy new running shoes before the marathon", 5, kind="O"),
    )


def test_results_carry_citation_and_score_parts(diary, emb):
    (top,) = recall(diary, emb, "Kyoto marathon", NOW, k=1, rehearse=False)
    assert top.memory_id == "run"
    assert (top.kind, top.day, top.entities) == ("note", "2026-11-19", ["Alice"])
    assert top.source == "vault/memory/2026-11-19.md#L3" and top.source_refs == []
    assert datetime.fromisoformat(top.ts) == NOW - timedelta(days=2)
    p = top.parts
    product = p.relevance * p.recency * p.importance * p.confidence * p.strength
    assert math.isclose(top.score, product)
    assert math.isclose(p.relevance, 0.7 * p.lexical + 0.3 * p.semantic)
    assert math.isclose(p.decay, 1 / (1 + 0.05 * 2))
    assert (p.importance, p.confidence, p.strength) == (0.75, 1.0, 1.0)
    assert json.loads(json.dumps(top.to_json()))["parts"]["lexical"] == p.lexical


def test_prefilters_by_time_kind_and_entity(diary, emb):
    q = "marathon Alice tea docs"
    since = recall(diary, emb, q, NOW, since=NOW - timedelta(days=6), rehearse=False)
    assert set(ids(since)) == {"run", "docs", "plan"}
    until = recall(diary, emb, q, NOW, until=NOW - timedelta(days=5), rehearse=False)
    assert set(ids(until)) == {"bob", "fact"}  # until is exclusive: "plan" is exactly 5 days old
    window = recall(
        diary,
        emb,
        q,
        NOW,
        since=NOW - timedelta(days=11),
        until=NOW - timedelta(days=3),
        rehearse=False,
    )
    assert set(ids(window)) == {"fact", "plan"}
    kinds = recall(diary, emb, q, NOW, kinds=["chat", "W"], rehearse=False)
    assert set(ids(kinds)) == {"bob", "fact"}
    for name in ("alice", "@ALICE", " Alice "):
        assert set(ids(recall(diary, emb, q, NOW, entities=[name], rehearse=False))) == {
            "run",
            "fact",
        }
    anyof = recall(diary, emb, q, NOW, entities=["bob", "tea"], rehearse=False)
    assert set(ids(anyof)) == {"bob", "fact"}
    assert recall(diary, emb, q, NOW, entities=["O'Brien"], rehearse=False) == []
    with pytest.raises(OmoideError, match="unknown kind"):
        recall(diary, emb, q, NOW, kinds=["X"])


def test_prefilter_sql_quotes_user_text():
    where = prefilter(entities=["o'brien) OR true --"])
    assert where is not None and "'\x1fo''brien) or true --\x1f'" in where
    assert prefilter() is None
    with pytest.raises(OmoideError, match="timezone"):
        prefilter(since=datetime(2026, 1, 1))


def test_decay_puts_the_recent_of_two_equal_memories_first(tmp_path: Path, emb):
    table = store(
        tmp_path,
        emb,
        rec("old", "Dinner at the ramen place", 100),
        rec("new", "Dinner at the ramen place", 1),
        rec("older_better", "ramen ramen dinner ramen place list", 300),
    )
    ranked = recall(table, emb, "ramen place", NOW, rehearse=False)
    assert ids(ranked).index("new") < ids(ranked).index("old")
    by_id = {r.memory_id: r for r in ranked}
    assert by_id["new"].parts.relevance == by_id["old"].parts.relevance
    assert (
        by_id["new"].parts.recency
        > by_id["old"].parts.recency
        > by_id["older_better"].parts.recency
    )
    flat = recall(table, emb, "ramen place", NOW, decay_lambda=0.0, rehearse=False)
    # Without decay the equal pair ties (broken by id) and relevance alone orders the rest.
    assert all(r.parts.decay == 1.0 for r in flat)
    by_id = {r.memory_id: r for r in flat}
    assert by_id["old"].score == by_id["new"].score
    assert [r.parts.relevance for r in flat] == sorted(
        (r.parts.relevance for r in flat), reverse=True
    )
    assert ids(flat).index("new") < ids(flat).index("old")


def test_importance_and_confidence_are_mild_factors(tmp_path: Path, emb):
    table = store(
        tmp_path,
        emb,
        rec("low", "Bought a lamp", 2, importance=0.0, confidence=0.5),
        rec("high", "Bought a lamp", 1, importance=1.0, confidence=1.0),
    )
    # Another day each (the same words on one day would be one result); no decay between them.
    found = recall(table, emb, "lamp", NOW, rehearse=False, decay_lambda=0.0)
    low, high = sorted(found, key=lambda r: r.score)
    assert (low.memory_id, high.memory_id) == ("low", "high")
    assert math.isclose(low.score / high.score, 0.5 * 0.75)


def test_rehearsal_bumps_what_was_returned_unless_asked_not_to(diary, emb):
    version = diary.version
    recall(diary, emb, "Kyoto marathon", NOW, k=2, rehearse=False)
    assert diary.version == version
    got = ids(recall(diary, emb, "Kyoto marathon", NOW, k=2))
    rows = {r["memory_id"]: r for r in diary.to_arrow().to_pylist()}
    for mid, row in rows.items():
        assert row["recall_count"] == (1 if mid in got else 0)
        assert row["last_recalled_at"] == (NOW if mid in got else None)
    again = recall(diary, emb, "Kyoto marathon", NOW, k=1, rehearse=False)
    assert again[0].recall_count == 1
    assert again[0].parts.strength == pytest.approx(1 + 0.05 * math.log(2))


def test_token_budget_keeps_score_order_and_never_returns_nothing(tmp_path: Path, emb):
    long = "marathon " + "word " * 300
    table = store(
        tmp_path,
        emb,
        rec("a", "marathon marathon day one", 1, source="notes/a.md#L1"),
        rec("b", long, 1, importance=0.1, source="notes/b.md#L1"),
        rec("c", "marathon recovery", 2, source="notes/c.md#L1"),
    )
    everything = recall(table, emb, "marathon", NOW, rehearse=False)
    assert len(everything) == 3
    budget = recall(table, emb, "marathon", NOW, token_budget=20, rehearse=False)
    assert ids(budget) == [r.memory_id for r in everything if r.memory_id != "b"]
    tiny = recall(table, emb, "marathon", NOW, token_budget=1, rehearse=False)
    assert ids(tiny) == ids(everything)[:1]


@pytest.mark.parametrize(
    "query",
    [
        'Kyoto "marathon',
        "content:kyoto AND (marathon) OR",
        "kyoto) NOT (",
        "marathon* ~2 ^3 \\ ' ; --",
        "AND OR NOT",
        "",
        "?!",
    ],
)
def test_user_text_is_never_parsed_as_query_syntax(diary, emb, query: str):
    results = recall(diary, emb, query, NOW, rehearse=False)
    if "kyoto" in query.lower():
        assert ids(results)[0] == "run"


def test_lexical_match_found_when_its_vector_is_unrelated(tmp_path: Path):
    probe = FakeEmbedder()
    q = probe.embed(["zebra"])[0]
    emb = FakeEmbedder(pinned={"zebra": q, **{f"decoy {i}": q for i in range(5)}})
    # The one memory that says "zebra" gets the vector pointing away from the query.
    emb.pinned["the zebra crossing was repainted"] = -q
    rows = [rec(f"d{i}", f"decoy {i}") for i in range(5)]
    table = store(tmp_path, emb, *rows, rec("z", "the zebra crossing was repainted"))
    top = recall(table, emb, "zebra", NOW, k=1, rehearse=False)[0]
    assert top.memory_id == "z"
    assert (top.parts.lexical, top.parts.semantic) == (1.0, 0.0)


def test_semantic_match_found_without_shared_words(tmp_path: Path):
    emb = FakeEmbedder(aliases={"automobile": "vehicle", "repaired": "maintenance"})
    table = store(
        tmp_path,
        emb,
        rec("car", "automobile repaired"),
        rec("x", "Walked in the park"),
        rec("y", "Piano practice scales"),
    )
    top = recall(table, emb, "vehicle maintenance", NOW, k=1, rehearse=False)[0]
    assert top.memory_id == "car"
    assert (top.parts.lexical, top.parts.semantic) == (0.0, 1.0)


def test_weights_can_turn_one_retriever_off(diary, emb):
    dense = recall(diary, emb, "Kyoto marathon", NOW, w_lex=0.0, w_sem=1.0, rehearse=False)
    assert all(r.parts.relevance == r.parts.semantic for r in dense)
    lexical = recall(diary, emb, "Kyoto marathon", NOW, w_lex=1.0, w_sem=0.0, rehearse=False)
    assert ids(lexical)[0] == "run"
    assert all(r.parts.relevance == r.parts.lexical for r in lexical)


@pytest.mark.slow
def test_real_model_finds_a_paraphrase(tmp_path: Path):
    from omoide.embed.minilm import MiniLMEmbedder

    emb = MiniLMEmbedder()
    table = store(
        tmp_path,
        emb,
        rec("jog", "Went jogging along the river before breakfast"),
        rec("bill", "Paid the electricity bill"),
        rec("pasta", "Cooked pasta for dinner with Bob"),
    )
    top = recall(table, emb, "morning run", NOW, k=1, rehearse=False)[0]
    assert top.memory_id == "jog"
    assert top.parts.lexical == 0.0
    assert recall(table, emb, "electricity", NOW, k=1, rehearse=False)[0].memory_id == "bill"


def test_decay_does_not_bury_an_old_exact_match(tmp_path: Path, emb):
    table = store(
        tmp_path,
        emb,
        rec("spring", "Booked the pottery class in Mashiko for the spring", 200),
        rec("yesterday", "Walked past a shop", 1),
    )
    ranked = recall(table, emb, "pottery class Mashiko", NOW, rehearse=False)
    assert ids(ranked)[0] == "spring"
    assert ranked[0].parts.recency >= 1 - 0.3


def test_forgetting_fades_old_unimportant_memories_but_keeps_them(tmp_path: Path, emb):
    table = store(
        tmp_path,
        emb,
        rec("faded", "Dinner at the ramen place", 61, importance=0.0),
        rec("kept", "Dinner at the ramen place", 60, importance=1.0),
    )
    plain = recall(table, emb, "ramen place", NOW, rehearse=False, decay_lambda=0.0)
    assert plain[0].parts.strength == plain[1].parts.strength == 1.0
    faded = recall(
        table, emb, "ramen place", NOW, rehearse=False, decay_lambda=0.0, forgetting=True
    )
    by_id = {r.memory_id: r for r in faded}
    assert by_id["kept"].parts.strength > by_id["faded"].parts.strength >= 0.8
    assert ids(faded)[0] == "kept" and len(faded) == 2  # faded, not hidden
