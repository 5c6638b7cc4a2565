"""A yes-or-no question of a thing done -> yes with each time (latest first, cited), or no and where it looked; a trip read about or planned is no trip made."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from omoide.answer.ask import ask
from omoide.answer.asking import asks_yes_no, did_subject
from omoide.answer.question import classify
from omoide.core.settings import get_settings
from tests.unit.answer.test_count_and_compare import TZ, _chat, _note, _visit, _write

NOW = datetime(2026, 11, 21, 10, tzinfo=UTC)  # a Saturday


@pytest.fixture
def week(omoide_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home in Berlin: two runs, a plan to run, a call with Mina, her pull request page, a trip planned."""
    monkeypatch.setenv("OMOIDE_TIMEZONE", TZ)
    (omoide_home / "omoide.toml").write_text('user_name = "Aiko"\npeople = ["Mina"]\n')
    _write(
        get_settings().lake_dir,
        [
            _note(date(2026, 11, 17), 6, "Ran 5 km in the Tiergarten", "12:05"),
            _note(date(2026, 11, 19), 4, "Ran 8 km along the canal", "07:30"),
            _note(date(2026, 11, 19), 9, "Tomorrow: run before work"),
            _note(date(2026, 11, 18), 7, "Osaka: read about the castle and Dotonbori", "20:30"),
            _note(date(2026, 11, 16), 5, "Osaka itinerary for April, day 2", "21:00"),
            _chat(1, "2026-11-19T14:00Z", "Mina", "Can you look at the migration PR?", "Mina"),
            _chat(2, "2026-11-19T14:05Z", "Aiko", "Sure, after lunch", "Mina"),
            _visit(
                3,
                "2026-11-18T09:00Z",
                "Fix sync by mina-k · Pull Request",
                "https://git.example/pr/1",
            ),
        ],
    )
    return omoide_home


def _asked(question: str) -> dict:
    """A question asked on NOW -> its JSON."""
    return ask(question, get_settings(), NOW, lambda _: []).to_json()


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("did I talk to Mina yesterday?", "talk to Mina"),
        ("have I been running this week?", "running"),
        ("did I go to the dentist?", "go to the dentist"),
        ("昨日ミナと話した？", "ミナと話した"),
        ("今週は走りましたか", "走りました"),
    ],
)
def test_a_yes_or_no_question_of_a_thing_done(question: str, subject: str) -> None:
    q = classify(question, TZ, NOW)
    assert asks_yes_no(question) and (q.kind, q.subject) == ("did", subject)
    assert did_subject("did I ever cook ramen") == "cook ramen"


@pytest.mark.parametrize(
    "question",
    [
        "what did I do yesterday?",
        "昨日は何をした？",
        "did I spend more time on github.com or in zoom?",
        "did Peter say anything about the flat?",
        "いつ走った？",
    ],
)
def test_other_kinds_are_not_yes_or_no(question: str) -> None:
    assert classify(question, TZ, NOW).kind != "did"


def test_yes_with_each_time_the_latest_first_and_a_plan_is_none(week: Path) -> None:
    got = _asked("have I been running this week?")
    assert got["kind"] == "did" and got["answer"] == (
        "Yes, 2 times in the week 2026-W47 (16 to 22 November 2026): "
        "Thursday, 19 November 2026 at 07:30 (“Ran 8 km along the canal”); "
        "Tuesday, 17 November 2026 at 12:05 (“Ran 5 km in the Tiergarten”)."
    )
    assert [c["day"] for c in got["citations"]] == ["2026-11-19", "2026-11-17"]
    assert got["when"] == "2026-11-19T07:30:00+01:00"
    ja = _asked("今週は走りましたか")["answer"]
    assert ja.startswith("はい。") and "「Ran 8 km along the canal」" in ja


def test_talking_is_a_conversation_not_a_page_they_wrote(week: Path) -> None:
    got = _asked("did I talk to Mina on Thursday?")
    assert got["answer"].startswith("Yes, once on Thursday, 19 November 2026:")
    assert "Pull Request" not in got["answer"]
    assert _asked("did I talk to Mina on Wednesday?")["answer"].startswith("No. ")


def test_a_trip_read_about_or_planned_is_no_trip_made(week: Path) -> None:
    got = _asked("did I go to Osaka this week?")
    assert got["answer"].startswith("No. ") and got["citations"] == []
    assert got["answer"].endswith(
        "2 records read about it or plan it (latest: Wednesday, 18 November 2026, "
        "“Osaka: read about the castle and Dotonbori”)."
    )
