"""Recall's two searches on a memories table: row ids and scores, by vector or by BM25 over `content`.

Through LanceDB's synchronous table a search at 100,000 memories took 6-8 ms, of which the
search itself is 1-2 ms: building the query reads the schema, and running it and reading its
result are about five more round trips through LanceDB's event-loop thread. The same query on
the asynchronous table that a local `LanceTable` wraps, awaited on that loop in one round trip,
took ~3.4 ms (docs/benchmarks.md, "Recall's searches in one round trip"). The wrapped table is
a private attribute of `lancedb` 0.40 (pinned below 0.41 in pyproject); a table without one is
searched through the public synchronous API, with the same results.
"""

from __future__ import annotations

import lancedb
import numpy as np
import pyarrow as pa
from lancedb.background_loop import LOOP
from lancedb.query import MatchQuery
from lancedb.table import AsyncTable

VECTOR = "vector"
TEXT = "content"


def async_table(table: lancedb.table.Table) -> AsyncTable | None:
    """Table -> the asynchronous table it wraps, or None when it wraps none."""
    inner = getattr(table, "_table", None)
    return inner if isinstance(inner, AsyncTable) else None


async def _nearest(inner: AsyncTable, vector: np.ndarray, where: str | None, n: int) -> pa.Table:
    """Async table + vector + prefilter + n -> `_distance` and `_rowid` of the n nearest rows."""
    query = inner.query().nearest_to(vector).column(VECTOR)
    if where:
        query = query.where(where)  # a filter before the search, as the sync prefilter=True
    return await query.select(["_distance"]).with_row_id().limit(n).to_arrow()


async def _matching(inner: AsyncTable, text: str, where: str | None, n: int) -> pa.Table:
    """Async table + text + prefilter + n -> `_score` and `_rowid` of the n best BM25 rows."""
    query = inner.query().nearest_to_text(MatchQuery(text, TEXT))
    if where:
        query = query.where(where)
    return await query.select(["_score"]).with_row_id().limit(n).to_arrow()


def nearest(table: lancedb.table.Table, vector: np.ndarray, where: str | None, n: int) -> pa.Table:
    """Table + query vector + prefilter + n -> `_distance` and `_rowid` of the n nearest rows."""
    inner = async_table(table)
    if inner is not None:
        return LOOP.run(_nearest(inner, vector, where, n))  # LanceDB's own event loop
    query = table.search(vector, query_type="vector", vector_column_name=VECTOR)
    if where:
        query = query.where(where, prefilter=True)
    return query.select(["_distance"]).with_row_id(True).limit(n).to_arrow()


def matching(table: lancedb.table.Table, text: str, where: str | None, n: int) -> pa.Table:
    """Table + text (never parsed as query syntax) + prefilter + n -> `_score` and `_rowid` of the n best BM25 rows."""
    inner = async_table(table)
    if inner is not None:
        return LOOP.run(_matching(inner, text, where, n))
    # MatchQuery tokenizes the text like the index does: quotes, colons, AND/OR are just words.
    query = table.search(MatchQuery(text, TEXT), query_type="fts")
    if where:
        query = query.where(where, prefilter=True)
    return query.select(["_score"]).with_row_id(True).limit(n).to_arrow()


async def _vectors(inner: AsyncTable, rowids: list[int]) -> pa.Table:
    """Async table + row ids -> those rows' `vector` and `_rowid`."""
    return await inner.take_row_ids(rowids).select([VECTOR]).with_row_id().to_arrow()


def vectors_of(table: lancedb.table.Table, rowids: list[int]) -> np.ndarray:
    """Table + row ids -> their vectors (n, dim), in the order asked."""
    inner = async_table(table)
    if inner is not None:
        read = LOOP.run(_vectors(inner, rowids))  # one round trip, as the searches
    else:
        read = table.take_row_ids(rowids).select([VECTOR]).with_row_id().to_arrow()
    at = {r: i for i, r in enumerate(read["_rowid"].to_pylist())}
    vectors = read[VECTOR].combine_chunks().flatten().to_numpy().reshape(read.num_rows, -1)
    return vectors[[at[r] for r in rowids]]
