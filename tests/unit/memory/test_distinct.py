"""No repeated hits: one citation once, no line twice, overlapping chat windows as one stretch."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pandas as pd

from omoide.core import schemas
from omoide.memory.distinct import distinct
from omoide.memory.overlap import line_key
from omoide.memory.recall import recall
from omoide.memory.records import chat_records
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


def _distinct(order: list[int], contents: list[str], **kw: object) -> list:
    """Candidates best first + texts -> distinct's results, each cited at chat.jsonl#L<n>."""
    sources = [f"chat.jsonl#L{i + 1}" for i in range(len(contents))]
    refs = [[s] for s in sources]
    return distinct(order, contents, sources, refs, [DAY] * len(contents), 10, kw.get("budget"))


def test_overlapping_windows_show_each_line_once_and_fold_what_is_shown() -> None:
    contents = [_window(i) for i in range(4)] + ["Bought a lamp"]
    shown = _distinct([1, 3, 0, 2, 4], contents)
    # Window 3 (messages 2-3) shares one of its two lines with window 1 (0-2): it stays a
    # result, showing only its own message. Windows 0 and 2 are shown by then: folded.
    assert [s.index for s in shown] == [1, 3, 4]
    assert [s.content for s in shown] == [_window(1), CHAT[3], "Bought a lamp"]
    # Window 2 (1-3): two of three lines in result 0, one in result 1: cited where most are.
    assert shown[0].refs == ["chat.jsonl#L2", "chat.jsonl#L1", "chat.jsonl#L3"]
    assert shown[0].folded == [0, 2] and shown[1].refs == ["chat.jsonl#L4"]
    shown = _distinct([0, 1], [_window(1), CHAT[2]])
    assert [s.index for s in shown] == [0] and shown[0].folded == [1]


def test_a_digest_below_its_records_cites_and_shows_only_what_they_do_not() -> None:
    note = "Friday, 20 November 2026 > Log: Booked the ryokan in Higashiyama for 3-7 April"
    digest = "Friday 2026-11-20. Mentioned: Peter.\n- Booked the ryokan in Higashiyama for 3-7 April\n- Bought a lamp"
    sources = ["notes.md#L4", "vault/memory/2026-11-20.md#L3"]
    refs = [["notes.md#L4"], ["notes.md#L4", "notes.md#L9"]]
    shown = distinct([0, 1], [note, digest], sources, refs, [DAY, DAY], 10, None)
    assert [s.refs for s in shown] == [["notes.md#L4"], ["notes.md#L9"]]
    assert shown[1].content == "Friday 2026-11-20. Mentioned: Peter.\n- Bought a lamp"
    # The other way round the digest shows and cites the line: the note adds nothing and is left out.
    shown = distinct([1, 0], [note, digest], sources, refs, [DAY, DAY], 10, None)
    assert [s.index for s in shown] == [1] and shown[0].refs == refs[1]


def test_the_same_words_on_another_day_stay_a_result_of_their_own() -> None:
    contents = [
        "Dinner at the ramen place",
        "dinner at the  Ramen place",
        "Dinner at the ramen place",
    ]
    sources = ["a.md#L1", "a.md#L2", "b.md#L1"]
    refs = [[s] for s in sources]
    days = [DAY, DAY, "2026-08-01"]
    shown = distinct([0, 1, 2, 0], contents, sources, refs, days, k=10, token_budget=None)
    assert [s.index for s in shown] == [0, 2]
    assert shown[0].refs == ["a.md#L1", "a.md#L2"]


def test_what_is_left_of_a_window_is_taken_while_it_fits_the_budget() -> None:
    shown_run = "Aiko: Ramen tomorrow?\nPeter: 13:00, the usual place"
    long = "Peter: " + "very " * 400 + "long"
    # Two of its three lines shown already: cited there, its long line left out.
    shown = _distinct([0, 1], [shown_run, f"{shown_run}\n{long}"], budget=60)
    assert [s.index for s in shown] == [0] and shown[0].content == shown_run
    assert shown[0].folded == [1] and shown[0].refs == ["chat.jsonl#L1", "chat.jsonl#L2"]
    # One of two: what is left does not fit, so it is skipped; a short one after it fits.
    later = [f"Peter: 13:00, the usual place\n{long}", "Aiko: See you there"]
    shown = _distinct([0, 1, 2], [shown_run, *later], budget=60)
    assert [s.index for s in shown] == [0, 2]


