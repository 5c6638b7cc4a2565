"""senses: a matched line is the thing done, not a plan, a contact or another sense of its verb; occurrences count one a sitting or a day."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pandas as pd
import pytest

from omoide.answer.alternatives import comparison
from omoide.answer.matching import target
from omoide.answer.occurrences import _grouped
from omoide.answer.senses import done_mask, said_done

TZ = "Europe/Berlin"
SUNDAY, THURSDAY = date(2026, 11, 15), date(2026, 11, 19)


@pytest.mark.parametrize(
    ("line", "done"),
    [
        ("Ran 10 km along the Landwehrkanal, legs sore", True),
        ("Long run on Tempelhofer Feld, 12 km in 1:08", True),
        ("I ran 5 km in the Tiergarten at lunch.", True),
        ("Went running with Mina, then ramen", True),
        ("Two long runs this week", True),
        ("I was running along the canal when it rained", True),
        ("Ran 5 km, tomorrow a rest day", True),
        ("pgvector's index build is still running", False),
        ("@warelay: pgvector is out of the running for warelay.", False),
        ("Staging ran out of disk at 4 a.m.", False),
        ("I ran a LanceDB spike with 200k embeddings", False),
        ("Standup: the prototype of the sync store runs", False),
        ("last night's run failed at 12:30 UTC", False),
        ("The tests are running", False),
        ("I was running late", False),
        ("Tomorrow: long run with Mina", False),
        ("Will run 10 km on Saturday", False),
        ("Best running shoes 2026", False),
    ],
)
def test_a_run_is_the_person_running(line: str, done: bool) -> None:
    assert said_done(line, target("go running"), THURSDAY) is done


@pytest.mark.parametrize(
    ("line", "day", "done"),
    [
        ("Dentist, Dr. Weber: check-up, one small filling next month", THURSDAY, True),
        ("Short workday because of the dentist, but a release.", THURSDAY, True),
        ("Next week: LanceDB decision on Friday, dentist on Thursday.", SUNDAY, False),
        ("Dentist on Thursday", SUNDAY, False),
        ("Dentist on Thursday", THURSDAY, True),
        ("Called the dentist about the filling appointment", THURSDAY, False),
        ("Booked the dentist for December", THURSDAY, False),
        ("Need to go to the dentist", THURSDAY, False),
    ],
)
def test_going_to_a_place_is_neither_a_plan_nor_a_call(line: str, day: date, done: bool) -> None:
    assert said_done(line, target("go to the dentist"), day) is done


def test_a_contact_verb_the_question_asks_for_is_the_thing_done() -> None:
    assert said_done("Booked the ryokan in Kyoto", target("book the ryokan"), THURSDAY)
    assert not said_done("Booked the ryokan in Kyoto", target("go to the ryokan"), THURSDAY)


def test_a_plan_for_later_the_same_day_keeps_its_day() -> None:
    assert said_done("Making dashi tonight, wish me luck", target("make dashi"), THURSDAY)
    assert said_done("Read the post for next week's tests", target("read"), THURSDAY)


@pytest.mark.parametrize(
    ("line", "subject", "done"),
    [
        ("昼休みに走った。寒かったけど気持ちよかった。", "走った", True),
        ("朝、歯医者で検診。来月、虫歯を治療することになった。", "歯医者に行った", True),
        ("明日は歯医者。ちょっと怖い。", "歯医者に行った", False),
        ("来週、京都で走る予定", "走った", False),
        ("土曜日に走るつもり", "走った", False),
        ("週末は走りたい", "走った", False),
        ("歯医者に電話した。", "歯医者に行った", False),
        ("予定通り走った。", "走った", True),
    ],
)
def test_japanese_plans_and_calls_are_not_the_thing_done(
    line: str, subject: str, done: bool
) -> None:
    assert said_done(line, target(subject), THURSDAY) is done


def _chat(rows: list[tuple[str, str, str]]) -> pd.DataFrame:
    """(UTC time, speaker, text) -> chat events of one conversation with Peter."""
    return pd.DataFrame(
        {
            "ts": [pd.Timestamp(ts) for ts, _, _ in rows],
            "source": "chat",
            "event_type": "chat",
            "actor": [who for _, who, _ in rows],
            "title": "Peter",
            "text": [text for _, _, text in rows],
            "source_ref": [f"chat#{i}" for i in range(len(rows))],
        }
    )


def test_an_answer_to_a_message_about_a_later_day_is_a_plan() -> None:
    events = _chat(
        [
            ("2026-11-06T17:20Z", "Peter", "Ramen tomorrow? I want to show you flats"),
            ("2026-11-06T17:22Z", "Aiko", "Long run first, then ramen at 13:00"),
            ("2026-11-07T08:55Z", "Peter", "Ramen 13:00, don't be late"),
            ("2026-11-07T08:56Z", "Aiko", "Running first, then yes"),
        ]
    )
    matched = pd.Series([False, True, False, True])
    kept = done_mask(events, matched, target("go running"), TZ)
    assert kept.tolist() == [False, False, False, True]


def test_a_partner_or_something_seen_is_left_as_matched() -> None:
    events = _chat([("2026-11-06T17:20Z", "Peter", "Ramen tomorrow?")])
    matched = pd.Series([True])
    assert done_mask(events, matched, target("talk to Peter"), TZ).tolist() == [True]


def test_a_line_dated_by_its_day_only_joins_that_days_sitting() -> None:
    hits = pd.DataFrame(
        {
            "ts": [
                pd.Timestamp("2026-10-31T23:00Z"),  # 1 Nov, midnight in Berlin: no time of its own
                pd.Timestamp("2026-11-01T10:00Z"),
                pd.Timestamp("2026-11-14T23:00Z"),
            ],
            "source": "notes",
            "event_type": ["retain", "note", "note"],
            "actor": None,
            "title": "",
            "text": [
                "I had a video call with my parents.",
                "Video call with my parents",
                "Video call with my parents",
            ],
            "source_ref": ["n#1", "n#2", "n#3"],
        }
    )
    got = _grouped(hits, TZ, False, ("parent",))
    assert [(o.day.isoformat(), o.timed, o.ref) for o in got] == [
        ("2026-11-01", True, "n#2"),
        ("2026-11-15", False, "n#3"),
    ]


NOW = datetime(2026, 11, 20, 20, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "subjects", "time"),
    [
        (
            "did I talk more with Peter or with Mina last week",
            ("talk with Peter", "talk with Mina"),
            False,
        ),
        ("did I talk to Peter more or to Mina", ("talk to Peter", "talk to Mina"), False),
        ("did I cook more oyakodon or ramen", ("cook oyakodon", "cook ramen"), False),
        ("did I spend more time on github.com or in zoom", ("github.com", "zoom"), True),
        ("先週はピーターとミナのどちらとよく話した？", ("ピーターと話した", "ミナと話した"), False),
        ("親子丼とラーメンのどちらを多く作った？", ("親子丼を作った", "ラーメンを作った"), False),
        ("水曜日はSlackとgithub.com、どっちが長かった？", ("Slack", "github.com"), True),
    ],
)
def test_both_sides_of_a_comparison_share_its_verb_and_long_asks_time(
    question: str, subjects: tuple[str, ...], time: bool
) -> None:
    got = comparison(question, TZ, NOW)
    assert got is not None and got.subjects == subjects and got.time is time
