"""A day's tags reach the records about them: by mention, and by a retained fact restating a note."""

from __future__ import annotations

import pandas as pd

from omoide.memory.day_summary import Fact
from omoide.memory.entity_links import linked_entities

NOTE = "sources/notes/2026-11-19.md"


def fact(content: str, *entities: str, ref: str = f"{NOTE}#L25", origin: str = "retain") -> Fact:
    return Fact("W", content, entities, 1.0, 0.9, (ref,), "2026-11-19T19:15:00+00:00", origin, "f")


def records(*rows: tuple[str, str, list[str], str]) -> pd.DataFrame:
    return pd.DataFrame(
        [{"kind": k, "content": c, "entities": e, "source": s} for k, c, e, s in rows]
    )


def test_a_note_restated_by_a_retained_fact_takes_its_entities():
    recs = records(
        (
            "note",
            "Thursday > Log: Booked the ryokan in Higashiyama for 3–7 April 2027",
            [],
            f"{NOTE}#L11",
        ),
        ("note", "Thursday > Log: Released warelay with the midnight fix", [], f"{NOTE}#L10"),
    )
    out = linked_entities(
        recs, [fact("The ryokan in Higashiyama is booked for 3–7 April 2027.", "Kyoto")]
    )
    assert out["entities"].tolist() == [["Kyoto"], []]


def test_restatement_needs_the_same_note_file_and_a_retained_fact():
    line = ("note", "Booked the ryokan in Higashiyama for April", [], f"{NOTE}#L11")
    said = "The ryokan in Higashiyama is booked for April."
    other_file = fact(said, "Kyoto", ref="sources/notes/2026-11-18.md#L20")
    by_model = fact(said, "Kyoto", origin="digest")
    assert linked_entities(records(line), [other_file, by_model])["entities"].tolist() == [[]]


def test_records_naming_an_entity_of_the_day_take_it():
    recs = records(
        ("chat", "Peter: Kyoto in April still on?", ["Peter"], "chat.jsonl#L3"),
        ("note", "Read about kyoto's temples", [], f"{NOTE}#L4"),
        ("note", "Tokyoite food tour", [], f"{NOTE}#L5"),  # no whole-word "Tokyo"
        ("note", "京都の旅館を予約した", [], f"{NOTE}#L6"),
        ("session", "japan-guide.com: Kyoto Travel", [], "vault/memory/2026-11-19.md#L9"),
    )
    out = linked_entities(recs, [fact("Booked", "Kyoto"), fact("旅館", "京都"), fact("x", "Tokyo")])
    assert out["entities"].tolist() == [["Peter", "Kyoto"], ["Kyoto"], [], ["京都"], []]


def test_a_day_without_entities_is_left_as_it_is():
    recs = records(("note", "Cooked oyakodon", [], f"{NOTE}#L3"))
    assert linked_entities(recs, []) is recs
