"""Who is a person: bots and assistants never, places and projects never, and one bond figure everywhere."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest

from omoide.core.kinds import ASSISTANT_SPEAKER, bot_speaker, is_bot
from omoide.ingest.sources import chat, discord
from omoide.ingest.sources.chat_export import Reading
from omoide.memory.memory_types import with_memory_types
from omoide.memory.records import chat_records
from omoide.profile.integrated import build_profile
from omoide.profile.report import relationship_rows
from omoide.reflect.entities import collect_entities, entity_records, entity_views, person_slugs
from omoide.reflect.entity_report import entity_report, entity_report_from_store
from omoide.reflect.people import people_in
from omoide.reflect.relationships import NO_RELATIONSHIP, stored_relationships
from omoide.store.entities_table import open_entities, read_entities, upsert_entities
from omoide.store.memories import open_memories, upsert_memories
from omoide.vault.entity_pages import page_path, write_entity_pages
from omoide.vault.profile_page import render_profile_page
from tests.fakes import FakeEmbedder, rows_at

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)
FIXTURES = Path(__file__).parents[2] / "fixtures" / "chat_exports"
rec = rows_at(NOW)


def _chat(mid: str, speaker: str, text: str, title: str, days_ago: float) -> dict:
    """A chat record as the collector writes it: the conversation as entity, the speaker heard from."""
    return rec(
        mid,
        f"{speaker}: {text}",
        days_ago,
        kind="chat",
        entities=[title],
        importance=0.4,
        heard_from=None if speaker == "Aiko" else speaker,
    )


def sample_like() -> pd.DataFrame:
    """The sample's shapes: a friend in chat, a chat with the assistant, a place, a project, a colleague noted."""
    rows = [
        _chat("c1", "Peter", "You're up late", "Peter", 3),
        _chat("c2", "Aiko", "Ryokan rabbit hole", "Peter", 3),
        _chat("c3", "Peter", "Higashiyama, quieter", "Peter", 2),
        _chat("a1", "Aiko", "How do I get the UTC day?", "assistant", 2),
        _chat("a2", ASSISTANT_SPEAKER, "Combine the date with time(0)", "assistant", 2),
        _chat("a3", ASSISTANT_SPEAKER, "Then the range is 23 hours", "assistant", 1),
        rec("k1", "The ryokan in Higashiyama is booked", 2, kind="W", entities=["Kyoto"]),
        rec("k2", "Booked the ryokan in @Kyoto", 2, entities=["Kyoto"]),
        rec("w1", "I shipped the @warelay sync fix", 1, kind="B", entities=["warelay"]),
        rec("m1", "Release sync with @Mina and @Peter", 1, entities=["Mina", "Peter"]),
    ]
    return pd.DataFrame(rows)


def test_the_bot_vocabulary_and_the_exports_own_marker():
    for name in ("assistant", "ChatGPT", "Claude", "system", "bot", " Assistant "):
        assert is_bot(name), name
    assert is_bot("MEE6 [bot]") and is_bot("dependabot[bot]")
    assert not is_bot("Peter") and not is_bot("Robot Wars fan") and not is_bot(None)
    assert bot_speaker("MEE6") == "MEE6 [bot]"
    assert bot_speaker("ChatGPT") == "ChatGPT"  # already a bot's name: not marked twice
    assert bot_speaker("  ") == ASSISTANT_SPEAKER


def test_people_are_configured_or_heard_from_never_a_bot_or_the_user():
    rows = sample_like()
    assert people_in(rows, ["Mina"], ["Aiko"]) == ["Mina", "Peter"]
    # A friend called Claude is a person when the settings say so, though "claude" is a bot's name.
    assert people_in(rows, ["Claude"], ["Aiko"]) == ["Claude", "Peter"]
    marked = pd.DataFrame([_chat("b1", "MEE6 [bot]", "Welcome!", "Kyoto Trip #planning", 1)])
    assert people_in(marked, [], ["Aiko"]) == []
    assert people_in(rows.drop(columns="heard_from"), ["Mina"], []) == ["Mina"]


def test_only_people_have_a_relationship_not_the_assistant_a_place_or_a_project():
    rows = sample_like()
    ents = collect_entities(rows)
    assert {e.slug for e in ents} == {"peter", "assistant", "kyoto", "warelay", "mina"}
    people = people_in(rows, ["Peter", "Mina"], ["Aiko"])
    views = {v.entity.slug: v for v in entity_views(ents, rows, NOW, people=people)}
    for slug in ("assistant", "kyoto", "warelay"):
        rel = views[slug].relationship
        assert (rel.relationship_type, rel.bond_strength, rel.confidence) == (
            NO_RELATIONSHIP,
            0.0,
            0.0,
        )
        assert "Relationship:" not in views[slug].summary
    assert views["peter"].relationship.is_person and views["mina"].relationship.is_person
    assert views["peter"].relationship.bond_strength > 0
    assert "Relationship: " in views["peter"].summary
    listed = relationship_rows(entity_records(list(views.values()), NOW).to_pandas())
    assert [r["name"] for r in listed] == ["Peter", "Mina"]


