"""Recall's searches on the asynchronous table LanceDB's synchronous one wraps
(`omoide.store.searches`) find what the public synchronous API finds, row for row and score for
score, with and without a prefilter, through a vector index and a full-text index; a table from
`open_memories` takes that path (so a LanceDB upgrade that moves it fails here, not silently)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pytest

from omoide.store import memories, searches
from omoide.store.memories import open_memories, upsert_memories
from tests.fakes import FakeEmbedder, memory_rows, rows_at

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)
rec = rows_at(NOW)
WORDS = "kyoto ryokan bread dough water piano lesson budget meeting anna tuesday flight".split()
WHERES = [None, "kind = 'note'", "ts >= timestamp '2026-11-01 00:00:00' AND kind = 'chat'"]


@pytest.fixture
def indexed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(memories, "ANN_MIN_ROWS", 300)  # a vector index, as at a person's scale
    emb = FakeEmbedder()
    table = open_memories(tmp_path / "db", emb.model, emb.dim)
    rows = [
        rec(
            f"m{i}",
            " ".join(WORDS[(i * 7 + j) % len(WORDS)] for j in range(1 + i % 5)),
            days_ago=i % 60,
            kind=("note", "chat", "session")[i % 3],
        )
        for i in range(400)
    ]
    upsert_memories(table, memory_rows(*rows), emb, NOW)
    assert any(i.index_type == "IvfSq" for i in table.list_indices())
    return table, emb


def _both_ways(search: Callable[[], pa.Table], score: str) -> None:
    """A search -> nothing, or AssertionError unless it finds rows, the same (score, row id) both ways."""
    fast = search()
    with pytest.MonkeyPatch.context() as m:
        m.setattr(searches, "async_table", lambda table: None)  # LanceDB's public sync API
        public = search()
    assert fast.num_rows > 0
    assert (
        fast.select([score, "_rowid"]).to_pylist() == public.select([score, "_rowid"]).to_pylist()
    )


def test_a_memories_table_is_searched_on_the_table_it_wraps(indexed):
    table, _ = indexed
    assert searches.async_table(table) is not None


@pytest.mark.parametrize("where", WHERES)
def test_the_vector_search_finds_what_the_public_api_finds(indexed, where):
    table, emb = indexed
    for words in ("kyoto ryokan", "bread water dough", "anna tuesday meeting"):
        vector = emb.embed([words], query=True)[0]
        _both_ways(lambda: searches.nearest(table, vector, where, 50), "_distance")  # noqa: B023


@pytest.mark.parametrize("where", WHERES)
def test_the_text_search_finds_what_the_public_api_finds(indexed, where):
    table, _ = indexed
    for text in ("kyoto ryokan", 'bread "water" AND dough:', "piano OR lesson (budget)"):
        _both_ways(lambda: searches.matching(table, text, where, 50), "_score")  # noqa: B023


def test_vectors_are_read_in_the_order_asked_as_the_public_api_reads_them(indexed):
    table, emb = indexed
    found = table.search().select(["content"]).with_row_id(True).limit(None).to_arrow()
    rowids = found["_rowid"].to_pylist()[::-37][:6]
    contents = {r["_rowid"]: r["content"] for r in found.to_pylist()}
    fast = searches.vectors_of(table, rowids)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(searches, "async_table", lambda table: None)
        public = searches.vectors_of(table, rowids)
    assert fast.shape == (6, emb.dim) and (fast == public).all()
    assert (fast == emb.embed([contents[r] for r in rowids])).all()
