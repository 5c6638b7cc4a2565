"""Relative time in what was said or written -> absolute dates kept beside the words.

"I went to a support group yesterday", said on 8 May 2023, becomes "I went to a support
group yesterday [2023-05-07]": the record is read, embedded, searched and cited with the day it
means, whenever it is recalled. `omoide.memory.time_words` finds and resolves the phrases
against the record's own time (not the reader's), so "last Saturday", "two weeks ago",
"next month" and 先週の土曜日 all work as they do in a question.

The dates are ISO 8601 in square brackets right after the phrase: a day `[2023-05-07]`, a
month `[2023-05]`, a year `[2023]`, any other span `[2023-05-01/2023-05-07]` (the interval
notation, both ends inclusive). ISO because it reads the same in every language the notes are
written in and parses back without doubt (`stated_spans`), which is how a question's own dates
("what did Caroline do on 7 May?") match what was said on the 8th.

Left alone: a phrase that names its year already ("on 7 May 2023", "2023-05-07"), a bare
weekday ("on Friday" may look back or ahead), and a phrase already followed by its date.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from omoide.core.days import day_bounds, local_day
from omoide.memory.time_words import time_phrases

Span = tuple[datetime, datetime]
_YEAR = re.compile(r"(?<!\d)\d{4}(?!\d)")
_ISO = r"\d{4}(?:-\d{2}(?:-\d{2})?)?"
_STATED = re.compile(rf"\[(?P<a>{_ISO})(?:/(?P<b>\d{{4}}-\d{{2}}-\d{{2}}))?\]")


def _last_day(first: date, months: int) -> date:
    """First day of a month + a count of months -> the last day of the span."""
    y, m = divmod(first.year * 12 + first.month - 1 + months, 12)
    return date(y, m + 1, 1) - timedelta(days=1)


def date_label(start: datetime, end: datetime, tz: str) -> str:
    """A [start, end) span in UTC + timezone -> its local days in ISO: a day, a month, a year or first/last."""
    first = local_day(start, tz)
    # a part of a day ("last night": 18:00 to 06:00) is the day it began
    last = (
        first
        if end - start <= timedelta(days=1)
        else local_day(end - timedelta(microseconds=1), tz)
    )
    if first == last:
        return first.isoformat()
    if first.day == 1 and last == _last_day(first, 1):
        return first.strftime("%Y-%m")
    if (first.month, first.day) == (1, 1) and last == date(first.year, 12, 31):
        return str(first.year)
    return f"{first.isoformat()}/{last.isoformat()}"


def annotated(text: str, said_at: datetime, tz: str) -> str:
    """Text + when it was said + timezone -> the text with each relative time phrase followed by its absolute date."""
    if not text:
        return text
    out, at = [], 0
    for w in time_phrases(text, tz, said_at):
        end = w.offset + len(w.phrase)
        if _YEAR.search(w.phrase):
            continue
        label = f" [{date_label(w.start, w.end, tz)}]"
        if text.startswith(label, end):
            continue
        out.append(text[at:end] + label)
        at = end
    return "".join(out) + text[at:]


def _bounds(iso: str, tz: str, last: bool) -> datetime:
    """'2023', '2023-05' or '2023-05-07' + timezone -> the local start of that span (or the end, when last)."""
    parts = [int(p) for p in iso.split("-")]
    first = date(parts[0], parts[1] if len(parts) > 1 else 1, parts[2] if len(parts) > 2 else 1)
    if not last:
        return day_bounds(first, tz)[0]
    if len(parts) == 3:
        return day_bounds(first, tz)[1]
    return day_bounds(_last_day(first, 12 if len(parts) == 1 else 1), tz)[1]


def stated_spans(content: str, tz: str) -> list[Span]:
    """Content with stated dates + timezone -> each date's span [start, end) in UTC (malformed ones skipped)."""
    spans = []
    for m in _STATED.finditer(content or ""):
        try:
            start = _bounds(m["a"], tz, last=False)
            end = _bounds(m["b"] or m["a"], tz, last=True)
        except ValueError:
            continue
        if start < end:
            spans.append((start.astimezone(UTC), end.astimezone(UTC)))
    return spans
