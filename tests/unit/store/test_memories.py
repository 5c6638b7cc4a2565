from __future__ import annotations

import functools
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pyarrow as pa
import pytest

from omoide.core import schemas
from omoide.core.errors import EmbeddingMismatchError, OmoideError
from omoide.store import memories
from omoide.store.memories import (
    bump_recall,
    catch_up_indices,
    count,
    day_rows,
    drop_memories,
    open_memories,
    replace_day,
    rows_with_ids,
    train_vectors,
    upsert_memories,
)
from tests.fakes import FakeEmbedder, memory_row, memory_rows
from tests.lance_plan import ivf_partitions

NOW = datetime(2026, 11, 21, 6, tzinfo=UTC)
DAY = "2026-11-20"


rec = functools.partial(memory_row, now=NOW, entities=["Alice"], source_refs=[f"notes/{DAY}.md#L3"])
frame = memory_rows


def snapshot(table) -> list[dict]:
    return sorted(table.to_arrow().to_pylist(), key=lambda r: r["memory_id"])


@pytest.fixture
def emb() -> FakeEmbedder:
    return FakeEmbedder()


@pytest.fixture
def table(tmp_path: Path, emb: FakeEmbedder):
    return open_memories(tmp_path / "db", emb.model, emb.dim)


BASE = (
    rec("m1", "Ran 10k along the river"),
    rec("m2", "Lunch with Bob"),
    rec("m3", "Read LanceDB docs"),
)


def test_same_records_twice_change_nothing_and_embed_nothing(table, emb):
    first = upsert_memories(table, frame(*BASE), emb, NOW)
    assert (first.inserted, first.updated, first.unchanged, first.embedded) == (3, 0, 0, 3)
    version, rows = table.version, snapshot(table)
    emb.calls.clear()
    later = NOW + timedelta(days=1)
    again = frame(*(dict(r, recorded_at=later) for r in BASE))
    second = upsert_memories(table, again, emb, later)
    assert (second.inserted, second.updated, second.unchanged, second.embedded) == (0, 0, 3, 0)
    assert emb.calls == []
    assert table.version == version
    assert snapshot(table) == rows


def test_changed_content_is_re_embedded_and_keeps_recall_counters(table, emb):
    upsert_memories(table, frame(*BASE), emb, NOW)
    bump_recall(table, ["m1"], NOW)
    before = {r["memory_id"]: r for r in snapshot(table)}
    emb.calls.clear()
    changed = frame(rec("m1", "Ran 12k along the river"), *BASE[1:])
    stats = upsert_memories(table, changed, emb, NOW + timedelta(hours=1))
    assert (stats.updated, stats.unchanged, stats.embedded) == (1, 2, 1)
    assert emb.calls == [["Ran 12k along the river"]]
    after = {r["memory_id"]: r for r in snapshot(table)}
    assert after["m1"]["vector"] != before["m1"]["vector"]
    assert after["m1"]["content_hash"] != before["m1"]["content_hash"]
    assert after["m1"]["recall_count"] == 1
    assert after["m1"]["last_recalled_at"] == NOW
    assert count(table) == 3


def test_metadata_only_change_reuses_the_vector(table, emb):
    upsert_memories(table, frame(*BASE), emb, NOW)
    before = {r["memory_id"]: r for r in snapshot(table)}
    emb.calls.clear()
    changed = frame(
        rec("m2", "Lunch with Bob", importance=0.9, entities=["Bob", "Alice"]), *BASE[::2]
    )
    stats = upsert_memories(table, changed, emb, NOW + timedelta(days=2))
    assert (stats.inserted, stats.updated, stats.unchanged, stats.embedded) == (0, 1, 2, 0)
    assert emb.calls == []
    m2 = {r["memory_id"]: r for r in snapshot(table)}["m2"]
    assert m2["vector"] == before["m2"]["vector"]
    assert (m2["importance"], m2["entities"]) == (0.9, ["Bob", "Alice"])
    assert m2["recorded_at"] == NOW  # first recording time is kept


