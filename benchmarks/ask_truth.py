"""Ground truth for `omoide bench ask` on the bundled sample, read from its source files alone.

    python benchmarks/ask_truth.py > benchmarks/ask_sample.json      # the bundled sample (data/sample)
    python benchmarks/ask_truth.py --home HOME > questions.json       # a sample home `omoide sample` wrote

Standard library only, and nothing of omoide's: ActivityWatch's own arithmetic (aw-core's
`flood`, `filter_period_intersect`: window events ∩ not-AFK for an app; web events ∩ that
browser's focused window ∩ not-AFK for a site; overlaps once), the chat log's messages, the
daily notes' `## Log` items. What omoide answers is compared with this.
"""

from __future__ import annotations

import argparse
import json
import re
from datetime import date, datetime, time, timedelta
from pathlib import Path
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"
HOME = SAMPLE  # set by --home
TZ = ZoneInfo("Europe/Berlin")
PULSETIME = 5.0  # aw-core's flood: gaps shorter than this are filled
BROWSER_APPS = {  # aw-client's browser_appnames, as the sample's watcher names them
    "chrome": {"google chrome", "google-chrome", "chrome.exe", "chromium", "chromium-browser"},
    "firefox": {"firefox", "firefox.exe", "firefox-esr", "nightly"},
}
Span = tuple[float, float]


def _events(bucket: dict) -> list[tuple[float, float, dict]]:
    """An exported bucket -> (start, end, data), epoch seconds, sorted."""
    out = []
    for e in bucket["events"]:
        start = datetime.fromisoformat(e["timestamp"]).timestamp()
        out.append((start, start + float(e["duration"]), e["data"]))
    return sorted(out, key=lambda x: x[0])


def flood(events: list[tuple[float, float, dict]]) -> list[tuple[float, float, dict]]:
    """Events -> the gaps shorter than PULSETIME between consecutive ones filled, overlaps cut."""
    out: list[tuple[float, float, dict]] = []
    for start, end, data in events:
        if out:
            p_start, p_end, p_data = out[-1]
            if start < p_end:
                start = p_end
            elif start - p_end < PULSETIME:
                out[-1] = (p_start, start, p_data)
        if end > start:
            out.append((start, end, data))
    return out


def union(spans: list[Span]) -> list[Span]:
    """Spans -> sorted and merged."""
    merged: list[Span] = []
    for a, b in sorted(spans):
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def intersect(a: list[Span], b: list[Span]) -> list[Span]:
    """Two span lists -> their intersection."""
    a, b = union(a), union(b)
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if lo < hi:
            out.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def day_span(day: date) -> Span:
    """Local day -> its bounds in epoch seconds."""
    start = datetime.combine(day, time(0), tzinfo=TZ)
    return start.timestamp(), datetime.combine(
        day + timedelta(days=1), time(0), tzinfo=TZ
    ).timestamp()


def _buckets() -> dict:
    """-> the sample's ActivityWatch buckets by id."""
    return json.loads((HOME / "sources/activitywatch/aw-buckets-export.json").read_text())[
        "buckets"
    ]


def _not_afk(buckets: dict) -> list[Span]:
    """Buckets -> the not-AFK periods."""
    afk = next(b for b in buckets.values() if b["type"] == "afkstatus")
    return [(s, e) for s, e, d in flood(_events(afk)) if d.get("status") == "not-afk"]


def _windows(buckets: dict) -> list[tuple[float, float, dict]]:
    """Buckets -> the window watcher's events, flooded."""
    return flood(_events(next(b for b in buckets.values() if b["type"] == "currentwindow")))


def app_minutes(day: date, app: str) -> float:
    """Local day + app -> minutes its windows were focused and the person not away."""
    buckets = _buckets()
    spans = [
        (s, e) for s, e, d in _windows(buckets) if d.get("app", "").casefold() == app.casefold()
    ]
    got = intersect(intersect(spans, _not_afk(buckets)), [day_span(day)])
    return round(sum(b - a for a, b in got) / 60, 1)


def site_minutes(day: date, site: str) -> float:
    """Local day + host -> minutes on its pages in a focused browser window, not away."""
    buckets = _buckets()
    windows, active, spans = _windows(buckets), _not_afk(buckets), []
    for bid, bucket in buckets.items():
        if bucket["type"] != "web.tab.current":
            continue
        browser = next(name for name in BROWSER_APPS if name in bid)
        focused = [
            (s, e) for s, e, d in windows if d.get("app", "").casefold() in BROWSER_APPS[browser]
        ]
        pages = []
        for s, e, d in flood(_events(bucket)):
            host = (urlsplit(d.get("url", "")).hostname or "").removeprefix("www.")
            if host == site or host.endswith("." + site):
                pages.append((s, e))
        spans += intersect(intersect(pages, focused), active)
    got = intersect(union(spans), [day_span(day)])
    return round(sum(b - a for a, b in got) / 60, 1)


