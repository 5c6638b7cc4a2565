"""`omoide bench backfill --json`: the keys scripts read, and a warm re-run that asks no model."""

from __future__ import annotations

import json
from pathlib import Path

from tests.fakes import run_cli

KEYS = (
    "days",
    "cold_s",
    "warm_s",
    "force_s",
    "first30_per_day_s",
    "last30_per_day_s",
    "warm_llm_calls",
    "warm_embed_calls",
)


def test_bench_backfill_times_cold_warm_and_forced_runs(omoide_home: Path) -> None:
    # The lightest sample the command allows: the keys and the cache are what is tested here.
    r = run_cli(
        *("bench", "backfill", "--days", "2", "--volume", "0.25", "--json"),
        home=omoide_home,
        timeout=900,
    )
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    assert all(key in result for key in KEYS)
    assert result["days"] == 2 and result["window_days"] == 1
    assert result["cold_s"] > 0 and result["warm_s"] > 0 and result["force_s"] > 0
    # Unchanged days are served from the caches: no model is asked anything.
    assert result["warm_llm_calls"] == 0 and result["warm_embed_calls"] == 0
