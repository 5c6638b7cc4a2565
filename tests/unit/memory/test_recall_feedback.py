"""Recall's second pass (pseudo-relevance feedback): the question's vector moved toward what the
first pass ranked best finds a memory worded like those results but not like the question, and
never moves the first result."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

import omoide.memory.recall as recall_module
from omoide.memory.recall import FEEDBACK_DOCS, recall
from tests.fakes import FakeEmbedder, rows_at, stored_memories

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)
rec = rows_at(NOW)
QUESTION = "what does Melanie do to destress"


def axis(i: int, dim: int = 16) -> np.ndarray:
    """Index -> the unit vector along that axis."""
    out = np.zeros(dim, dtype=np.float32)
    out[i] = 1.0
    return out


def own(memory_id: str, content: str) -> dict:
    """Id + content -> a note row citing a line of its own (so no two rows fold together)."""
    return rec(memory_id, content, 1, source=f"vault/memory/notes.md#L{memory_id}")


@pytest.fixture
def stored(tmp_path: Path):
    """Four notes on the question's topic that also speak of running, three loosely related
    decoys, and a note on running alone, worded unlike the question."""
    topical = [f"Melanie said pottery helps her destress {i}" for i in range(FEEDBACK_DOCS)]
    decoys = [f"decoy {i}" for i in range(3)]
    evidence = "I have been running farther lately, great for my headspace"
    pinned = {
        QUESTION: axis(0),
        evidence: axis(1),
        **{t: (axis(0) + axis(1)) / np.sqrt(2) for t in topical},
        # Closer to the question than the running note is (0.2 against 0), on axes of their own.
        **{d: 0.2 * axis(0) + 0.98 * axis(3 + i) for i, d in enumerate(decoys)},
    }
    emb = FakeEmbedder(pinned=pinned)
    rows = [own(f"t{i}", t) for i, t in enumerate(topical)]
    rows += [own(f"d{i}", d) for i, d in enumerate(decoys)]
    rows.append(own("run", evidence))
    return stored_memories(tmp_path / "db", emb, NOW, *rows), emb


def test_a_memory_worded_like_the_best_results_joins_them(stored, monkeypatch):
    table, emb = stored
    k = FEEDBACK_DOCS + 1
    found = [r.memory_id for r in recall(table, emb, QUESTION, NOW, k=k, rehearse=False)]
    assert "run" in found and not any(f.startswith("d") for f in found)
    monkeypatch.setattr(recall_module, "FEEDBACK_DOCS", 0)  # the first pass alone
    first = [r.memory_id for r in recall(table, emb, QUESTION, NOW, k=k, rehearse=False)]
    assert "run" not in first and "d0" in first


def test_the_first_result_is_the_first_pass_one(tmp_path: Path, monkeypatch):
    emb = FakeEmbedder()
    rng = np.random.default_rng(7)
    words = "kyoto ryokan booked train tickets pottery running museum sunset budget".split()
    rows = [own(f"m{i}", " ".join(rng.choice(words, size=4, replace=True))) for i in range(60)]
    table = stored_memories(tmp_path / "db", emb, NOW, *rows)
    for query in ("ryokan booked", "pottery museum", "sunset running budget", "train"):
        with_feedback = recall(table, emb, query, NOW, k=10, rehearse=False)
        monkeypatch.setattr(recall_module, "FEEDBACK_DOCS", 0)
        alone = recall(table, emb, query, NOW, k=10, rehearse=False)
        monkeypatch.undo()
        assert with_feedback[0].memory_id == alone[0].memory_id
        ids = [r.memory_id for r in with_feedback]
        assert len(ids) == len(set(ids)) == 10


def test_one_result_asked_for_is_the_first_pass_alone(stored, monkeypatch):
    table, emb = stored
    calls = []
    monkeypatch.setattr(recall_module, "_feedback_vector", lambda *a: calls.append(a) or a[1])
    assert [r.memory_id for r in recall(table, emb, QUESTION, NOW, k=1, rehearse=False)]
    assert calls == []


def test_a_question_across_events_is_pulled_half_as_far(stored, monkeypatch):
    table, emb = stored
    weights = []
    real = recall_module._feedback_vector

    def spy(table, vector, ranked, weight):
        weights.append(weight)
        return real(table, vector, ranked, weight)

    monkeypatch.setattr(recall_module, "_feedback_vector", spy)
    recall(table, emb, QUESTION, NOW, k=5, rehearse=False)
    recall(table, emb, "how many times did Melanie destress", NOW, k=5, rehearse=False)
    assert weights == [recall_module.FEEDBACK_WEIGHT, recall_module.FEEDBACK_ACROSS]
    assert recall_module.FEEDBACK_ACROSS < recall_module.FEEDBACK_WEIGHT
