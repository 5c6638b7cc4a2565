from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from omoide.core.errors import LLMOutputError
from omoide.llm.fence import FENCE
from omoide.reflect.opinions import (
    CANDIDATE_MIN_SIM,
    ETA,
    MAX_STEP,
    RULE_MIN_SIM,
    Judgement,
    changes_markdown,
    has_negation,
    load_opinions,
    step,
    update_opinions,
    upsert_opinions,
)
from omoide.store.opinions_table import open_opinions
from omoide.vault.evidence import cited_memories
from omoide.vault.opinions_page import render_opinions, write_opinions_page
from tests.fakes import FakeLLM, memory_rows

T0 = datetime(2026, 11, 14, 9, tzinfo=UTC)
NOW = datetime(2026, 11, 22, 3, tzinfo=UTC)
STATEMENT = "Lance is the right store for warelay."


def vec(cos: float, side: int = 1) -> list[float]:
    """A unit vector whose cosine with e0 is `cos` (the rest on axis `side`)."""
    v = np.zeros(4, dtype=np.float32)
    v[0], v[side] = cos, math.sqrt(max(0.0, 1 - cos * cos))
    return v.tolist()


def fact(
    mid: str,
    hours: float,
    content: str = STATEMENT,
    kind: str = "O",
    c: float = 0.8,
    entities: tuple[str, ...] = ("warelay",),
    cos: float = 1.0,
    side: int = 1,
) -> dict[str, object]:
    ts = T0 + timedelta(hours=hours)
    return {
        "memory_id": mid,
        "day": ts.date().isoformat(),
        "ts": ts,
        "kind": kind,
        "entities": list(entities),
        "content": content,
        "confidence": c,
        "source": f"notes/{ts.date().isoformat()}.md#L{int(hours) + 3}",
        "vector": vec(cos, side),
    }


frame = memory_rows


def run(rows, opinions=(), now=NOW, llm=None):
    return update_opinions(list(opinions), frame(*rows), now, llm)


def judge(answers: dict[str, Judgement | Exception]) -> FakeLLM:
    """{fact text: answer} -> a fake judge answering by the NEW FACT in its prompt."""

    def answer(system: str, prompt: str, schema: type) -> Judgement | Exception:
        assert schema is Judgement
        new_fact = prompt.split("NEW FACT:")[1]
        found = [a for text, a in answers.items() if text in new_fact]
        return found[0] if found else Judgement(relation="unrelated", strength=0.0)

    return FakeLLM(answer, model="judge-1")


def test_o_fact_founds_an_opinion_with_its_confidence():
    (op,), changes = run([fact("m1", 0, c=0.62)])
    assert (op.statement, op.entities, op.confidence, op.origin_id) == (
        STATEMENT,
        ("warelay",),
        0.62,
        "m1",
    )
    assert op.history[0].reason == "stated" and op.history[0].confidence_after == 0.62
    assert op.supporting_ids == op.contradicting_ids == ()
    assert changes[0].before is None and changes[0].relation == "stated"


def test_support_raises_confidence_by_a_bounded_step_with_evidence():
    base, _ = run([fact("m1", 0, c=0.5)])
    (op,), changes = run([fact("m2", 5, kind="W", c=1.0)], base)
    assert op.confidence == pytest.approx(0.6)  # min(0.1, 0.2 * 1 * 0.5)
    assert op.supporting_ids == ("m2",) and op.contradicting_ids == ()
    assert op.last_updated == NOW
    h = op.history[-1]
    assert (h.memory_id, h.at, h.confidence_after) == ("m2", T0 + timedelta(hours=5), op.confidence)
    assert h.delta == pytest.approx(0.1) and "supported" in h.reason
    assert (changes[0].before, changes[0].after) == (0.5, op.confidence)


def test_contradiction_lowers_confidence_by_a_bounded_step_with_evidence():
    base, _ = run([fact("m1", 0, c=0.9)])
    negated = "Lance is not the right store for warelay."
    (op,), _ = run([fact("m2", 5, negated, kind="B", c=1.0, cos=0.92)], base)
    assert op.confidence == pytest.approx(0.8)  # -min(0.1, 0.2 * 0.92 * 0.9 = 0.166)
    assert op.contradicting_ids == ("m2",) and op.supporting_ids == ()
    assert op.history[-1].delta == pytest.approx(-0.1)


@pytest.mark.parametrize("c", [0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0])
@pytest.mark.parametrize("relation", ["supports", "contradicts"])
def test_one_piece_of_evidence_moves_at_most_the_cap(c, relation):
    delta = step(c, relation, 1.0)
    assert abs(delta) <= MAX_STEP
    assert (delta >= 0) if relation == "supports" else (delta <= 0)
    assert 0.0 <= c + delta <= 1.0


def test_a_large_jump_needs_repeated_strong_evidence():
    ops, _ = run([fact("m0", 0, c=0.5)])
    confidences = []
    for k in range(1, 12):
        ops, _ = run([fact(f"s{k:02d}", k, kind="W", c=1.0)], ops)
        confidences.append(ops[0].confidence)
    steps = np.diff([0.5, *confidences])
    assert (steps > 0).all() and (steps <= MAX_STEP + 1e-12).all()
    needed = next(i + 1 for i, c in enumerate(confidences) if c > 0.9)
    assert needed == 8  # 1 - 0.5 * (1 - ETA)^k > 0.9 first at k = 8
    assert len(ops[0].history) == 12 and len(ops[0].supporting_ids) == 11


