"""Time words in a question -> the local-calendar window they name, in English and Japanese."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from omoide.core.errors import ConfigError
from omoide.memory.time_words import TimeWindow, time_window, without_time_words

TZ = "Europe/Berlin"
Z = ZoneInfo(TZ)
NOW = datetime(2026, 11, 25, 10, tzinfo=Z)  # a Wednesday


def at(y: int, m: int, d: int, h: int = 0) -> datetime:
    return datetime(y, m, d, h, tzinfo=Z)


def day(y: int, m: int, d: int) -> tuple[datetime, datetime]:
    return at(y, m, d), at(y, m, d) + timedelta(days=1)


def month(y: int, m: int) -> tuple[datetime, datetime]:
    return at(y, m, 1), at(y + m // 12, m % 12 + 1, 1)


WEEK_THIS = (at(2026, 11, 23), at(2026, 11, 30))
WEEK_LAST = (at(2026, 11, 16), at(2026, 11, 23))
WEEK_2_AGO = (at(2026, 11, 9), at(2026, 11, 16))
SINCE_MARCH = (at(2026, 3, 1), NOW)

CASES = [
    # named days and calendar periods
    ("what did I do today?", day(2026, 11, 25), "today"),
    ("Yesterday I read a paper", day(2026, 11, 24), "Yesterday"),
    ("the day before yesterday", day(2026, 11, 23), "the day before yesterday"),
    ("今日", day(2026, 11, 25), "今日"),
    ("昨日の会議", day(2026, 11, 24), "昨日"),
    ("一昨日", day(2026, 11, 23), "一昨日"),
    ("おととい", day(2026, 11, 23), "おととい"),
    ("this week", WEEK_THIS, "this week"),
    ("what did I read last week?", WEEK_LAST, "last week"),
    ("during last week", WEEK_LAST, "during last week"),
    ("this month", month(2026, 11), "this month"),
    ("last month", month(2026, 10), "last month"),
    ("this year", (at(2026, 1, 1), at(2027, 1, 1)), "this year"),
    ("last year", (at(2025, 1, 1), at(2026, 1, 1)), "last year"),
    ("今週", WEEK_THIS, "今週"),
    ("先週", WEEK_LAST, "先週"),
    ("今月", month(2026, 11), "今月"),
    ("先月", month(2026, 10), "先月"),
    ("今年", (at(2026, 1, 1), at(2027, 1, 1)), "今年"),
    ("去年", (at(2025, 1, 1), at(2026, 1, 1)), "去年"),
    ("昨年", (at(2025, 1, 1), at(2026, 1, 1)), "昨年"),
    # ahead
    ("what is on tomorrow?", day(2026, 11, 26), "tomorrow"),
    ("the day after tomorrow", day(2026, 11, 27), "the day after tomorrow"),
    ("plans for next week", (at(2026, 11, 30), at(2026, 12, 7)), "for next week"),
    ("next month", month(2026, 12), "next month"),
    ("next Monday", day(2026, 11, 30), "next Monday"),
    ("next Wednesday", day(2026, 12, 2), "next Wednesday"),
    ("明日", day(2026, 11, 26), "明日"),
    ("来週の金曜日", day(2026, 12, 4), "来週の金曜日"),
    ("来月", month(2026, 12), "来月"),
    ("3日後", day(2026, 11, 28), "3日後"),
    # N units ago: one calendar unit that far back
    ("3 days ago", day(2026, 11, 22), "3 days ago"),
    ("three days ago", day(2026, 11, 22), "three days ago"),
    ("a couple of days ago", day(2026, 11, 23), "a couple of days ago"),
    ("a week ago", WEEK_LAST, "a week ago"),
    ("2 weeks ago", WEEK_2_AGO, "2 weeks ago"),
    ("2 months ago", month(2026, 9), "2 months ago"),
    ("twelve months ago", month(2025, 11), "twelve months ago"),
    ("3日前", day(2026, 11, 22), "3日前"),
    ("三日前", day(2026, 11, 22), "三日前"),
    ("2週間前", WEEK_2_AGO, "2週間前"),
    ("一週間前", WEEK_LAST, "一週間前"),
    ("2ヶ月前", month(2026, 9), "2ヶ月前"),
    ("2か月前", month(2026, 9), "2か月前"),
    ("2カ月前", month(2026, 9), "2カ月前"),
    # rolling windows up to now
    ("in the last 3 days", (at(2026, 11, 22), NOW), "in the last 3 days"),
    ("past 3 days", (at(2026, 11, 22), NOW), "past 3 days"),
    ("over the past week", (at(2026, 11, 18), NOW), "over the past week"),
    ("in the last week", (at(2026, 11, 18), NOW), "in the last week"),
    ("the past month", (at(2026, 10, 25), NOW), "the past month"),
    ("過去3日間", (at(2026, 11, 22), NOW), "過去3日間"),
    ("この1週間", (at(2026, 11, 18), NOW), "この1週間"),
    ("ここ数日", (at(2026, 11, 22), NOW), "ここ数日"),
    # months: the most recent not in the future
    ("in November", month(2026, 11), "in November"),
    ("in Nov", month(2026, 11), "in Nov"),
    ("in December", month(2025, 12), "in December"),
    ("during May", month(2026, 5), "during May"),
    ("November 2025", month(2025, 11), "November 2025"),
    ("in Nov 2024", month(2024, 11), "in Nov 2024"),
    ("last November", month(2025, 11), "last November"),
    ("last October", month(2026, 10), "last October"),
    ("this December", month(2026, 12), "this December"),
    ("11月", month(2026, 11), "11月"),
    ("12月", month(2025, 12), "12月"),
    ("2025年11月", month(2025, 11), "2025年11月"),
    ("去年の3月に行った京都", month(2025, 3), "去年の3月"),
    # weekdays: most recent before today; 先週の = of the previous week
    ("on Tuesday", day(2026, 11, 24), "on Tuesday"),
    ("last Tuesday", day(2026, 11, 24), "last Tuesday"),
    ("on Wednesday", day(2026, 11, 18), "on Wednesday"),
    ("Tuesday last week", day(2026, 11, 17), "Tuesday last week"),
    ("this Monday", day(2026, 11, 23), "this Monday"),
    ("火曜日", day(2026, 11, 24), "火曜日"),
    ("日曜に", day(2026, 11, 22), "日曜"),
    ("先週の火曜日", day(2026, 11, 17), "先週の火曜日"),
    ("今週の月曜日", day(2026, 11, 23), "今週の月曜日"),
    # since: from the start of X until now
    ("since March", SINCE_MARCH, "since March"),
    ("since 2026-03-01", SINCE_MARCH, "since 2026-03-01"),
    ("3月から", SINCE_MARCH, "3月から"),
    ("3月以降", SINCE_MARCH, "3月以降"),
    ("since yesterday", (at(2026, 11, 24), NOW), "since yesterday"),
    ("先週から", (at(2026, 11, 16), NOW), "先週から"),
    # explicit days
    ("2026-11-18", day(2026, 11, 18), "2026-11-18"),
    ("on 18 November", day(2026, 11, 18), "on 18 November"),
    ("Nov 18", day(2026, 11, 18), "Nov 18"),
    ("November 18th, 2025", day(2025, 11, 18), "November 18th, 2025"),
    ("Dec 3", day(2025, 12, 3), "Dec 3"),
    ("11月18日", day(2026, 11, 18), "11月18日"),
    ("2025年12月3日", day(2025, 12, 3), "2025年12月3日"),
    # slash dates: month first, day first only when the first cannot be a month
    ("what did I visit on 2/8?", day(2026, 2, 8), "on 2/8"),
    ("on 11/3", day(2026, 11, 3), "on 11/3"),
    ("on 12/3", day(2025, 12, 3), "on 12/3"),
    ("on 15/2", day(2026, 2, 15), "on 15/2"),
    ("on 2/8/2025", day(2025, 2, 8), "on 2/8/2025"),
    ("since 11/3", (at(2026, 11, 3), NOW), "since 11/3"),
    # two months joined: from the first's start to the last's end
    (
        "which airline did I fly in March and April?",
        (at(2026, 3, 1), at(2026, 5, 1)),
        "in March and April",
    ),
    ("between May and July", (at(2026, 5, 1), at(2026, 8, 1)), "between May and July"),
    ("in March or April 2025", (at(2025, 3, 1), at(2025, 5, 1)), "in March or April 2025"),
    ("in December to February", (at(2025, 12, 1), at(2026, 3, 1)), "in December to February"),
    ("3月と4月に", (at(2026, 3, 1), at(2026, 5, 1)), "3月と4月"),
    ("3月から5月まで", (at(2026, 3, 1), at(2026, 6, 1)), "3月から5月"),
    # a comparison with now runs from the named time to now
    (
        "how far did I run a few months ago compared to now?",
        (at(2026, 8, 1), NOW),
        "a few months ago",
    ),
    ("was I sleeping more last month than now?", (at(2026, 10, 1), NOW), "last month"),
    # parts of a day
    ("this morning", (at(2026, 11, 25), at(2026, 11, 25, 12)), "this morning"),
    ("last night", (at(2026, 11, 24, 18), at(2026, 11, 25, 6)), "last night"),
    ("今朝", (at(2026, 11, 25), at(2026, 11, 25, 12)), "今朝"),
    # a weekday with a date: the date (the weekday only agrees)
    ("what did I do on Saturday 31 October?", day(2026, 10, 31), "on Saturday 31 October"),
    ("on Sat, Oct 31", day(2026, 10, 31), "on Sat, Oct 31"),
    # the 18th: this month's; the 28th is still ahead on the 25th: last month's
    ("how long in zoom on the 18th?", day(2026, 11, 18), "on the 18th"),
    ("the 28th", day(2026, 10, 28), "the 28th"),
    # the week of a day: its Monday-based week
    (
        "what was I working on the week of 2 November?",
        (at(2026, 11, 2), at(2026, 11, 9)),
        "the week of 2 November",
    ),
    ("11月18日の週は何をした？", WEEK_LAST, "11月18日の週"),
    ("10月26日からの週", (at(2026, 10, 26), at(2026, 11, 2)), "10月26日からの週"),
]


@pytest.mark.parametrize(("question", "bounds", "phrase"), CASES, ids=[c[0] for c in CASES])
def test_time_words_name_their_window(
    question: str, bounds: tuple[datetime, datetime], phrase: str
) -> None:
    assert time_window(question, TZ, NOW) == TimeWindow(bounds[0], bounds[1], phrase)


def test_bounds_are_utc() -> None:
    w = time_window("yesterday", TZ, NOW)
    assert w is not None and w.start.utcoffset() == timedelta(0)
    assert w.start.isoformat() == "2026-11-23T23:00:00+00:00"


@pytest.mark.parametrize(
    ("now", "question", "hours"),
    [
        (at(2026, 3, 30, 10), "yesterday", 23),  # clocks went forward on 2026-03-29
        (at(2026, 10, 26, 10), "yesterday", 25),  # and back on 2026-10-25
        (at(2026, 10, 26, 10), "昨日", 25),
    ],
)
def test_days_follow_daylight_saving(now: datetime, question: str, hours: int) -> None:
    w = time_window(question, TZ, now)
    assert w is not None and w.end - w.start == timedelta(hours=hours)
    assert w.start == at(now.year, now.month, now.day - 1)


@pytest.mark.parametrize(
    ("now", "question", "bounds"),
    [
        (at(2026, 12, 1, 8), "yesterday", day(2026, 11, 30)),
        (at(2027, 1, 15), "last month", month(2026, 12)),
        (at(2027, 1, 15), "先月", month(2026, 12)),
        (at(2027, 1, 2), "last week", (at(2026, 12, 21), at(2026, 12, 28))),
        (at(2027, 1, 15), "2 months ago", month(2026, 11)),
        (at(2027, 1, 15), "in December", month(2026, 12)),
        (at(2027, 1, 1, 9), "the day before yesterday", day(2026, 12, 30)),
        (at(2026, 3, 31, 12), "1 month ago", month(2026, 2)),
    ],
)
def test_month_and_year_boundaries(
    now: datetime, question: str, bounds: tuple[datetime, datetime]
) -> None:
    w = time_window(question, TZ, now)
    assert w is not None and (w.start, w.end) == bounds


def test_the_timezone_decides_the_day() -> None:
    now = datetime(2026, 11, 25, 1, tzinfo=ZoneInfo("UTC"))  # already the 25th in Tokyo
    tokyo = time_window("今日", "Asia/Tokyo", now)
    la = time_window("today", "America/Los_Angeles", now)
    assert tokyo is not None and tokyo.start.astimezone(ZoneInfo("Asia/Tokyo")).day == 25
    assert la is not None and la.start.astimezone(ZoneInfo("America/Los_Angeles")).day == 24


@pytest.mark.parametrize(
    ("question", "phrase"),
    [
        ("yesterday, or was it last week?", "yesterday"),
        ("last week, not yesterday", "last week"),
        ("先週は何をした？", "先週"),
        ("3日前に読んだ記事", "3日前"),
        ("先週の火曜日に話した人", "先週の火曜日"),
        ("11月18日に読んだ本", "11月18日"),
        ("一昨日の夜", "一昨日"),
    ],
)
def test_the_leftmost_longest_phrase_wins(question: str, phrase: str) -> None:
    w = time_window(question, TZ, NOW)
    assert w is not None and w.phrase == phrase


@pytest.mark.parametrize(
    "question",
    [
        "",
        "Peter",
        "what is 3 days",
        "may I ask about the may release",
        "the march of progress",
        "3 weeks",
        "last",
        "nov",
        "todays",  # not a word boundary
        "Nov 31",  # no such day
        "13月",
        "日本の記事",
        "2025年前半",
        "ask me anything",
        "who works on a Sunday?",  # any Sunday, not the last one
        "what do I cook every Friday?",
        "add 1/2 cup of milk",
        "open 24/7",
    ],
)
def test_questions_without_time_words_give_none(question: str) -> None:
    assert time_window(question, TZ, NOW) is None


def test_odd_input_never_raises() -> None:
    rng = random.Random(7)
    alphabet = "abcdefghijklmnopqrstuvwxyz 0123456789-/.,?先週今日昨年月火日前から以降ヶ間過去この"
    words = ["last", "ago", "since", "in", "may", "nov", "days", "week", "99999999", "月", "日前"]
    for _ in range(500):
        q = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        q += " ".join(rng.choice(words) for _ in range(rng.randint(0, 5)))
        w = time_window(q, TZ, NOW)
        assert w is None or (w.start <= w.end and w.phrase in q)
    assert time_window("99999999 days ago", TZ, NOW) is None
    assert time_window("0001-01-01 or 9999-12-31", TZ, NOW) is None  # beyond datetime's range


def test_an_unknown_timezone_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        time_window("yesterday", "Mars/Olympus", NOW)


@pytest.mark.parametrize(
    ("question", "rest"),
    [
        ("what did I read last week?", "what did I read?"),
        ("先週は何をした？", "は何をした？"),
        ("3日前に読んだ記事", "に読んだ記事"),
        ("since March, what changed", "what changed"),
        ("notes about Lisbon from 2026-11-18", "notes about Lisbon from"),
    ],
)
def test_without_time_words_cuts_the_phrase(question: str, rest: str) -> None:
    w = time_window(question, TZ, NOW)
    assert w is not None and without_time_words(question, w) == rest


def test_without_time_words_keeps_a_question_without_the_phrase() -> None:
    w = TimeWindow(NOW, NOW, "last week")
    assert without_time_words("nothing here", w) == "nothing here"
