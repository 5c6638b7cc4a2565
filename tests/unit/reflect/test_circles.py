"""How the user knows a person, from evidence: a work workspace or work words make a colleague, a kinship word family, social words or a personal messenger a friend; the bond no longer calls a colleague a friend."""

from __future__ import annotations

from datetime import UTC, datetime

import pandas as pd

from omoide.reflect.circles import COLLEAGUE, FAMILY, FRIEND, circle_evidence, circle_of
from omoide.reflect.entities import collect_entities
from omoide.reflect.relationships import CLOSE_FRIEND, relationships_for


def test_the_circle_comes_from_evidence() -> None:
    names = ["Mina"]
    assert circle_evidence("Can you review the PR?", names, chat_kind="slack") == COLLEAGUE
    assert circle_evidence("ok", names, ref="export/D1/2026-11-11.json#ts=170.1") == COLLEAGUE
    assert circle_evidence("Standup: @Mina is blocked on the CI cache", names) == COLLEAGUE
    assert circle_evidence("午後はミナさんとペアプロで回帰テストを書いた。", ["ミナ"]) == COLLEAGUE
    assert circle_evidence("Dinner with Mina on Friday", names) == FRIEND
    assert circle_evidence("See you soon", names, chat_kind="line") == FRIEND
    assert circle_evidence("Called my sister Mina", names) == FAMILY
    assert circle_evidence("Mina, my cousin, visits", names) == FAMILY
    assert circle_evidence("姉のミナと電話した", ["ミナ"]) == FAMILY
    assert circle_evidence("Peter's mom met Mina", names) == ""
    assert circle_of([COLLEAGUE, FRIEND, FRIEND]) == FRIEND
    assert circle_of([COLLEAGUE, FRIEND]) == COLLEAGUE  # a tie: drinks with the team
    assert circle_of([COLLEAGUE, COLLEAGUE, FAMILY]) == FAMILY
    assert circle_of(["", ""]) == ""


def test_a_colleague_with_a_strong_bond_is_a_colleague_not_a_close_friend() -> None:
    now = datetime(2026, 11, 21, tzinfo=UTC)
    rows = [
        {
            "memory_id": f"m{i}",
            "ts": pd.Timestamp("2026-11-20T09:00Z") - pd.Timedelta(hours=i),
            "kind": "chat",
            "entities": ["Mina"],
            "importance": 0.9,
            "content": text,
            "source": f"slack/D1/2026-11-20.json#ts=17000{i}.1" if i % 2 else f"notes.md#L{i}",
        }
        for i, text in enumerate(["Sprint planning with @Mina", "Can you review it?"] * 13)
    ]
    frame = pd.DataFrame(rows)
    rels = relationships_for(collect_entities(frame), frame, now, persons={"mina"})
    assert rels["mina"].relationship_type == COLLEAGUE and rels["mina"].bond_strength > 0.8
    # Without the records' words the bond alone names it, as before.
    bare = relationships_for(
        collect_entities(frame), frame.drop(columns=["content", "source"]), now, persons={"mina"}
    )
    assert bare["mina"].relationship_type == CLOSE_FRIEND