def test_history_is_kept_and_consistent():
    negated = "Lance is not the right store for warelay."
    rows = [
        fact("m1", 0, c=0.6),
        fact("m2", 1, kind="W", c=1.0),
        fact("m3", 2, negated, kind="B", c=1.0, cos=0.9),
        fact("m4", 3, kind="O", c=0.9),
    ]
    (op,), changes = run(rows)
    assert [h.memory_id for h in op.history] == ["m1", "m2", "m3", "m4"]
    prev = op.history[0].confidence_after
    for h in op.history[1:]:
        assert h.confidence_after == pytest.approx(prev + h.delta)
        prev = h.confidence_after
    assert prev == op.confidence
    assert op.supporting_ids == ("m2", "m4") and op.contradicting_ids == ("m3",)
    assert [c.memory_id for c in changes] == ["m1", "m2", "m3", "m4"]


def test_reapplying_the_same_facts_changes_nothing():
    rows = [
        fact("m1", 0, c=0.6),
        fact("m2", 1, kind="W", c=1.0),
        fact("m3", 2, "Lance is not the right store for warelay.", kind="B", cos=0.9),
        fact("x1", 3, "Prefect retries are simple.", entities=("Prefect",), cos=0.0),
        fact("u1", 4, "warelay sync fix shipped", kind="B", cos=0.3),
    ]
    once, changes = run(rows)
    twice, again = run(rows, once, now=NOW + timedelta(days=7))
    assert twice == once and again == []
    # The same memory twice in one batch, or in two batches, counts once.
    dup, _ = run([*rows, rows[1]])
    assert dup == once
    first, _ = run(rows[:2])
    split, _ = run(rows, first)
    assert split[0].history == once[0].history


def test_only_facts_after_the_statement_count():
    ops, changes = run([fact("m2", 0, kind="W", c=1.0), fact("m1", 5, c=0.6)])
    assert [o.origin_id for o in ops] == ["m1"] and ops[0].confidence == 0.6
    assert len(changes) == 1


def test_rule_for_o_facts_follows_their_confidence_and_negation():
    negated = "Lance is not the right store for warelay."
    cases = {  # (content, c) -> relation recorded on the opinion
        (STATEMENT, 0.8): "supports",
        (STATEMENT, 0.5): "supports",  # neutral: recorded, delta 0
        (STATEMENT, 0.3): "contradicts",
        (negated, 0.8): "contradicts",
        (negated, 0.2): "supports",  # doubting the opposite
    }
    for (content, c), expected in cases.items():
        base, _ = run([fact("m1", 0, c=0.7)])
        (op,), (change,) = run([fact("m2", 1, content, c=c, cos=0.95)], base)
        assert change.relation == expected, (content, c)
        weight = 0.95 * abs(2 * c - 1)
        assert change.after - change.before == pytest.approx(step(0.7, expected, weight))
    assert has_negation("Lance isn’t right") and not has_negation("Lance is notable")


def test_rule_needs_same_entities_and_high_similarity():
    base, _ = run([fact("m1", 0, c=0.7)])
    below = fact("m2", 1, c=0.9, cos=RULE_MIN_SIM - 0.05)
    other = fact("m3", 2, c=0.9, entities=("warelay", "Mina"))
    w_below = fact("m4", 3, kind="W", c=1.0, cos=RULE_MIN_SIM - 0.05, side=2)
    ops, changes = run([below, other, w_below], base)
    # Unjudged O-facts found their own opinions; the W-fact is simply not evidence.
    assert [o.origin_id for o in ops] == ["m1", "m2", "m3"]
    assert ops[0].confidence == 0.7 and len(ops[0].history) == 1
    assert [c.relation for c in changes] == ["stated", "stated"]


def test_llm_judge_decides_between_similar_candidates():
    base, _ = run([fact("m1", 0, c=0.7)])
    llm = judge(
        {
            "Lance was too slow for warelay": Judgement(relation="contradicts", strength=0.5),
            "LanceDB is a good fit": Judgement(relation="supports", strength=0.8),
        }
    )
    rows = [
        fact("m2", 1, "Lance was too slow for warelay.", kind="B", c=1.0, cos=0.6),
        fact("m3", 2, "LanceDB is a good fit for warelay's storage.", kind="W", c=1.0, cos=0.67),
        fact("m4", 3, "The warelay demo went well.", kind="B", c=1.0, cos=0.5),
        fact("m5", 4, "Mina likes tea.", kind="W", entities=("Mina",), cos=0.9),
        fact("m6", 5, "warelay sync bug", kind="W", cos=CANDIDATE_MIN_SIM - 0.1),
    ]
    (op,), changes = run(rows, base, llm=llm)
    after_m2 = 0.7 - min(MAX_STEP, ETA * 0.5 * 0.7)
    assert changes[0].after == pytest.approx(after_m2)
    assert op.confidence == pytest.approx(after_m2 + min(MAX_STEP, ETA * 0.8 * (1 - after_m2)))
    assert op.contradicting_ids == ("m2",) and op.supporting_ids == ("m3",)
    assert "llm judge-1" in op.history[-1].reason
    # Only entity-sharing, similar facts reach the judge; texts are fenced as data.
    assert len(llm.prompts) == 3
    system, prompt, _ = llm.prompts[0]
    assert f"<{FENCE}>\nLance was too slow for warelay.\n</{FENCE}>" in prompt
    assert STATEMENT in prompt and "never follow" in system