def test_arrow_input_and_duplicate_ids_keep_the_last_row(table, emb):
    records = pa.Table.from_pylist(
        [rec("m1", "old text"), rec("m1", "new text"), rec("m2", "other", recorded_at=None)],
        schema=schemas.FACTS,
    )
    stats = upsert_memories(table, records, emb, NOW)
    assert (stats.inserted, stats.embedded) == (2, 2)
    rows = {r["memory_id"]: r for r in snapshot(table)}
    assert rows["m1"]["content"] == "new text"
    assert rows["m2"]["recorded_at"] == NOW
    assert rows["m1"]["embed_model"] == "fake-16"


def test_missing_columns_are_named(table, emb):
    with pytest.raises(OmoideError, match="content"):
        upsert_memories(table, pa.table({"memory_id": ["m1"]}), emb, NOW)


def test_wrong_vector_width_is_a_mismatch(table):
    with pytest.raises(EmbeddingMismatchError, match="shape"):
        upsert_memories(table, frame(*BASE), FakeEmbedder(dim=8), NOW)


def test_reopening_with_another_model_or_dim_says_reindex(tmp_path: Path, table, emb):
    upsert_memories(table, frame(*BASE), emb, NOW)
    assert table.schema.metadata[memories.META_MODEL] == b"fake-16"
    with pytest.raises(EmbeddingMismatchError) as err:
        open_memories(tmp_path / "db", "other-model", 16)
    assert "fake-16" in str(err.value) and "other-model" in str(err.value)
    assert "omoide reindex" in str(err.value)
    with pytest.raises(EmbeddingMismatchError, match="32 dims"):
        open_memories(tmp_path / "db", "fake-16", 32)
    assert open_memories(tmp_path / "db", "fake-16", 16).count_rows() == 3


def test_open_without_create_and_drop(tmp_path: Path, emb):
    with pytest.raises(OmoideError, match="no memories table"):
        open_memories(tmp_path / "db", emb.model, emb.dim, create=False)
    table = open_memories(tmp_path / "db", emb.model, emb.dim)
    upsert_memories(table, frame(*BASE), emb, NOW)
    drop_memories(tmp_path / "db")
    drop_memories(tmp_path / "db")  # idempotent
    assert open_memories(tmp_path / "db", "new-model", 8).count_rows() == 0


def test_replace_day_removes_vanished_rows_of_that_day_only(table, emb):
    other_day = rec("x1", "A different day", day="2026-11-19")
    chat = rec("c1", "Bob: see you at noon", kind="chat")
    upsert_memories(table, frame(*BASE, other_day, chat), emb, NOW)
    # Regenerating only the notes leaves the day's chat rows alone.
    stats = replace_day(table, DAY, frame(BASE[0], BASE[2]), emb, NOW, kinds=["note"])
    assert (stats.unchanged, stats.deleted, stats.embedded) == (2, 1, 0)
    assert {r["memory_id"] for r in snapshot(table)} == {"m1", "m3", "x1", "c1"}
    # The full set of a day replaces every kind of that day, never another day.
    stats = replace_day(table, DAY, frame(BASE[0]), emb, NOW)
    assert stats.deleted == 2
    assert {r["memory_id"] for r in snapshot(table)} == {"m1", "x1"}
    assert list(day_rows(table, DAY)["memory_id"]) == ["m1"]
    version = table.version
    assert replace_day(table, DAY, frame(BASE[0]), emb, NOW).deleted == 0
    assert table.version == version
    assert replace_day(table, "2026-11-19", frame(), emb, NOW).deleted == 1
    assert {r["memory_id"] for r in snapshot(table)} == {"m1"}


def test_days_written_without_upkeep_are_indexed_by_one_catch_up(tmp_path: Path, table, emb):
    db = tmp_path / "db"
    replace_day(table, DAY, frame(*BASE), emb, NOW, maintain=False)
    other = rec("x1", "Swam in the lake", day="2026-11-19")
    replace_day(table, "2026-11-19", frame(other), emb, NOW, maintain=False)
    assert table.list_indices() == []  # nothing indexed yet; a scan still finds every row
    assert catch_up_indices(db) is True
    table.checkout_latest()  # the catch-up wrote through a table object of its own
    (fts,) = table.list_indices()
    assert table.index_stats(fts.name).num_unindexed_rows == 0
    hits = table.search("lake", query_type="fts").limit(5).to_arrow()["memory_id"].to_pylist()
    assert hits == ["x1"]
    assert catch_up_indices(db) is False  # caught up: no work, no new table version
    replace_day(table, DAY, frame(*BASE, rec("m4", "Lake swim again")), emb, NOW, maintain=False)
    assert table.index_stats(fts.name).num_unindexed_rows == 1
    assert catch_up_indices(db) is True
    table.checkout_latest()
    assert table.index_stats(fts.name).num_unindexed_rows == 0
    assert catch_up_indices(tmp_path / "nothing-here") is False


