"""Time spent the ActivityWatch way: window ∩ not-AFK, web ∩ the browser's focused window ∩ not-AFK."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import pandas as pd
import pytest

from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.ingest.sources.activitywatch import BROWSERS
from omoide.memory.active_time import (
    BROWSER_WINDOWS,
    NO_AFK,
    NO_AW,
    active_periods,
    active_time,
    time_by_activity,
    time_on,
)
from omoide.store.lake import read_events

TZ = "Europe/Berlin"
FRIDAY = date(2026, 11, 20)


def _ev(kind: str, start: str, minutes: float, app: str = "", title: str = "", **kw: str) -> dict:
    """One lake event of an ActivityWatch bucket (or a visit), starting at UTC `start`."""
    at = pd.Timestamp(start, tz="UTC")
    return {
        "event_id": f"{kind}-{start}-{app}-{title}",
        "ts": at,
        "duration_s": minutes * 60.0,
        "source": kw.pop("source", "activitywatch"),
        "source_name": kw.pop("source_name", "aw"),
        "event_type": kind,
        "app": "afk" if kind == "afk" else app,
        "title": title,
        "url": kw.pop("url", None),
        "source_ref": kw.pop("ref", f"aw#{kind}@{start}"),
        "recorded_at": at,
    }


def _frame(*rows: dict) -> pd.DataFrame:
    return schemas.conform(pd.DataFrame(list(rows)), schemas.EVENTS)


def _active(start: str, minutes: float) -> dict:
    return _ev("afk", start, minutes, title="not-afk")


def _mins(seconds: float) -> float:
    return round(seconds / 60, 3)


def test_overlapping_and_duplicate_windows_count_once():
    e = _frame(
        _active("2026-11-20T09:00", 180),
        _ev("window", "2026-11-20T10:00", 30, "Code", "a.py - warelay"),
        _ev("window", "2026-11-20T10:00", 30, "Code", "a.py - warelay", source_name="aw2"),
        _ev("window", "2026-11-20T10:15", 30, "Code", "b.py - warelay"),
    )
    got = time_on(e, "Code")
    assert (_mins(got.seconds), got.kind, got.basis) == (45.0, "app", "activitywatch")
    assert len(got.intervals) == 1
    assert dict(time_by_activity(e)) == {"Code": 45 * 60}


def test_afk_cuts_window_time_and_active_time_is_not_afk():
    e = _frame(
        _active("2026-11-20T10:00", 20),
        _ev("afk", "2026-11-20T10:20", 40, title="afk"),
        _ev("window", "2026-11-20T10:00", 60, "zoom", "Zoom Meeting"),
    )
    assert _mins(time_on(e, "zoom").seconds) == 20
    assert _mins(active_time(e).seconds) == 20
    start, end = active_periods(e)[0]
    assert (start.isoformat(), end.isoformat()) == (
        "2026-11-20T10:00:00+00:00",
        "2026-11-20T10:20:00+00:00",
    )


def _browsing() -> pd.DataFrame:
    return _frame(
        _active("2026-11-20T09:00", 180),
        _ev("window", "2026-11-20T10:00", 60, "Google-chrome", "x - Google Chrome"),
        _ev("window", "2026-11-20T11:00", 30, "Code", "sync.py - warelay"),
        _ev(
            "web",
            "2026-11-20T10:00",
            30,
            "Google Chrome",
            "PR · warelay",
            url="https://github.com/k/w",
        ),
        _ev(
            "web",
            "2026-11-20T10:30",
            20,
            "Google Chrome",
            "HN",
            url="https://news.ycombinator.com/",
        ),
        # The tab stays open while Code has the focus: not time on github.com.
        _ev("web", "2026-11-20T11:00", 30, "Google Chrome", "Issues", url="https://github.com/k/i"),
        _ev(
            "visit",
            "2026-11-20T10:05",
            0,
            "Google Chrome",
            "PR",
            source="chrome",
            url="https://github.com/k/w",
        ),
    )


def test_a_browsers_focused_time_is_split_into_its_sites():
    e = _browsing()
    spent = dict(time_by_activity(e))
    assert spent == {
        "github.com": 1800,
        "Code": 1800,
        "news.ycombinator.com": 1200,
        "Google-chrome": 600,
    }
    assert sum(spent.values()) <= active_time(e).seconds
    gh = time_on(e, "github.com")
    assert (_mins(gh.seconds), gh.kind) == (30, "site")
    assert gh.refs == ["aw#web@2026-11-20T10:00"]  # the visit carries no duration and is not cited
    assert time_by_activity(e, top=2) == [("Code", 1800.0), ("github.com", 1800.0)]


def test_a_site_takes_its_subdomains_and_www_but_not_lookalikes():
    e = _frame(
        _active("2026-11-20T09:00", 180),
        _ev("window", "2026-11-20T10:00", 60, "firefox", "x"),
        _ev("web", "2026-11-20T10:00", 10, "Firefox", "a", url="https://www.github.com/a"),
        _ev("web", "2026-11-20T10:10", 10, "Firefox", "b", url="https://gist.github.com/b"),
        _ev("web", "2026-11-20T10:20", 10, "Firefox", "c", url="https://notgithub.com/c"),
        _ev("web", "2026-11-20T10:30", 10, "Firefox", "d", url="https://github.com.evil.example/"),
    )
    assert _mins(time_on(e, "github.com").seconds) == 20
    assert _mins(time_on(e, "https://www.github.com/kumo").seconds) == 20
    assert _mins(time_on(e, "gist.github.com").seconds) == 10
    assert {"github.com", "gist.github.com", "notgithub.com"} <= set(dict(time_by_activity(e)))


def test_apps_match_without_case_and_a_browser_by_its_name():
    e = _browsing()
    assert _mins(time_on(e, "code").seconds) == _mins(time_on(e, "CODE").seconds) == 30
    chrome = time_on(e, "chrome")
    assert (_mins(chrome.seconds), chrome.kind) == (60, "app")
    assert _mins(time_on(e, "Google Chrome").seconds) == 60


def test_title_words_match_whole_words_in_windows_and_tabs_once():
    e = _frame(
        _active("2026-11-20T09:00", 180),
        _ev("window", "2026-11-20T10:00", 30, "Code", "sync.py - warelay - Visual Studio Code"),
        _ev("window", "2026-11-20T10:30", 30, "Google-chrome", "PR · warelay - Google Chrome"),
        _ev(
            "web",
            "2026-11-20T10:30",
            30,
            "Google Chrome",
            "PR · warelay",
            url="https://github.com/",
        ),
        _ev("window", "2026-11-20T11:00", 30, "Code", "warelayer.py - other"),
        _ev("window", "2026-11-20T11:30", 10, "obsidian", "Kyoto trip - vault"),
        _ev("window", "2026-11-20T11:40", 10, "obsidian", "trip to Kyoto - vault"),
    )
    got = time_on(e, "Warelay")
    assert (_mins(got.seconds), got.kind) == (60, "title")
    assert len(got.refs) == 3  # both the window and the tab of the PR are cited
    assert _mins(time_on(e, "kyoto trip").seconds) == 10
    assert time_on(e, "sync.py").kind == "title"  # looks like a host, but no page has it


def test_without_afk_data_window_time_counts_as_is_and_says_so():
    e = _frame(_ev("window", "2026-11-20T10:00", 30, "Code", "a"))
    got = time_on(e, "Code")
    assert (_mins(got.seconds), got.basis, got.note) == (30, "activitywatch", NO_AFK)
    assert _mins(active_time(e).seconds) == 30


def test_history_visits_alone_give_no_duration():
    e = _frame(
        _ev(
            "visit",
            "2026-11-20T10:00",
            0,
            "Google Chrome",
            "PR",
            source="chrome",
            url="https://github.com/",
        ),
        _ev(
            "visit",
            "2026-11-20T10:40",
            0,
            "Google Chrome",
            "PR",
            source="chrome",
            url="https://github.com/",
        ),
    )
    got = time_on(e, "github.com")
    assert (got.seconds, got.intervals, got.refs, got.basis, got.note) == (
        0.0,
        [],
        [],
        "none",
        NO_AW,
    )
    assert time_by_activity(e) == [] and active_periods(e) == []
    assert time_on(schemas.empty(schemas.EVENTS), "zoom").basis == "none"
    assert time_on(pd.DataFrame(), "zoom").basis == "none"


def test_zero_length_events_count_nothing_and_are_not_cited():
    e = _frame(
        _active("2026-11-20T09:00", 180),
        _ev("window", "2026-11-20T10:00", 0, "zoom", "Zoom"),
        _ev("window", "2026-11-20T10:00", 10, "Code", "a"),
    )
    got = time_on(e, "zoom")
    assert (got.seconds, got.refs) == (0.0, [])


def test_small_gaps_are_flooded_large_ones_are_not():
    e = _frame(
        _active("2026-11-20T09:00", 180),
        _ev("window", "2026-11-20T10:00", 10, "Code", "a"),
        _ev("window", "2026-11-20T10:10:03", 1, "Slack", "b"),  # 3 s gap: the longer Code fills it
        _ev("window", "2026-11-20T10:11:13", 1, "Slack", "c"),  # 10 s gap: left empty
    )
    assert time_on(e, "Code").seconds == 603
    assert time_on(e, "Slack").seconds == 120


def test_an_event_past_midnight_counts_on_each_day_for_its_own_part():
    # 23:30 Berlin on Thursday for one hour: half of it on Friday.
    e = _frame(
        _active("2026-11-19T22:00", 180),
        _ev("window", "2026-11-19T22:30", 60, "Code", "a"),
    )
    thursday, friday = day_bounds(date(2026, 11, 19), TZ), day_bounds(FRIDAY, TZ)
    assert _mins(time_on(e, "Code", *thursday).seconds) == 30
    assert _mins(time_on(e, "Code", *friday).seconds) == 30
    assert _mins(active_time(e, *friday).seconds) == 120
    assert time_on(e, "Code", *friday).intervals[0][0] == friday[0]


def test_a_dst_day_has_25_hours():
    fall_back = day_bounds(date(2026, 10, 25), TZ)
    e = _frame(
        _active("2026-10-24T20:00", 30 * 60),
        _ev("window", "2026-10-24T20:00", 30 * 60, "kitty", "htop"),
    )
    assert time_on(e, "kitty", *fall_back).seconds == 25 * 3600
    assert (
        sum(s for _, s in time_by_activity(e, since=fall_back[0], until=fall_back[1])) == 25 * 3600
    )


def test_every_browser_the_collector_names_has_window_names():
    assert set(BROWSERS.values()) <= set(BROWSER_WINDOWS)


# The sample, checked against ActivityWatch's arithmetic written out independently here: a
# 0.1 s raster per bucket, each bucket's events flooded (gaps up to 5 s go to the longer
# neighbour) and painted in start order (a later event covers an earlier one).
STEP = 0.1


def _raster(events: list[dict], lo: datetime, hi: datetime, value) -> np.ndarray:
    """A bucket's events + the day + event -> int code -> the code of each 0.1 s of the day."""
    spans = []
    for ev in sorted(events, key=lambda ev: ev["timestamp"]):
        start = datetime.fromisoformat(ev["timestamp"])
        spans.append([start, start + timedelta(seconds=ev["duration"]), value(ev)])
    for a, b in zip(spans, spans[1:], strict=False):
        gap = (b[0] - a[1]).total_seconds()
        if 0 < gap <= 5:
            if a[1] - a[0] >= b[1] - b[0]:
                a[1] = b[0]
            else:
                b[0] = a[1]
    out = np.zeros(round((hi - lo).total_seconds() / STEP), np.int8)
    for start, end, code in spans:
        i = max(0, round((start - lo).total_seconds() / STEP))
        j = min(len(out), round((end - lo).total_seconds() / STEP))
        if j > i:
            out[i:j] = code
    return out


