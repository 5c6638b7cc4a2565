"""MCP benchmark: warm recall through a real MCP client session against the same recall called in-process.

Per table size, a home of its own holds a memories table of that many rows, embedded by the
real bundled model: the rows are the recall benchmark's synthetic memories (ids, times over
three years, kinds, importance), their texts drawn from a pool of POOL distinct ones, so the
model embeds each text once and a table is mostly LanceDB writes and index building. The
homes are built once into a cache folder (`--cache-dir`, default ~/.cache/omoide-bench) and
reused while their key (build format, size, text pool, model) matches. Each home also gets the
fact validities a person's home holds for three years (1.6 W facts a day compared, two of
three replaced by a later one, as on the sample), since every recall reads them. Then `omoide mcp` is
started as an agent starts it (a subprocess on stdio, the official SDK's client), warmed with
a few questions, and each question's `recall` tool call is timed at the client, round trip
included. The baseline, measured in the same run on the same table: `recall_asked` called
in-process (query embedding, searches, fusion, ranking) with the same questions.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import time
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

from omoide.bench.recall import NOW, synthetic_chunks, synthetic_memories, synthetic_queries
from omoide.core.settings import RecallSettings
from omoide.embed.base import Embedder
from omoide.memory.recall import COLUMNS, Asked, recall_asked
from omoide.memory.row_store import RowStore
from omoide.store.connect import connect_db
from omoide.store.memories import INDEX_VERSION, open_memories, optimize, upsert_memories
from omoide.store.memories import TABLE as MEMORIES
from omoide.store.validity_table import TABLE as VALIDITY
from omoide.store.validity_table import Validity, load_validity, open_validity, save_validity

POOL = 2000
K = 10
WARM = 5
STORE_WAIT_S = 120.0  # the in-process baseline starts once its row store is read
SIZES = (100_000, 1_000_000)
TARGETS = {"p50_ms_at_100000": 25, "p50_ms_at_1000000": 100}
# Rows per upsert while building: a million rows are written in ten parts, so neither the
# frames nor LanceDB's merge hold the whole table at once.
BUILD_CHUNK = 100_000
BUILD_FORMAT = 2  # bump when build_home writes different rows; cached homes are then rebuilt
# Fact validities a home holds: a year of the sample has 572 W facts (1.6 a day), and of the 33
# of its first 21 days, 20 had been replaced by a later one; the bench memories span three years.
VALIDITIES = round(1.6 * 3 * 365)
CHAIN = 3  # facts about one thing in a row: each replaced by the next, the last standing
_KEY = "bench-key.json"
_OMOIDE = "from omoide.cli.app import main; main()"


class _EmbedOnce:
    """The real model, each distinct text embedded once (the bench table repeats its texts)."""

    def __init__(self, model: Embedder) -> None:
        self._model = model
        self.backend, self.model, self.dim = model.backend, model.model, model.dim
        self._seen: dict[str, np.ndarray] = {}

    def load(self) -> None:
        """() -> the model loaded."""
        self._model.load()

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """Texts -> the model's vectors, from memory for texts seen before."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._seen]
        if missing:
            self._seen.update(zip(missing, self._model.embed(missing, query=query), strict=True))
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._seen[t] for t in texts])


