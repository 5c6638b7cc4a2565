"""What a long-lived reader keeps per table version (the entity index) is made again for a table
dropped and written anew at the same version number, as `omoide reindex` does."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from omoide.memory.query_entities import entity_index
from omoide.store.memories import drop_memories
from omoide.store.table_version import version_key
from tests.fakes import FakeEmbedder, rows_at, stored_memories

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
