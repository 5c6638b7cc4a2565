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

Embedding, the largest part of a cold day: the cold runs' own figures give the texts the
model computed, those served by the shared embedding cache and the seconds spent in the
model (`embed_share` of the cold time). `embed_limit_s` is the bare model, loaded once in
this process, embedding the distinct texts the cold backfill stored: what embedding alone
costs on this machine, the floor under a cold year as long as every text is embedded.
`peak_rss_mb` is the largest resident memory of any run's whole process tree (sampled).

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

import psutil

from omoide.core.errors import OmoideError

_OMOIDE = "from omoide.cli.app import main; main()"
TARGETS = {
    "cold_s_per_365_days": 1200,
    "warm_vs_cold": 0.05,
    "warm_s": 60,
    "last_vs_first": 1.2,
    "peak_rss_mb": 2048,
}


_PEAK = {"rss": 0}  # the largest process-tree RSS seen in this benchmark, bytes


def _tree_rss(proc: psutil.Process) -> int:
    """Process -> resident bytes of it and every descendant (those gone meanwhile count 0)."""
    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            continue
    return total


def _omoide(home: Path, *args: str, **extra_env: str) -> tuple[float, str]:
    """Home + arguments (+ environment variables) -> (seconds, stdout) of one `omoide` process; raises when it fails."""
    env = {**os.environ, "OMOIDE_HOME": str(home), **extra_env}
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        began = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-c", _OMOIDE, *args], env=env, stdout=out, stderr=err, text=True
        )
        watched = psutil.Process(child.pid)
        while child.poll() is None:
            try:
                _PEAK["rss"] = max(_PEAK["rss"], _tree_rss(watched))
            except psutil.Error:
                pass
            time.sleep(0.25)
        took = time.perf_counter() - began
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if child.returncode != 0:
        raise OmoideError(f"omoide {' '.join(args)} failed: {stderr.strip()[-600:]}")
    return took, stdout


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


def _embedding(runs: list[dict[str, Any]]) -> dict[str, float]:
    """Per-day figures of some runs -> texts the model computed, cache hits and model seconds, summed."""
    days = [r for run in runs for r in run.values() if isinstance(r, dict)]
    return {
        key: sum(r.get(key, 0) for r in days)
        for key in ("embed_computed", "embed_cache_hits", "embed_s")
    }


def _bare_model_s(home: Path) -> tuple[float, int]:
    """A backfilled home -> (seconds the bare bundled model takes for its stored distinct embedding texts, how many)."""
    from omoide.embed.minilm import MiniLMEmbedder
    from omoide.embed.text import embedding_text
    from omoide.store.connect import connect_db

    table = connect_db(home / "lancedb").open_table("memories")
    rows = table.search().select(["kind", "content"]).limit(None).to_arrow().to_pylist()
    texts = list(dict.fromkeys(embedding_text(r["kind"], r["content"]) for r in rows))
    model = MiniLMEmbedder()
    model.embed(["warm the model up"])
    began = time.perf_counter()
    for i in range(0, len(texts), 256):
        model.embed(texts[i : i + 256])
    return time.perf_counter() - began, len(texts)


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
        _PEAK["rss"] = 0
        head_s, head = _backfill(home, first, head_end)
        middle_s, middle = 0.0, {}
        if head_end + timedelta(days=1) < tail_start:
            middle_s, middle = _backfill(
                home, head_end + timedelta(days=1), tail_start - timedelta(days=1)
            )
        tail_s, tail = _backfill(home, tail_start, end)
        cold_s = head_s + middle_s + tail_s
        limit_s, distinct = _bare_model_s(home)
        warm_s, warm = _backfill(home, first, end)
        force_s, _ = _backfill(home, first, end, "--force")
    warm_llm, warm_embed = _calls(warm)
    cold_embed = _embedding([head, middle, tail])
    asked = cold_embed["embed_computed"] + cold_embed["embed_cache_hits"]
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
        "texts_embedded": int(cold_embed["embed_computed"]),
        "embed_cache_hits": int(cold_embed["embed_cache_hits"]),
        "embed_cache_hit_rate": round(cold_embed["embed_cache_hits"] / asked, 3) if asked else 0.0,
        "embed_s": round(cold_embed["embed_s"], 1),
        "embed_share": round(cold_embed["embed_s"] / cold_s, 3),
        "embed_limit_s": round(limit_s, 1),
        "embed_limit_texts": distinct,
        "peak_rss_mb": round(_PEAK["rss"] / 2**20),
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
