"""`omoide bench mcp` on a small table: real model, real `omoide mcp` subprocess, real client."""

from __future__ import annotations

from pathlib import Path

from omoide.bench.mcp import run_benchmark


def test_bench_mcp_reports_p50_per_size_against_the_in_process_recall(tmp_path: Path) -> None:
    result = run_benchmark(sizes=(300,), n_queries=4, rounds=1, cache_dir=tmp_path)
    assert result["p50_ms"]["300"] > 0 and result["p95_ms"]["300"] >= result["p50_ms"]["300"]
    assert result["in_process_p50_ms"]["300"] > 0
    assert result["ratio_p50"]["300"] > 0
    assert result["build_s"]["300"] > 0  # built, not found in the cache
    assert result["samples_per_size"] == 4
    assert result["targets"] == {"p50_ms_at_100000": 25, "p50_ms_at_1000000": 100}


def test_built_homes_are_reused_until_their_key_changes(tmp_path: Path, monkeypatch) -> None:
    from omoide.bench import mcp
    from omoide.embed.minilm import MiniLMEmbedder

    embedder = MiniLMEmbedder()
    home, took = mcp.cached_home(tmp_path, 200, embedder)
    assert took is not None and (home / "lancedb").is_dir()
    # As a person's home, it holds facts replaced by later ones, which every recall reads.
    validity = mcp.load_validity(home / "lancedb")
    assert len(validity) > 3
    replaced = [v for v in validity.values() if v.superseded_by]
    assert len(replaced) == sum(1 for i in range(len(validity) - 1) if (i + 1) % mcp.CHAIN)
    assert all(v.superseded_by in validity for v in replaced)
    assert mcp.cached_home(tmp_path, 200, embedder) == (home, None)
    monkeypatch.setattr(mcp, "BUILD_FORMAT", mcp.BUILD_FORMAT + 1)  # a stale key: built anew
    again, took = mcp.cached_home(tmp_path, 200, embedder)
    assert again == home and took is not None
