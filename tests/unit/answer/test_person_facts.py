"""A person's facts by attribute: the latest of each stands, the earlier one it replaced said with it; a plan is no value; lookups asking where someone lives, their team or age answer from that fact, in English and Japanese."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pandas as pd
import pytest

from omoide.answer.ask import ask
from omoide.answer.asking import who_name
from omoide.answer.lookup import attribute_answer
from omoide.answer.person_facts import (
    asked_attributes,
    attribute_of,
    glossed,
    ordered,
    standing,
)
from omoide.answer.person_records import Fact
from omoide.answer.who import who_answer
from omoide.memory.time_words import TimeWindow
from omoide.store.lake import write_facts
from tests.unit.answer.person_days import NOW, Asked, build, utc
from tests.unit.answer.person_days import _fact as mina_fact


def _at(day: int) -> datetime:
    """A November day -> noon UTC."""
    return datetime(2026, 11, day, 12, tzinfo=UTC)


def _f(mid: str, day: int, text: str, by: str | None = None, method: str = "") -> Fact:
    """A W fact said on a November day (replaced by `by`, as the reflection stored it)."""
    return Fact(mid, _at(day), text, f"notes/2026-11-{day:02}.md#L1", by, None, method)


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("Jonas lives in Lyon.", "home"),
        ("Jonas moved to Porto last month.", "home"),
        ("Jonas moved to the data team.", "team"),
        ("Jonas works at Acme.", "employer"),
        ("Jonas leads the billing rewrite.", "role"),
        ("Jonas turned 41.", "age"),
        ("Jonas is looking for a flat in Porto.", "plan:home"),
        ("Jonas wants to learn the cello.", "plan"),
        ("Jonas likes tea.", None),
        ("ヨナスはリヨンに住んでいる。", "home"),
        ("ヨナスは41歳になった。", "age"),
        ("ヨナスがデータチームに異動した。", "team"),
    ],
)
def test_a_fact_speaks_of_one_attribute(text: str, attribute: str | None) -> None:
    assert attribute_of(text) == attribute


def test_the_latest_of_each_attribute_stands_and_a_plan_replaces_no_home() -> None:
    facts = [
        _f("a", 1, "Jonas shares a flat in Lyon."),
        # The reflection's coarse rule ended each home fact with the next: here not followed.
        _f("b", 3, "Jonas lives with his brother in Porto.", by="c"),
        _f("c", 5, "Jonas is looking for a flat in Porto.", by=None),
        _f("d", 6, "Jonas works on the search team."),
        _f("e", 8, "Jonas is looking for a new flat in Porto."),
        _f("f", 9, "Jonas moved to the data team."),
        _f("g", 10, "Jonas likes tea.", by="h"),
        _f("h", 11, "Jonas likes coffee."),
    ]
    found = standing(facts, _at(20))
    by = {s.attribute: s for s in found}
    home = by["home"]
    assert home.fact.memory_id == "b" and home.replaced is not None
    assert home.replaced.memory_id == "a"
    team = by["team"]
    assert team.fact.memory_id == "f" and team.replaced and team.replaced.memory_id == "d"
    # The same plan said again: its latest words, since it was first said, replacing nothing.
    plan = by["plan:home"]
    assert plan.fact.memory_id == "e" and plan.since == _at(5) and plan.replaced is None
    # A fact of no attribute stands until the stored validity says it was replaced.
    assert by[None].fact.memory_id == "h"
    assert [s.fact.memory_id for s in ordered(found)] == ["f", "b", "h", "e"]
    # As of the 7th: the search team, and still the brother's in Porto.
    then = {s.attribute: s.fact.memory_id for s in standing(facts, _at(7))}
    assert then["team"] == "d" and then["home"] == "b" and None not in then


def test_a_models_verdicts_are_followed_as_stored() -> None:
    facts = [
        _f("a", 1, "Jonas lives in Lyon.", by="b", method="llm:qwen"),
        _f("b", 3, "Jonas is looking for a flat in Porto."),
    ]
    found = standing(facts, _at(20))
    assert [s.fact.memory_id for s in found] == ["b"]
    assert found[0].replaced is not None and found[0].replaced.memory_id == "a"


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("where does Jonas live now", ("home",)),
        ("where is Jonas living these days?", ("home",)),
        ("what team is Jonas on", ("team",)),
        ("how old is Jonas", ("age",)),
        ("where does Jonas work", ("employer", "team", "role")),
        ("which company is Jonas at", ("employer", "team")),
        ("what's Jonas's role", ("role", "team")),
        ("where will warelay keep its vectors", ()),
    ],
)
def test_a_question_asks_of_an_attribute(question: str, wanted: tuple[str, ...]) -> None:
    assert asked_attributes(question) == wanted


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("ヨナスはどこに住んでいますか", "home"),
        ("ヨナスは何歳？", "age"),
        ("ヨナスの年齢は？", "age"),
        ("ヨナスは今どのチームにいる？", "team"),
        ("ヨナスはどの会社に勤めている？", "employer"),
    ],
)
def test_a_japanese_question_asks_of_an_attribute_by_its_glosses(
    question: str, wanted: str
) -> None:
    assert asked_attributes(glossed(question))[0] == wanted


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("who is Peter again?", "Peter"),
        ("who's Peter, exactly?", "Peter"),
        ("Who is Anna Weber actually", "Anna Weber"),
        ("ピーター、って誰だっけ", "ピーター"),
        ("ピーターって誰だったっけ？", "ピーター"),
        ("who is coming again", None),
    ],
)
def test_words_of_asking_after_the_name_are_no_part_of_it(question: str, name: str | None) -> None:
    assert who_name(question) == name


def _peters_facts(settings_lake: Path) -> None:
    """The test home's lake + Peter's facts on days of their own: a home, a plan, an age."""
    for mid, day, text in (
        ("p1", 13, "Peter lives at his cousin's in Wedding."),
        ("p2", 16, "Peter is looking for a flat in Pankow."),
        ("p3", 17, "Peter turned 37."),
    ):
        row = mina_fact(mid, date(2026, 11, day), "10:00", text)
        frame = pd.DataFrame([{**row, "entities": ["Peter"]}])
        write_facts(settings_lake, date(2026, 11, day), frame)


def _asked(text: str, lang: str = "en", window: TimeWindow | None = None) -> Asked:
    """A lookup."""
    return Asked(text, "lookup", window, text, lang=lang)


def test_a_lookup_of_where_someone_lives_answers_from_the_fact_that_stands(
    omoide_home: Path,
) -> None:
    settings = build(omoide_home)
    got = attribute_answer(_asked("where does Mina live now"), settings, NOW)
    assert got is not None and got.kind == "lookup" and got.basis == "lake"
    assert got.answer == (
        "Mina moved to Berlin last weekend. (2026-11-20; replacing “Mina lives in Hamburg.” "
        "of 2026-11-11)"
    )
    assert [c.day for c in got.citations] == ["2026-11-20", "2026-11-11"]
    ja = attribute_answer(_asked("ミナさんはどこに住んでいますか", "ja"), settings, NOW)
    assert ja is not None and ja.answer == (
        "ミナの住まい：「Mina moved to Berlin last weekend.」（2026年11月20日、"
        "「Mina lives in Hamburg.」に代わって）"
    )
    # Asked of Thursday: Hamburg still stood.
    thursday = TimeWindow(utc(date(2026, 11, 12), "00:00"), utc(date(2026, 11, 13), "00:00"), "x")
    then = attribute_answer(
        _asked("where did Mina live on Thursday", window=thursday), settings, NOW
    )
    assert then is not None and then.answer.startswith("Mina lives in Hamburg. (2026-11-11)")
    assert then.window == (date(2026, 11, 12), date(2026, 11, 12))


def test_an_age_a_plan_and_what_no_fact_answers(omoide_home: Path) -> None:
    settings = build(omoide_home)
    _peters_facts(settings.lake_dir)
    home = attribute_answer(_asked("where does Peter live"), settings, NOW)
    assert home is not None and home.answer == (
        "Peter lives at his cousin's in Wedding. (2026-11-13) "
        "Also: “Peter is looking for a flat in Pankow.” (2026-11-16)"
    )
    age = attribute_answer(_asked("ピーターは何歳？", "ja"), settings, NOW)
    assert (
        age is not None and age.answer == "ピーターは37歳：「Peter turned 37.」（2026年11月17日）"
    )
    assert age.citations[0].day == "2026-11-17"
    # A year on, the age said has grown by it.
    later = attribute_answer(
        _asked("ピーターは何歳", "ja"), settings, datetime(2028, 1, 5, tzinfo=UTC)
    )
    assert later is not None and later.answer.startswith("ピーターは38歳：")
    # No team fact for Mina, no person called Zed, no attribute asked: recall answers.
    for question in (
        "what team is Mina on",
        "where does Zed live",
        "what did Peter cook",
        "where did I work with Peter",
    ):
        assert attribute_answer(_asked(question), settings, NOW) is None
        assert ask(question, settings, NOW, lambda _: []).basis == "recall"


def test_the_card_says_where_they_live_beside_a_plan(omoide_home: Path) -> None:
    settings = build(omoide_home)
    _peters_facts(settings.lake_dir)
    card = who_answer(Asked("who is Peter again?", "who", None, "Peter"), settings, NOW).answer
    assert (
        "Facts now: “Peter turned 37.” (since 17 November 2026); "
        "“Peter lives at his cousin's in Wedding.” (since 13 November 2026); "
        "“Peter is looking for a flat in Pankow.” (since 16 November 2026)."
    ) in card
