from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pandas as pd

from omoide.ingest.same_activity import shown_pages
from omoide.ingest.sessionize import sessions
from omoide.ingest.sources.base import events_frame

T0 = datetime(2026, 11, 20, 8, 55, tzinfo=UTC)
DAY = date(2026, 11, 20)
PR = "Fix sync window · Pull Request #412 · kumo-labs/warelay · GitHub"
PR_URL = "https://github.com/kumo-labs/warelay/pull/412"
DOCS = "warelay storage migration plan - Google Docs"
DOCS_URL = "https://docs.google.com/document/d/1"


def ev(i: int, minute: float, etype: str, title: str, dur: float = 0.0, **kw) -> dict:
    source = "chrome" if etype == "visit" else "activitywatch"
    return {
        "event_id": f"e{i:03d}",
        "ts": T0 + timedelta(minutes=minute),
        "duration_s": dur,
        "source": source,
        "source_name": source,
        "event_type": etype,
        "app": "Google-chrome" if etype == "window" else "Google Chrome",
        "title": title,
        "source_ref": f"{etype}#{i}",
        **kw,
    }


def visit(i: int, minute: float, title: str = PR, url: str = PR_URL) -> dict:
    return ev(i, minute, "visit", title, url=url)


def web(i: int, minute: float, dur: float, title: str = PR, url: str = PR_URL) -> dict:
    return ev(i, minute, "web", title, dur, url=url)


def window(i: int, minute: float, dur: float, title: str = f"{PR} - Google Chrome") -> dict:
    return ev(i, minute, "window", title, dur)


def frame(records: list[dict]) -> pd.DataFrame:
    return events_frame(records, datetime(2026, 11, 21, tzinfo=UTC))


def test_one_page_seen_by_three_sources_is_one_session_citing_all():
    # The browser-history visit lands a moment before the window title changes.
    df = frame([visit(1, -0.01), web(2, 0, 600), window(3, 0, 600)])
    out = sessions(df, DAY, gap_s=300, min_dwell_s=10)
    assert len(out) == 1
    s = out.iloc[0]
    assert s["domain"] == "github.com" and s["n_events"] == 3
    assert s["app"] == "Google Chrome"  # the page's app, not the window watcher's name for it
    assert sorted(s["source_refs"]) == ["visit#1", "web#2", "window#3"]
    assert sorted(s["event_ids"]) == ["e001", "e002", "e003"]
    assert list(s["titles"]) == [PR]  # the window shows the page: its title is not a second one
    # Time counted once: the span of the three, not the sum of the window's and the page's.
    assert s["duration_s"] == 600 + 0.01 * 60


def test_without_the_match_the_window_was_a_session_of_its_own():
    # The window watcher alone: its app is its session, as before.
    out = sessions(frame([window(3, 0, 600)]), DAY)
    assert len(out) == 1 and out.iloc[0]["app"] == "Google-chrome"
    assert pd.isna(out.iloc[0]["domain"])


def test_the_same_title_at_another_time_does_not_merge():
    df = frame([web(1, 0, 300), window(2, 60, 300)])
    out = sessions(df, DAY, gap_s=300, min_dwell_s=10)
    assert len(out) == 2
    assert set(out["domain"].fillna("-")) == {"github.com", "-"}
    assert list(shown_pages(df)) == [-1, -1]


def test_different_titles_at_the_same_time_do_not_merge():
    df = frame([web(1, 0, 300), window(2, 0, 300, title=f"{DOCS} - Google Chrome")])
    out = sessions(df, DAY, gap_s=300, min_dwell_s=10)
    assert len(out) == 2
    assert sorted(len(refs) for refs in out["source_refs"]) == [1, 1]


def test_a_browsing_window_splits_by_the_pages_it_showed():
    # One long browser window session before: now each page's session takes its own minutes.
    df = frame(
        [
            visit(1, 0),
            web(2, 0, 120),
            window(3, 0, 120),
            visit(4, 2, DOCS, DOCS_URL),
            web(5, 2, 180, DOCS, DOCS_URL),
            window(6, 2, 180, f"{DOCS} - Google Chrome"),
        ]
    )
    out = sessions(df, DAY, gap_s=300, min_dwell_s=10).set_index("domain")
    assert sorted(out.index) == ["docs.google.com", "github.com"]
    assert sorted(out.loc["github.com", "source_refs"]) == ["visit#1", "web#2", "window#3"]
    assert sorted(out.loc["docs.google.com", "source_refs"]) == ["visit#4", "web#5", "window#6"]
    assert out["duration_s"].sum() == 300  # the five minutes, once


def test_a_page_visited_again_later_matches_the_window_of_that_time():
    df = frame([web(1, 0, 60), window(2, 0, 60), web(3, 30, 60), window(4, 30, 60)])
    assert list(shown_pages(df)) == [-1, 0, -1, 2]
    out = sessions(df, DAY, gap_s=300, min_dwell_s=10)
    assert sorted(out["n_events"]) == [2, 2]
    assert sorted(sorted(r) for r in out["source_refs"]) == [
        ["web#1", "window#2"],
        ["web#3", "window#4"],
    ]


def test_a_page_without_a_site_still_takes_its_window():
    # A redacted host ("http://[IP]:4200/") names no domain: the page's app is the key.
    url = "http://[IP]:4200/runs"
    df = frame(
        [visit(1, 0, "Runs | Prefect", url), window(2, 0, 60, "Runs | Prefect - Google Chrome")]
    )
    out = sessions(df, DAY, gap_s=300, min_dwell_s=10)
    assert len(out) == 1 and out.iloc[0]["app"] == "Google Chrome"
    assert sorted(out.iloc[0]["source_refs"]) == ["visit#1", "window#2"]


def test_the_longest_matching_title_wins():
    # "GitHub" is a page too, and a leading part of no window title here but its own.
    hub = web(1, 0, 60, title="kumo-labs/warelay", url="https://example.test/")
    df = frame([hub, web(2, 0, 60), window(3, 0, 60, title=f"{PR} - Google Chrome")])
    df2 = frame([hub, web(2, 0, 60), window(3, 0, 60, title="kumo-labs/warelay - Google Chrome")])
    assert list(shown_pages(df))[2] == 1
    assert list(shown_pages(df2))[2] == 0


def test_slack_bounds_a_point_visit():
    near = frame([visit(1, -2 / 60), window(2, 0, 60)])
    far = frame([visit(1, -30 / 60), window(2, 0, 60)])
    assert list(shown_pages(near)) == [-1, 0]
    assert list(shown_pages(far)) == [-1, -1]


def test_no_pages_or_no_windows():
    assert list(shown_pages(frame([window(1, 0, 60)]))) == [-1]
    assert list(shown_pages(frame([web(1, 0, 60)]))) == [-1]
    untitled = frame([web(1, 0, 60), {**window(2, 0, 60), "title": None}])
    assert list(shown_pages(untitled)) == [-1, -1]
    blank = frame([web(1, 0, 60, title=" "), window(2, 0, 60, title=" ")])
    assert list(shown_pages(blank)) == [-1, -1]
