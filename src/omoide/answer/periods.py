"""How an answer names a day or a window of days ("on Monday, 30 November 2026", "in the week 2026-W48 …")."""

from __future__ import annotations

from datetime import date, timedelta


def day_named(day: date) -> str:
    """Day -> 'Monday, 30 November 2026'."""
    return f"{day:%A}, {day.day} {day:%B %Y}"


def date_named(day: date) -> str:
    """Day -> '30 November 2026'."""
    return f"{day.day} {day:%B %Y}"


def _span(first: date, last: date) -> str:
    """Inclusive days -> '23 to 29 November 2026' (months and years said only where they change)."""
    if (first.year, first.month) == (last.year, last.month):
        return f"{first.day} to {date_named(last)}"
    if first.year == last.year:
        return f"{first.day} {first:%B} to {date_named(last)}"
    return f"{date_named(first)} to {date_named(last)}"


def period_named(first: date, last: date) -> str:
    """Inclusive local days -> 'on <day>', 'in the week <ISO week> (<span>)', 'in <month>' or 'between <day> and <day>'."""
    if first == last:
        return f"on {day_named(first)}"
    year, week, weekday = first.isocalendar()
    if weekday == 1 and last == first + timedelta(days=6):
        return f"in the week {year}-W{week:02d} ({_span(first, last)})"
    month_end = (first.replace(day=1) + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    if first.day == 1 and last == month_end:
        return f"in {first:%B %Y}"
    return f"between {day_named(first)} and {day_named(last)}"


def nothing_recorded(first: date, last: date) -> str:
    """Inclusive local days -> the sentence saying no record holds them."""
    return f"Nothing was recorded {period_named(first, last)}."
