"""Recall benchmark: hybrid recall latency vs a bare LanceDB vector query, and ingest throughput.

What is timed, per table size, on the same table in the same run, query by query in turn:
- `recall`: `recall(..., k=10, rehearse=False)`, i.e. query embedding (the table's own
  embedder), the prefilter, vector and BM25 searches, fusion, decay and ranking;
- `bare`: `table.search(vec).limit(10).to_list()` with a precomputed query vector;
- `rehearse`: the rehearsal write (`bump_recall` of 10 ids), timed apart because it is a
  table write, not a search.
Ingest: the real embedded model embeds and upserts a sample (memories/s end to end and for
embedding alone); the bulk tables are upserted with `HashEmbedder` vectors, so their rate is
LanceDB writing plus index building, without the model.
"""

from __future__ import annotations

import random
import re
import statistics
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from omoide.core.ids import stable_id
from omoide.embed.base import Embedder
from omoide.memory.recall import recall
from omoide.store.memories import bump_recall, open_memories, upsert_memories

NOW = datetime(2026, 11, 20, 12, tzinfo=UTC)
K = 10
_WORD = re.compile(r"\w+")
_PEOPLE = (
    "Alice Bob Carol Dave Erin Frank Grace Heidi Ivan Judy Mallory Niaj Olivia Peggy Rupert "
    "Sybil Trent Victor Walter Yuki Hana Kenji Sora Aiko Ren Mei Taro Emi Noah Liam"
).split()
_PLACES = (
    "Kyoto Osaka Tokyo Lisbon Berlin the office the café home the library the gym the station "
    "the park Sapporo Nara the hospital the bakery"
).split(" ")
_TOPICS = (
    "quarterly budget|release notes|design review|marathon training|piano lessons|tax return|"
    "garden irrigation|LanceDB indexing|Prefect deployment|sourdough starter|flight to Lisbon|"
    "dentist appointment|kid's school play|new laptop|hiking trip|apartment lease|"
    "conference talk|database migration|birthday present|insurance claim|language course|"
    "photo album|car service|team offsite|research paper|podcast episode|job interview|"
    "bike repair|wedding plans|bug in the parser|onboarding docs|vacation photos"
).split("|")
_TEMPLATES = (
    "Met {p} at {place} to talk about the {t}; we agreed to follow up next week.",
    "{p}: did you see the update on the {t}? I think we should move it to {place}.",
    "Spent the afternoon on the {t} with {p}, notes are in the shared folder.",
    "Decided to postpone the {t} until after the trip to {place}.",
    "I prefer working on the {t} in the morning at {place}; afternoons are for email.",
    "{p} recommended a book about the {t}, ordered it from the shop near {place}.",
    "Reading about the {t} for two hours, mostly documentation and a few blog posts.",
    "Called {p} about the {t}. They sounded worried but the plan for {place} holds.",
    "The {t} took longer than expected; {p} helped debug it over a call from {place}.",
)
_KINDS = ("chat",) * 8 + ("note",) * 4 + ("session",) * 4 + ("W", "B", "O", "S") + ("digest",)


