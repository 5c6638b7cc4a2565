"""A question across events spreads its results over sittings; the walk cites what the list shows."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from omoide.memory.distinct import Spread, distinct
from omoide.memory.recall import recall
from omoide.store.memories import open_memories, upsert_memories
from tests.fakes import FakeEmbedder, memory_row, memory_rows

NOW = datetime(2026, 11, 21, 8, tzinfo=UTC)
DAY = "2026-11-20"


def _walk(order: list[int], score: list[float], sitting: list[str], factor: float) -> list[int]:
    """Candidates best first + scores + sittings + factor -> the indices distinct takes."""
    n = len(score)
    sources = [f"chat.jsonl#L{i + 1}" for i in range(n)]
    shown = distinct(
        order,
        [f"message {i} about climbing" for i in range(n)],
        sources,
        [[s] for s in sources],
        [DAY] * n,
        10,
        None,
        Spread(score, [(s,) for s in sitting], factor),
    )
    return [s.index for s in shown]


def test_a_sittings_next_result_costs_the_factor_per_result_it_has() -> None:
    score = [1.0, 0.9, 0.8, 0.5]
    sitting = ["a", "a", "b", "a"]
    # 0.9 · 0.7 = 0.63 < 0.8: b's first comes before a's second; a's third 0.5 · 0.49 last.
    assert _walk([0, 1, 2, 3], score, sitting, 0.7) == [0, 2, 1, 3]
    assert _walk([0, 1, 2, 3], score, sitting, 1.0) == [0, 1, 2, 3]  # factor 1: as ranked
    assert _walk([0, 1, 2, 3], score, sitting, 0.95) == [0, 1, 2, 3]  # 0.855 > 0.8


def test_places_the_ranking_gave_above_a_score_hold() -> None:
    # The ranking put 3 first (the first pass's head, or a standing fact before the fact it
    # replaced) though its score is lower: it stays first, and the rest spread after it.
    score = [1.0, 0.9, 0.8, 0.2]
    assert _walk([3, 0, 1, 2], score, ["a", "a", "b", "c"], 0.7) == [3, 0, 2, 1]


def test_after_k_results_the_walk_still_cites_records_the_list_shows() -> None:
    first = "Aiko: Ramen tomorrow?\n↓ Peter: Sure, 13:00"
    second = "↑ Aiko: Ramen tomorrow?\nPeter: Sure, 13:00\n↓ Aiko: The usual place"
    third = "↑ Peter: Sure, 13:00\nAiko: The usual place"
    other = "Aiko: Bought a lamp"
    sources = [f"chat.jsonl#L{i + 1}" for i in range(4)]
    refs = [[s] for s in sources]
    # k = 1: the second is the result; the first and third show only lines it shows (their
    # own messages whole), so it cites them too; the lamp, not shown, is not cited.
    shown = distinct([1, 3, 0, 2], [first, second, third, other], sources, refs, [DAY] * 4, 1, None)
    assert [s.index for s in shown] == [1] and shown[0].folded == [0, 2]
    assert shown[0].refs == ["chat.jsonl#L2", "chat.jsonl#L1", "chat.jsonl#L3"]
    assert shown[0].content == second


def _conversations(tmp_path: Path) -> object:
    """Two friends' chats on two days, climbing said three times to Peter and once to Mia -> a real table."""
    said = [
        ("p1", "Peter", "2026-11-10", "Went climbing at the gym, bouldering wall all evening"),
        ("p2", "Peter", "2026-11-10", "The climbing gym has a new bouldering wall too"),
        ("p3", "Peter", "2026-11-10", "Climbing gym again next week, the bouldering wall"),
        ("m1", "Mia", "2026-11-14", "Climbing gym with Mia today, the bouldering wall was busy"),
        ("x1", "Mia", "2026-11-14", "Dinner was ramen"),
    ]
    rows = [
        memory_row(mid, text, kind="chat", now=NOW, day=day, entities=[who],
                   source=f"chat.jsonl#L{i + 1}", source_refs=[f"chat.jsonl#L{i + 1}"])
        for i, (mid, who, day, text) in enumerate(said)
    ]  # fmt: skip
    emb = FakeEmbedder()
    table = open_memories(tmp_path / "db", emb.model, emb.dim)
    upsert_memories(table, memory_rows(*rows), emb, NOW)
    return table


def test_recall_spreads_a_counting_question_over_its_sittings(tmp_path: Path) -> None:
    table = _conversations(tmp_path)
    emb = FakeEmbedder()
    one = recall(table, emb, "climbing gym bouldering wall", NOW, k=2, rehearse=False)
    assert [r.entities for r in one] == [["Peter"], ["Peter"]]  # a question about one thing
    many = recall(table, emb, "How many times did I go climbing gym bouldering wall?", NOW,
                  k=2, rehearse=False)  # fmt: skip
    # Peter's other two messages score above Mia's (0.65 > 0.62), but each costs 0.7 more
    assert [r.entities for r in many] == [["Peter"], ["Mia"]]
    assert many[0].score > many[1].score  # the best stays first


def test_a_digest_counts_as_the_conversations_it_restates() -> None:
    n = 3
    sources = [f"chat.jsonl#L{i + 1}" for i in range(n)]
    texts = ["Peter: climbing at the gym", "Mia: climbing at the crag", "- climbing, bouldering"]
    # the digest of Peter's day (2) restates his chat: once that is shown, it costs 0.7 too
    sittings = [(("Peter",),), (("Mia",),), (("digest",), ("Peter",))]
    shown = distinct([0, 2, 1], texts, sources, [[s] for s in sources], [DAY] * n, 2, None,
                     Spread([1.0, 0.8, 0.9], sittings, 0.7))  # fmt: skip
    assert [s.index for s in shown] == [0, 1]  # 0.9 · 0.7 = 0.63 < Mia's 0.8
    alone = [(("Peter",),), (("Mia",),), (("digest",),)]
    shown = distinct([0, 2, 1], texts, sources, [[s] for s in sources], [DAY] * n, 2, None,
                     Spread([1.0, 0.8, 0.9], alone, 0.7))  # fmt: skip
    assert [s.index for s in shown] == [0, 2]  # a sitting of its own, it came next


def test_recall_spreads_a_question_about_the_state_now(tmp_path: Path) -> None:
    table = _conversations(tmp_path)
    many = recall(table, FakeEmbedder(), "Where am I currently climbing gym bouldering wall?",
                  NOW, k=2, rehearse=False)  # fmt: skip
    assert [r.entities for r in many] == [["Peter"], ["Mia"]]
