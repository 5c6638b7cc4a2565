from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest

from omoide.core.errors import OmoideError
from omoide.core.markers import GENERATED
from omoide.reflect.entities import (
    canonical_entities,
    collect_entities,
    entities_on,
    entity_records,
    entity_slug,
    entity_views,
    resolve_slug,
)
from omoide.reflect.entity_report import entity_report, entity_report_from_store
from omoide.store.entities_table import open_entities, read_entities, upsert_entities
from omoide.store.memories import open_memories, upsert_memories
from omoide.vault.entity_pages import page_path, write_entity_pages
from tests.fakes import FakeEmbedder, rows_at

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)


rec = rows_at(NOW)


def frame() -> pd.DataFrame:
    return pd.DataFrame(
        [
            rec("m1", "Lunch with @Peter and @Mina", 6, entities=["Peter", "Mina"]),
            rec(
                "m2",
                "peter: ramen at 13:00?",
                5,
                entities=["peter"],
                kind="chat",
                importance=0.4,
                heard_from="peter",
            ),
            rec(
                "m3",
                "Peter moved to the platform team.",
                4,
                entities=["Peter"],
                kind="W",
                importance=0.9,
            ),
            rec(
                "m4",
                "Lance is right for warelay",
                3,
                entities=["warelay"],
                kind="O",
                confidence=0.8,
            ),
            rec(
                "m5",
                "@Mina and I demoed the warelay fix",
                2,
                entities=["Mina", "warelay"],
                kind="B",
            ),
            rec("m6", "Péter sent the ryokan booking", 1, entities=["Péter"], kind="chat"),
            rec("m7", "no one here", 1, entities=[]),
        ]
    )


@pytest.mark.parametrize(
    ("names", "slug"),
    [
        (["@Peter", "peter", "Peter", "  PETER ", "Péter", "@péter"], "peter"),
        (["Peter Schmidt", "Peter_Schmidt", "@Peter_Schmidt", "peter-schmidt"], "peter-schmidt"),
        (["warelay", "@warelay", "Warelay"], "warelay"),
        (["Zoë", "Zoe"], "zoe"),
    ],
)
def test_slugs_are_stable_across_spellings(names, slug):
    assert {entity_slug(n) for n in names} == {slug}


def test_symbol_only_names_get_a_stable_distinct_slug():
    assert entity_slug("🙂") == entity_slug("🙂") != entity_slug("🎉")
    assert re.fullmatch(r"entity-[0-9a-f]{8}", entity_slug("🙂"))


def test_first_name_merges_into_the_one_full_name():
    aliases = canonical_entities(["Peter", "@peter", "Peter Schmidt", "Mina", "warelay"])
    assert aliases == {
        "Peter": "peter-schmidt",
        "@peter": "peter-schmidt",
        "Peter Schmidt": "peter-schmidt",
        "Mina": "mina",
        "warelay": "warelay",
    }


def test_no_merge_when_ambiguous_or_not_a_name():
    ambiguous = canonical_entities(["Peter", "Peter Schmidt", "Peter Müller"])
    assert ambiguous["Peter"] == "peter"
    projects = canonical_entities(["warelay", "warelay cli"])
    assert projects["warelay"] == "warelay"


def test_collect_entities_from_a_small_frame():
    ents = {e.slug: e for e in collect_entities(frame())}
    assert set(ents) == {"peter", "mina", "warelay"}
    peter = ents["peter"]
    assert peter.name == "Peter"
    assert peter.aliases == ("Peter", "Péter", "peter")
    assert peter.memory_ids == ("m1", "m2", "m3", "m6")
    assert peter.count == 4
    assert peter.kinds == ("note", "chat", "W")
    assert peter.first_seen == NOW - timedelta(days=6)
    assert peter.last_seen == NOW - timedelta(days=1)
    assert (peter.first_day, peter.last_day) == ("2026-11-15", "2026-11-20")
    assert ents["mina"].memory_ids == ("m1", "m5")
    assert collect_entities(frame().iloc[0:0]) == []


def test_display_name_prefers_the_full_name_and_reads_underscores_as_spaces():
    rows = pd.DataFrame(
        [
            rec("a", "x", 3, entities=["Peter"]),
            rec("b", "y", 2, entities=["Peter"]),
            rec("c", "z", 1, entities=["Peter_Schmidt"]),
        ]
    )
    (ent,) = collect_entities(rows)
    assert (ent.slug, ent.name, ent.count) == ("peter-schmidt", "Peter Schmidt", 3)
    assert ent.aliases == ("Peter", "Peter_Schmidt")


