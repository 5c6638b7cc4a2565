"""Time words in a recall question (English and Japanese) -> the time window they name.

`time_window("what did I read last week?", "Europe/Berlin", now)` gives the previous
Monday-based week as [start, end) in UTC. Pure: no clock (pass `now`), no I/O; local days come
from `omoide.core.days`, so every boundary is a local midnight and DST-correct.

Rules for the ambiguous cases:
- several phrases: the leftmost wins (ties: the longest), since the first time words usually
  set the question's frame ("yesterday, or was it last week?" -> yesterday).
- today, this week / month / year: the whole calendar period (its end may lie after `now`).
- "last week", "previous month": the previous calendar period; a count, "past" or "the last"
  make a rolling window instead: "the past week", "in the last 3 days", 過去3日間, この1週間
  -> [start of the local day N units back, now].
- "N days / weeks / months / years ago", N日前, N週間前, Nヶ月前: the one calendar day,
  Monday-based week, month or year that far back.
- a weekday alone, "on Tuesday", "last Tuesday", 火曜日: the most recent one before today (today
  excluded: on a Tuesday it is a week ago); "Tuesday last week", 先週の火曜日: that day of the
  previous week; "this Tuesday", 今週の火曜日: that day of the current week.
- an English month name counts only after in / during / since / of / this / last or before a
  year ("November 2025"), so "may I ask" names no time; "Nov 18" and "18 Nov" are days.
- a month or day without a year: the most recent one not in the future ("in December" on
  2026-11-25 is December 2025); "last November": the most recent strictly before the current
  month; "this November" and 今年の11月: the current year's.
- a weekday after "a", "any" or "every" ("who works on a Sunday") names no one day: no window.
- two months joined ("in March and April", "between May and July", 3月と4月, 3月から5月): from
  the first one's start to the last one's end, each the most recent not in the future.
- a slash date after "on" or "since" ("on 2/8"): month first, as in the US, Japan and ISO
  8601; day first only when the first number cannot be a month ("on 15/2"). A British
  "on 3/4" (3 April) is read as 4 March: docs/choices-and-limits.md.
- "since X", Xから, X以降, X以来: [start of X, now]; a comparison with now ("a few months ago
  compared to now", "than now") runs from the start of X to now as well.
- ahead: tomorrow, the day after tomorrow, next week / month / year (not "the next week": a
  story's own next week), next Friday (the first one after today), 明日, 明後日, 来週, 来月,
  来年, 来週の金曜日, 3日後: those future periods.
- `time_phrases` finds every phrase of a statement, resolved against the time it was said
  (`omoide.memory.said_dates`); a bare weekday is left out there.
- a day named by its occasion (Christmas, New Year's Eve, Valentine's Day, Thanksgiving, Easter,
  クリスマス, 大晦日, お正月, お盆; `omoide.memory.holidays`) counts only after on / at / over /
  during / since / this / last / next or before a year ("a Christmas gift" and "for
  Thanksgiving" name no day), in Japanese with a year before it (去年の, 2025年の) or a particle
  after it (クリスマスに, 大晦日は); the most recent not in the future, "last" strictly before today,
  "this" the current year's, "next" the first after today.
- a weekday with a date ("Saturday 31 October", "Sat, Oct 31"): the date's day (the weekday
  only agrees with it); "on the 18th": that day of the current month, or of the month before
  while it is still ahead; "the week of 2 November", 11月2日の週, 10月26日からの週: the
  Monday-based week holding that day.
- "a couple of" = 2; "a few" and 数 = 3.
Odd questions never raise: a match that names no real date (Nov 31, 99999 days ago) is
skipped. An unknown timezone raises `ConfigError`, as everywhere else.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from omoide.core.days import day_bounds, local_day, zone
from omoide.memory.holidays import ENGLISH_NAMES, JAPANESE_NAMES, holiday_days

Span = tuple[datetime, datetime]


@dataclass(frozen=True)
class TimeWindow:
    """A time range named in a question: [start, end) in UTC and the words that named it."""

    start: datetime
    end: datetime
    phrase: str
    offset: int = 0  # where the phrase begins in the text (set by time_phrases)


@dataclass(frozen=True)
class _Now:
    tz: str
    now: datetime  # UTC
    today: date  # local


# -- calendar arithmetic -----------------------------------------------------------------


def _days(first: date, stop: date, c: _Now) -> Span:
    """Local days [first, stop) -> UTC bounds."""
    return day_bounds(first, c.tz)[0], day_bounds(stop, c.tz)[0]


def _add_months(d: date, k: int) -> date:
    """Date, k -> the same day k months later, clamped to that month's length."""
    y, m = divmod(d.year * 12 + d.month - 1 + k, 12)
    return date(y, m + 1, min(d.day, calendar.monthrange(y, m + 1)[1]))


