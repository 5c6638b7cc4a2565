"""An agent's answers from one set of open stores: a run that writes while the MCP server is up is
seen by the next question, whether the recall columns come from LanceDB or from memory."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from omoide.agents.answers import OpenMemory, recall_answer
from omoide.core.settings import get_settings
from omoide.memory.recall import Asked
from omoide.store.memories import open_memories, upsert_memories
from tests.fakes import FakeEmbedder, memory_rows, rows_at, stored_memories

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)
rec = rows_at(NOW)


def test_a_question_after_a_run_wrote_sees_what_it_wrote(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("OMOIDE_HOME", str(tmp_path))
    settings = get_settings()
    emb = FakeEmbedder()
    table = stored_memories(
        settings.lancedb_dir,
        emb,
        NOW,
        rec("stay", "the ryokan in Higashiyama is booked"),
        rec("tea", "tea ceremony in Uji on Sunday"),
    )
    memory = OpenMemory(settings, emb, table)
    memory.rows.load(table)
    memory.rows.wait(60)

    def contents() -> dict[str, str]:
        found = recall_answer(memory, Asked("ryokan booked", k=5), NOW)
        return {r["memory_id"]: r["content"] for r in found}

    assert contents()["stay"] == "the ryokan in Higashiyama is booked"
    writer = open_memories(settings.lancedb_dir, emb.model, emb.dim)
    upsert_memories(
        writer,
        memory_rows(
            rec("stay", "the ryokan booking was moved to Nara"),
            rec("inn", "a second ryokan booked in Kanazawa"),
        ),
        emb,
        NOW,
    )
    # Asked at once (the store still holds the older version) and once it has read the new one.
    right_after = contents()
    memory.rows.wait(60)
    later = contents()
    for seen in (right_after, later):
        assert seen["stay"] == "the ryokan booking was moved to Nara"
        assert "inn" in seen
    # The later answer came from memory: the store holds the version the run wrote.
    every = memory.memories.search().with_row_id(True).limit(None).to_arrow()["_rowid"]
    assert memory.rows.take(memory.memories, every.to_pylist()) is not None