def test_page_quotes_its_timeline_with_links_and_has_related_wikilinks(tmp_path: Path):
    memories, vault = frame(), tmp_path / "vault"
    views = entity_views(collect_entities(memories), memories, NOW, people=["Peter", "Mina"])
    written = write_entity_pages(vault, views, home=tmp_path)
    assert sorted(p.name for p in written) == ["mina.md", "peter.md", "warelay.md"]
    text = page_path(vault, "peter").read_text()
    assert text.startswith("---\nname: Peter\n")
    assert "- omoide/entity" in text and GENERATED in text
    assert "Peter appears in 4 memories (note, chat, W) from 2026-11-15 to 2026-11-20." in text
    assert "Relationship: " in text
    timeline = text.split("## Timeline\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert len(timeline) == 4
    # Day, kind, quote, a link from bank/entities/ to the cited line; the id only in a comment.
    for line, mid in zip(timeline, ["m1", "m2", "m3", "m6"], strict=True):
        assert re.fullmatch(
            rf"- (2026-11-\d\d) · \w+ “.+” — \[memory/\1\.md, line {len(mid)}\]"
            rf"\(\.\./\.\./memory/\1\.md#L{len(mid)}\) <!-- memory:{mid} -->",
            line,
        ), line
    assert "`m" not in text
    # The W fact leads the summary's most important facts.
    most = text.split("Most important:\n\n", 1)[1].splitlines()[0]
    assert "“Peter moved to the platform team.”" in most and most.endswith("<!-- memory:m3 -->")
    assert "- [[mina|Mina]] (1 shared memory)" in text
    warelay = page_path(vault, "warelay").read_text()
    assert "[[mina|Mina]]" in warelay and "[[peter" not in warelay
    # A project is not a person: its page states no relationship.
    assert "Relationship: " not in warelay


def test_page_writes_are_idempotent(tmp_path: Path):
    memories = frame()
    ents = collect_entities(memories)
    write_entity_pages(tmp_path, entity_views(ents, memories, NOW), tmp_path)
    path = page_path(tmp_path, "peter")
    before = path.stat().st_mtime_ns
    assert write_entity_pages(tmp_path, entity_views(ents, memories, NOW), tmp_path) == []
    assert path.stat().st_mtime_ns == before
    more = pd.concat([memories, pd.DataFrame([rec("m8", "Peter again", 0.5, entities=["Peter"])])])
    assert write_entity_pages(
        tmp_path, entity_views(collect_entities(more), more, NOW), tmp_path
    ) == [path]


def test_an_incremental_reflection_rewrites_only_what_its_days_mention(tmp_path: Path):
    memories = frame()
    ents = collect_entities(memories)
    write_entity_pages(tmp_path, entity_views(ents, memories, NOW), tmp_path)
    pages = {slug: page_path(tmp_path, slug) for slug in ("peter", "mina", "warelay")}
    before = {slug: p.read_text() for slug, p in pages.items()}
    # A new day mentions Peter only (by a spelling made canonical over all rows).
    day = (NOW - timedelta(hours=6)).strftime("%Y-%m-%d")
    more = pd.concat([memories, pd.DataFrame([rec("m8", "Péter again", 0.25, entities=["péter"])])])
    touched = entities_on(more, [day])
    assert touched == {"peter"}
    views = entity_views(collect_entities(more), more, NOW, only=touched)
    assert [v.entity.slug for v in views] == ["peter"]
    # Counted over every entity still: Peter's page names what it shares with Mina.
    assert views[0].related == (("mina", "Mina", 1),)
    every = [e.slug for e in collect_entities(more)]
    assert write_entity_pages(tmp_path, views, tmp_path, every) == [pages["peter"]]
    assert "Péter again" in pages["peter"].read_text()
    assert {s: pages[s].read_text() for s in ("mina", "warelay")} == {
        s: before[s] for s in ("mina", "warelay")
    }
    assert entities_on(more.iloc[0:0], [day]) == set()


def test_a_merge_removes_only_our_superseded_page(tmp_path: Path):
    first = pd.DataFrame(
        [rec("a", "x", 3, entities=["Peter"]), rec("b", "y", 2, entities=["Mina"])]
    )
    write_entity_pages(tmp_path, entity_views(collect_entities(first), first, NOW), tmp_path)
    own = page_path(tmp_path, "mina")
    own.write_text("# Mina\nmy own notes\n")
    later = pd.concat(
        [
            first,
            pd.DataFrame(
                [
                    rec("c", "z", 1, entities=["Peter Schmidt"]),
                    rec("d", "w", 1, entities=["Mina K"]),
                ]
            ),
        ]
    )
    write_entity_pages(tmp_path, entity_views(collect_entities(later), later, NOW), tmp_path)
    assert not page_path(tmp_path, "peter").exists()
    assert page_path(tmp_path, "peter-schmidt").exists()
    assert own.read_text() == "# Mina\nmy own notes\n"


def test_resolve_slug_by_slug_alias_and_unique_first_name():
    known = {"peter-schmidt": ["Peter", "Peter_Schmidt"], "mina": ["Mina"]}
    assert resolve_slug("@peter", known) == "peter-schmidt"
    assert resolve_slug("Peter Schmidt", known) == "peter-schmidt"
    assert resolve_slug("MINA", known) == "mina"
    assert resolve_slug("Bob", known) is None
    assert resolve_slug("Peter", {"peter-schmidt": [], "peter-muller": []}) is None


@pytest.mark.parametrize("name", ["@peter", "Peter", "péter"])
def test_entity_report_resolves_spellings(name):
    report = entity_report(name, frame(), NOW)
    assert report["slug"] == "peter"
    assert report["n_memories"] == 4
    assert [t["memory_id"] for t in report["timeline"]] == ["m1", "m2", "m3", "m6"]
    assert all(t["source"].startswith("vault/memory/") for t in report["timeline"])
    assert report["key_facts"][0]["memory_id"] == "m3"
    assert report["relationship"]["interaction_count"] == 4
    assert report["related"] == [{"slug": "mina", "name": "Mina", "shared": 1}]
    assert report["summary"].startswith("Peter appears in 4 memories")
    assert [t["quote"] for t in report["timeline"]] == [t["content"] for t in report["timeline"]]


def test_entity_report_names_an_unknown_entity():
    with pytest.raises(OmoideError, match="no single entity"):
        entity_report("Bob", frame(), NOW)


def test_entities_table_upsert_is_idempotent(tmp_path: Path):
    memories = frame()
    ents = collect_entities(memories)
    table = open_entities(tmp_path / "db")
    first = upsert_entities(table, entity_records(entity_views(ents, memories, NOW), NOW))
    assert (first.inserted, first.updated, first.unchanged) == (3, 0, 0)
    version = table.version
    # The same rows again: nothing written, no new table version.
    again = upsert_entities(table, entity_records(entity_views(ents, memories, NOW), NOW))
    assert (again.inserted, again.updated, again.unchanged) == (0, 0, 3)
    assert table.version == version and table.count_rows() == 3
    later = NOW + timedelta(days=2)
    moved = upsert_entities(table, entity_records(entity_views(ents, memories, later), later))
    assert (moved.inserted, moved.updated) == (0, 3)  # days since last changed
    assert table.count_rows() == 3
    rows = read_entities(table)
    peter = rows[rows["slug"] == "peter"].iloc[0]
    assert list(peter["aliases"]) == ["Peter", "Péter", "peter"]
    assert list(peter["related"]) == ["mina"] and list(peter["related_counts"]) == [1]
    assert peter["n_memories"] == 4 and peter["relationship_type"]
    only_peter = [e for e in ents if e.slug == "peter"]
    pruned = upsert_entities(
        table, entity_records(entity_views(only_peter, memories, later), later), prune=True
    )
    assert pruned.deleted == 2 and table.count_rows() == 1


def test_entity_report_from_store_reads_only_that_entity(tmp_path: Path):
    emb = FakeEmbedder(dim=8, whole_text=True)
    memories = frame()
    mem_table = open_memories(tmp_path / "db", emb.model, emb.dim)
    upsert_memories(mem_table, memories, emb, NOW)
    ent_table = open_entities(tmp_path / "db")
    ents = collect_entities(memories)
    upsert_entities(ent_table, entity_records(entity_views(ents, memories, NOW), NOW))
    for name in ("@peter", "Peter", "PÉTER"):
        report = entity_report_from_store(ent_table, mem_table, name, NOW)
        assert report["slug"] == "peter"
        assert {t["memory_id"] for t in report["timeline"]} == {"m1", "m2", "m3", "m6"}
        assert report["related"] == [{"slug": "mina", "name": "Mina", "shared": 1}]
    empty = open_entities(tmp_path / "empty")
    assert entity_report_from_store(empty, mem_table, "mina", NOW)["n_memories"] == 2
