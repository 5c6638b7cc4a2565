"""Time words in a question rank what lies in their window first, without hiding an exact match outside."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from omoide.core.settings import RecallSettings
from omoide.memory.recall import OUT_OF_WINDOW, Asked, recall_asked
from omoide.store.memories import open_memories, upsert_memories
from tests.fakes import FakeEmbedder, memory_row, memory_rows

NOW = datetime(2026, 11, 25, 9, tzinfo=UTC)  # a Wednesday
TZ = "Europe/Berlin"
KNOBS = RecallSettings()


@pytest.fixture
def diary(tmp_path: Path):
    """A table of ramen dinners and one exact match, on days around the week before NOW."""
    emb = FakeEmbedder()
    rows = [
        ("lastweek", "Dinner at the ramen place with Mina", "2026-11-18"),
        ("thisweek", "Dinner at the ramen place again", "2026-11-24"),
        ("spring", "Dinner at the ramen place, first time", "2026-04-02"),
        ("exact", "The kaiseki tasting menu at Kikunoi was unforgettable", "2026-10-01"),
        ("vague", "Walked past a restaurant", "2026-11-17"),
    ]
    table = open_memories(tmp_path / "db", emb.model, emb.dim)
    upsert_memories(
        table,
        memory_rows(
            *(
                memory_row(m, text, now=NOW, day=day, source=f"notes/{day}.md#L1")
                for m, text, day in rows
            )
        ),
        emb,
        NOW,
    )
    return table, emb


def _ask(diary, query: str, **kw: str) -> list:
    """Diary + question (+ --since/--until) -> the recalled memories, no rehearsal."""
    table, emb = diary
    return recall_asked(table, emb, Asked(query, **kw), KNOBS, TZ, NOW, rehearse=False)


@pytest.mark.parametrize("query", ["ramen last week", "先週のラーメン ramen"])
def test_the_named_week_comes_first_and_the_rest_still_comes(diary, query: str) -> None:
    found = _ask(diary, query)
    ids = [r.memory_id for r in found]
    assert ids[0] == "lastweek"
    assert {"thisweek", "spring"} <= set(ids)  # outside the window, not hidden
    windows = {r.memory_id: r.parts.window for r in found}
    assert windows["lastweek"] == 1.0 and windows["thisweek"] == OUT_OF_WINDOW


def test_an_exact_match_outside_the_window_beats_a_vague_one_inside(diary) -> None:
    found = _ask(diary, "kaiseki at Kikunoi last week")
    assert found[0].memory_id == "exact" and found[0].parts.window == OUT_OF_WINDOW


def test_explicit_since_and_until_win_over_time_words(diary) -> None:
    found = _ask(diary, "ramen last week", since="2026-11-23")
    assert [r.memory_id for r in found] == ["thisweek"]
    assert all(r.parts.window == 1.0 for r in found)


def test_no_time_words_no_window(diary) -> None:
    assert all(r.parts.window == 1.0 for r in _ask(diary, "ramen"))


def test_a_date_said_in_the_text_counts_as_inside_the_window(tmp_path: Path) -> None:
    # "last week" said on the 24th meant the week of the 16th: a question about that week finds
    # it inside, though it was written in this one.
    emb = FakeEmbedder()
    table = open_memories(tmp_path / "db", emb.model, emb.dim)
    rows = [
        ("said", "Ramen with Mina last week [2026-11-16/2026-11-22] was great", "L1"),
        ("other", "Ramen again, alone", "L2"),
    ]
    upsert_memories(
        table,
        memory_rows(
            *(
                memory_row(m, t, now=NOW, day="2026-11-24", source=f"n/2026-11-24.md#{line}")
                for m, t, line in rows
            )
        ),
        emb,
        NOW,
    )
    found = {r.memory_id: r.parts.window for r in _ask((table, emb), "ramen last week")}
    assert found == {"said": 1.0, "other": OUT_OF_WINDOW}
