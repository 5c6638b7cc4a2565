"""The row store: the recall columns of the memories table's current version, held in memory by a
long-lived reader. It never serves rows of another version, and a recall through it ranks
exactly as one that reads LanceDB."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa

from omoide.memory.recall import COLUMNS, recall
from omoide.memory.row_store import RowStore, sorted_by_rowid
from omoide.store.memories import drop_memories, open_memories, upsert_memories
from tests.fakes import FakeEmbedder, memory_rows, rows_at, stored_memories

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)
rec = rows_at(NOW)
WORDS = "kyoto ryokan booked train tickets pottery running museum sunset budget tea".split()


def _rows(n: int) -> list[dict]:
    """n -> memories of varied words, days, kinds, entities and importance."""
    return [
        rec(
            f"m{i:03d}",
            " ".join(WORDS[(i * j) % len(WORDS)] for j in range(1, 5)) + f" {i}",
            days_ago=1 + i % 40,
            kind=("note", "chat", "session")[i % 3],
            entities=[("Kyoto", "Nara", "Melanie")[i % 3]] if i % 2 else [],
            importance=(i % 10) / 10,
            source=f"vault/memory/notes.md#L{i}",
        )
        for i in range(n)
    ]


def _rowids(table) -> list[int]:
    """Table -> every row id it holds."""
    found = table.search().select(["memory_id"]).with_row_id(True).limit(None).to_arrow()
    return found["_rowid"].to_pylist()


def _from_lancedb(table, rowids: list[int]) -> list[dict]:
    """Table + row ids -> those rows as LanceDB reads them, in the order asked."""
    got = table.take_row_ids(rowids).select(COLUMNS).with_row_id().to_arrow()
    by_id = {r["_rowid"]: r for r in got.to_pylist()}
    return [by_id[r] for r in rowids]


def _loaded(table) -> RowStore:
    """Table -> a row store that has read its current version."""
    store = RowStore(COLUMNS)
    store.load(table)
    store.wait(60)
    return store


def test_the_store_serves_the_rows_lancedb_holds_in_the_order_asked(tmp_path: Path):
    table = stored_memories(tmp_path / "db", FakeEmbedder(), NOW, *_rows(60))
    store = RowStore(COLUMNS)
    wanted = _rowids(table)[::-3]
    assert store.take(table, wanted) is None  # not read yet: the caller reads LanceDB
    store.wait(60)
    held = store.take(table, wanted)
    assert held is not None
    assert held.select([*COLUMNS, "_rowid"]).to_pylist() == _from_lancedb(table, wanted)


def test_after_a_write_it_serves_nothing_until_it_has_read_the_new_version(tmp_path: Path):
    emb = FakeEmbedder()
    table = stored_memories(tmp_path / "db", emb, NOW, *_rows(20))
    store = _loaded(table)
    assert store.take(table, _rowids(table)) is not None
    # Another process's run rewrites a memory and adds one; the reader sees the new version.
    writer = open_memories(tmp_path / "db", emb.model, emb.dim)
    changed = rec("m001", "the ryokan booking was cancelled", source="vault/memory/notes.md#L1")
    upsert_memories(writer, memory_rows(changed, rec("new", "a new memory")), emb, NOW)
    table.checkout_latest()
    every = _rowids(table)
    assert store.take(table, every) is None
    store.wait(60)
    held = store.take(table, every)
    assert held is not None
    contents = dict(zip(held["memory_id"].to_pylist(), held["content"].to_pylist(), strict=True))
    assert (
        contents["m001"] == "the ryokan booking was cancelled" and contents["new"] == "a new memory"
    )
    assert held.num_rows == 21


def test_a_row_id_the_version_does_not_hold_is_left_to_lancedb(tmp_path: Path):
    table = stored_memories(tmp_path / "db", FakeEmbedder(), NOW, *_rows(5))
    store = _loaded(table)
    known = _rowids(table)
    assert store.take(table, known) is not None
    assert store.take(table, [*known, max(known) + 1000]) is None


def test_an_empty_table_is_left_to_lancedb(tmp_path: Path):
    emb = FakeEmbedder()
    table = open_memories(tmp_path / "db", emb.model, emb.dim)
    store = _loaded(table)
    assert store.take(table, [0]) is None


def test_a_recall_through_the_store_ranks_as_one_that_reads_lancedb(tmp_path: Path, monkeypatch):
    emb = FakeEmbedder()
    table = stored_memories(tmp_path / "db", emb, NOW, *_rows(120))
    store = _loaded(table)
    served = []
    take = store.take

    def counted(t, rowids):
        got = take(t, rowids)
        served.append(got is not None)
        return got

    monkeypatch.setattr(store, "take", counted)
    for query in ("kyoto ryokan", "pottery museum budget", "running tea 7", "sunset"):
        read = recall(table, emb, query, NOW, k=10, rehearse=False)
        held = recall(table, emb, query, NOW, k=10, rehearse=False, store=store)
        assert [r.to_json() for r in held] == [r.to_json() for r in read]
        assert len(read) == 10
    assert served and all(served)


def test_rows_read_out_of_order_are_sorted_by_row_id():
    rows = pa.table({"memory_id": ["c", "a", "b"], "_rowid": pa.array([9, 1, 4], pa.uint64())})
    held, ids = sorted_by_rowid(rows)
    assert held["memory_id"].to_pylist() == ["a", "b", "c"] and ids.tolist() == [1, 4, 9]


def test_a_table_dropped_and_made_again_at_the_same_version_is_read_again(tmp_path: Path):
    emb = FakeEmbedder()
    table = stored_memories(tmp_path / "db", emb, NOW, *_rows(10))
    store = _loaded(table)
    held_version = table.version
    assert store.take(table, _rowids(table)) is not None
    # `omoide reindex` drops the table and writes it anew: its versions count from 1 again.
    drop_memories(tmp_path / "db")
    again = [rec(f"n{i:03d}", f"another memory {i}") for i in range(10)]
    stored_memories(tmp_path / "db", emb, NOW, *again)
    table.checkout_latest()
    assert table.version == held_version  # the same number names another table now
    assert store.take(table, _rowids(table)) is None
    store.wait(60)
    held = store.take(table, _rowids(table))
    assert held is not None and set(held["memory_id"].to_pylist()) == {
        r["memory_id"] for r in again
    }


def test_rows_are_found_by_memory_id_as_lancedb_finds_them(tmp_path: Path):
    emb = FakeEmbedder()
    table = stored_memories(tmp_path / "db", emb, NOW, *_rows(50))
    store = RowStore(COLUMNS)
    wanted = ["m049", "m007", "nowhere", "m000", "m007"]
    assert store.having(table, wanted) is None  # not read yet: the caller asks LanceDB
    store.wait(60)
    held = store.having(table, wanted)
    assert held is not None
    rows = table.search().where("memory_id IN ('m000', 'm007', 'm049')").with_row_id(True)
    expected = rows.select(COLUMNS).to_arrow().sort_by("_rowid")
    assert (
        held.select([*COLUMNS, "_rowid"]).to_pylist()
        == expected.select([*COLUMNS, "_rowid"]).to_pylist()
    )
    assert store.having(table, []).num_rows == 0
    # After a write, nothing until the new version is read.
    writer = open_memories(tmp_path / "db", emb.model, emb.dim)
    upsert_memories(writer, memory_rows(rec("m051", "a new memory")), emb, NOW)
    table.checkout_latest()
    assert store.having(table, ["m051"]) is None
    store.wait(60)
    assert store.having(table, ["m051"])["memory_id"].to_pylist() == ["m051"]