def _calendar(unit: str, k: int, c: _Now) -> Span:
    """'day' | 'week' | 'month' | 'year', offset k -> that calendar period from today's."""
    t = c.today
    if unit == "day":
        first = t + timedelta(days=k)
        return _days(first, first + timedelta(days=1), c)
    if unit == "week":
        first = t - timedelta(days=t.weekday()) + timedelta(weeks=k)
        return _days(first, first + timedelta(weeks=1), c)
    if unit == "month":
        first = _add_months(t.replace(day=1), k)
        return _days(first, _add_months(first, 1), c)
    return _days(date(t.year + k, 1, 1), date(t.year + k + 1, 1, 1), c)


def _rolling(n: int, unit: str, c: _Now) -> Span:
    """N units back -> [start of the local day that far back, now]."""
    if unit in ("day", "week"):
        first = c.today - timedelta(days=n * (7 if unit == "week" else 1))
    else:
        first = _add_months(c.today, -n * (12 if unit == "year" else 1))
    return day_bounds(first, c.tz)[0], c.now


def _on_day(year: int | None, month: int, day: int, c: _Now) -> Span:
    """Year (or None: the most recent not in the future), month, day -> that local day."""
    if year is None:
        past = (month, day) <= (c.today.month, c.today.day)
        year = c.today.year if past else c.today.year - 1
    d = date(year, month, day)
    return _days(d, d + timedelta(days=1), c)


def _in_month(month: int, year: int | None, rule: str, c: _Now) -> Span:
    """Month, year or rule ('this', 'last', else most recent not in the future) -> that month."""
    t = c.today
    if year is None:
        ahead = month > t.month if rule != "last" else month >= t.month
        year = t.year if rule == "this" else t.year - 1 if ahead else t.year
    first = date(year, month, 1)
    return _days(first, _add_months(first, 1), c)


def _on_weekday(wd: int, week: int | None, c: _Now) -> Span:
    """Weekday (Monday 0), week offset (None: most recent before today) -> that local day."""
    t = c.today
    if week is None:
        d = t - timedelta(days=(t.weekday() - wd - 1) % 7 + 1)
    else:
        d = t - timedelta(days=t.weekday()) + timedelta(weeks=week, days=wd)
    return _days(d, d + timedelta(days=1), c)


# -- words -------------------------------------------------------------------------------

_WORD_NUMBERS = "one two three four five six seven eight nine ten eleven twelve".split()
_KANJI_NUMBERS = "一二三四五六七八九"
_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()
_WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()


def _number(text: str) -> int:
    """'3', 'three', 'a', 'a couple of', '十二', '数' -> the count."""
    t = " ".join(text.lower().split())
    if t.isdigit():
        return int(t)
    if t in ("a", "an"):
        return 1
    if "couple" in t:
        return 2
    if "few" in t or t == "数":
        return 3
    if t in _WORD_NUMBERS:
        return _WORD_NUMBERS.index(t) + 1
    if t.startswith("十"):
        return 10 + (_KANJI_NUMBERS.index(t[1]) + 1 if len(t) > 1 else 0)
    return _KANJI_NUMBERS.index(t) + 1