def last_chat_with(person: str, first: bool = False) -> str:
    """A person -> the local time (ISO, with offset) of the last (or first) message in a chat with them."""
    rows = [
        json.loads(line) for line in (HOME / "sources/chat/chat.jsonl").read_text().splitlines()
    ]
    times = [
        datetime.fromisoformat(r["ts"])
        for r in rows
        if person in (r.get("speaker"), r.get("conversation"))
    ]
    return (min(times) if first else max(times)).astimezone(TZ).isoformat()


def log_items(day: date) -> list[str]:
    """Local day -> the items of its note's `## Log`, without their times."""
    text = (HOME / f"sources/notes/{day.isoformat()}.md").read_text()
    log = text.split("## Log", 1)[1].split("\n## ", 1)[0]
    return [
        re.sub(r"^-\s*(\d{1,2}:\d{2}\s*)?", "", line).strip()
        for line in log.splitlines()
        if line.startswith("-")
    ]


def note_day_of(words: str) -> str:
    """Words -> the last day whose note holds them."""
    days = sorted(p.stem for p in (HOME / "sources/notes").glob("*.md") if words in p.read_text())
    return days[-1]


def questions() -> list[dict]:
    """-> the questions with their ground truth, for the sample's days that end on Friday 2026-11-20."""
    fri, thu, wed = date(2026, 11, 20), date(2026, 11, 19), date(2026, 11, 18)
    sat, tue = "2026-11-21T10:00:00+01:00", "2026-11-24T10:00:00+01:00"
    one = {"since": "2026-11-20", "until": "2026-11-20"}
    week = {"since": "2026-11-16", "until": "2026-11-22"}
    noted = {p.stem for p in (HOME / "sources/notes").glob("*.md")}
    sample_days = sorted(d for d in noted if week["since"] <= d <= week["until"])
    out = [
        {
            "question": "what did I do yesterday",
            "now": sat,
            "kind": "overview",
            "window": one,
            "days": ["2026-11-20"],
            "mentions": log_items(fri),
        },
        {
            "question": "昨日は何をしましたか",
            "now": sat,
            "kind": "overview",
            "window": one,
            "days": ["2026-11-20"],
            "mentions": log_items(fri),
        },
        {
            "question": "what did I do on Thursday",
            "now": sat,
            "kind": "overview",
            "window": {"since": "2026-11-19", "until": "2026-11-19"},
            "days": ["2026-11-19"],
            "mentions": log_items(thu),
        },
        {
            "question": "what did I do last week",
            "now": tue,
            "kind": "overview",
            "window": week,
            "days": sample_days,
        },
        {
            "question": "先週は何をしていた？",
            "now": tue,
            "kind": "overview",
            "window": week,
            "days": sample_days,
        },
    ]
    for q, subject, kind, day in (
        ("how much time did I spend on github.com on Friday", "github.com", "site", fri),
        ("how long was I in zoom on Friday", "zoom", "app", fri),
        (
            "how much time did I spend on news.ycombinator.com on Thursday",
            "news.ycombinator.com",
            "site",
            thu,
        ),
        ("how long did I use Slack on Wednesday", "Slack", "app", wed),
        ("金曜日にgithub.comを何時間見た？", "github.com", "site", fri),
    ):
        minutes = site_minutes(day, subject) if kind == "site" else app_minutes(day, subject)
        out.append(
            {
                "question": q,
                "now": sat,
                "kind": "time_spent",
                "window": {"since": day.isoformat(), "until": day.isoformat()},
                "minutes": minutes,
                "days": [day.isoformat()],
            }
        )
    out += [
        {
            "question": "when did I last talk to Peter",
            "now": sat,
            "kind": "when",
            "window": None,
            "when": last_chat_with("Peter"),
            "days": [last_chat_with("Peter")[:10]],
        },
        {
            "question": "when did I first talk to Peter",
            "now": sat,
            "kind": "when",
            "window": None,
            "when": last_chat_with("Peter", first=True),
            "days": [last_chat_with("Peter", True)[:10]],
        },
        {
            "question": "最後に親子丼を作ったのはいつ？",
            "now": sat,
            "kind": "when",
            "window": None,
            "when": note_day_of("親子丼"),
            "days": [note_day_of("親子丼")],
        },
        {
            "question": "where does Mina live",
            "now": sat,
            "kind": "lookup",
            "window": None,
            "days": [note_day_of("Mina moved to Berlin")],
        },
        {
            "question": "which store did we pick for warelay",
            "now": sat,
            "kind": "lookup",
            "window": None,
            "days": [note_day_of("warelay moves its vectors")],
        },
    ]
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--home", type=Path, default=SAMPLE, help="a sample home (default: data/sample)"
    )
    HOME = parser.parse_args().home.resolve()
    print(json.dumps(questions(), ensure_ascii=False, indent=1))
