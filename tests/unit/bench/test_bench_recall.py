from __future__ import annotations

import json

import numpy as np
import pytest

from omoide.bench.recall import HashEmbedder, run_benchmark, synthetic_memories, synthetic_queries
from omoide.store.memories import upsert_memories


def test_hash_embedder_is_deterministic_unit_length_and_word_sensitive():
    emb = HashEmbedder(dim=32)
    a = emb.embed(["Met Alice in Kyoto", "met alice in kyoto", "Piano lesson", ""])
    assert a.shape == (4, 32) and a.dtype == np.float32
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert np.allclose(a[0], a[1])
    assert np.allclose(
        a,
        HashEmbedder(dim=32).embed(
            ["Met Alice in Kyoto", "met alice in kyoto", "Piano lesson", ""]
        ),
    )
    near = emb.embed(["Met Alice in Osaka"])[0]
    assert a[0] @ near > a[0] @ a[2]


def test_synthetic_memories_fit_the_store(tmp_path):
    from omoide.store.memories import open_memories

    records = synthetic_memories(50)
    assert records["memory_id"].is_unique and len(records) == 50
    assert set(records["kind"]) <= {"note", "chat", "session", "W", "B", "O", "S", "digest"}
    emb = HashEmbedder(dim=16)
    table = open_memories(tmp_path / "db", emb.model, emb.dim)
    assert upsert_memories(table, records, emb, records["recorded_at"][0]).inserted == 50
    assert len(synthetic_queries(7)) == 7


@pytest.mark.slow
def test_run_benchmark_reports_every_figure():
    result = run_benchmark(sizes=(300,), real_sample=16, n_queries=4, rounds=1)
    json.dumps(result)
    ingest = result["ingest"]
    assert ingest["real_model"] == "all-MiniLM-L6-v2-int8" and ingest["real_n"] == 16
    for key in ("real_embed_per_s", "real_upsert_per_s", "bulk_300_per_s"):
        assert ingest[key] > 0
    stats = result["recall"]["300"]
    for key in (
        "p50_ms",
        "p95_ms",
        "bare_p50_ms",
        "ratio_p50",
        "filtered_p50_ms",
        "rehearse_p50_ms",
    ):
        assert stats[key] > 0
    assert stats["p95_ms"] >= stats["p50_ms"]
    assert stats["samples"] == 4
    assert stats["vector_index"] is False and stats["ann_recall_at_10"] == 1.0
