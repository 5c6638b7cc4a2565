"""Recent activity for an agent: a time frame ("yesterday", "last week", "7d", or two dates) -> the period's summary, time per activity, citations.

The summary is the overview's (the smallest digest page covering the period, each sentence
cited); the time per activity is ActivityWatch's arithmetic over the period's lake events
(`omoide.memory.active_time`), so an app or a site is never counted twice.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

import pandas as pd

from omoide.answer.overview import overview
from omoide.core.days import day_bounds, days_between, local_day
from omoide.core.errors import OmoideError
from omoide.core.settings import Settings
from omoide.memory.active_time import active_time, time_by_activity
from omoide.memory.time_words import time_window
from omoide.store.lake import read_events

TOP_ACTIVITIES = 10
MAX_DAYS = 366
_ROLLING = re.compile(r"^\s*(\d{1,3})\s*([dw])\s*$", re.IGNORECASE)


def frame_days(
    frame: str | None, since: str | None, until: str | None, tz: str, now: datetime
) -> tuple[date, date]:
    """A time frame ("yesterday", "last week", "7d", "2w") or two dates + timezone + now -> its inclusive local days."""
    today = local_day(now, tz)
    if since or until:
        try:
            first = date.fromisoformat(since) if since else today - timedelta(days=6)
            last = date.fromisoformat(until) if until else today
        except ValueError:
            raise OmoideError(f"since/until must be YYYY-MM-DD, got {since!r}, {until!r}") from None
    elif m := _ROLLING.match(frame or "7d"):
        n = int(m[1]) * (7 if m[2].lower() == "w" else 1)
        first, last = today - timedelta(days=max(n, 1) - 1), today
    else:
        window = time_window(frame or "", tz, now)
        if window is None:
            raise OmoideError(
                f"time frame {frame!r}: say e.g. 'yesterday', 'last week', 'in November', '7d', "
                "or give since/until"
            )
        end = min(window.end, max(now, window.start + timedelta(microseconds=1)))
        first, last = local_day(window.start, tz), local_day(end - timedelta(microseconds=1), tz)
    if last < first or (last - first).days >= MAX_DAYS:
        raise OmoideError(f"a time frame of 1 to {MAX_DAYS} days, not {first} to {last}")
    return first, last


def recent_activity(
    settings: Settings, frame: str | None, since: str | None, until: str | None, now: datetime
) -> dict[str, Any]:
    """Settings + a time frame (or since/until) + now -> {window, summary, citations, active_minutes, time_per_activity}."""
    tz = settings.timezone
    first, last = frame_days(frame, since, until, tz, now)
    text, cites, basis = overview(settings.vault_dir, settings.home, first, last)
    frames = [
        e for d in days_between(first, last) if not (e := read_events(settings.lake_dir, d)).empty
    ]
    events = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    bounds = day_bounds(first, tz)[0], day_bounds(last, tz)[1]
    spent = active_time(events, *bounds) if frames else None
    per = time_by_activity(events, TOP_ACTIVITIES, *bounds) if frames else []
    return {
        "window": {"since": first.isoformat(), "until": last.isoformat()},
        "summary": text,
        "basis": basis,
        "citations": [c.to_json() for c in dict.fromkeys(cites)],
        "active_minutes": round(spent.seconds / 60, 1) if spent else 0.0,
        "time_per_activity": [{"activity": name, "minutes": round(s / 60, 1)} for name, s in per],
    }
