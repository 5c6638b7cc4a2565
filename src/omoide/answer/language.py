"""A question -> the language its answer is written in, and the days, moments and durations said in it.

A question is answered in its own language (the setting `answer_language`: "auto", "en" or
"ja"). Only English and Japanese are written; "auto" takes Japanese for a question with kana or
kanji in it, English otherwise. Quotes of the person's own lines stay as they were written: only
what the answer itself says is in the question's language.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Literal

Lang = Literal["en", "ja"]
LANGUAGES = ("auto", "en", "ja")
# Kana or CJK ideographs (and the iteration mark): one is enough, a Japanese question often holds
# an English name or site ("github.comに何時間").
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\u3005\uff66-\uff9f]")
_WEEKDAYS_JA = "月火水木金土日"


def language_of(question: str, setting: str = "auto") -> Lang:
    """Question + the `answer_language` setting -> the language to answer in."""
    if setting in ("en", "ja"):
        return setting  # type: ignore[return-value]
    return "ja" if _JAPANESE.search(question) else "en"


def weekday_ja(day: date) -> str:
    """Day -> its weekday as Japanese writes it after a date ('金')."""
    return _WEEKDAYS_JA[day.weekday()]


def date_text(day: date, lang: Lang) -> str:
    """Day -> '20 November 2026' / '2026年11月20日'."""
    if lang == "ja":
        return f"{day.year}年{day.month}月{day.day}日"
    return f"{day.day} {day:%B %Y}"


def day_text(day: date, lang: Lang) -> str:
    """Day -> 'Friday, 20 November 2026' / '2026年11月20日（金）'."""
    if lang == "ja":
        return f"{date_text(day, lang)}（{weekday_ja(day)}）"
    return f"{day:%A}, {date_text(day, lang)}"


def moment_text(moment: datetime, lang: Lang, with_time: bool = True) -> str:
    """A local time -> 'Friday, 20 November 2026 at 22:10' / '2026年11月20日（金）22:10' (the day alone when it has no time)."""
    day = day_text(moment.date(), lang)
    if not with_time:
        return day
    return f"{day}{moment:%H:%M}" if lang == "ja" else f"{day} at {moment:%H:%M}"


def duration_text(minutes: float, lang: Lang) -> str:
    """Minutes -> '46 min', '1 h 56 min', 'under a minute' / '46分', '1時間56分', '1分未満'."""
    whole = int(round(minutes))
    if whole < 1:
        return "1分未満" if lang == "ja" else "under a minute"
    hours, rest = divmod(whole, 60)
    if lang == "ja":
        return (
            f"{hours}時間{rest}分" if hours and rest else f"{hours}時間" if hours else f"{rest}分"
        )
    if not hours:
        return f"{rest} min"
    return f"{hours} h {rest} min" if rest else f"{hours} h"


def _month_end(day: date) -> date:
    """Day -> the last day of its month."""
    return (day.replace(day=1) + timedelta(days=32)).replace(day=1) - timedelta(days=1)


def _span_en(first: date, last: date) -> str:
    """Inclusive days -> '23 to 29 November 2026' (months and years said only where they change)."""
    if (first.year, first.month) == (last.year, last.month):
        return f"{first.day} to {date_text(last, 'en')}"
    if first.year == last.year:
        return f"{first.day} {first:%B} to {date_text(last, 'en')}"
    return f"{date_text(first, 'en')} to {date_text(last, 'en')}"


def _span_ja(first: date, last: date) -> str:
    """Inclusive days -> '11月23日〜29日' (the year said once, before)."""
    if (first.year, first.month) == (last.year, last.month):
        return f"{first.month}月{first.day}日〜{last.day}日"
    if first.year == last.year:
        return f"{first.month}月{first.day}日〜{last.month}月{last.day}日"
    return f"{date_text(first, 'ja')}〜{date_text(last, 'ja')}"


def period_text(first: date, last: date, lang: Lang) -> str:
    """Inclusive local days -> how an answer names them: 'on <day>', 'in the week 2026-W48 (…)',
    'in November 2026', 'between <day> and <day>' / '2026年11月30日（月）', '2026年第48週（…）', '2026年11月', '…から…まで'."""
    year, week, weekday = first.isocalendar()
    is_week = weekday == 1 and last == first + timedelta(days=6)
    is_month = first.day == 1 and last == _month_end(first)
    if lang == "ja":
        if first == last:
            return day_text(first, lang)
        if is_week:
            return f"{year}年第{week}週（{_span_ja(first, last)}）"
        if is_month:
            return f"{first.year}年{first.month}月"
        return f"{day_text(first, lang)}から{day_text(last, lang)}まで"
    if first == last:
        return f"on {day_text(first, lang)}"
    if is_week:
        return f"in the week {year}-W{week:02d} ({_span_en(first, last)})"
    if is_month:
        return f"in {first:%B %Y}"
    return f"between {day_text(first, lang)} and {day_text(last, lang)}"


def nothing_recorded(first: date, last: date, lang: Lang) -> str:
    """Inclusive local days -> the sentence saying no record holds them."""
    if lang == "ja":
        return f"{period_text(first, last, lang)}には何も記録されていません。"
    return f"Nothing was recorded {period_text(first, last, lang)}."
