"""A plan's words + when they were said -> the days it is due, looking ahead from that moment.

`omoide.memory.time_words` reads a phrase as a question or a diary does: "in March" or "on
18 November" without a year is the most recent one, and a bare weekday is left alone (it may
look back or ahead). A promise looks ahead, so here:

- a phrase that says it looks back ("yesterday", "last week", "3 days ago", 先週, 昨日) is
  no due date: "I'll send you the photos from yesterday" is due whenever;
- a phrase that names today or later as it stands is taken as it is ("tomorrow", "tonight",
  "next week", 明日, 来週, 3日後);
- a phrase with no direction that time_words took backward (a month, a date without its year,
  an occasion, "this Friday" said on Saturday) is read against a later moment, a week and then
  a year on, and the first reading that is not over by the day said is taken;
- a bare weekday ("on Saturday", "by Friday", 土曜に) is the first such day after the day said,
  as "next Monday" is; "this weekend" / 週末 the coming Saturday and Sunday (the current ones
  when said on a weekend), "next weekend" / 来週末 the ones after.

The due is the first phrase of the words, in text order, that names such a time.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from omoide.core.days import day_bounds, local_day
from omoide.memory.time_words import time_phrases, time_window

Span = tuple[datetime, datetime]

# Later moments a directionless phrase is read against: a week on (a weekday of this week),
# then a year less a day on (a date or month of the coming year, never a year too far).
_LATER = (timedelta(0), timedelta(days=6), timedelta(days=364))
_LOOKS_BACK = re.compile(
    r"\b(?:last|ago|yesterday|previous|past|earlier|since|before)\b"
    r"|昨|先週|先月|先々|前|去年|一昨|おととい|おととし|ゆうべ|以来",
    re.IGNORECASE,
)
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_BARE_WEEKDAY = re.compile(
    r"\b(?<!last\s)(?<!next\s)(?<!this\s)(?<!past\s)"
    r"(?P<day>monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
    r"(?!\s+(?:last|this|next)\s+week\b)",
    re.IGNORECASE,
)
# 土曜, 土曜日 (not 先週の土曜, which time_words reads; a lone 土 is too common a character)
_BARE_WEEKDAY_JA = re.compile(r"(?<!週)(?<!週の)(?P<day>[月火水木金土日])曜")
_WEEKEND = re.compile(
    r"\b(?P<next>next\s+)?(?:this\s+|the\s+)?weekend\b|(?P<next_ja>来週末)|今週末|週末|土日",
    re.IGNORECASE,
)


def _first_after(day: date, weekday: int) -> date:
    """A day + a weekday (Monday 0) -> the first such day after it."""
    return day + timedelta(days=(weekday - day.weekday() - 1) % 7 + 1)


def _weekend(day: date, later: bool) -> tuple[date, date]:
    """A day + whether the next weekend is meant -> that Saturday and the day after its Sunday."""
    saturday = day + timedelta(days=5 - day.weekday())  # a Sunday's is the day before
    if later:
        saturday += timedelta(days=7)
    return saturday, saturday + timedelta(days=2)


def _forward(phrase: str, said_at: datetime, tz: str, today: datetime) -> Span | None:
    """One explicit phrase + when it was said -> its span read ahead, or None when it looks back or is over."""
    if _LOOKS_BACK.search(phrase):
        return None
    for later in _LATER:
        found = time_window(phrase, tz, said_at + later)
        if found is not None and found.end > today:
            return found.start, found.end
    return None


def _bare_days(text: str, said: date, tz: str) -> list[tuple[int, Span]]:
    """Words + the local day said + timezone -> (offset, span) of each bare weekday and weekend in them."""
    found: list[tuple[int, Span]] = []
    for m in _BARE_WEEKDAY.finditer(text):
        d = _first_after(said, _WEEKDAYS.index(m["day"].lower()))
        found.append((m.start(), (day_bounds(d, tz)[0], day_bounds(d, tz)[1])))
    for m in _BARE_WEEKDAY_JA.finditer(text):
        d = _first_after(said, "月火水木金土日".index(m["day"]))
        found.append((m.start(), (day_bounds(d, tz)[0], day_bounds(d, tz)[1])))
    for m in _WEEKEND.finditer(text):
        first, stop = _weekend(said, bool(m["next"] or m["next_ja"]))
        found.append((m.start(), (day_bounds(first, tz)[0], day_bounds(stop, tz)[0])))
    return found


def due_span(text: str, said_at: datetime, tz: str) -> Span | None:
    """A plan's words + when they were said + timezone -> the [start, end) in UTC it is due, or None when no time word names one."""
    said = local_day(said_at, tz)
    today = day_bounds(said, tz)[0]
    found = _bare_days(text, said, tz)
    for w in time_phrases(text, tz, said_at):
        span = _forward(w.phrase, said_at, tz, today)
        if span is not None:
            found.append((w.offset, span))
    return min(found, key=lambda f: f[0])[1] if found else None
