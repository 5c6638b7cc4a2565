"""Days named by their occasion (Christmas, Valentine's Day, Thanksgiving, 大晦日, お盆) -> the local days they name in a question."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from omoide.memory.holidays import holiday_days
from omoide.memory.time_words import time_window

TZ = "Europe/Berlin"
Z = ZoneInfo(TZ)
NOW = datetime(2026, 11, 25, 10, tzinfo=Z)  # a Wednesday, the day before Thanksgiving 2026


def at(y: int, m: int, d: int) -> datetime:
    return datetime(y, m, d, tzinfo=Z)


def day(y: int, m: int, d: int) -> tuple[datetime, datetime]:
    return at(y, m, d), at(y, m, d) + timedelta(days=1)


CASES = [
    ("what airline did I fly with on Valentine's Day?", day(2026, 2, 14)),
    ("on valentines day", day(2026, 2, 14)),
    ("what did we do last Christmas?", day(2025, 12, 25)),
    ("on Christmas Eve", day(2025, 12, 24)),
    ("over New Year's Eve", day(2025, 12, 31)),
    ("on New Year’s Day", day(2026, 1, 1)),
    ("what are we doing this Christmas", day(2026, 12, 25)),  # the current year's, ahead
    ("next Halloween", day(2027, 10, 31)),
    ("on Halloween", day(2026, 10, 31)),
    ("at Thanksgiving", day(2025, 11, 27)),  # 2026's is tomorrow: not yet
    ("on Thanksgiving 2024", day(2024, 11, 28)),
    ("next Thanksgiving", day(2026, 11, 26)),  # the first after today: tomorrow
    ("over Easter", day(2026, 4, 5)),
    ("on Good Friday", day(2026, 4, 3)),
    ("on Easter Monday", day(2026, 4, 6)),
    ("on Mother's Day", day(2026, 5, 10)),
    ("on Father's Day", day(2026, 6, 21)),
    ("on Memorial Day", day(2026, 5, 25)),
    ("on Labor Day", day(2026, 9, 7)),
    ("since Easter, how often did I run?", (at(2026, 4, 5), NOW)),
    ("クリスマスに何をした？", day(2025, 12, 25)),
    ("去年の大晦日は何をした", day(2025, 12, 31)),
    ("今年の七夕に", day(2026, 7, 7)),
    ("2025年のお盆に", (at(2025, 8, 13), at(2025, 8, 17))),
    ("お正月に", (at(2026, 1, 1), at(2026, 1, 4))),
    ("ゴールデンウィークから何回走った", (at(2026, 4, 29), NOW)),
]


@pytest.mark.parametrize(("question", "window"), CASES, ids=[c[0] for c in CASES])
def test_a_named_day_is_its_local_days(question: str, window: tuple[datetime, datetime]) -> None:
    w = time_window(question, TZ, NOW)
    assert w is not None and (w.start, w.end) == window


@pytest.mark.parametrize(
    "question",
    [
        "how much did I spend on Christmas gifts?",  # bought in the days before
        "ideas for a Christmas gift",
        "what did I cook for Thanksgiving",
        "my New Year's resolutions",
        "I worked on New Year's resolutions",
        "Christmas is my favourite",
        "what did I buy at Thanksgiving dinner",
        "クリスマスプレゼントは何にした",
        "バレンタインのチョコ",
    ],
)
def test_a_named_day_as_a_thing_or_a_purpose_names_no_window(question: str) -> None:
    assert time_window(question, TZ, NOW) is None


@pytest.mark.parametrize(
    ("name", "year", "first"),
    [
        ("Thanksgiving", 2023, date(2023, 11, 23)),
        ("thanksgiving day", 2024, date(2024, 11, 28)),
        ("Easter", 2024, date(2024, 3, 31)),
        ("Easter Sunday", 2025, date(2025, 4, 20)),
        ("Mother's Day", 2024, date(2024, 5, 12)),
        ("Memorial Day", 2024, date(2024, 5, 27)),
        ("Labour Day", 2024, date(2024, 9, 2)),
        ("Father's Day", 2024, date(2024, 6, 16)),
        ("Xmas", 2024, date(2024, 12, 25)),
        ("the Fourth of July", 2024, date(2024, 7, 4)),
        ("母の日", 2025, date(2025, 5, 11)),
        ("クリスマス・イブ", 2025, date(2025, 12, 24)),
    ],
)
def test_movable_and_fixed_days_fall_on_their_dates(name: str, year: int, first: date) -> None:
    days = holiday_days(name, year)
    assert days == (first, first + timedelta(days=1))


def test_an_unknown_name_has_no_days() -> None:
    assert holiday_days("Peter's birthday", 2026) is None


def test_last_on_the_day_itself_is_a_year_before() -> None:
    christmas = datetime(2026, 12, 25, 20, tzinfo=Z)
    on, last = (time_window(q, TZ, christmas) for q in ("on Christmas", "last Christmas"))
    assert on is not None and (on.start, on.end) == day(2026, 12, 25)
    assert last is not None and (last.start, last.end) == day(2025, 12, 25)
