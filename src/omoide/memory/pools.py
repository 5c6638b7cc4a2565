"""Recall's candidate pools: row ids and scores from LanceDB's vector and full-text searches.

Each pool is (row ids, scores); pools are merged at each row's best score and scaled to
[0, 1] before recall fuses them (`omoide.memory.recall`).

The full-text pool needs only the question's words, so it is searched in a thread while the
question is embedded and the vector pools searched (`lexical_while`): both wait mostly in
ONNX Runtime or LanceDB's native code, which release the GIL.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from datetime import UTC, datetime
from typing import TypeVar

import lancedb
import numpy as np
import pyarrow as pa

from omoide.memory.query_entities import entity_key
from omoide.store.searches import matching, nearest

T = TypeVar("T")


def vector_pool(
    table: lancedb.table.Table, vector: np.ndarray, where: str | None, n: int
) -> tuple[list[int], np.ndarray]:
    """Query vector -> row ids of the n nearest rows and their cosine similarity."""
    # Row ids and scores only: the rows themselves are read once, for the fused candidates.
    found = nearest(table, vector, where, n)
    # Unit vectors: squared L2 distance = 2 - 2·cosine.
    return found["_rowid"].to_pylist(), 1.0 - found["_distance"].to_numpy() / 2.0


def passing(
    rows: pa.Table,
    since: datetime | None,
    until: datetime | None,
    kinds: Sequence[str] | None,
    entities: Sequence[str] | None,
    types: Sequence[str] | None = None,
) -> np.ndarray:
    """Rows (ts, kind, memory_type, entities) + the filters -> which rows pass, as recall's SQL prefilter would."""
    keep = np.ones(rows.num_rows, dtype=bool)
    ts = rows["ts"].to_numpy()
    if since is not None:
        keep &= ts >= np.datetime64(since.astimezone(UTC).replace(tzinfo=None), "us")
    if until is not None:
        keep &= ts < np.datetime64(until.astimezone(UTC).replace(tzinfo=None), "us")
    if kinds:
        keep &= np.isin(rows["kind"].to_numpy(zero_copy_only=False), list(kinds))
    if types:
        keep &= np.isin(rows["memory_type"].to_numpy(zero_copy_only=False), list(types))
    wanted = {entity_key(e) for e in entities or ()} - {""}
    if wanted:
        keep &= np.array(
            [
                bool({entity_key(e) for e in ents or ()} & wanted)
                for ents in rows["entities"].to_pylist()
            ],
            dtype=bool,
        )
    return keep


def tagged_pool(
    table: lancedb.table.Table,
    vector: np.ndarray,
    rowids: list[int],
    n: int,
    since: datetime | None,
    until: datetime | None,
    kinds: Sequence[str] | None,
    entities: Sequence[str] | None,
    types: Sequence[str] | None = None,
) -> tuple[list[int], np.ndarray]:
    """Query vector + row ids of tagged memories + the filters -> the n nearest that pass, with their cosine."""
    rows = (
        table.take_row_ids(rowids)
        .select(["vector", "ts", "kind", "memory_type", "entities"])
        .with_row_id()
        .to_arrow()
    )
    keep = passing(rows, since, until, kinds, entities, types)
    dim = len(vector)
    vectors = rows["vector"].combine_chunks().flatten().to_numpy().reshape(-1, dim)[keep]
    cosine = vectors @ np.asarray(vector, dtype=np.float32)  # unit vectors
    ids = np.asarray(rows["_rowid"].to_pylist(), dtype=np.int64)[keep]
    best = np.argsort(-cosine, kind="stable")[:n]
    return ids[best].tolist(), cosine[best].astype(np.float64)


def text_pool(
    table: lancedb.table.Table, text: str, where: str | None, n: int
) -> tuple[list[int], np.ndarray]:
    """Query text -> row ids of the n best BM25 rows and their scores; the text is never parsed."""
    found = matching(table, text, where, n)
    return found["_rowid"].to_pylist(), found["_score"].to_numpy()


def merged(*pools: tuple[list[int], np.ndarray]) -> tuple[list[int], np.ndarray]:
    """Pools of (row ids, scores) -> one pool, each row at its best score."""
    best: dict[int, float] = {}
    for ids, scores in pools:
        for rowid, score in zip(ids, scores.tolist(), strict=True):
            best[rowid] = max(score, best.get(rowid, score))
    return list(best), np.asarray(list(best.values()), dtype=np.float64)


def normalised(ids: list[int], scores: np.ndarray, floor: float | None) -> dict[int, float]:
    """Row ids + scores -> score scaled to [0, 1] by the pool's max (and min when no floor)."""
    if not ids:
        return {}
    scores = scores.astype(np.float64)
    lo = scores.min() if floor is None else floor
    span = scores.max() - lo
    scaled = (scores - lo) / span if span > 0 else np.ones_like(scores)
    return dict(zip(ids, scaled.tolist(), strict=True))


Filters = tuple[
    datetime | None,
    datetime | None,
    Sequence[str] | None,
    Sequence[str] | None,
    Sequence[str] | None,
]


def semantic_scores(
    table: lancedb.table.Table,
    vector: np.ndarray,
    wheres: Sequence[str | None],
    tagged: list[int],
    n: int,
    filters: Filters,
) -> dict[int, float]:
    """Query vector + prefilters + tagged row ids + pool size + (since, until, kinds, entities, types) -> row id: semantic score."""
    pools = [vector_pool(table, vector, w, n) for w in wheres]
    if tagged:  # the memories tagged with what was asked join the pool even when their words differ
        pools.append(tagged_pool(table, vector, tagged, n, *filters))
    return normalised(*merged(*pools), floor=None)


def lexical_scores(
    table: lancedb.table.Table, query: str, wheres: Sequence[str | None], n: int
) -> dict[int, float]:
    """Query text + prefilters + pool size -> row id: BM25 score scaled by the pool's best ({} for a text without words)."""
    if not any(ch.isalnum() for ch in query):
        return {}
    return normalised(*merged(*(text_pool(table, query, w, n) for w in wheres)), floor=0.0)


@functools.cache
def _fts_threads(pid: int) -> ThreadPoolExecutor:
    """Process id -> the threads that run full-text searches beside a question's embedding, kept between questions."""
    # Keyed by pid: a forked child inherits the executor but not its threads.
    # A thread started per question cost ~2 ms of a ~35 ms recall on two busy cores.
    return ThreadPoolExecutor(max_workers=4, thread_name_prefix=f"omoide-fts-{pid}")


def lexical_while(
    table: lancedb.table.Table,
    query: str,
    wheres: Sequence[str | None],
    n: int,
    meanwhile: Callable[[], T],
) -> tuple[dict[int, float], T]:
    """Query text + prefilters + pool size + other work -> lexical_scores, searched in a thread while the work runs, and the work's result."""
    lexical = _fts_threads(os.getpid()).submit(lexical_scores, table, query, wheres, n)
    try:
        done = meanwhile()
    finally:
        wait([lexical])  # a search is never left running behind an error
    return lexical.result(), done