def test_a_digest_highlight_is_the_same_line_as_the_record_it_quotes() -> None:
    assert line_key("- Called  the Dentist") == "called the dentist"
    shown = _distinct([0, 1], ["Aiko: Called the dentist", "Thursday.\n- Called the dentist"])
    assert shown[1].content == "Thursday."
    # Two people saying the same short thing are two lines.
    shown = _distinct([0, 1], ["Peter: ok\nPeter: see you", "Aiko: ok"])
    assert [s.index for s in shown] == [0, 1] and shown[1].content == "Aiko: ok"


def _conversation(minutes: list[float]) -> pd.DataFrame:
    """Minutes after 18:00 of each message -> one conversation's chat events, in the lake's schema."""
    start = pd.Timestamp(f"{DAY}T18:00:00Z")
    rows = [
        {
            "event_id": f"e{i}",
            "ts": start + timedelta(minutes=m),
            "duration_s": 0.0,
            "source": "chat",
            "source_name": "chat",
            "event_type": "chat",
            "entities": [],
            "source_ref": f"chat.jsonl#L{i + 1}",
            "recorded_at": pd.Timestamp(NOW),
            "title": "Peter",
            "actor": "Peter" if i % 2 else "Aiko",
            "text": f"ramen message {i} about the usual place",
        }
        for i, m in enumerate(minutes)
    ]
    return schemas.conform(pd.DataFrame(rows), schemas.EVENTS)


def test_recall_on_overlapping_windows_never_cites_or_shows_a_line_twice(tmp_path: Path) -> None:
    # Two sittings of one conversation, every window overlapping its neighbours'.
    events = _conversation([0, 1, 2, 3, 4, 5, 60, 61, 62, 63])
    records = chat_records(events, datetime.fromisoformat(DAY).date(), NOW)
    assert len(records) == 10
    emb = FakeEmbedder()
    table = open_memories(tmp_path / "db", emb.model, emb.dim)
    upsert_memories(table, records, emb, NOW)
    found = recall(table, emb, "ramen message usual place", NOW, rehearse=False)
    assert found and all(r.kind == "chat" for r in found)
    cited = [ref for r in found for ref in r.source_refs]
    assert len(cited) == len(set(cited)) == 10  # every message, once
    shown = [line_key(line) for r in found for line in r.content.splitlines()]
    assert len(shown) == len(set(shown)) == 10  # a neighbour's mark aside
    # each result a stretch of one sitting, in order
    for r in found:
        said = [int(line_key(line).split()[3]) for line in r.content.splitlines()]
        assert said == list(range(said[0], said[0] + len(said)))
        assert max(said) <= 5 or min(said) >= 6, said
    assert {r.memory_id for r in found} <= set(records["memory_id"])


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
    shown = [line for r in found if r.kind == "chat" for line in r.content.splitlines()]
    assert sorted(shown) == sorted(CHAT)  # every line, once


def test_a_marked_chat_record_folds_only_where_its_own_message_is_shown() -> None:
    # Records as chat_records writes them: the neighbours marked, the own message not.
    first = "Aiko: Ramen tomorrow?\n↓ Peter: Sure, 13:00"
    second = "↑ Aiko: Ramen tomorrow?\nPeter: Sure, 13:00\n↓ Aiko: The usual place"
    third = "↑ Peter: Sure, 13:00\nAiko: The usual place"
    # The second shows the first's and the third's messages: both fold into it.
    shown = _distinct([1, 0, 2], [first, second, third])
    assert [s.index for s in shown] == [1] and shown[0].folded == [0, 2]
    assert shown[0].refs == ["chat.jsonl#L2", "chat.jsonl#L1", "chat.jsonl#L3"]
    # Shown whole as the first's context, the second's message is shown: it folds there; the
    # third's message is shown by none, so it is a result (its context, shown above, left out).
    shown = _distinct([0, 2, 1], [first, third, second])
    assert [s.index for s in shown] == [0, 1] and shown[0].folded == [2]
    assert shown[1].content == "Aiko: The usual place"
    # A neighbour shown cut is not its message shown: that record stays a result of its own.
    cut_first = "Aiko: Ramen tomorrow?\n↓ Peter: Sure, …"
    shown = _distinct([0, 1], [cut_first, second])
    assert [s.index for s in shown] == [0, 1] and not shown[0].folded
    assert shown[1].content == "Peter: Sure, 13:00\n↓ Aiko: The usual place"