def _unit(text: str) -> str:
    """'days', '週間', 'ヶ月', ... -> 'day' | 'week' | 'month' | 'year'."""
    t = text.lower()
    if t.startswith("day") or t == "日":
        return "day"
    if t.startswith(("week", "週")):
        return "week"
    return "month" if t.startswith("month") or t.endswith("月") else "year"


def _month_number(text: str) -> int:
    """'11', 'Nov', 'november' -> 11."""
    return int(text) if text.isdigit() else _MONTHS.index(text[:3].lower()) + 1


def _key(text: str) -> str:
    """Matched words -> lookup key: lower case, single spaces, no leading 'the'."""
    return " ".join(text.lower().split()).removeprefix("the ")


# -- one pattern and one rule per phrase family ------------------------------------------
# English words sit between \b; Japanese ones cannot, since Python counts kana and kanji as
# word characters and Japanese has no spaces, so digits are fenced with (?<!\d) / (?!\d).
_I = re.IGNORECASE
_NUM = r"\d{1,6}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few|an?"
_NUM_JA = r"\d{1,6}|十[一二]?|[一二三四五六七八九]|数"
_UNIT_JA = r"日|週間?|[ヶかカヵケ箇]月|年"  # a bare 3月 is March, so months need the counter
_MONTH_NAME = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"

