"""`omoide bench mcp` on a small table: real model, real `omoide mcp` subprocess, real client."""

from __future__ import annotations

from omoide.bench.mcp import run_benchmark


def test_bench_mcp_reports_p50_per_size_against_the_in_process_recall() -> None:
    result = run_benchmark(sizes=(300,), n_queries=4, rounds=1)
    assert result["p50_ms"]["300"] > 0 and result["p95_ms"]["300"] >= result["p50_ms"]["300"]
    assert result["in_process_p50_ms"]["300"] > 0
    assert result["ratio_p50"]["300"] > 0
    assert result["samples_per_size"] == 4 and result["targets"] == {"p50_ms_at_100000": 50}
