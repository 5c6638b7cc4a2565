"""What a long-lived reader keeps per table version (the entity index) is made again for a table
dropped and written anew at the same version number, as `omoide reindex` does."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path

from omoide.memory.query_entities import entity_index
from omoide.store.memories import drop_memories, open_memories, upsert_memories
from omoide.store.table_version import pinned, version_key
from tests.fakes import FakeEmbedder, memory_rows, rows_at, stored_memories

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)
rec = rows_at(NOW)


def test_the_entity_index_of_a_table_made_again_is_its_own(tmp_path: Path):
    emb = FakeEmbedder()
    table = stored_memories(
        tmp_path / "db", emb, NOW, rec("a", "ryokan booked", entities=["Kyoto"])
    )
    assert "kyoto" in entity_index(table).df
    before = version_key(table)
    drop_memories(tmp_path / "db")
    stored_memories(tmp_path / "db", emb, NOW, rec("b", "tea in Uji", entities=["Uji"]))
    table.checkout_latest()
    assert table.version == before[0]  # the same number names another table now
    assert version_key(table) != before
    index = entity_index(table)
    assert "uji" in index.df and "kyoto" not in index.df


def test_a_pinned_version_is_asked_once_in_its_block_and_only_in_its_thread(tmp_path: Path):
    emb = FakeEmbedder()
    table = stored_memories(tmp_path / "db", emb, NOW, rec("a", "ryokan booked"))
    before = version_key(table)
    with pinned(table):
        # Another writer moves the table; this handle follows it: the pin still holds.
        upsert_memories(
            open_memories(tmp_path / "db", emb.model, emb.dim),
            memory_rows(rec("b", "tea")),
            emb,
            NOW,
        )
        table.checkout_latest()
        with pinned(table):  # nested: the outer pin stands
            assert version_key(table) == before
        assert version_key(table) == before
        elsewhere: list[object] = []
        thread = threading.Thread(target=lambda: elsewhere.append(version_key(table)))
        thread.start()
        thread.join()
        assert elsewhere[0] != before  # another thread asks LanceDB
    assert version_key(table) == elsewhere[0] != before
