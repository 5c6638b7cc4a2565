"""Backfill benchmark: a long sample history backfilled cold, warm and forced, each as a user runs it.

What is timed, each an `omoide backfill` process on a home of its own (what a person pays):
- cold: the history backfilled in three runs — its first W days, the middle, its last W
  days (W = 30, or half the history when shorter) — so the cost per day of the first and
  the last days shows whether a day costs more once much history is stored;
- warm: the whole range again, unchanged (it should be served from the caches: its LLM
  and embedding calls are counted from the runs' own figures);
- force: the whole range again with `--force` (everything recomputed).
The baseline is the same run's cold backfill: warm and force are given as ratios of it,
and the last days' cost as a ratio of the first days'.

`run_dask_benchmark` times the same cold backfill of a history (30 days by default) twice on
two fresh homes, once as is and once with `--dask` (a local cluster), and gives the speed-up.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from omoide.core.errors import OmoideError

_OMOIDE = "from omoide.cli.app import main; main()"
TARGETS = {"cold_s_per_365_days": 1200, "warm_vs_cold": 0.05, "warm_s": 60, "last_vs_first": 1.2}


def _omoide(home: Path, *args: str, **extra_env: str) -> tuple[float, str]:
    """Home + arguments (+ environment variables) -> (seconds, stdout) of one `omoide` process; raises when it fails."""
    env = {**os.environ, "OMOIDE_HOME": str(home), **extra_env}
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _OMOIDE, *args], env=env, capture_output=True, text=True, check=False
    )
    took = time.perf_counter() - began
    if done.returncode != 0:
        raise OmoideError(f"omoide {' '.join(args)} failed: {done.stderr.strip()[-600:]}")
    return took, done.stdout


def _backfill(
    home: Path, first: date, last: date, *extra: str, **extra_env: str
) -> tuple[float, dict[str, Any]]:
    """Home + day range (+ flags, environment) -> (seconds, per-day figures) of `omoide backfill --json`."""
    took, out = _omoide(
        home, "backfill", "--start", str(first), "--end", str(last), "--json", *extra, **extra_env
    )
    return took, json.loads(out)


def _calls(results: dict[str, Any]) -> tuple[int, int]:
    """Per-day figures -> (LLM calls, embedded texts) the run made."""
    return (
        sum(r.get("llm_calls", 0) for r in results.values()),
        sum(r.get("embedded", 0) for r in results.values()),
    )


def run_benchmark(
    days: int = 365, end: date = date(2026, 11, 20), volume: float = 1.0
) -> dict[str, Any]:
    """History length in days (+ last day, activity volume) -> timings of cold, warm and forced backfills."""
    if days < 2:
        raise OmoideError(f"days must be at least 2, got {days}")
    window = min(30, days // 2)
    first = end - timedelta(days=days - 1)
    head_end, tail_start = first + timedelta(days=window - 1), end - timedelta(days=window - 1)
    with tempfile.TemporaryDirectory(prefix="omoide-bench-backfill-") as scratch:
        home = Path(scratch) / "home"
        sample_s, _ = _omoide(
            home,
            *("sample", "--days", str(days), "--end", str(end), "--out", str(home)),
            *("--volume", str(volume)),
        )
        head_s, _ = _backfill(home, first, head_end)
        middle_s = 0.0
        if head_end + timedelta(days=1) < tail_start:
            middle_s, _ = _backfill(
                home, head_end + timedelta(days=1), tail_start - timedelta(days=1)
            )
        tail_s, _ = _backfill(home, tail_start, end)
        cold_s = head_s + middle_s + tail_s
        warm_s, warm = _backfill(home, first, end)
        force_s, _ = _backfill(home, first, end, "--force")
    warm_llm, warm_embed = _calls(warm)
    first_per_day, last_per_day = head_s / window, tail_s / window
    return {
        "days": days,
        "volume": volume,
        "window_days": window,
        "sample_s": round(sample_s, 1),
        "cold_s": round(cold_s, 1),
        "cold_per_day_s": round(cold_s / days, 2),
        "warm_s": round(warm_s, 1),
        "force_s": round(force_s, 1),
        "first30_per_day_s": round(first_per_day, 2),
        "last30_per_day_s": round(last_per_day, 2),
        "warm_vs_cold": round(warm_s / cold_s, 3),
        "force_vs_cold": round(force_s / cold_s, 3),
        "last_vs_first": round(last_per_day / first_per_day, 2),
        "cold_s_per_365_days": round(cold_s / days * 365, 0),
        "warm_llm_calls": warm_llm,
        "warm_embed_calls": warm_embed,
        "targets": TARGETS,
    }


def run_dask_benchmark(
    days: int = 30, end: date = date(2026, 11, 20), volume: float = 1.0, workers: int = 2
) -> dict[str, Any]:
    """History length (+ last day, volume, Dask workers) -> cold backfill seconds without and with `--dask`, and the speed-up."""
    first = end - timedelta(days=days - 1)
    timings: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="omoide-bench-dask-") as scratch:
        for mode, extra in (("sequential", ()), ("dask", ("--dask",))):
            home = Path(scratch) / mode
            _omoide(
                home,
                *("sample", "--days", str(days), "--end", str(end), "--out", str(home)),
                *("--volume", str(volume)),
            )
            timings[mode], _ = _backfill(home, first, end, *extra, OMOIDE_DASK_WORKERS=str(workers))
    return {
        "days": days,
        "volume": volume,
        "dask_workers": workers,
        "cpus": os.cpu_count(),
        "sequential_s": round(timings["sequential"], 1),
        "dask_s": round(timings["dask"], 1),
        "speedup": round(timings["sequential"] / timings["dask"], 2),
        "targets": {},
    }
