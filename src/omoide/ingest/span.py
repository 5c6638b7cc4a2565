"""Record spans: which days each source still holds, so a first backfill saves all of it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from omoide.core.days import local_day, yesterday
from omoide.core.errors import OmoideError
from omoide.core.settings import SourceConfig
from omoide.ingest.sources import collect
from omoide.ingest.sources.base import EARLIEST
from omoide.ingest.sources.notes import note_days


@dataclass(frozen=True)
class Span:
    """The local days of a source's earliest and latest record, and how many records it holds."""

    first: date
    last: date
    records: int


def record_span(source: SourceConfig, tz: str, now: datetime) -> Span | None:
    """Source -> the local days of its first and last record; None when it holds none.

    Notes count by their files' day names. For the other kinds the whole history is collected once (in memory, as a backfill would read it), so the
    span is exactly the records a backfill can ingest: damaged and impossible ones excluded.
    Raises the source's error when it cannot be read.
    """
    if source.kind == "notes":
        # One file per day, named by its day: the names are the span (collecting is per day).
        days = note_days(source)
        return Span(days[0], days[-1], len(days)) if days else None
    events = collect(source, EARLIEST, now + timedelta(days=1), now).events
    if events.empty:
        return None
    return Span(
        local_day(events["ts"].min().to_pydatetime(), tz),
        local_day(events["ts"].max().to_pydatetime(), tz),
        len(events),
    )


def backfill_range(
    sources: list[SourceConfig], tz: str, now: datetime
) -> tuple[date, date, list[str]]:
    """Sources -> (earliest day any source holds, yesterday, problems of unreadable sources).

    `omoide backfill --all` covers this range; a source that cannot be read is named in the
    problems and left out, so one broken export does not hide the others' history.
    """
    end = yesterday(tz, now)
    firsts: list[date] = []
    problems: list[str] = []
    for source in sources:
        try:
            span = record_span(source, tz, now)
        except OmoideError as exc:
            problems.append(f"{source.name}: {exc}")
            continue
        if span is not None:
            firsts.append(span.first)
    if not firsts:
        raise OmoideError("no configured source holds any record: nothing to backfill")
    return min(min(firsts), end), end, problems
