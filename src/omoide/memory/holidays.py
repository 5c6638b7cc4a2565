"""Days people name by their occasion (Christmas, Valentine's Day, Thanksgiving, 大晦日, お盆) -> their local dates in a year.

A table, not a public-holiday calendar: the days people ask about ("what did we do on
Valentine's Day", "クリスマスに何をした") are mostly observances no country's public-holiday list
has (Valentine's Day, Halloween, Christmas Eve, 七夕), so the `holidays` package would answer few of
them; the movable ones are a `dateutil` weekday rule or its Easter. Where countries differ, the
day is the US one (Thanksgiving the fourth Thursday of November, Mother's Day the second Sunday
of May, as in Japan): docs/choices-and-limits.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

from dateutil.easter import easter
from dateutil.relativedelta import MO, SU, TH, relativedelta

Days = tuple[date, date]  # [first, stop): local days


def _fixed(month: int, day: int, days: int = 1) -> Callable[[int], Days]:
    """Month, day (+ how many days) -> year -> that run of days."""

    def days_in(year: int) -> Days:
        first = date(year, month, day)
        return first, first + timedelta(days=days)

    return days_in


def _weekday_rule(month: int, day: int, weekday: relativedelta) -> Callable[[int], Days]:
    """Month, a day to count from, a dateutil weekday ('TH(+4)': the fourth Thursday on or after it) -> year -> that day."""

    def days_in(year: int) -> Days:
        d = date(year, month, day) + relativedelta(weekday=weekday)
        return d, d + timedelta(days=1)

    return days_in


def _after_easter(offset: int) -> Callable[[int], Days]:
    """Days from Easter Sunday -> year -> that day (Western Easter)."""

    def days_in(year: int) -> Days:
        d = easter(year) + timedelta(days=offset)
        return d, d + timedelta(days=1)

    return days_in


# regex of each way to say it -> the days it names
_ENGLISH: dict[str, Callable[[int], Days]] = {
    r"new\s+year['’]?s\s+eve": _fixed(12, 31),
    r"new\s+year['’]?s(?:\s+day)?": _fixed(1, 1),
    r"valentine['’]?s(?:\s+day)?": _fixed(2, 14),
    r"(?:st\.?|saint)\s+patrick['’]?s\s+day": _fixed(3, 17),
    r"april\s+fools['’]?\s+day": _fixed(4, 1),
    r"good\s+friday": _after_easter(-2),
    r"easter\s+monday": _after_easter(1),
    r"easter(?:\s+sunday)?": _after_easter(0),
    r"mother['’]?s\s+day": _weekday_rule(5, 1, SU(+2)),
    r"memorial\s+day": _weekday_rule(5, 31, MO(-1)),
    r"father['’]?s\s+day": _weekday_rule(6, 1, SU(+3)),
    r"independence\s+day|(?:the\s+)?fourth\s+of\s+july": _fixed(7, 4),
    r"labou?r\s+day": _weekday_rule(9, 1, MO(+1)),
    r"halloween": _fixed(10, 31),
    r"thanksgiving(?:\s+day)?": _weekday_rule(11, 1, TH(+4)),
    r"christmas\s+eve|xmas\s+eve": _fixed(12, 24),
    r"christmas(?:\s+day)?|xmas": _fixed(12, 25),
    r"boxing\s+day": _fixed(12, 26),
}
_JAPANESE: dict[str, Callable[[int], Days]] = {
    "元日|元旦": _fixed(1, 1),
    "お?正月|三が日": _fixed(1, 1, 3),
    "バレンタインデー|バレンタイン": _fixed(2, 14),
    "ひな祭り|ひなまつり|雛祭り": _fixed(3, 3),
    "ホワイトデー": _fixed(3, 14),
    "ゴールデンウィーク|ゴールデンウイーク": _fixed(4, 29, 7),
    "こどもの日|子供の日": _fixed(5, 5),
    "母の日": _weekday_rule(5, 1, SU(+2)),
    "父の日": _weekday_rule(6, 1, SU(+3)),
    "七夕": _fixed(7, 7),
    "お盆": _fixed(8, 13, 4),
    "ハロウィーン|ハロウィン": _fixed(10, 31),
    "クリスマス・?イ[ブヴ]": _fixed(12, 24),
    "クリスマス": _fixed(12, 25),
    "大晦日|大みそか": _fixed(12, 31),
}
_RULES = [(re.compile(k, re.IGNORECASE), v) for k, v in (_ENGLISH | _JAPANESE).items()]

# alternations for a pattern that finds the names; each table lists a longer name before the
# name it starts with (Christmas Eve before Christmas), as an alternation takes the first that fits
ENGLISH_NAMES = "|".join(_ENGLISH)
JAPANESE_NAMES = "|".join(_JAPANESE)


def holiday_days(name: str, year: int) -> Days | None:
    """A name as matched by ENGLISH_NAMES or JAPANESE_NAMES, a year -> its local days [first, stop), or None if unknown."""
    for pattern, days_in in _RULES:
        if pattern.fullmatch(name):
            return days_in(year)
    return None
