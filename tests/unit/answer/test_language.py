"""An answer's language follows its question; days, moments and durations are said in it."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from omoide.answer.language import (
    day_text,
    duration_text,
    language_of,
    moment_text,
    nothing_recorded,
    period_text,
)


@pytest.mark.parametrize(
    ("question", "setting", "lang"),
    [
        ("what did I do yesterday", "auto", "en"),
        ("昨日は何をしましたか", "auto", "ja"),
        ("github.comに何時間使いましたか", "auto", "ja"),
        ("ピーター", "auto", "ja"),
        ("昨日は何をしましたか", "en", "en"),
        ("what did I do yesterday", "ja", "ja"),
    ],
)
def test_the_answer_is_in_the_questions_language_unless_set(
    question: str, setting: str, lang: str
) -> None:
    assert language_of(question, setting) == lang


def test_days_moments_and_durations_in_both_languages() -> None:
    friday = date(2026, 11, 20)
    assert day_text(friday, "en") == "Friday, 20 November 2026"
    assert day_text(friday, "ja") == "2026年11月20日（金）"
    at = datetime(2026, 11, 20, 22, 10)
    assert moment_text(at, "en") == "Friday, 20 November 2026 at 22:10"
    assert moment_text(at, "ja") == "2026年11月20日（金）22:10"
    assert moment_text(at, "ja", with_time=False) == "2026年11月20日（金）"
    assert [duration_text(m, "ja") for m in (0.2, 46, 60, 116)] == [
        "1分未満",
        "46分",
        "1時間",
        "1時間56分",
    ]
    assert [duration_text(m, "en") for m in (0.2, 46, 60, 116)] == [
        "under a minute",
        "46 min",
        "1 h",
        "1 h 56 min",
    ]


@pytest.mark.parametrize(
    ("first", "last", "en", "ja"),
    [
        (
            date(2026, 11, 30),
            date(2026, 11, 30),
            "on Monday, 30 November 2026",
            "2026年11月30日（月）",
        ),
        (
            date(2026, 11, 23),
            date(2026, 11, 29),
            "in the week 2026-W48 (23 to 29 November 2026)",
            "2026年第48週（11月23日〜29日）",
        ),
        (date(2026, 11, 1), date(2026, 11, 30), "in November 2026", "2026年11月"),
        (
            date(2026, 11, 30),
            date(2026, 12, 1),
            "between Monday, 30 November 2026 and Tuesday, 1 December 2026",
            "2026年11月30日（月）から2026年12月1日（火）まで",
        ),
    ],
)
def test_a_window_is_named_in_both_languages(first: date, last: date, en: str, ja: str) -> None:
    assert period_text(first, last, "en") == en
    assert period_text(first, last, "ja") == ja


def test_an_empty_window_is_said_in_both_languages() -> None:
    day = date(2026, 11, 30)
    assert nothing_recorded(day, day, "en") == "Nothing was recorded on Monday, 30 November 2026."
    assert nothing_recorded(day, day, "ja") == "2026年11月30日（月）には何も記録されていません。"
