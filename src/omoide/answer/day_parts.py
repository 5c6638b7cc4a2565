"""Part of a day in a question ("the afternoon of 11 November", "yesterday evening", "between 14:00 and 16:00", 11月17日の午後) -> the window narrowed to those hours.

`omoide.memory.time_words` names the day (and "this morning", "last night", 今朝, 昨夜 whole);
here the hours of a named day are cut out of it. The parts keep time_words' hours, so "the
morning of Friday" is the same stretch as "this morning" on a Friday:

| part | hours (local) |
|---|---|
| morning, 朝, 午前(中) | 00–12 |
| midday, noon, 昼 | 11–14 |
| afternoon, 午後, 昼間 | 12–18 |
| 夕方 | 16–19 |
| evening, 晩 | 18–24 |
| night, 夜 | 18–06 the next day |
| 深夜, 夜中 | 22–05 the next day |

A part names hours of the day its time words name when it sits next to them ("Friday
afternoon", "the afternoon of 11 November", "on Friday in the afternoon", 金曜日の午後), or
anywhere as "in the afternoon" / 午後に; with no day named, the most recent such hours that have
begun (today's afternoon from noon on, else yesterday's). A clock range ("between 14:00 and
16:00", "from 2pm to 4pm", "14:00–16:00", 14時から16時) is read the same way, and a point of the
day ("what was I doing at 10", "around 3pm", 10時ごろ) as the hour from it. A window of
several days is left whole: "mornings last week" names no one stretch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from omoide.core.days import local_day, zone
from omoide.memory.time_words import TimeWindow

_I = re.IGNORECASE
# Hours from the day's midnight, [from, to); past 24 runs into the next day.
PART_HOURS = {
    **dict.fromkeys(("morning", "朝", "午前", "午前中"), (0, 12)),
    **dict.fromkeys(("midday", "noon", "昼"), (11, 14)),
    **dict.fromkeys(("afternoon", "午後", "昼間"), (12, 18)),
    "夕方": (16, 19),
    **dict.fromkeys(("evening", "晩"), (18, 24)),
    **dict.fromkeys(("night", "夜"), (18, 30)),
    **dict.fromkeys(("深夜", "夜中"), (22, 29)),
}
_PART_EN = r"(?P<part>morning|midday|noon|afternoon|evening|night)"
_PART_JA = r"(?P<part>午前中|午前|午後|昼間|夕方|深夜|夜中|朝|昼|晩|夜)"
# "the afternoon of " right before the day's words
_BEFORE = re.compile(rf"\b(?:(?:on|in|during)\s+)?the\s+{_PART_EN}\s+of\s*$", _I)
# " afternoon", ", in the afternoon" right after them; の午後 after a Japanese day
_AFTER = re.compile(rf"\s*,?\s*(?:(?:in|during)\s+the\s+)?{_PART_EN}\b", _I)
_AFTER_JA = re.compile(rf"の?{_PART_JA}(?!ご|飯|食)")
# "in the afternoon" / 午後に anywhere
_ANYWHERE = re.compile(rf"\b(?:in|during)\s+the\s+{_PART_EN}\b", _I)
_ANYWHERE_JA = re.compile(rf"{_PART_JA}(?:に|は|の間|中)")
_CLOCK = r"(?P<{g}h>[01]?\d|2[0-3])(?:[:.](?P<{g}m>[0-5]\d))?\s*(?P<{g}ap>am|pm|a\.m\.|p\.m\.)?"
_RANGE = re.compile(
    rf"\b(?:between|from)\s+{_CLOCK.format(g='a')}\s*(?:and|to|until|till|-|–)\s*{_CLOCK.format(g='b')}"
    rf"|(?<![\d:])(?P<ch>[01]?\d|2[0-3]):(?P<cm>[0-5]\d)\s*[-–]\s*(?P<dh>[01]?\d|2[0-3]):(?P<dm>[0-5]\d)(?![\d:])",
    _I,
)
_RANGE_JA = re.compile(
    r"(?P<ah>[01]?\d|2[0-3])(?:時(?:(?P<am>[0-5]?\d)分|(?P<ahalf>半))?|:(?P<ac>[0-5]\d))"
    r"(?:から|〜|~|－|-)"
    r"(?P<bh>[01]?\d|2[0-4])(?:時(?:(?P<bm>[0-5]?\d)分|(?P<bhalf>半))?|:(?P<bc>[0-5]\d))(?:まで)?"
)
# "at 10", "at 10:30", "around 3pm", 10時に, 10時半ごろ: a point of the day, asked as the hour from it.
# A bare hour needs the question's end, "o'clock" or a day's words after it ("at 10 on Friday"):
# "at 10 km" is no time.
_POINT = re.compile(
    rf"\b(?:at|around|about)\s+{_CLOCK.format(g='p')}"
    r"(?P<oc>\s*o'?clock)?(?=\s*(?:$|[?.!,]|on\b|in\b|yesterday|today|this|last|that))",
    _I,
)
_POINT_JA = re.compile(r"(?P<h>[01]?\d|2[0-3])時(?:(?P<m>[0-5]?\d)分|(?P<half>半))?(?:ごろ|頃|に)")
POINT_HOURS = 1.0  # the stretch a point of the day is asked as
# Shorter than this, a window is part of a day (a local day is 23 to 25 hours).
PART_OF_DAY_MAX = timedelta(hours=20)


@dataclass(frozen=True)
class Narrowed:
    """A window cut to hours of a day, and the words of the question that named it (to take out of the subject)."""

    window: TimeWindow | None
    phrases: tuple[str, ...]


def is_part_of_day(window: TimeWindow | None) -> bool:
    """A question's window -> is it hours of a day rather than whole days?"""
    return window is not None and window.end - window.start < PART_OF_DAY_MAX


