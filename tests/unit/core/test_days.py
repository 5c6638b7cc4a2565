from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from omoide.core.days import day_bounds, days_between, local_day, parse_day, yesterday
from omoide.core.errors import ConfigError


def test_day_bounds_plain_day_is_24h_in_utc():
    start, end = day_bounds(date(2026, 11, 20), "Europe/Berlin")
    assert start == datetime(2026, 11, 19, 23, 0, tzinfo=UTC)
    assert end == datetime(2026, 11, 20, 23, 0, tzinfo=UTC)


def test_day_bounds_follow_dst_changes():
    start, end = day_bounds(date(2026, 10, 25), "Europe/Berlin")  # clocks go back: 25 h
    assert (end - start).total_seconds() == 25 * 3600
    start, end = day_bounds(date(2026, 3, 29), "Europe/Berlin")  # clocks go forward: 23 h
    assert (end - start).total_seconds() == 23 * 3600
    start, end = day_bounds(date(2026, 11, 1), "America/New_York")
    assert (end - start).total_seconds() == 25 * 3600


def test_local_day_and_yesterday():
    ts = datetime(2026, 11, 19, 23, 30, tzinfo=UTC)  # 00:30 on the 20th in Berlin
    assert local_day(ts, "Europe/Berlin") == date(2026, 11, 20)
    assert local_day(ts, "UTC") == date(2026, 11, 19)
    assert yesterday("Europe/Berlin", ts) == date(2026, 11, 19)


def test_days_between_and_parse_errors():
    assert days_between(date(2026, 11, 18), date(2026, 11, 20)) == [
        date(2026, 11, 18),
        date(2026, 11, 19),
        date(2026, 11, 20),
    ]
    with pytest.raises(ConfigError, match="before start"):
        days_between(date(2026, 11, 20), date(2026, 11, 18))
    with pytest.raises(ConfigError, match="not a day"):
        parse_day("20/11/2026")
    with pytest.raises(ConfigError, match="unknown timezone"):
        day_bounds(date(2026, 11, 20), "Mars/Olympus")
