"""When matches the thing done, not the asking verb: own notes before pages for an activity, the note line's own time, the earliest for "first"."""

from __future__ import annotations

import importlib.util
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from omoide.answer.ask import ask
from omoide.answer.cite import Answer
from omoide.answer.matching import stem, target
from omoide.answer.question import classify
from omoide.core.settings import get_settings
from tests.unit.answer.test_count_and_compare import TZ, _chat, _note, _visit, _write

NOW = datetime(2026, 11, 21, 10, tzinfo=UTC)


@pytest.fixture
def dashi(omoide_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home in Berlin: a dictionary page on 出汁 on Sunday, Monday's note of the first dashi (timed and untimed), pages seen."""
    monkeypatch.setenv("OMOIDE_TIMEZONE", TZ)
    monday = date(2026, 11, 16)
    _write(
        get_settings().lake_dir,
        [
            _visit(1, "2026-11-15T09:31Z", "出汁 - Jisho.org", "https://jisho.org/search/出汁"),
            _visit(2, "2026-11-15T09:40Z", "How to make dashi", "https://cook.example/dashi"),
            _note(monday, 8, "Dashi was easier than I thought."),
            _note(monday, 13, "First try at dashi: kombu and katsuobushi", "20:00"),
            _note(monday, 18, "今日は初めて出汁を作った。思ったより簡単！"),
            _note(date(2026, 11, 14), 5, "Ramen with @Peter in Kreuzberg", "13:00"),
            _visit(3, "2026-11-18T18:00Z", "Flights to Osaka", "https://fly.example/osaka"),
            _visit(4, "2026-11-19T08:00Z", "Serious Eats", "https://www.seriouseats.com/ramen"),
            _chat(1, "2026-11-19T19:00Z", "Aiko", "Booked the ryokan!", "Peter"),
            # said before it was done: not the time it was done
            _chat(2, "2026-11-16T18:40Z", "Aiko", "Making dashi tonight, wish me luck", "Peter"),
        ],
    )
    return omoide_home


def _when(question: str) -> dict:
    """A question asked on NOW -> its JSON."""
    return ask(question, get_settings(), NOW, lambda _: []).to_json()


def test_an_activity_is_read_from_the_persons_notes_with_the_lines_own_time(dashi: Path) -> None:
    # "make" is in no record: the question's own verb is let go, "dashi" is matched.
    got = _when("when did I first make dashi")
    assert got["when"] == "2026-11-16T20:00:00+01:00"  # the timed line, not the untimed one
    assert got["answer"] == (
        "First on Monday, 16 November 2026 at 20:00: “First try at dashi: kombu and katsuobushi”."
    )
    assert got["citations"] == [
        {"source": "/home/sources/notes/2026-11-16.md#L13", "day": "2026-11-16"}
    ]
    # The Japanese question: Monday's own diary line, not Sunday's dictionary page of 出汁; it has
    # no time, so the day's timed line about dashi gives it, and is cited beside it.
    ja = _when("初めて出汁を作ったのはいつですか")
    assert ja["when"] == "2026-11-16T20:00:00+01:00"
    assert (
        ja["answer"]
        == "最初は2026年11月16日（月）20:00です：「今日は初めて出汁を作った。思ったより簡単！」。"
    )
    assert ja["citations"] == [
        {"source": "/home/sources/notes/2026-11-16.md#L18", "day": "2026-11-16"},
        {"source": "/home/sources/notes/2026-11-16.md#L13", "day": "2026-11-16"},
    ]
    assert _when("when did I last eat ramen")["when"] == "2026-11-14T13:00:00+01:00"
    # "go for a run" asks of the run, as "go running" does.
    assert target("go for a run").terms == target("go running").terms == ("run",)
    assert _when("when did I book the ryokan")["when"] == "2026-11-19T20:00:00+01:00"
    # A place the record leaves out ("in Kyoto") is let go before the verb is.
    assert _when("when did I book the ryokan in Kyoto")["when"] == "2026-11-19T20:00:00+01:00"


def test_a_verb_of_seeing_or_going_is_taken_off_and_pages_count(dashi: Path) -> None:
    site = _when("when did I last visit seriouseats.com")
    assert site["when"] == "2026-11-19T09:00:00+01:00"
    assert _when("when did I last look at flights to Osaka")["when"] == "2026-11-18T19:00:00+01:00"
    assert target("visit seriouseats.com").terms == ("seriouseats.com",)
    assert target("go to the dentist").terms == ("dentist",)
    assert target("look at flights to Osaka").seen
    assert target("WaniKaniを開いた").seen and target("WaniKaniを開いた").terms == ("wanikani",)
    assert not target("book the ryokan").seen
    assert target("京都に行った").terms == ("京都",)
    missing = _when("最後にスカイダイビングしたのはいつ？")
    assert missing["when"] is None and missing["citations"] == []
    assert missing["answer"] == (
        "「スカイダイビングした」に当てはまる記録はありません（メモ、チャット、ページ、ウィンドウを探しました）。"
    )


def test_english_words_match_by_stem_and_irregular_past() -> None:
    assert {stem(w) for w in ("run", "runs", "running", "ran")} == {"run"}
    assert {stem(w) for w in ("book", "booked", "booking")} == {"book"}
    assert {stem(w) for w in ("try", "tried", "tries", "trying")} == {"tri"}
    assert {stem(w) for w in ("make", "making", "made")} == {"mak"}
    assert stem("ramen") != stem("run")


# The kinds other modules answer: routed with the question as sorted, each module imported when asked.
ROUTES = [
    ("what did I do on the afternoon of 11 November", "part_of_day", "part_of_day_answer"),
    ("what did Peter say about the ryokan", "said_by", "said_by_answer"),
    ("who is Mina", "who", "who_answer"),
    ("what did I promise Peter", "commitments", "commitments_answer"),
]


@pytest.mark.parametrize(("question", "kind", "function"), ROUTES)
def test_each_kind_of_its_own_is_routed_to_its_module(
    omoide_home: Path, monkeypatch: pytest.MonkeyPatch, question: str, kind: str, function: str
) -> None:
    name = f"omoide.answer.{kind}"
    if importlib.util.find_spec(name) is None:
        pytest.skip(f"{name} is not written yet")
    module = importlib.import_module(name)
    asked: list = []

    def answered(q, settings, now) -> Answer:  # noqa: ANN001
        asked.append(q)
        return Answer(kind, None, "from the module")

    monkeypatch.setattr(module, function, answered)
    got = ask(question, get_settings(), NOW, lambda _: [])
    assert got.answer == "from the module" and asked[0] == classify(question, "UTC", NOW)