def _hour(h: str, m: str | None, ampm: str | None) -> float:
    """'2', '30', 'pm' -> 14.5 (hours from midnight)."""
    hours = int(h) % 12 + 12 if ampm and ampm.lower().startswith("p") else int(h)
    if ampm and ampm.lower().startswith("a") and int(h) == 12:
        hours = 0
    return hours + (int(m) / 60 if m else 0)


def _span(day: date, a: float, b: float, tz: str) -> tuple[datetime, datetime]:
    """A local day + hours [a, b) from its midnight -> the UTC bounds."""
    midnight = datetime.combine(day, time(0), tzinfo=zone(tz))
    # Wall-clock hours: a DST day keeps 14:00 at 14:00.
    start = (midnight + timedelta(hours=a)).astimezone(UTC)
    end = (midnight + timedelta(hours=b)).astimezone(UTC)
    return start, end


def _clock_range(text: str) -> tuple[re.Match[str], float, float] | None:
    """Question -> its clock range as hours from midnight, or None."""
    m = _RANGE.search(text)
    if m and m["ah"] is not None and not (m["am"] or m["aap"] or m["bm"] or m["bap"]):
        m = None  # "between 3 and 5" may count kilometres: a clock needs a colon or am/pm
    if m and m["ah"] is not None:
        b_ap = m["bap"]
        a = _hour(m["ah"], m["am"], m["aap"] or b_ap)
        return m, a, _hour(m["bh"], m["bm"], b_ap)
    if m:
        return m, _hour(m["ch"], m["cm"], None), _hour(m["dh"], m["dm"], None)
    j = _RANGE_JA.search(text)
    if j is None:
        return None
    a = int(j["ah"]) + (int(j["am"] or j["ac"] or 0) / 60) + (0.5 if j["ahalf"] else 0)
    b = int(j["bh"]) + (int(j["bm"] or j["bc"] or 0) / 60) + (0.5 if j["bhalf"] else 0)
    return j, a, b


def _clock_point(text: str) -> tuple[re.Match[str], float] | None:
    """Question -> the point of the day it asks about ("at 10", 10時ごろ) as hours from midnight, or None."""
    m = _POINT.search(text)
    if m:
        return m, _hour(m["ph"], m["pm"], m["pap"])
    j = _POINT_JA.search(text)
    if j:
        return j, int(j["h"]) + int(j["m"] or 0) / 60 + (0.5 if j["half"] else 0)
    return None


def _part_next_to(text: str, window: TimeWindow) -> tuple[str, str] | None:
    """Question + its window -> (part, the words naming both) when a part of day sits next to the window's words."""
    at = text.find(window.phrase) if window.phrase else -1
    if at < 0:
        return None
    end = at + len(window.phrase)
    before = _BEFORE.search(text, 0, at)
    if before:
        return before["part"].lower(), text[before.start() : end]
    after = _AFTER.match(text, end) or _AFTER_JA.match(text, end)
    if after:
        return after["part"].lower(), text[at : after.end()]
    return None


def _single_day(window: TimeWindow, tz: str) -> date | None:
    """A window -> its local day when it is one whole day, else None."""
    first = local_day(window.start, tz)
    last = local_day(window.end - timedelta(microseconds=1), tz)
    return first if first == last and not is_part_of_day(window) else None


def _latest_begun(a: float, tz: str, now: datetime) -> date:
    """Hours' start + now -> the most recent day on which those hours have begun."""
    today = local_day(now, tz)
    return today if _span(today, a, a, tz)[0] <= now else today - timedelta(days=1)


def narrowed(text: str, window: TimeWindow | None, tz: str, now: datetime) -> Narrowed:
    """Question + the window its time words name + timezone + now -> the window cut to the hours of a day it names."""
    day = _single_day(window, tz) if window is not None else None
    if window is not None and day is None:
        return Narrowed(window, (window.phrase,))
    phrases = (window.phrase,) if window is not None else ()
    clock = _clock_range(text)
    if clock is not None:
        m, a, b = clock
        b = b if b > a else b + 24
        on = day or _latest_begun(a, tz, now)
        start, end = _span(on, a, b, tz)
        words = m.group().strip()
        return Narrowed(TimeWindow(start, end, words), (*phrases, words))
    point = _clock_point(text)
    if point is not None:
        m, a = point
        on = day or _latest_begun(a, tz, now)
        start, end = _span(on, a, a + POINT_HOURS, tz)
        words = m.group().strip()
        return Narrowed(TimeWindow(start, end, words), (*phrases, words))
    beside = _part_next_to(text, window) if window is not None else None
    if beside is not None and day is not None:
        part, words = beside
        start, end = _span(day, *PART_HOURS[part], tz)
        return Narrowed(TimeWindow(start, end, words), (words,))
    loose = _ANYWHERE.search(text) or _ANYWHERE_JA.search(text)
    if loose is None:
        return Narrowed(window, phrases)
    a, b = PART_HOURS[loose["part"].lower()]
    on = day or _latest_begun(a, tz, now)
    start, end = _span(on, a, b, tz)
    return Narrowed(TimeWindow(start, end, loose.group()), (*phrases, loose.group()))
