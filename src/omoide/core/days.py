"""Local calendar days: DST-correct UTC bounds and day parsing."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from omoide.core.errors import ConfigError, OmoideError


def zone(tz: str) -> ZoneInfo:
    """IANA name -> ZoneInfo, with a clear error for unknown names."""
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError(
            f"unknown timezone {tz!r} (use an IANA name like 'Europe/Berlin')"
        ) from exc


def day_bounds(day: date, tz: str) -> tuple[datetime, datetime]:
    """Local day -> [start, end) in UTC; 23 or 25 hours long on DST changes."""
    z = zone(tz)
    start = datetime.combine(day, time(0), tzinfo=z).astimezone(UTC)
    end = datetime.combine(day + timedelta(days=1), time(0), tzinfo=z).astimezone(UTC)
    return start, end


def local_day(ts: datetime, tz: str) -> date:
    """Aware timestamp -> the user's local calendar day."""
    return ts.astimezone(zone(tz)).date()


def yesterday(tz: str, now: datetime) -> date:
    """Now -> yesterday's date in the user's timezone."""
    return local_day(now, tz) - timedelta(days=1)


def days_between(start: date, end: date) -> list[date]:
    """Inclusive date range -> list of days."""
    if end < start:
        raise ConfigError(f"end {end} is before start {start}")
    return [start + timedelta(days=i) for i in range((end - start).days + 1)]


def parse_day(text: str) -> date:
    """'YYYY-MM-DD' -> date, with a clear error."""
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise ConfigError(f"not a day (YYYY-MM-DD): {text!r}") from exc


_SPAN = re.compile(r"^(\d+)\s*([hdwmy])$")
_SPAN_UNIT = {
    "h": timedelta(hours=1),
    "d": timedelta(days=1),
    "w": timedelta(weeks=1),
    "m": timedelta(days=30),
    "y": timedelta(days=365),
}


def parse_when(text: str, tz: str, now: datetime) -> datetime:
    """'30d', '12h', '2w', '6m', '1y' (ago) or 'YYYY-MM-DD' (that local day's start) -> aware UTC time."""
    m = _SPAN.match(text.strip().lower())
    if m:
        return now - int(m.group(1)) * _SPAN_UNIT[m.group(2)]
    try:
        return day_bounds(parse_day(text.strip()), tz)[0]
    except ConfigError:
        raise ConfigError(
            f"not a time: {text!r} (use a span like 30d, 12h, 2w, 6m, 1y or a day YYYY-MM-DD)"
        ) from None


def reference_time(text: str | None, tz: str) -> datetime:
    """A reference time as typed (ISO date or datetime; None = the clock) + timezone -> an aware UTC time.

    Without an offset it is a wall-clock time in the person's timezone.
    """
    if text is None:
        return datetime.now(UTC)
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise OmoideError(
            f"now {text!r}: expected an ISO date or time, e.g. 2026-11-25T09:00"
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=zone(tz))
    return when.astimezone(UTC)
