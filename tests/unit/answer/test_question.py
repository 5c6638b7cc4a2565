"""A question sorted by what it asks, in English and Japanese: its kind, window and subject."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from omoide.answer.question import classify
from omoide.core.days import local_day

TZ = "Europe/Berlin"
NOW = datetime(2026, 11, 21, 9, tzinfo=UTC)  # a Saturday


@pytest.mark.parametrize(
    ("question", "kind", "subject"),
    [
        ("what did I do yesterday", "overview", "what did I do"),
        ("昨日は何をしましたか", "overview", "は何をしましたか"),
        ("what did I do last week?", "overview", "what did I do?"),
        ("先週は何をしていた？", "overview", "は何をしていた"),
        ("how much time did I spend on github.com on Friday", "time_spent", "github.com"),
        ("how long was I in zoom on Friday", "time_spent", "zoom"),
        ("how many hours did I work on warelay last week", "time_spent", "warelay"),
        ("金曜日にgithub.comを何時間見た？", "time_spent", "github.com"),
        ("when did I last talk to Peter", "when", "talk to Peter"),
        ("when was the first time I booked the ryokan", "when", "booked the ryokan"),
        ("最後にピーターと話したのはいつ？", "when", "ピーターと話した"),
        ("where does Mina live", "lookup", "where does Mina live"),
        # an overview needs a period to roll up; without one it is a lookup
        ("what did I do about the ryokan", "lookup", "what did I do about the ryokan"),
    ],
)
def test_a_question_is_sorted_by_what_it_asks(question: str, kind: str, subject: str) -> None:
    q = classify(question, TZ, NOW)
    assert (q.kind, q.subject) == (kind, subject.rstrip("?"))


def test_first_and_last_and_the_windows_are_local_calendar_days() -> None:
    assert classify("when was the first time I booked the ryokan", TZ, NOW).first
    assert not classify("when did I last talk to Peter", TZ, NOW).first
    assert classify("初めてピーターと話したのはいつ", TZ, NOW).first
    yesterday = classify("what did I do yesterday", TZ, NOW).window
    assert local_day(yesterday.start, TZ) == date(2026, 11, 20)
    last_week = classify("what did I do last week", TZ, NOW).window
    # the previous Monday-Sunday week before now's week
    assert local_day(last_week.start, TZ) == date(2026, 11, 9)
    assert local_day(last_week.end, TZ) == date(2026, 11, 16)
