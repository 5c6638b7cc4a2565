"""MCP benchmark: warm recall through a real MCP client session against the same recall called in-process.

Per table size, a home of its own holds a memories table of that many rows, embedded by the
real bundled model: the rows are the recall benchmark's synthetic memories (ids, times over
three years, kinds, importance), their texts drawn from a pool of POOL distinct ones, so the
model embeds each text once and a 100k-row table is built in a minute. Then `omoide mcp` is
started as an agent starts it (a subprocess on stdio, the official SDK's client), warmed with
a few questions, and each question's `recall` tool call is timed at the client, round trip
included. The baseline, measured in the same run on the same table: `recall_asked` called
in-process (query embedding, searches, fusion, ranking) with the same questions.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from omoide.bench.recall import NOW, synthetic_memories, synthetic_queries
from omoide.core.settings import RecallSettings
from omoide.embed.base import Embedder
from omoide.memory.recall import Asked, recall_asked
from omoide.store.memories import open_memories, upsert_memories

POOL = 2000
K = 10
WARM = 5
TARGETS = {"p50_ms_at_100000": 50}
_OMOIDE = "from omoide.cli.app import main; main()"


class _EmbedOnce:
    """The real model, each distinct text embedded once (the bench table repeats its texts)."""

    def __init__(self, model: Embedder) -> None:
        self._model = model
        self.backend, self.model, self.dim = model.backend, model.model, model.dim
        self._seen: dict[str, np.ndarray] = {}

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """Texts -> the model's vectors, from memory for texts seen before."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._seen]
        if missing:
            self._seen.update(zip(missing, self._model.embed(missing, query=query), strict=True))
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._seen[t] for t in texts])


def build_home(home: Path, size: int, embedder: Embedder) -> None:
    """Empty folder + rows + embedder -> an OMOIDE_HOME whose memories table holds that many rows."""
    rows = synthetic_memories(size)
    pool = synthetic_memories(POOL, seed=5)["content"].str.replace(r" \(#\d+\)$", "", regex=True)
    rows["content"] = [pool.iloc[i % POOL] for i in range(size)]
    (home / "omoide.toml").parent.mkdir(parents=True, exist_ok=True)
    (home / "omoide.toml").write_text('timezone = "UTC"\n', encoding="utf-8")
    table = open_memories(home / "lancedb", embedder.model, embedder.dim)
    upsert_memories(table, rows, _EmbedOnce(embedder), NOW)


async def _through_mcp(home: Path, queries: Sequence[str], rounds: int) -> list[float]:
    """Home + questions -> seconds per `recall` tool call of a warm client session with `omoide mcp`."""
    from mcp import Client, StdioServerParameters

    env = {**os.environ, "OMOIDE_HOME": str(home)}
    server = StdioServerParameters(command=sys.executable, args=["-c", _OMOIDE, "mcp"], env=env)
    times = []
    async with Client(server, read_timeout_seconds=300) as client:
        for q in queries[:WARM]:
            await client.call_tool("recall", {"query": q, "k": K})
        for _ in range(rounds):
            for q in queries:
                began = time.perf_counter()
                result = await client.call_tool("recall", {"query": q, "k": K})
                times.append(time.perf_counter() - began)
                if result.is_error:
                    raise RuntimeError(f"recall through MCP failed: {result.content}")
    return times


def _in_process(home: Path, embedder: Embedder, queries: Sequence[str], rounds: int) -> list[float]:
    """Home + questions -> seconds per in-process recall on the same table (the baseline)."""
    table = open_memories(home / "lancedb", embedder.model, embedder.dim, create=False)
    knobs = RecallSettings()

    def ask(q: str) -> None:
        recall_asked(table, embedder, Asked(q, k=K), knobs, "UTC", NOW, rehearse=False)

    for q in queries[:WARM]:
        ask(q)
    times = []
    for _ in range(rounds):
        for q in queries:
            began = time.perf_counter()
            ask(q)
            times.append(time.perf_counter() - began)
    return times


def _ms(samples: Sequence[float], q: float) -> float:
    """Seconds -> their q-quantile in milliseconds."""
    return round(float(np.quantile(np.asarray(samples), q)) * 1000, 2)


def run_benchmark(
    sizes: Sequence[int] = (10_000, 100_000), n_queries: int = 30, rounds: int = 3
) -> dict[str, Any]:
    """Table sizes -> per size: MCP p50/p95, the in-process p50 and their ratio (see the module doc)."""
    from omoide.embed.minilm import MiniLMEmbedder

    embedder = MiniLMEmbedder()
    queries = synthetic_queries(n_queries)
    result: dict[str, Any] = {"p50_ms": {}, "p95_ms": {}, "in_process_p50_ms": {}, "ratio_p50": {}}
    with tempfile.TemporaryDirectory(prefix="omoide-bench-mcp-") as scratch:
        for size in sizes:
            home = Path(scratch) / f"n{size}"
            build_home(home, size, embedder)
            mcp = asyncio.run(_through_mcp(home, queries, rounds))
            local = _in_process(home, embedder, queries, rounds)
            key = str(size)
            result["p50_ms"][key], result["p95_ms"][key] = _ms(mcp, 0.5), _ms(mcp, 0.95)
            result["in_process_p50_ms"][key] = _ms(local, 0.5)
            result["ratio_p50"][key] = round(
                result["p50_ms"][key] / result["in_process_p50_ms"][key], 2
            )
    result["samples_per_size"] = n_queries * rounds
    result["targets"] = TARGETS
    return result