# calendar periods named by one word: today, yesterday, 先週, 去年, ...
_NAMED_PERIODS = {
    **{w: ("day", 0) for w in ("today", "今日", "本日")},
    **{w: ("day", -1) for w in ("yesterday", "昨日")},
    **{w: ("day", -2) for w in ("day before yesterday", "一昨日", "おととい")},
    **{w: ("day", 1) for w in ("tomorrow", "明日", "あした")},
    **{w: ("day", 2) for w in ("day after tomorrow", "明後日", "あさって")},
    **{"来週": ("week", 1), "来月": ("month", 1), "来年": ("year", 1)},
    **{"今週": ("week", 0), "先週": ("week", -1), "先々週": ("week", -2)},
    **{"今月": ("month", 0), "先月": ("month", -1), "先々月": ("month", -2)},
    **{"今年": ("year", 0), "去年": ("year", -1), "昨年": ("year", -1)},
    **{"一昨年": ("year", -2), "おととし": ("year", -2)},
}
_NAMED = re.compile(
    r"\b(?:today|yesterday|(?:the\s+)?day\s+before\s+yesterday|tomorrow"
    r"|(?:the\s+)?day\s+after\s+tomorrow)\b|"
    + "|".join(sorted((w for w in _NAMED_PERIODS if not w.isascii()), key=len, reverse=True)),
    _I,
)
# parts of a day as local hours from today's midnight, [from, to)
_PART_HOURS = {"this morning": (0, 12), "今朝": (0, 12), "this afternoon": (12, 18)}
_PART_HOURS |= {w: (18, 24) for w in ("this evening", "tonight", "今夜", "今晩")}
_PART_HOURS |= {w: (-6, 6) for w in ("last night", "昨夜", "昨晩", "ゆうべ")}
_PART = re.compile(
    r"\b(?:this\s+(?:morning|afternoon|evening)|tonight|last\s+night)\b|今朝|今夜|今晩|昨夜|昨晩|ゆうべ",
    _I,
)
# "this week", "last month", "the past 3 days", "over the past week": "this" and a bare
# "last" name calendar periods, a count, "past" or "the last" a rolling window
_PERIOD = re.compile(
    rf"\b(?:(?:in|over|during|for|within)\s+)?(?P<the>the\s+)?(?P<which>this|last|past|previous|next)"
    rf"\s+(?:(?P<n>{_NUM})\s+)?(?P<unit>day|week|month|year)s?\b",
    _I,
)
# "3 days ago", "a couple of weeks ago", 3日前, 二週間前 (not 2025年前半, 10日前後); 3日後
_AGO = re.compile(rf"\b(?P<n>{_NUM})\s+(?P<unit>day|week|month|year)s?\s+ago\b", _I)
_AGO_JA = re.compile(rf"(?<!\d)(?P<n>{_NUM_JA})(?P<unit>{_UNIT_JA})(?P<dir>前|後)(?![半後])")
# rolling windows in Japanese: 過去3日間, この1週間, ここ数日
_RECENT_JA = re.compile(rf"(?:過去|この|ここ)(?P<n>{_NUM_JA})(?P<unit>{_UNIT_JA})間?")
# weekdays in full only: "sat", "sun", "wed" and "mon" are ordinary words too
_WEEKDAY = re.compile(
    r"\b(?:(?P<pre>on|last|this|past|next)\s+)?(?P<day>monday|tuesday|wednesday|thursday|friday"
    r"|saturday|sunday)\b(?:\s+(?P<post>last|this)\s+week\b)?",
    _I,
)
_WEEKDAY_JA = re.compile(r"(?:(?P<week>先々週|先週|今週|来週)の?)?(?P<day>[月火水木金土日])曜日?")
# a month name only after a preposition or before a year ("may" and "march" are verbs too);
# a day number after it makes a date instead (see _MONTH_DAY)
_MONTH = re.compile(
    rf"\b(?:(?P<pre>in|during|since|of|this|last)\s+)?(?P<mon>{_MONTH_NAME})\b"
    rf"(?!\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b)(?:,?\s+(?P<year>\d{{4}})\b)?",
    _I,
)
# 今年の, 去年の ... before a month or a named day: its year from the current one
_YEARS_FROM_NOW = {"今年": 0, "去年": -1, "昨年": -1, "一昨年": -2, "来年": 1}
# 11月, 2025年11月, 去年の3月 (not 月曜, not the 1月 inside 11月)
_MONTH_JA = re.compile(
    r"(?<!\d)(?:(?P<year>\d{4})年|(?P<rel>一昨年|昨年|去年|今年)の?)?(?P<mon>\d{1,2})月(?!曜)"
)
_ISO_DATE = re.compile(r"(?<!\d)(?P<year>\d{4})[-/.](?P<mon>\d{1,2})[-/.](?P<d>\d{1,2})(?!\d)")
_MONTH_DAY = re.compile(
    rf"\b(?:on\s+)?(?P<mon>{_MONTH_NAME})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b"
    rf"(?:,?\s+(?P<year>\d{{4}})\b)?",
    _I,
)
_DAY_MONTH = re.compile(
    rf"\b(?:on\s+)?(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{_MONTH_NAME})\b"
    rf"(?:,?\s+(?P<year>\d{{4}})\b)?",
    _I,
)
_DATE_JA = re.compile(r"(?<!\d)(?:(?P<year>\d{4})年)?(?P<mon>\d{1,2})月(?P<d>\d{1,2})日")
_WEEKDAY_NAME = r"(?:mon|tue|tues|wed|wednes|thu|thur|thurs|fri|sat|satur|sun)(?:day)?\.?"
# "Saturday 31 October", "Sat, Oct 31": the date names the day, the weekday only agrees with it.
_WEEKDAY_DATE = re.compile(
    rf"\b(?:on\s+)?{_WEEKDAY_NAME},?\s+(?:the\s+)?"
    rf"(?:(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{_MONTH_NAME})"
    rf"|(?P<mon2>{_MONTH_NAME})\.?\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?)\b"
    rf"(?:,?\s+(?P<year>\d{{4}})\b)?",
    _I,
)
# "on the 18th": that day of this month, or of the last one when it is still ahead.
_ORDINAL_DAY = re.compile(
    rf"\b(?:on\s+)?the\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?(?:{_MONTH_NAME})\b)",
    _I,
)
# "the week of 2 November", "the week of Nov 2", 11月2日の週, 10月26日からの週: the Monday-based week holding it.
_WEEK_OF = re.compile(
    rf"\b(?:in\s+|during\s+)?(?:the\s+)?week\s+of\s+(?:the\s+)?"
    rf"(?:(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{_MONTH_NAME})"
    rf"|(?P<mon2>{_MONTH_NAME})\.?\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?)\b"
    rf"(?:,?\s+(?P<year>\d{{4}})\b)?",
    _I,
)
_WEEK_OF_JA = re.compile(
    r"(?<!\d)(?:(?P<year>\d{4})年)?(?P<mon>\d{1,2})月(?P<d>\d{1,2})日(?:から|〜|～)?の(?:一)?週(?!間)"
)
# "in March and April", "between May and July", "March or April 2023", 3月と4月, 3月〜5月:
# the months from the first to the last, the second named bare
_MONTHS_PAIR = re.compile(
    rf"\b(?:in|during|between|from)\s+(?P<mon>{_MONTH_NAME})\s*(?:,|and|or|to|through|thru|until|till|-|–)"
    rf"\s*(?P<mon2>{_MONTH_NAME})\b(?:,?\s+(?P<year>\d{{4}})\b)?",
    _I,
)
_MONTHS_PAIR_JA = re.compile(
    r"(?<!\d)(?:(?P<year>\d{4})年)?(?P<mon>\d{1,2})月(?:と|か|から|〜|~|・|－|-)(?P<mon2>\d{1,2})月(?!曜)"
)
# "on 2/8", "since 11/3": month first (as in the US, Japan and ISO 8601), day first only when
# the first number cannot be a month ("on 15/2"); "on" or "since" is needed, so "1/2 cup" and
# "24/7" name no day
_SLASH_DATE = re.compile(
    r"\b(?P<pre>on|since)\s+(?P<a>\d{1,2})/(?P<b>\d{1,2})"
    r"(?:/(?P<year>\d{4}))?(?![\d/])",
    _I,
)
# a day named by its occasion only after on / at / over / during / since / this / last / next or
# before a year, and not as the first word of a thing ("spent $80 on Christmas gifts", "on New
# Year's resolutions"): "a Christmas gift" and "for Thanksgiving" are often bought or planned
# days before, and a window there would push those days' memories down
_OCCASION_THINGS = (
    r"gifts?|presents?|cards?|trees?|decorations?|lights?|ornaments?|shopping|sales?|part(?:y|ies)"
    r"|dinners?|lunch(?:es)?|feasts?|meals?|menus?|cookies?|cand(?:y|ies)|eggs?|costumes?|movies?"
    r"|songs?|music|resolutions?|lists?|ideas?|plans?|specials?|bonus(?:es)?|breaks?|markets?"
)
_HOLIDAY = re.compile(
    rf"\b(?:(?P<pre>on|at|over|during|since|this|last|next)\s+)?(?P<name>{ENGLISH_NAMES})\b"
    rf"(?:,?\s+(?P<year>\d{{4}})\b)?(?!['’]?\s*(?:{_OCCASION_THINGS})\b)",
    _I,
)
# クリスマスに, 去年の大晦日は, お盆から: a relative year before it or a particle after it (not
# クリスマスプレゼント, バレンタインのチョコ)
_HOLIDAY_JA = re.compile(
    rf"(?:(?P<year>\d{{4}})年の?|(?P<rel>一昨年|昨年|去年|今年|来年)の)?(?P<name>{JAPANESE_NAMES})"
    r"(?=(?P<after>に|は|で|も|当日|の[夜朝昼日]|から|以降|以来|まで)?)"
)
# a weekday after an article or "every" names any such day, not one ("on a Sunday")
_ANY_DAY = re.compile(r"\b(?:a|an|any|every|each)\s+$", _I)
# "a few months ago compared to now": the comparison runs from the named time to now
_TO_NOW = re.compile(
    r"\b(?:compared\s+(?:to|with)|than|versus|vs\.?)\s+(?:now|today|these\s+days|currently)\b|今と比べ",
    _I,
)
# "since X" before a phrase and Xから / X以降 / X以来 after it open the window up to now
_SINCE_BEFORE = re.compile(r"\bsince\s+$", _I)
_SINCE_AFTER = re.compile(r"\s*(?:から|以降|以来)")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([?？!！.,、。])")


