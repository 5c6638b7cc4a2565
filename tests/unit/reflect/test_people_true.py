"""People's pages that are true, on a real LanceDB: each fact once with the days it was said, each change once, relations from cited evidence (colleague and friend both), kin only the user's, a search no home.

The names and sentences are made up here, none is the sample's: the rules are the general cues.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from omoide.reflect.circles import COLLEAGUE, FAMILY, FRIEND, circle_evidence, circles_held
from omoide.reflect.entities import collect_entities, entity_records, entity_views
from omoide.reflect.people import people_in
from omoide.reflect.relationships import OTHER, person_relations
from omoide.reflect.validity import attribute_of, said_again, validities
from omoide.store.entities_table import open_entities, read_entities, upsert_entities
from omoide.store.memories import memory_rows, open_memories, upsert_memories
from omoide.vault.entity_pages import page_facts, page_path, repeated_facts, write_entity_pages
from tests.fakes import FakeEmbedder, rows_at

NOW = datetime(2026, 6, 30, 12, tzinfo=UTC)
rec = rows_at(NOW)


def _rows() -> pd.DataFrame:
    """-> a month of memories about Ravi (colleague and friend), Lena (sister), Tomás (a name only)."""
    r, ln, t = ["Ravi"], ["Lena"], ["Tomás"]
    return pd.DataFrame(
        [
            rec("w1", "Ravi works on the data team.", day="2026-06-02", kind="W", entities=r),
            rec("w2", "Ravi lives in Lisbon.", day="2026-06-03", kind="W", entities=r),
            rec("n1", "Sprint planning with @Ravi", day="2026-06-03", entities=r),
            rec("n2", "Standup: @Ravi is blocked on the schema", day="2026-06-04", entities=r),
            rec("n3", "Code review with @Ravi on the importer", day="2026-06-05", entities=r),
            rec("b1", "I had dinner with Ravi in Alfama.", day="2026-06-06", kind="B", entities=r),
            rec("b2", "I helped Ravi move his boxes.", day="2026-06-07", kind="B", entities=r),
            rec("n4", "Birthday drinks for @Ravi", day="2026-06-08", entities=r),
            rec("w3", "Ravi works on the data team.", day="2026-06-10", kind="W", entities=r),
            rec(
                "c1",
                "Ravi: My sister says the sofa fits\nMe: great",
                day="2026-06-11",
                kind="chat",
                entities=r,
                heard_from="Ravi",
            ),
            rec("w4", "Ravi works on the data team.", day="2026-06-15", kind="W", entities=r),
            rec(
                "w5", "Ravi is looking for a flat in Porto.", day="2026-06-16", kind="W", entities=r
            ),
            rec("w6", "Ravi moved to the search team.", day="2026-06-20", kind="W", entities=r),
            rec("n5", "Called my sister Lena about the summer", day="2026-06-12", entities=ln),
            rec(
                "c2",
                "Lena: see you soon",
                day="2026-06-12",
                kind="chat",
                entities=ln,
                heard_from="Lena",
            ),
            rec(
                "c3",
                "Tomás: I moved to Lisbon last weekend",
                day="2026-06-14",
                kind="chat",
                entities=t,
                heard_from="Tomás",
            ),
        ]
    )


def _reflect(tmp_path: Path) -> tuple[Path, pd.DataFrame]:
    """Memories -> stored in LanceDB, read back, reflected as the task does -> (vault, entities table)."""
    emb = FakeEmbedder(dim=8, whole_text=True)
    table = open_memories(tmp_path / "db", emb.model, emb.dim)
    upsert_memories(table, _rows(), emb, NOW)
    rows = memory_rows(table)
    found = validities(memory_rows(table, kinds=["W"], with_vectors=True))
    replaced = {m for m, v in found.items() if v.superseded_by}
    entities = collect_entities(rows)
    people = people_in(rows, (), ("Me",))
    views = entity_views(entities, rows, NOW, None, None, people, replaced)
    vault = tmp_path / "vault"
    write_entity_pages(vault, views, tmp_path, validity=found)
    ents = open_entities(tmp_path / "db")
    upsert_entities(ents, entity_records(views, NOW))
    return vault, read_entities(ents)


def test_a_fact_said_three_times_is_one_line_and_its_change_one_line(tmp_path: Path) -> None:
    vault, _ = _reflect(tmp_path)
    page = page_path(vault, "ravi").read_text("utf-8")
    facts = page_facts(page)
    assert facts.count("Ravi moved to the search team.") == 1
    assert "Ravi works on the data team." not in facts and repeated_facts(page) == 0
    was = page.split("### Was")[1].split("## Timeline")[0]
    lines = [ln for ln in was.splitlines() if ln.startswith("- ")]
    data = [ln for ln in lines if "data team" in ln]
    assert len(data) == 1, was
    assert data[0].startswith(
        "- work: “Ravi works on the data team.” — said 2 Jun, 10 Jun, 15 Jun 2026"
    )
    assert data[0].endswith("→ “Ravi moved to the search team.” (20 June 2026)")
    assert data[0].count("<!-- memory:") == 3  # every saying still cited
    # A replaced fact is history, never among the most important.
    most = page.split("Most important:")[1].split("\n## ")[0]
    assert "data team" not in most


def test_a_search_for_a_flat_is_no_home(tmp_path: Path) -> None:
    vault, _ = _reflect(tmp_path)
    facts = page_facts(page_path(vault, "ravi").read_text("utf-8"))
    assert "Ravi lives in Lisbon." in facts and "Ravi is looking for a flat in Porto." in facts
    assert attribute_of("Ravi is looking for a flat in Porto.") is None
    assert attribute_of("Sara is house-hunting in Graz.") is None
    assert attribute_of("Sara moved to Graz.") == "home"


def test_relations_come_from_cited_evidence_and_a_person_may_be_two(tmp_path: Path) -> None:
    vault, table = _reflect(tmp_path)
    relations = person_relations(table)
    assert relations["ravi"] == {COLLEAGUE, FRIEND}
    assert relations["lena"] == {FAMILY}
    # "Ravi: My sister says …" is Ravi's sister; a time word is no meeting.
    assert relations["tomas"] == {OTHER}
    page = page_path(vault, "ravi").read_text("utf-8")
    summary = page.split("## Summary")[1].split("\n## ")[0]
    assert "Relationship: " in summary and "family" not in summary
    relation = page.split("## Relation\n")[1].split("\n## ")[0]
    assert "- colleague, as these say:" in relation and "- friend, as these say:" in relation
    assert "I helped Ravi move his boxes." in relation and "Sprint planning" in relation
    # Each piece of evidence is cited to its line.
    cited = [ln for ln in relation.splitlines() if ln.startswith("  - ")]
    assert cited and all("<!-- memory:" in ln and "](" in ln for ln in cited)


def test_kin_is_the_users_only() -> None:
    names = ["Noor"]
    assert circle_evidence("Noor: my sister is visiting", names) == ""
    assert circle_evidence("↑ Noor: My mother says hi", names) == ""
    assert circle_evidence("Noor's brother fixed the bike", names) == ""
    assert circle_evidence("Dinner with my brother Noor", names) == FAMILY
    assert circle_evidence("Noor, my cousin, visits", names) == FAMILY
    assert circle_evidence("Me: my aunt Noor called", names) == FAMILY
    assert circle_evidence("Noor moved to Oslo last weekend", names) == ""
    assert circle_evidence("I helped Noor move to Oslo", names) == FRIEND
    # One stray social word among many work records makes nobody a friend.
    assert circles_held([COLLEAGUE] * 12 + [FRIEND]) == [COLLEAGUE]
    assert circles_held([COLLEAGUE] * 6 + [FRIEND] * 4) == [COLLEAGUE, FRIEND]


def test_a_restatement_is_one_saying_but_a_change_or_a_negation_is_not() -> None:
    slugs = frozenset({"ravi"})
    assert said_again("Ravi leads the migration.", "Ravi leads the migration this sprint.", slugs)
    assert not said_again("Ravi works at Acme.", "Ravi no longer works at Acme.", slugs)
    assert not said_again("Ravi lives in Lisbon.", "Ravi moved to Porto.", slugs)