def default_cache_dir() -> Path:
    """() -> where built bench homes are kept between runs: $XDG_CACHE_HOME/omoide-bench or ~/.cache/omoide-bench."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "omoide-bench"


def build_home(home: Path, size: int, embedder: Embedder) -> None:
    """Empty folder + rows + embedder -> an OMOIDE_HOME whose memories table holds that many rows."""
    pool = synthetic_memories(POOL, seed=5)["content"].str.replace(r" \(#\d+\)$", "", regex=True)
    (home / "omoide.toml").parent.mkdir(parents=True, exist_ok=True)
    (home / "omoide.toml").write_text('timezone = "UTC"\n', encoding="utf-8")
    table = open_memories(home / "lancedb", embedder.model, embedder.dim)
    once = _EmbedOnce(embedder)
    for part, rows in enumerate(synthetic_chunks(size, BUILD_CHUNK)):
        start = part * BUILD_CHUNK
        rows["content"] = [pool.iloc[i % POOL] for i in range(start, start + len(rows))]
        upsert_memories(table, rows, once, NOW)
    # Each part and each index training left a version behind (13 GB of them at 1M rows, for
    # 2 GB of live data); nothing else writes to a bench home, so they all go now.
    optimize(table, cleanup_older_than=timedelta(0), delete_unverified=True)


def add_validities(home: Path, count: int = VALIDITIES) -> None:
    """A built bench home -> its `fact_validity` table holding `count` W facts' validities, in chains of CHAIN (kept if there)."""
    db_dir = home / "lancedb"
    db = connect_db(db_dir)
    if VALIDITY in db.list_tables().tables:
        return
    facts = (
        db.open_table(MEMORIES)
        .search()
        .where("kind = 'W'")
        .select(["memory_id", "ts"])
        .limit(count)
        .to_pandas()
        .sort_values("ts")
    )
    ids, times = facts["memory_id"].tolist(), facts["ts"].tolist()
    found = {}
    for i, (memory_id, ts) in enumerate(zip(ids, times, strict=True)):
        later = i + 1 < len(ids) and (i + 1) % CHAIN != 0
        found[memory_id] = Validity(
            memory_id=memory_id,
            entity=f"bench-{i // CHAIN}",
            attribute="home",
            valid_from=ts.to_pydatetime(),
            valid_to=times[i + 1].to_pydatetime() if later else None,
            superseded_by=ids[i + 1] if later else None,
            method="rule",
        )
    save_validity(open_validity(db_dir), found)


def cached_home(cache: Path, size: int, embedder: Embedder) -> tuple[Path, float | None]:
    """Cache folder + size + embedder -> a built home of that size and the seconds its build took (None: reused)."""
    home = cache / f"mcp-n{size}"
    key = {
        "format": BUILD_FORMAT,
        "size": size,
        "pool": POOL,
        "model": embedder.model,
        "index": INDEX_VERSION,
    }
    if (home / _KEY).exists() and json.loads((home / _KEY).read_text(encoding="utf-8")) == key:
        add_validities(home)  # a home built before the bench gave homes validities
        return home, None
    shutil.rmtree(home, ignore_errors=True)  # stale or half-built: a build never resumes
    began = time.perf_counter()
    build_home(home, size, embedder)
    add_validities(home)
    took = time.perf_counter() - began
    (home / _KEY).write_text(json.dumps(key), encoding="utf-8")
    return home, took


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
    store = RowStore(COLUMNS)  # as the MCP server keeps one
    store.load(table)

    def ask(q: str) -> None:
        validity = load_validity(home / "lancedb")  # as `omoide mcp` asks for each question
        recall_asked(
            table, embedder, Asked(q, k=K), knobs, "UTC", NOW, False, validity=validity, store=store
        )

    store.wait(STORE_WAIT_S)
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
    sizes: Sequence[int] = SIZES,
    n_queries: int = 30,
    rounds: int = 3,
    cache_dir: Path | None = None,
) -> dict[str, Any]:
    """Table sizes (+ the cache of built homes) -> per size: MCP p50/p95, the in-process p50/p95, their ratio and the build's seconds (see the module doc)."""
    from omoide.embed.minilm import MiniLMEmbedder

    embedder = MiniLMEmbedder()
    queries = synthetic_queries(n_queries)
    cache = cache_dir or default_cache_dir()
    names = ("p50_ms", "p95_ms", "in_process_p50_ms", "in_process_p95_ms", "ratio_p50", "build_s")
    result: dict[str, Any] = {name: {} for name in names}
    for size in sizes:
        home, took = cached_home(cache, size, embedder)
        mcp = asyncio.run(_through_mcp(home, queries, rounds))
        local = _in_process(home, embedder, queries, rounds)
        key = str(size)
        result["p50_ms"][key], result["p95_ms"][key] = _ms(mcp, 0.5), _ms(mcp, 0.95)
        result["in_process_p50_ms"][key] = _ms(local, 0.5)
        result["in_process_p95_ms"][key] = _ms(local, 0.95)
        result["ratio_p50"][key] = round(
            result["p50_ms"][key] / result["in_process_p50_ms"][key], 2
        )
        result["build_s"][key] = None if took is None else round(took, 1)  # None: cached
    result["samples_per_size"] = n_queries * rounds
    result["cache_dir"] = str(cache)
    result["targets"] = TARGETS
    return result
