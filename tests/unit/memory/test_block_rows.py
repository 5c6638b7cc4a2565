"""A block's memory row: its line as content, its people and named things as entities, never a topic read off titles."""

from __future__ import annotations

from datetime import UTC, date, datetime

from omoide.memory.block_rows import block_records
from tests.fakes import a_block

DAY = date(2026, 11, 18)
NOW = datetime(2026, 11, 19, tzinfo=UTC)


def test_a_title_words_topic_is_no_entity_of_the_block_row() -> None:
    reading = a_block(
        1,
        "2026-11-18T15:00:00Z",
        "2026-11-18T15:45:00Z",
        "reading",
        "reading about Labs",
        topic="Labs",
        entities=("Labs", "LanceDB"),
    )
    meeting = a_block(
        2,
        "2026-11-18T08:30:00Z",
        "2026-11-18T08:50:00Z",
        "meeting",
        "Standup with Mina",
        topic="Mina",
        people=("Mina",),
        entities=("Mina",),
    )
    rows = block_records([meeting, reading], DAY, "Europe/Berlin", NOW)
    assert [list(e) for e in rows["entities"]] == [["Mina"], ["LanceDB"]]
    assert rows["content"].iloc[0].startswith("09:30–09:50 Standup with Mina (meeting")
