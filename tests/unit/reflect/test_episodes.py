"""Episodes: related memories cluster together and get labels naming what they are about."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from omoide.core.errors import LLMOutputError
from omoide.embed.minilm import MiniLMEmbedder
from omoide.llm.fence import FENCE
from omoide.reflect.episodes import EpisodeLabel, clusters, episodes, episodes_between, top_terms
from omoide.store.memories import open_memories, upsert_memories
from tests.fakes import FakeLLM

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)
TRIP = [
    "Booked the ryokan in Kyoto for the April trip.",
    "Peter recommends a quiet ryokan in Kyoto.",
    "Planning the April trip to Kyoto: temples and a ryokan.",
]
BUG = [
    "The warelay sync bug drops events after midnight.",
    "Mina and I paired on the warelay sync bug.",
    "Shipped the fix for the warelay midnight sync bug.",
]
LONER = ["Bought oat milk and bread."]


@pytest.fixture(scope="module")
def emb() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def frame(emb: MiniLMEmbedder) -> pd.DataFrame:
    texts = [*TRIP, *BUG, *LONER]
    # Interleaved in time, so clusters cannot come from order alone.
    order = [0, 3, 1, 4, 6, 2, 5]
    rows = [
        {
            "memory_id": f"m{i}",
            "day": "2026-11-18",
            "ts": NOW - timedelta(days=3) + timedelta(hours=order[i]),
            "kind": "note",
            "entities": ["Kyoto"] if "Kyoto" in t else (["warelay"] if "warelay" in t else []),
            "content": t,
            "confidence": 1.0,
            "importance": 0.5,
            "source": f"notes/2026-11-18.md#L{i + 1}",
            "source_refs": [f"notes/2026-11-18.md#L{i + 1}"],
            "backend": "user",
            "recorded_at": NOW,
        }
        for i, t in enumerate(texts)
    ]
    out = pd.DataFrame(rows)
    out["vector"] = list(emb.embed(texts))
    return out


def test_related_memories_form_labelled_episodes(emb):
    rows = frame(emb)
    found = episodes(rows)
    assert len(found) == 2  # the trip and the bug; the shopping note stands alone
    by_members = {frozenset(e.member_ids): e for e in found}
    trip = by_members[frozenset({"m0", "m1", "m2"})]
    bug = by_members[frozenset({"m3", "m4", "m5"})]
    assert "kyoto" in trip.terms and "ryokan" in trip.terms
    assert "warelay" in bug.terms and "sync" in bug.terms
    assert trip.label == ", ".join(trip.terms) and trip.labelled_by == "terms"
    assert trip.entities == ["Kyoto"] and bug.entities == ["warelay"]
    assert trip.size == 3 and trip.start <= trip.end
    # Members in time order, with their citations.
    ts = rows.set_index("memory_id").loc[trip.member_ids, "ts"]
    assert list(ts) == sorted(ts)
    assert trip.sources == [f"notes/2026-11-18.md#L{int(m[1:]) + 1}" for m in trip.member_ids]
    # Deterministic: same rows in another order, same episodes.
    again = episodes(rows.sample(frac=1.0, random_state=7))
    assert [e.to_json() for e in again] == [e.to_json() for e in found]


def titler(system: str, prompt: str, schema: type) -> EpisodeLabel:
    """A fake LLM's answer: a label from what the prompt is about."""
    assert schema is EpisodeLabel
    return EpisodeLabel(label="Kyoto  trip" if "Kyoto" in prompt else "Sync bug")


def test_llm_labels_and_falls_back_to_terms(emb):
    rows = frame(emb)
    llm = FakeLLM(titler, model="titler")
    labels = sorted(e.label for e in episodes(rows, llm=llm))
    assert labels == ["Kyoto trip", "Sync bug"]
    assert all(f"<{FENCE}>" in p for p in llm.user_prompts)
    failed = episodes(rows, llm=FakeLLM(LLMOutputError("not JSON")))
    assert all(e.labelled_by == "terms" and e.terms for e in failed)


def test_episodes_between_reads_the_table(tmp_path: Path, emb):
    rows = frame(emb)
    table = open_memories(tmp_path / "db", emb.model, emb.dim)
    upsert_memories(table, rows.drop(columns="vector"), emb, NOW)
    found = episodes_between(table, NOW - timedelta(days=7), NOW)
    assert sorted(len(e.member_ids) for e in found) == [3, 3]
    assert episodes_between(table, NOW - timedelta(days=1), NOW) == []


def test_edge_cases():
    assert clusters(np.ones((1, 4))).tolist() == [0]
    assert top_terms(["the and of", "12 34"]) == [[], []]
    assert episodes(pd.DataFrame()) == []
