"""A decision question -> the person's own lines recording a decision about its topic, newest first; plans to decide and others' words are not decisions."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from omoide.answer.ask import ask
from omoide.answer.asking import asks_decision, decision_topic
from omoide.answer.question import classify
from omoide.core.settings import get_settings
from tests.unit.answer.test_count_and_compare import TZ, _chat, _note, _write

NOW = datetime(2026, 11, 21, 10, tzinfo=UTC)


@pytest.fixture
def decided(omoide_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home in Berlin: a plan to decide, two decisions about the store, one about jobs, a friend's choice."""
    monkeypatch.setenv("OMOIDE_TIMEZONE", TZ)
    _write(
        get_settings().lake_dir,
        [
            _note(date(2026, 11, 16), 16, "We evaluate LanceDB this sprint and decide on Friday."),
            _note(date(2026, 11, 17), 12, "Decision: the nightly jobs move from cron to Prefect."),
            _note(
                date(2026, 11, 18), 9, "Decided to keep pgvector for the old vector store", "11:00"
            ),
            _note(date(2026, 11, 20), 13, "Decision: the vectors move to LanceDB", "16:30"),
            _note(date(2026, 11, 20), 19, "ベクトルの保存先をLanceDBに決めてすっきりした。"),
            _chat(
                1, "2026-11-19T19:00Z", "Peter", "I decided on the red vector store logo", "Peter"
            ),
        ],
    )
    return omoide_home


def _asked(question: str) -> dict:
    """A question asked on NOW -> its JSON."""
    return ask(question, get_settings(), NOW, lambda _: []).to_json()


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("what did I decide about the vector store?", "vector store"),
        ("which store did we pick for warelay", "store warelay"),
        ("what was the decision on the nightly jobs", "nightly jobs"),
        ("ベクトルの保存先は何に決めた？", "ベクトルの保存先"),
        ("夜のジョブについて何を決めた？", "夜のジョブ"),
    ],
)
def test_a_decision_question_names_its_topic(question: str, topic: str) -> None:
    assert asks_decision(question) and decision_topic(question) == topic
    assert classify(question, TZ, NOW).kind == "decision"


def test_when_did_i_decide_stays_a_when_question() -> None:
    assert classify("when did I decide on Prefect", TZ, NOW).kind == "when"


def test_the_latest_decision_about_the_topic_comes_first_with_its_own_time(decided: Path) -> None:
    got = _asked("what did I decide about the vector store?")
    assert got["kind"] == "decision" and got["when"] == "2026-11-20T16:30:00+01:00"
    assert got["answer"].startswith(
        "The latest decision, Friday, 20 November 2026 at 16:30: “Decision: the vectors move"
    )
    assert (
        "Before that: Wednesday, 18 November 2026 at 11:00: “Decided to keep pgvector"
        in got["answer"]
    )
    # A plan to decide and a friend's decision are not the person's decisions.
    assert "decide on Friday" not in got["answer"] and "logo" not in got["answer"]
    assert got["citations"][0] == {
        "source": "/home/sources/notes/2026-11-20.md#L13",
        "day": "2026-11-20",
    }


def test_a_japanese_question_finds_the_japanese_line_and_answers_in_japanese(
    decided: Path,
) -> None:
    got = _asked("ベクトルの保存先は何に決めた？")
    # The English line by its glosses (ベクトル: vector, 保存: storage), the Japanese one as written.
    assert got["answer"].startswith(
        "最新の決定は2026年11月20日（金）16:30「Decision: the vectors move to LanceDB」です。"
    )
    assert "「ベクトルの保存先をLanceDBに決めてすっきりした。」" in got["answer"]
    # Its English glosses reach an English line: ジョブ is "job".
    jobs = _asked("ジョブについて何を決めた？")
    assert "Prefect" in jobs["answer"] and jobs["answer"].startswith("最新の決定は")


def test_no_decision_about_a_topic_says_so_and_where_it_looked(decided: Path) -> None:
    got = _asked("what did I decide about the ryokan?")
    assert got["answer"] == (
        "No decision about “ryokan” is written in your notes or your own messages."
    )
    assert got["citations"] == []
    week = _asked("what did I decide this week?")
    assert week["answer"].startswith("The latest decision, Friday, 20 November 2026 at 16:30")