def _named(m: re.Match[str], c: _Now) -> Span | None:
    """'yesterday', '先週', '去年' -> that calendar period."""
    unit, k = _NAMED_PERIODS[_key(m.group())]
    return _calendar(unit, k, c)


def _part(m: re.Match[str], c: _Now) -> Span | None:
    """'this morning', 'last night', '今朝' -> those local hours."""
    z = zone(c.tz)
    a, b = (
        datetime.combine(c.today + timedelta(days=h // 24), time(h % 24), tzinfo=z).astimezone(UTC)
        for h in _PART_HOURS[_key(m.group())]
    )
    return a, b


def _period(m: re.Match[str], c: _Now) -> Span | None:
    """'this week', 'last month', 'the past 3 days' -> calendar period or rolling window."""
    which, n, unit = m["which"].lower(), m["n"], m["unit"].lower()
    if which == "next":  # "the next day" follows a story's own day, not today
        return None if n or m["the"] else _calendar(unit, 1, c)
    if which == "this":
        return None if n else _calendar(unit, 0, c)
    if n or which == "past" or (m["the"] and which == "last"):
        return _rolling(_number(n) if n else 1, unit, c)
    return _calendar(unit, -1, c)


def _ago(m: re.Match[str], c: _Now) -> Span | None:
    """'3 days ago', '2週間前', '3日後' -> that one calendar day, week, month or year."""
    ahead = "dir" in m.re.groupindex and m["dir"] == "後"
    return _calendar(_unit(m["unit"]), _number(m["n"]) * (1 if ahead else -1), c)


def _recent(m: re.Match[str], c: _Now) -> Span | None:
    """'過去3日間', 'この1週間' -> [start of the local day that far back, now]."""
    return _rolling(_number(m["n"]), _unit(m["unit"]), c)


def _weekday(m: re.Match[str], c: _Now) -> Span | None:
    """'on Tuesday', 'Tuesday last week', 'this Friday', 'next Monday' -> that local day; 'on a Sunday' -> None."""
    if not m["pre"] and _ANY_DAY.search(m.string, 0, m.start()):
        return None
    if (m["pre"] or "").lower() == "next":  # the first one after today
        wd = _WEEKDAYS.index(m["day"].lower())
        d = c.today + timedelta(days=(wd - c.today.weekday() - 1) % 7 + 1)
        return _days(d, d + timedelta(days=1), c)
    rel = (m["post"] or ("this" if (m["pre"] or "").lower() == "this" else "")).lower()
    return _on_weekday(_WEEKDAYS.index(m["day"].lower()), {"last": -1, "this": 0}.get(rel), c)


def _weekday_ja(m: re.Match[str], c: _Now) -> Span | None:
    """'火曜日', '先週の火曜日' -> that local day."""
    week = {"今週": 0, "先週": -1, "先々週": -2, "来週": 1}.get(m["week"] or "")
    return _on_weekday("月火水木金土日".index(m["day"]), week, c)


def _month(m: re.Match[str], c: _Now) -> Span | None:
    """'in November', 'last May', 'Nov 2025' -> that calendar month; a bare name -> None."""
    pre, year = (m["pre"] or "").lower(), m["year"]
    if not (pre or year):
        return None
    return _in_month(_month_number(m["mon"]), int(year) if year else None, pre, c)


def _month_ja(m: re.Match[str], c: _Now) -> Span | None:
    """'11月', '2025年11月', '去年の3月' -> that calendar month."""
    offset = _YEARS_FROM_NOW.get(m["rel"] or "")
    year = int(m["year"]) if m["year"] else None if offset is None else c.today.year + offset
    return _in_month(int(m["mon"]), year, "", c)


def _date(m: re.Match[str], c: _Now) -> Span | None:
    """'2026-11-18', 'Nov 18', '18 November 2025', '11月18日' -> that local day."""
    year = int(m["year"]) if m["year"] else None
    return _on_day(year, _month_number(m["mon"]), int(m["d"]), c)


def _day_of(m: re.Match[str]) -> tuple[int | None, int, int]:
    """A match naming a day as 'd mon' or 'mon d' (+ year) -> (year or None, month, day)."""
    groups = m.groupdict()
    mon = groups.get("mon") or groups.get("mon2") or ""
    d = groups.get("d") or groups.get("d2") or "0"
    month = int(mon) if mon.isdigit() else _month_number(mon)
    return (int(m["year"]) if m["year"] else None), month, int(d)


def _weekday_date(m: re.Match[str], c: _Now) -> Span | None:
    """'Saturday 31 October', 'Sat, Oct 31' -> that local day."""
    return _on_day(*_day_of(m), c)


def _ordinal_day(m: re.Match[str], c: _Now) -> Span | None:
    """'on the 18th' -> that day of this month, or of the month before when it is still ahead."""
    d, t = int(m["d"]), c.today
    first = t.replace(day=1) if d <= t.day else _add_months(t.replace(day=1), -1)
    day = date(first.year, first.month, d)  # ValueError for the 31st of a short month: skipped
    return _days(day, day + timedelta(days=1), c)


def _week_of(m: re.Match[str], c: _Now) -> Span | None:
    """'the week of 2 November', 11月2日の週 -> the Monday-based week holding that day."""
    start, _ = _on_day(*_day_of(m), c)
    day = local_day(start, c.tz)
    monday = day - timedelta(days=day.weekday())
    return _days(monday, monday + timedelta(weeks=1), c)


def _months(m: re.Match[str], c: _Now) -> Span | None:
    """'in March and April', '3月から5月' -> from the first month's start to the last one's end."""
    year = int(m["year"]) if m["year"] else None
    a, b = (_in_month(_month_number(m[g]), year, "", c) for g in ("mon", "mon2"))
    return min(a[0], b[0]), max(a[1], b[1])


def _slash_date(m: re.Match[str], c: _Now) -> Span | None:
    """'on 2/8', 'since 15/2', 'on 2/8/2023' -> that local day (month first unless it cannot be)."""
    a, b = int(m["a"]), int(m["b"])
    month, day = (a, b) if a <= 12 else (b, a)
    return _on_day(int(m["year"]) if m["year"] else None, month, day, c)


def _occasion(name: str, year: int | None, rule: str, c: _Now) -> Span | None:
    """A day's name, a year or a rule ('this', 'last', 'next', else the most recent not in the future) -> its local days."""
    t = c.today
    days = holiday_days(name, t.year if year is None else year)
    if days is not None and year is None and rule != "this":
        if rule == "next":
            days = days if days[0] > t else holiday_days(name, t.year + 1)
        elif days[0] > t or (rule == "last" and days[0] == t):
            days = holiday_days(name, t.year - 1)
    return None if days is None else _days(days[0], days[1], c)


def _holiday(m: re.Match[str], c: _Now) -> Span | None:
    """'on Valentine's Day', 'last Christmas', 'Thanksgiving 2025' -> those local days; a bare name -> None."""
    pre, year = (m["pre"] or "").lower(), m["year"]
    if not (pre or year):
        return None
    return _occasion(m["name"], int(year) if year else None, pre, c)


def _holiday_ja(m: re.Match[str], c: _Now) -> Span | None:
    """'クリスマスに', '去年の大晦日は', '2025年のお盆' -> those local days; a bare name -> None."""
    if not (m["year"] or m["rel"] or m["after"]):
        return None
    offset = _YEARS_FROM_NOW.get(m["rel"] or "")
    year = int(m["year"]) if m["year"] else None if offset is None else c.today.year + offset
    return _occasion(m["name"], year, "", c)


_Rule = Callable[[re.Match[str], _Now], Span | None]
_FAMILIES: list[tuple[re.Pattern[str], _Rule]] = [
    (_NAMED, _named),
    (_PART, _part),
    (_PERIOD, _period),
    (_AGO, _ago),
    (_AGO_JA, _ago),
    (_RECENT_JA, _recent),
    (_WEEKDAY, _weekday),
    (_WEEKDAY_JA, _weekday_ja),
    (_MONTH, _month),
    (_MONTH_JA, _month_ja),
    (_WEEKDAY_DATE, _weekday_date),
    (_ORDINAL_DAY, _ordinal_day),
    (_WEEK_OF, _week_of),
    (_WEEK_OF_JA, _week_of),
    (_ISO_DATE, _date),
    (_MONTH_DAY, _date),
    (_DAY_MONTH, _date),
    (_DATE_JA, _date),
    (_MONTHS_PAIR, _months),
    (_MONTHS_PAIR_JA, _months),
    (_SLASH_DATE, _slash_date),
    (_HOLIDAY, _holiday),
    (_HOLIDAY_JA, _holiday_ja),
]


def _first_valid(
    pattern: re.Pattern[str], rule: _Rule, question: str, c: _Now
) -> tuple[int, int, Span] | None:
    """One family's pattern and rule, question -> its leftmost match that names a real time."""
    for m in pattern.finditer(question):
        try:
            span = rule(m, c)
        except (ValueError, OverflowError):  # Nov 31, 11月40日, 99999 days ago
            continue
        if span is not None:
            return m.start(), m.end(), span
    return None


def time_window(question: str, tz: str, now: datetime) -> TimeWindow | None:
    """Question, IANA timezone, now -> the window its leftmost time words name, or None."""
    c = _Now(tz, now.astimezone(UTC), local_day(now, tz))
    found = [f for p, r in _FAMILIES if (f := _first_valid(p, r, question, c))]
    if not found:
        return None
    s, e, (start, end) = min(found, key=lambda f: (f[0], -f[1]))
    before = _SINCE_BEFORE.search(question, 0, s)
    after = _SINCE_AFTER.match(question, e)
    if before or after or question[s:e].lower().startswith("since"):
        end = max(c.now, start)
    elif _TO_NOW.search(question):
        end = max(c.now, end)
    s, e = before.start() if before else s, after.end() if after else e
    return TimeWindow(start, end, question[s:e])


def _ambiguous_in_statement(m: re.Match[str]) -> bool:
    """A match in a statement -> whether it names no clear time there (a bare weekday: "see you on Friday" looks ahead, "on Friday I ran" back)."""
    groups = m.re.groupindex
    if "day" in groups and "pre" in groups:  # _WEEKDAY
        return (m["pre"] or "on").lower() in ("on", "past") and not m["post"]
    if "day" in groups and "week" in groups:  # _WEEKDAY_JA
        return not m["week"]
    return False


def time_phrases(text: str, tz: str, now: datetime) -> list[TimeWindow]:
    """A statement, IANA timezone, the time it was said -> every time phrase in it resolved against that time, in text order.

    Overlapping matches keep the leftmost, then the longest. A bare weekday is left out: in a
    statement it may look back or ahead.
    """
    c = _Now(tz, now.astimezone(UTC), local_day(now, tz))
    found: list[tuple[int, int, Span]] = []
    for pattern, rule in _FAMILIES:
        for m in pattern.finditer(text):
            if _ambiguous_in_statement(m):
                continue
            try:
                span = rule(m, c)
            except (ValueError, OverflowError):
                continue
            if span is not None:
                found.append((m.start(), m.end(), span))
    out: list[TimeWindow] = []
    taken = -1
    for s, e, (start, end) in sorted(found, key=lambda f: (f[0], -f[1])):
        if s >= taken:
            out.append(TimeWindow(start, end, text[s:e], s))
            taken = e
    return out


def without_time_words(question: str, window: TimeWindow) -> str:
    """Question, its window -> the question without the window's phrase, spaces tidied."""
    if not window.phrase or window.phrase not in question:
        return question
    cut = " ".join(question.replace(window.phrase, " ", 1).split())
    return _SPACE_BEFORE_PUNCT.sub(r"\1", cut).strip(" ,、")