def test_llm_o_fact_judged_unrelated_founds_its_own_opinion_and_bad_answers_fall_back():
    base, _ = run([fact("m1", 0, c=0.7)])
    llm = judge({"Lance is": LLMOutputError("not JSON")})
    ops, changes = run([fact("m2", 1, c=0.9), fact("m3", 2, "Other view.", cos=0.6)], base, llm=llm)
    assert "rule (llm answer unusable)" in ops[0].history[-1].reason  # m2 judged by the rule
    assert [o.origin_id for o in ops] == ["m1", "m3"]


def test_page_quotes_evidence_with_links_and_is_written_idempotently(tmp_path: Path):
    rows = [
        fact("m1", 0, c=0.6),
        fact("m2", 25, kind="W", c=1.0),
        fact("m3", 50, "Lance is not the right store for warelay.", kind="B", cos=0.9),
    ]
    ops, _ = run(rows)
    vault = tmp_path / "vault"
    memories = cited_memories(frame(*rows), home=tmp_path)
    text = render_opinions(ops, memories, vault / "bank")
    assert f"## {STATEMENT}" in text and "confidence **0.58**" in text
    # Day, quote and a link from vault/bank/ to the cited line; the id only in a comment.
    assert (
        f"- stated in: 2026-11-14 “{STATEMENT}” — [notes/2026-11-14.md, line 3]"
        "(../../notes/2026-11-14.md#L3) <!-- memory:m1 -->"
    ) in text
    assert "- supported by (1):\n  - 2026-11-15 “" in text
    assert "(../../notes/2026-11-15.md#L28) <!-- memory:m2 -->" in text
    assert (
        "- contradicted by (1):\n  - 2026-11-16 “Lance is not the right store for warelay.” — "
        "[notes/2026-11-16.md, line 53](../../notes/2026-11-16.md#L53) <!-- memory:m3 -->"
    ) in text
    assert "2026-11-15 +0.080 → 0.68" in text and "@warelay" in text
    assert "`m1`" not in text and "`m2`" not in text and "`m3`" not in text
    path, changed = write_opinions_page(vault, ops, memories)
    assert path == vault / "bank" / "opinions.md" and changed
    mtime = path.stat().st_mtime_ns
    assert write_opinions_page(vault, ops, memories) == (path, False)
    assert path.stat().st_mtime_ns == mtime and path.read_text(encoding="utf-8") == text
    # A memory no longer stored still leaves its id for tools.
    unknown = render_opinions(ops, {}, vault / "bank")
    assert "a memory no longer stored <!-- memory:m2 -->" in unknown


def test_changes_markdown_reads_like_a_changelog():
    base, first = run([fact("m1", 0, c=0.5)])
    _, moved = run([fact("m2", 1, kind="W", c=1.0)], base)
    md = changes_markdown([*first, *moved])
    assert "new at 0.50 (stated in `m1`)" in md
    assert "0.50 → 0.60 (+ supported by `m2`)" in md
    assert changes_markdown([]) == "No opinion changed."


def test_table_upsert_is_idempotent_and_round_trips(tmp_path: Path):
    rows = [fact("m1", 0, c=0.6), fact("m2", 1, kind="W", c=1.0), fact("p1", 2, entities=())]
    ops, _ = run(rows)
    table = open_opinions(tmp_path / "db")
    assert upsert_opinions(table, ops) == 2
    version = table.version
    assert upsert_opinions(open_opinions(tmp_path / "db"), ops) == 0
    assert table.version == version and table.count_rows() == 2
    loaded = load_opinions(table)
    assert loaded == ops
    more, _ = run([fact("m3", 3, kind="W", c=1.0)], loaded)
    assert upsert_opinions(table, more) == 1 and table.count_rows() == 2
    assert load_opinions(table)[0].history == more[0].history


@pytest.mark.slow
def test_rule_on_real_minilm_vectors():
    from omoide.embed.minilm import MiniLMEmbedder

    texts = [
        STATEMENT,
        STATEMENT,
        "Lance is not the right store for warelay.",
        "I shipped the warelay sync fix.",
    ]
    vectors = MiniLMEmbedder().embed(texts)
    rows = [fact(f"m{i}", i, t, kind="O" if i < 3 else "B") for i, t in enumerate(texts)]
    for row, v in zip(rows, vectors, strict=True):
        row["vector"] = v.tolist()
    (op,), _ = run(rows)
    assert op.supporting_ids == ("m1",) and op.contradicting_ids == ("m2",)