class HashEmbedder:
    """BENCHMARK ONLY, not a language model: hashed tokens summed through a fixed random projection.

    Deterministic and ~1000× cheaper than the real model, so 100k-row tables can be built in
    seconds; texts sharing words get similar vectors, which gives the vector index realistic
    clusters to work with. Never use it for real memories.
    """

    backend = "bench"

    def __init__(self, dim: int = 384, buckets: int = 1 << 15, seed: int = 7) -> None:
        self.dim = dim
        self.model = f"bench-hash-{dim}"
        self._buckets = buckets
        self._proj = np.random.default_rng(seed).standard_normal((buckets, dim)).astype(np.float32)

    def load(self) -> None:
        """() -> nothing to load."""

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """Texts -> (n, dim) unit vectors: sum of each word's projection row."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(texts), 2048):
            chunk = texts[start : start + 2048]
            tokens = [
                [zlib.crc32(w.encode()) % self._buckets for w in _WORD.findall(t.lower())]
                for t in chunk
            ]
            lengths = np.array([len(t) for t in tokens])
            flat = np.fromiter(
                (b for t in tokens for b in t), dtype=np.int64, count=int(lengths.sum())
            )
            rows = self._proj[flat]
            has = lengths > 0
            offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]])[has]
            if len(offsets):
                out[start + np.flatnonzero(has)] = np.add.reduceat(rows, offsets, axis=0)
        out[np.linalg.norm(out, axis=1) == 0, 0] = 1.0
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def synthetic_memories(n: int, seed: int = 1) -> pd.DataFrame:
    """n -> memory records (FACTS columns) with realistic text, spread over three years."""
    return next(synthetic_chunks(n, max(n, 1), seed), pd.DataFrame())


def synthetic_chunks(n: int, chunk: int, seed: int = 1) -> Iterator[pd.DataFrame]:
    """n + chunk size -> synthetic_memories(n, seed) in frames of `chunk` rows (a million rows never held at once)."""
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for i in range(n):
        p, topic, place = rng.choice(_PEOPLE), rng.choice(_TOPICS), rng.choice(_PLACES)
        text = rng.choice(_TEMPLATES).format(p=p, t=topic, place=place)
        kind = rng.choice(_KINDS)
        if kind == "digest":
            text = " ".join(
                rng.choice(_TEMPLATES).format(
                    p=rng.choice(_PEOPLE), t=rng.choice(_TOPICS), place=place
                )
                for _ in range(6)
            )
        ts = NOW - timedelta(minutes=rng.randrange(3 * 365 * 24 * 60))
        rows.append(
            {
                "memory_id": stable_id("bench", i),
                "day": ts.date().isoformat(),
                "ts": ts,
                "kind": kind,
                "entities": [p],
                "content": f"{text} (#{i})",
                "confidence": rng.choice((1.0, 0.9, 0.6)),
                "importance": round(rng.random(), 2),
                "source": f"memory/{ts.date().isoformat()}.md#L{rng.randrange(1, 200)}",
                "source_refs": [f"chat.jsonl#L{i + 1}"],
                "backend": "bench",
                "recorded_at": NOW,
            }
        )
        if len(rows) == chunk:
            yield pd.DataFrame(rows)
            rows = []
    if rows:
        yield pd.DataFrame(rows)


def synthetic_queries(n: int, seed: int = 2) -> list[str]:
    """n -> user-like questions about the synthetic memories."""
    rng = random.Random(seed)
    forms = (
        "what did {p} say about the {t}?",
        "when was the {t} discussed",
        "{t} {place}",
        "who helped with the {t}",
        "notes about {p} and {place}",
    )
    return [
        rng.choice(forms).format(
            p=rng.choice(_PEOPLE), t=rng.choice(_TOPICS), place=rng.choice(_PLACES)
        )
        for _ in range(n)
    ]


def _ms(samples: list[float]) -> tuple[float, float]:
    """Seconds -> (p50, p95) in milliseconds."""
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return round(statistics.median(ordered) * 1000, 2), round(p95 * 1000, 2)


def _timed(fn: Callable[[], Any]) -> float:
    """Callable -> wall seconds of one call."""
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def ingest_real(embedder: Embedder, records: pd.DataFrame, db_dir: Path) -> dict[str, Any]:
    """Real embedder + records -> memories/s for embedding alone and for embed + upsert."""
    texts = records["content"].tolist()
    embedder.embed(texts[:8])  # model load is start-up cost, not throughput
    embed_s = _timed(lambda: embedder.embed(texts))
    table = open_memories(db_dir, embedder.model, embedder.dim)
    upsert_s = _timed(lambda: upsert_memories(table, records, embedder, NOW))
    rerun_s = _timed(lambda: upsert_memories(table, records, embedder, NOW))
    return {
        "real_model": embedder.model,
        "real_n": len(texts),
        "real_embed_per_s": round(len(texts) / embed_s, 1),
        "real_upsert_per_s": round(len(texts) / upsert_s, 1),
        "real_rerun_unchanged_s": round(rerun_s, 3),
    }


def recall_latency(
    table: Any, embedder: Embedder, queries: Sequence[str], rounds: int
) -> dict[str, Any]:
    """Table + its embedder + queries -> recall and bare-vector p50/p95 (ms), interleaved."""
    vectors = embedder.embed(list(queries), query=True)
    month = NOW - timedelta(days=30)
    for q, v in zip(queries[:5], vectors[:5], strict=True):  # warm caches and indices
        recall(table, embedder, q, NOW, k=K, rehearse=False)
        table.search(v).limit(K).to_list()
    hybrid, bare, filtered, bumps = [], [], [], []
    for _ in range(rounds):
        for q, v in zip(queries, vectors, strict=True):
            hybrid.append(_timed(lambda q=q: recall(table, embedder, q, NOW, k=K, rehearse=False)))
            bare.append(_timed(lambda v=v: table.search(v).limit(K).to_list()))
            filtered.append(
                _timed(
                    lambda q=q: recall(
                        table,
                        embedder,
                        q,
                        NOW,
                        k=K,
                        since=month,
                        kinds=["chat", "note"],
                        rehearse=False,
                    )
                )
            )
    for q in queries[:10]:
        ids = [r.memory_id for r in recall(table, embedder, q, NOW, k=K, rehearse=False)]
        bumps.append(_timed(lambda ids=ids: bump_recall(table, ids, NOW)))
    p50, p95 = _ms(hybrid)
    bare50, bare95 = _ms(bare)
    return {
        "p50_ms": p50,
        "p95_ms": p95,
        "bare_p50_ms": bare50,
        "bare_p95_ms": bare95,
        "ratio_p50": round(p50 / bare50, 2),
        "filtered_p50_ms": _ms(filtered)[0],
        "rehearse_p50_ms": _ms(bumps)[0],
        "vector_index": any("vector" in idx.columns for idx in table.list_indices()),
        "samples": len(hybrid),
    }


def ann_recall(table: Any, vectors: np.ndarray) -> float:
    """Table + query vectors -> mean share of the exact top-k the default (indexed) search finds."""
    hits = []
    for v in vectors:
        exact = {
            r["memory_id"]
            for r in table.search(v)
            .bypass_vector_index()
            .select(["memory_id", "_distance"])
            .limit(K)
            .to_list()
        }
        got = {
            r["memory_id"]
            for r in table.search(v).select(["memory_id", "_distance"]).limit(K).to_list()
        }
        hits.append(len(exact & got) / max(1, len(exact)))
    return round(float(np.mean(hits)), 3)


def run_benchmark(
    sizes: Sequence[int] = (10_000, 100_000),
    real_sample: int = 1000,
    n_queries: int = 50,
    rounds: int = 3,
    real_embedder: Embedder | None = None,
) -> dict[str, Any]:
    """Table sizes -> {"ingest": {...}, "recall": {size: latencies and ratio}} (see module doc)."""
    if real_embedder is None:
        from omoide.embed.minilm import MiniLMEmbedder

        real_embedder = MiniLMEmbedder()
    bulk_embedder = HashEmbedder()
    queries = synthetic_queries(n_queries)
    result: dict[str, Any] = {"ingest": {}, "recall": {}}
    with tempfile.TemporaryDirectory(prefix="omoide-bench-recall-") as tmp:
        root = Path(tmp)
        result["ingest"] = ingest_real(
            real_embedder, synthetic_memories(real_sample, seed=9), root / "real"
        )
        for size in sizes:
            records = synthetic_memories(size)
            table = open_memories(root / f"n{size}", bulk_embedder.model, bulk_embedder.dim)
            write_s = _timed(lambda t=table, r=records: upsert_memories(t, r, bulk_embedder, NOW))
            result["ingest"][f"bulk_{size}_per_s"] = round(size / write_s, 1)
            result["ingest"][f"bulk_{size}_rerun_unchanged_s"] = round(
                _timed(lambda t=table, r=records: upsert_memories(t, r, bulk_embedder, NOW)), 3
            )
            stats = recall_latency(table, bulk_embedder, queries, rounds)
            stats["ann_recall_at_10"] = ann_recall(
                table, bulk_embedder.embed(queries[:20], query=True)
            )
            result["recall"][str(size)] = stats
    result["ingest"]["bulk_embedder"] = bulk_embedder.model
    return result
