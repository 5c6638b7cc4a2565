"""A source's day judged: when every record it gave for the day ended in quarantine, the day failed.

A source that was read without an error but whose records were all refused is not "ok": a
layout the reader does not know (the LINE export of issue 31 sent its 33 messages to
quarantine while the run said ok) looks exactly like that. The rule, for every source kind:

- some event of the day passed the raw check: the source is fine for the day, whatever else
  was rejected;
- no event and no reject: a quiet day, fine;
- no event, and a reject of the day (a record of the day's window that the collector or the
  raw check refused): the source failed for the day;
- no event, and only rejects that belong to no day: the day fails only when the source reads
  no record of any day either (its whole history, `omoide.ingest.span.record_span`). Collectors
  repeat such rejects on every window (a file that is not the export, a stray line, an
  impossible time, a broken link), so a source that reads its other days fine simply had a
  quiet day; a source that reads nothing at all is broken every day until it is fixed.

Which rejects belong to no day is asked of the collector itself: they are the ones it still
reports for an empty window in 1989, where no record can fall. Both extra reads happen only
for a day with no event and some reject. The failure's message names the file of the first
reject (its full path, for the person to open), how many records were rejected and the first
reason; the rejects still go to quarantine.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from pathlib import Path

import pandas as pd

from omoide.core.errors import OmoideError
from omoide.core.refs import resolve_ref
from omoide.core.settings import SourceConfig
from omoide.ingest.sources import Collected, collect
from omoide.ingest.sources.base import EARLIEST
from omoide.ingest.span import record_span

# An empty window no record can fall in: what a collector rejects there belongs to no day.
_NO_DAY = EARLIEST - timedelta(days=1)
_LINE_REF = re.compile(r"L(\d+)")


def all_rejected(
    source: SourceConfig,
    day: date,
    tz: str,
    now: datetime,
    raw: Collected,
    rejects: pd.DataFrame,
    home: Path,
) -> str | None:
    """A source's collected day + every reject of it (ref, reason; the collector's first) + OMOIDE_HOME -> why the day failed, or None."""
    gate_rejected = len(rejects) - len(raw.rejects)
    passed = raw.events["event_id"].nunique() - gate_rejected
    if passed > 0 or rejects.empty:
        return None
    if gate_rejected == 0 and not _of_the_day(source, now, raw):
        try:
            if record_span(source, tz, now) is not None:
                return None  # a quiet day of a source that reads other days
        except OmoideError:
            return None  # the day itself was read: its rejects are in quarantine
        return _message(rejects, day, ", and no record of any day could be read", home)
    return _message(rejects, day, "", home)


def _of_the_day(source: SourceConfig, now: datetime, raw: Collected) -> bool:
    """A source + its collected day -> does some reject belong to this day (not repeated on every window)?"""
    try:
        everywhere = {r.ref for r in collect(source, _NO_DAY, _NO_DAY, now).rejects}
    except OmoideError:
        return True
    return any(r.ref not in everywhere for r in raw.rejects)


def _message(rejects: pd.DataFrame, day: date, more: str, home: Path) -> str:
    """Every reject of a day + a remark + OMOIDE_HOME -> the one-line failure: the file, how many, the first reason."""
    ref, reason = str(rejects["ref"].iloc[0]), str(rejects["reason"].iloc[0])
    named, _, part = ref.partition("#")
    file = resolve_ref(ref, home) or named
    line = _LINE_REF.fullmatch(part)
    where = f"line {line[1]}" if line else part
    first = f"{where}: {reason}" if where else reason
    n = len(rejects)
    records = "the only record" if n == 1 else f"all {n} records"
    verb = "was" if n == 1 else "were"
    return f"{file}: {records} of {day} {verb} rejected{more} (first: {first})"