def test_a_person_named_by_first_name_is_the_full_named_entity():
    rows = pd.DataFrame(
        [
            rec("x1", "Lunch with Peter", 2, entities=["Peter_Schmidt"]),
            rec("x2", "Peter again", 1, entities=["Peter"]),
            rec("x3", "Kyoto", 1, entities=["Kyoto"]),
        ]
    )
    ents = collect_entities(rows)
    assert person_slugs(["Peter", "Nobody"], ents) == {"peter-schmidt"}
    assert person_slugs(["peter schmidt"], ents) == {"peter-schmidt"}


def _discord_with_a_bot(tmp_path: Path) -> tuple[bytes, str]:
    """The real-format Discord fixture with one author flagged as a bot -> its bytes and path."""
    path = FIXTURES / "discord" / "Kyoto Trip - Text Channels - planning [1176000000000000002].json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    for msg in doc["messages"]:
        if msg["author"]["name"] == "kensato":
            msg["author"]["isBot"] = True
    out = tmp_path / "planning.json"
    out.write_text(json.dumps(doc), encoding="utf-8")
    return out.read_bytes(), str(out)


def _people_from_events(records: list[dict], day: date) -> list[str]:
    """Collected event records -> the people the reflection finds in their chat records."""
    events = pd.DataFrame(records)
    rows = with_memory_types(chat_records(events, day, NOW), ["Aiko"])
    return people_in(rows, [], ["Aiko"])


def test_a_bot_flagged_by_the_export_is_no_person_from_ingest_to_reflection(tmp_path: Path):
    data, path = _discord_with_a_bot(tmp_path)
    parsed = discord.parse_export(data, path, Reading("discord", "Aiko", "Asia/Tokyo"))
    actors = {r["actor"] for r in parsed.records}
    assert "Ken [bot]" in actors and "Bob" in actors and "Aiko" in actors
    assert _people_from_events(parsed.records, date(2026, 11, 20)) == ["Bob"]


def test_a_chat_jsonl_role_marks_a_bot_from_ingest_to_reflection():
    lines = [
        {"ts": "2026-11-20T10:00:00+01:00", "speaker": "Aiko", "text": "hi", "conversation": "c"},
        {
            "ts": "2026-11-20T10:00:05+01:00",
            "speaker": "Helper",
            "role": "assistant",
            "text": "Hello, how can I help?",
            "conversation": "c",
        },
        {"ts": "2026-11-20T10:01:00+01:00", "speaker": "Mina", "text": "me too", "role": "user"},
    ]
    data = "\n".join(json.dumps(x) for x in lines).encode()
    start, end = datetime(2026, 11, 19, tzinfo=UTC), datetime(2026, 11, 21, tzinfo=UTC)
    records, rejects = chat.chat_events(data, "log.jsonl", "chat", start, end, NOW)
    assert not rejects
    assert [r["actor"] for r in records] == ["Aiko", "Helper [bot]", "Mina"]
    assert _people_from_events(records, date(2026, 11, 20)) == ["Mina"]
    bad = json.dumps({"ts": "2026-11-20T10:00:00+01:00", "text": "x", "role": 3}).encode()
    _, rejects = chat.chat_events(bad, "log.jsonl", "chat", start, end, NOW)
    assert [r.reason for r in rejects] == ["'role' is not a string"]


def test_one_bond_figure_on_the_page_the_report_the_profile_and_its_page(tmp_path: Path):
    """The reflection stores the bond; a later `omoide entity` (another now, no Big Five) shows it."""
    rows = sample_like()
    emb = FakeEmbedder(dim=8, whole_text=True)
    memories = open_memories(tmp_path / "db", emb.model, emb.dim)
    upsert_memories(memories, rows, emb, NOW)
    ents = collect_entities(rows)
    people = people_in(rows, ["Peter", "Mina"], ["Aiko"])
    views = entity_views(ents, rows, NOW, {"extraversion": 0.1}, people=people)
    table = open_entities(tmp_path / "db")
    upsert_entities(table, entity_records(views, NOW))
    write_entity_pages(tmp_path / "vault", views, tmp_path)
    stored = stored_relationships(read_entities(table))["peter"]
    later = NOW + timedelta(days=9)
    # Recomputed at `later` without the Big Five the bond would differ: that was the bug.
    fresh = entity_report("Peter", rows, later)["relationship"]["bond_strength"]
    assert fresh != stored.bond_strength
    report = entity_report_from_store(table, memories, "@peter", later)
    assert report["relationship"] == stored.as_dict()
    shown = f"bond {stored.bond_strength:.2f}"
    assert shown in report["summary"]
    assert shown in page_path(tmp_path / "vault", "peter").read_text(encoding="utf-8")
    listed = relationship_rows(read_entities(table))
    peter = next(r for r in listed if r["slug"] == "peter")
    assert peter["bond_strength"] == stored.bond_strength
    profile = build_profile(rows, [], NOW, me=["Aiko"], people=people)
    page = render_profile_page([], profile, {}, tmp_path, listed)
    assert f"- [[peter|Peter]]: {stored.relationship_type} ({shown}," in page
    assert "[[kyoto" not in page and "[[assistant" not in page
    # A place has no relationship in the report either.
    assert entity_report_from_store(table, memories, "Kyoto", later)["relationship"] is None


@pytest.mark.parametrize("name", ["assistant", "Kyoto", "warelay"])
def test_the_report_of_something_no_reflection_stored_yet_names_no_relationship(name: str):
    assert entity_report(name, sample_like(), NOW)["relationship"] is None