def _github(ev: dict) -> int:
    """A web event -> 1 when its page is on github.com or a subdomain, else 2."""
    host = (urlsplit(ev["data"]["url"]).hostname or "").removeprefix("www.")
    return 1 if host == "github.com" or host.endswith(".github.com") else 2


def _aw_minutes(export: Path, lo: datetime, hi: datetime) -> dict[str, float]:
    """An aw-server export + the day's UTC bounds -> minutes on github.com and in zoom."""
    buckets = json.loads(export.read_text(encoding="utf-8"))["buckets"]
    kind = {bid: b["type"] for bid, b in buckets.items()}
    windows = {"Google-chrome": 2, "firefox": 3, "zoom": 1}
    win = not_afk = None
    web = {}
    for bid, b in buckets.items():
        if kind[bid] == "currentwindow":
            win = _raster(b["events"], lo, hi, lambda ev: windows.get(ev["data"]["app"], 9))
        elif kind[bid] == "afkstatus":
            not_afk = _raster(b["events"], lo, hi, lambda ev: ev["data"]["status"] == "not-afk")
        elif kind[bid] == "web.tab.current":
            web["chrome" if "chrome" in bid else "firefox"] = _raster(b["events"], lo, hi, _github)
    on = not_afk == 1
    gh = ((web["chrome"] == 1) & (win == 2) & on).sum() + (
        (web["firefox"] == 1) & (win == 3) & on
    ).sum()
    return {"github.com": gh * STEP / 60, "zoom": ((win == 1) & on).sum() * STEP / 60}


def test_on_the_sample_friday_it_agrees_with_activitywatchs_arithmetic(sample_two_days: Path):
    lo, hi = day_bounds(FRIDAY, TZ)
    export = sample_two_days / "sources" / "activitywatch" / "aw-buckets-export.json"
    expected = _aw_minutes(export, lo, hi)
    events = read_events(sample_two_days / "lake", FRIDAY)
    for subject in ("github.com", "zoom"):
        got = time_on(events, subject, lo, hi)
        assert got.seconds / 60 == pytest.approx(expected[subject], rel=0.01), subject
        assert got.refs and got.basis == "activitywatch" and got.note == ""
    # The old digest summed overlapping sessions: 125 min github.com; this is far less.
    assert expected["github.com"] < 0.6 * 125