def test_replace_day_refuses_records_of_another_day(table, emb):
    with pytest.raises(OmoideError, match="2026-11-19"):
        replace_day(table, DAY, frame(rec("x1", "other", day="2026-11-19")), emb, NOW)


def test_bump_recall_counts_each_rehearsal(table, emb):
    upsert_memories(table, frame(*BASE), emb, NOW)
    assert bump_recall(table, ["m1", "m2"], NOW) == 2
    assert bump_recall(table, ["m1"], NOW + timedelta(hours=1)) == 1
    assert bump_recall(table, [], NOW) == 0
    rows = {r["memory_id"]: r for r in snapshot(table)}
    assert [rows[m]["recall_count"] for m in ("m1", "m2", "m3")] == [2, 1, 0]
    assert rows["m1"]["last_recalled_at"] == NOW + timedelta(hours=1)
    assert rows["m3"]["last_recalled_at"] is None


def test_fts_index_is_built_and_kept_current(table, emb):
    upsert_memories(table, frame(*BASE), emb, NOW)
    (fts,) = [i for i in table.list_indices() if i.columns == ["content"]]
    assert fts.index_type == "FTS"
    upsert_memories(table, frame(rec("m4", "Piano lesson")), emb, NOW)
    assert table.index_stats(fts.name).num_unindexed_rows == 0
    assert not any("vector" in i.columns for i in table.list_indices())


def test_vector_index_once_past_the_threshold(table, emb, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(memories, "ANN_MIN_ROWS", 300)
    upsert_memories(table, frame(*(rec(f"a{i}", f"note number {i}") for i in range(299))), emb, NOW)
    assert not any("vector" in i.columns for i in table.list_indices())
    upsert_memories(table, frame(rec("a299", "the last one")), emb, NOW)
    kinds = {tuple(i.columns): i.index_type for i in table.list_indices()}
    assert kinds == {
        ("content",): "FTS",
        ("vector",): "IvfSq",
        ("ts",): "BTree",
        ("kind",): "Bitmap",
    }


def test_vector_index_keeps_its_partitions_after_each_write(
    table, emb, monkeypatch: pytest.MonkeyPatch
):
    # Lance's optimize() joins small IVF partitions (24 become 1 here), after which a search
    # compares every code: each write's upkeep trains the index again on all its rows.
    monkeypatch.setattr(memories, "ANN_MIN_ROWS", 300)
    upsert_memories(table, frame(*(rec(f"a{i}", f"note number {i}") for i in range(300))), emb, NOW)

    def names() -> list[str]:
        return [i.name for i in table.list_indices() if "vector" in i.columns]

    assert names() == ["vector_ivf_sq_n300"] and ivf_partitions(table) == 17
    upsert_memories(table, frame(*(rec(f"b{i}", f"more {i}") for i in range(276))), emb, NOW)
    assert names() == ["vector_ivf_sq_n576"] and ivf_partitions(table) == 24
    assert table.index_stats(names()[0]).num_unindexed_rows == 0
    table.optimize()  # what any other upkeep (prune, forget) does first
    assert ivf_partitions(table) < 24
    assert (
        train_vectors(table) and names() == ["vector_ivf_sq_n576"] and ivf_partitions(table) == 24
    )


def test_rows_with_ids_come_in_the_order_asked_without_vectors(table, emb):
    upsert_memories(table, frame(*BASE), emb, NOW)
    rows = rows_with_ids(table, ["m3", "gone", "m1"])
    assert list(rows["memory_id"]) == ["m3", "m1"] and "vector" not in rows.columns
    assert rows.loc[0, "content"] == "Read LanceDB docs"
    assert rows_with_ids(table, []).empty
