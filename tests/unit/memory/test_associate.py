"""Associative recall: neighbours by same session/event, ±7 days with shared entities, similarity."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from omoide.core.errors import OmoideError
from omoide.memory.associate import NEARBY, SAME_SESSION, SIMILAR, around
from omoide.store.memories import open_memories, upsert_memories
from tests.fakes import FakeEmbedder

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)
AT = NOW - timedelta(days=10)
DIM = 8


def unit(*weights: float) -> np.ndarray:
    v = np.zeros(DIM, dtype=np.float32)
    v[: len(weights)] = weights
    return v / np.linalg.norm(v)


# memory_id: (days after the anchor, kind, entities, source_refs, vector)
MEMORIES = {
    "anchor": (0, "session", ["Peter"], ["aw#1", "aw#2"], unit(1)),
    "same-session": (0.01, "B", [], ["aw#2", "chat#9"], unit(0, 0, 1)),
    "nearby-peter": (3, "chat", ["peter"], ["chat#3"], unit(0, 0, 0, 1)),
    "far-peter": (-10, "note", ["Peter"], ["notes#1"], unit(1, 0, 0, 0, 1)),  # cos .71
    "twin": (9, "W", [], ["notes#7"], unit(1, 0.3)),  # cos .96, 9 days later
    "digest": (0, "digest", [], ["aw#1", "aw#2", "chat#3"], unit(0, 0, 0, 0, 0, 1)),
    "weak": (1, "note", ["Mina"], ["notes#2"], unit(1, 0, 0, 0, 0, 0, 2.29)),  # cos .4
}


@pytest.fixture
def table(tmp_path: Path):
    emb = FakeEmbedder(DIM, "pinned-8", pinned={mid: m[4] for mid, m in MEMORIES.items()})
    rows = []
    for mid, (days, kind, ents, refs, _) in MEMORIES.items():
        ts = AT + timedelta(days=days)
        rows.append(
            {
                "memory_id": mid,
                "day": ts.date().isoformat(),
                "ts": ts,
                "kind": kind,
                "entities": ents,
                "content": mid,
                "confidence": 1.0,
                "importance": 0.5,
                "source": f"src/{mid}#L1",
                "source_refs": refs,
                "backend": "collector",
                "recorded_at": NOW,
            }
        )
    t = open_memories(tmp_path / "db", emb.model, emb.dim)
    upsert_memories(t, pd.DataFrame(rows), emb, NOW + timedelta(days=30))
    return t


def test_neighbours_are_labelled_by_why(table):
    # As of 4 days after the anchor, with only the single most similar memory as "similar".
    found = {a.memory_id: a for a in around(table, "anchor", AT + timedelta(days=4), similar_n=1)}
    assert found["same-session"].reasons == [SAME_SESSION]
    assert found["nearby-peter"].reasons == [NEARBY]
    assert found["nearby-peter"].shared_entities == ["peter"]
    assert found["far-peter"].reasons == [SIMILAR]  # shares Peter, but 10 days earlier
    assert "twin" not in found  # the most similar, but after `now`
    assert "anchor" not in found
    assert "digest" not in found  # made from the whole day: not "same session"
    assert "weak" not in found  # no entity in common, not the most similar


def test_several_reasons_and_deterministic_order(table):
    found = around(table, "anchor", NOW)
    by_id = {a.memory_id: a for a in found}
    assert by_id["twin"].reasons == [SIMILAR]
    assert set(by_id["same-session"].reasons) == {SAME_SESSION, SIMILAR}
    assert set(by_id["nearby-peter"].reasons) == {NEARBY, SIMILAR}
    # score = cosine + 0.5·same session + 0.25·±7 days: a shared session lifts a memory
    # as dissimilar as the digest above the weakly similar note.
    order = ["twin", "far-peter", "same-session", "weak", "nearby-peter", "digest"]
    assert [a.memory_id for a in found] == order
    assert [a.memory_id for a in around(table, "anchor", NOW)] == [a.memory_id for a in found]
    assert by_id["twin"].similarity == pytest.approx(0.958, abs=1e-3)
    assert len(around(table, "anchor", NOW, k=2)) == 2


def test_items_are_json_ready(table):
    item = around(table, "anchor", NOW, k=1)[0].to_json()
    assert set(item) >= {"memory_id", "kind", "ts", "content", "source", "reasons", "score"}
    back = json.loads(json.dumps(item))
    assert back["source"] == f"src/{back['memory_id']}#L1"
    assert datetime.fromisoformat(back["ts"]).tzinfo is not None


def test_digest_anchor_has_no_same_session_neighbours(table):
    found = around(table, "digest", NOW)
    assert all(SAME_SESSION not in a.reasons for a in found)


def test_unknown_memory_is_an_error(table):
    with pytest.raises(OmoideError, match="no memory"):
        around(table, "nope", NOW)
