"""No repeated hits: one citation once, overlapping chat windows as one result, near-copies folded."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from omoide.memory.distinct import distinct
from omoide.memory.recall import recall
from omoide.store.memories import open_memories, upsert_memories
from tests.fakes import FakeEmbedder, memory_row, memory_rows

NOW = datetime(2026, 11, 21, 8, tzinfo=UTC)
DAY = "2026-11-20"
CHAT = [
    "Peter: You're up late",
    "Aiko: Ryokan rabbit hole. Higashiyama or Gion?",
    "Peter: Higashiyama, quieter. Go to sleep!",
    "Aiko: Fine. Booking the Higashiyama ryokan tomorrow.",
]


def _window(i: int) -> str:
    """Message index -> the chat memory's text: the message with one neighbour each side."""
    return "\n".join(CHAT[max(0, i - 1) : i + 2])


def test_overlapping_windows_fold_into_the_best_and_it_cites_them_all() -> None:
    contents = [_window(i) for i in range(4)] + ["Bought a lamp"]
    sources = [f"chat.jsonl#L{i + 1}" for i in range(4)] + ["notes.md#L3"]
    refs = [[s] for s in sources]
    days = [DAY] * 5
    shown = distinct([1, 2, 0, 3, 4], contents, sources, refs, days, k=10, token_budget=None)
    # Window 2 shares two of its three lines with window 1, window 0 both of its two; window 3
    # (messages 2-3) shares one of two, only half: its own message is not shown, it stays.
    assert [s.index for s in shown] == [1, 3, 4]
    assert shown[0].refs == ["chat.jsonl#L2", "chat.jsonl#L3", "chat.jsonl#L1"]
    assert shown[0].folded == [2, 0]


def test_a_citation_comes_once_and_other_days_stay_their_own() -> None:
    contents = [
        "Dinner at the ramen place",
        "dinner at the  Ramen place",
        "Dinner at the ramen place",
    ]
    sources = ["a.md#L1", "a.md#L2", "b.md#L1"]
    refs = [[s] for s in sources]
    shown = distinct(
        [0, 1, 2, 0], contents, sources, refs, [DAY, DAY, "2026-08-01"], k=10, token_budget=None
    )
    assert [s.index for s in shown] == [0, 2]
    assert shown[0].refs == ["a.md#L1", "a.md#L2"]


def test_recall_never_returns_the_same_record_or_window_twice(tmp_path: Path) -> None:
    emb = FakeEmbedder()
    rows = [
        memory_row(
            f"c{i}",
            _window(i),
            kind="chat",
            now=NOW,
            day=DAY,
            source=f"chat.jsonl#L{i + 1}",
            source_refs=[f"chat.jsonl#L{i + 1}"],
        )
        for i in range(4)
    ]
    rows.append(memory_row("n1", "The Higashiyama ryokan is booked.", kind="W", now=NOW, day=DAY,
                           source="notes.md#L9", source_refs=["notes.md#L9"]))  # fmt: skip
    table = open_memories(tmp_path / "db", emb.model, emb.dim)
    upsert_memories(table, memory_rows(*rows), emb, NOW)
    found = recall(table, emb, "Higashiyama ryokan", NOW, rehearse=False)
    cited = [ref for r in found for ref in r.source_refs]
    assert len(cited) == len(set(cited)) == 5
    assert sorted(r.kind for r in found) == ["W", "chat", "chat"]
