"""A sample home's source files -> the figures `omoide bench ask` scores answers against, read from those files alone.

Standard library only, and nothing of omoide's, so the truth cannot share omoide's mistakes:
ActivityWatch's own arithmetic over the exported buckets (aw-core's `flood` and
`filter_period_intersect`: window events ∩ not-AFK for an app; web events ∩ that browser's
focused window ∩ not-AFK for a site; overlaps once), and the chat log's messages with their
line numbers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import cached_property
from pathlib import Path
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

AW_EXPORT = "sources/activitywatch/aw-buckets-export.json"
CHAT_LOG = "sources/chat/chat.jsonl"
PULSETIME = 5.0  # aw-core's flood: gaps shorter than this are filled
BROWSER_APPS = {  # aw-client's browser_appnames, as the sample's watcher names them
    "chrome": {"google chrome", "google-chrome", "chrome.exe", "chromium", "chromium-browser"},
    "firefox": {"firefox", "firefox.exe", "firefox-esr", "nightly"},
}
ANY_BROWSER = set().union(*BROWSER_APPS.values())
# Messages of one conversation closer than this are one sitting (DESIGN: one per sitting).
SITTING_GAP = timedelta(minutes=30)
Span = tuple[float, float]
Event = tuple[float, float, dict]


@dataclass(frozen=True)
class Message:
    """One chat message: its line in the log (from 1), local time, conversation, speaker and words."""

    line: int
    ts: datetime
    conversation: str
    speaker: str
    text: str

    @property
    def source(self) -> str:
        """-> its ref as omoide cites it ('sources/chat/chat.jsonl#L40')."""
        return f"{CHAT_LOG}#L{self.line}"


def _events(bucket: dict) -> list[Event]:
    """An exported bucket -> (start, end, data), epoch seconds, sorted."""
    out = []
    for e in bucket["events"]:
        start = datetime.fromisoformat(e["timestamp"]).timestamp()
        out.append((start, start + float(e["duration"]), e["data"]))
    return sorted(out, key=lambda x: x[0])


def flood(events: list[Event]) -> list[Event]:
    """Events -> the gaps shorter than PULSETIME between consecutive ones filled, overlaps cut."""
    out: list[Event] = []
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


def minus(a: list[Span], b: list[Span]) -> list[Span]:
    """Two span lists -> the parts of the first the second does not cover."""
    out = []
    for lo, hi in union(a):
        for b_lo, b_hi in union(b):
            if b_hi <= lo or b_lo >= hi:
                continue
            if b_lo > lo:
                out.append((lo, b_lo))
            lo = max(lo, b_hi)
        if lo < hi:
            out.append((lo, hi))
    return out


def minutes(spans: list[Span]) -> float:
    """Spans -> their total length in minutes, to a tenth."""
    return round(sum(b - a for a, b in union(spans)) / 60, 1)


def host_of(url: str) -> str:
    """A page's URL -> its host without 'www.'."""
    return (urlsplit(url).hostname or "").removeprefix("www.")


class Sources:
    """A sample home's source files, each read once, and the figures read from them."""

    def __init__(self, home: Path, timezone: str) -> None:
        self.home = home
        self.tz = ZoneInfo(timezone)

    def day_window(self, first: date, last: date | None = None) -> tuple[datetime, datetime]:
        """Inclusive local days -> their bounds as aware times."""
        end = (last or first) + timedelta(days=1)
        return datetime.combine(first, time(0), self.tz), datetime.combine(end, time(0), self.tz)

    def hours(self, day: date, start_h: float, end_h: float) -> tuple[datetime, datetime]:
        """A local day + hours from its midnight (past 24 into the next day) -> the aware bounds, wall-clock."""
        midnight = datetime.combine(day, time(0))
        return tuple(  # type: ignore[return-value]
            (midnight + timedelta(hours=h)).replace(tzinfo=self.tz) for h in (start_h, end_h)
        )

    @cached_property
    def _buckets(self) -> dict:
        """-> the ActivityWatch export's buckets by id."""
        return json.loads((self.home / AW_EXPORT).read_text(encoding="utf-8"))["buckets"]

    @cached_property
    def _not_afk(self) -> list[Span]:
        """-> the not-AFK periods."""
        afk = next(b for b in self._buckets.values() if b["type"] == "afkstatus")
        return [(s, e) for s, e, d in flood(_events(afk)) if d.get("status") == "not-afk"]

    @cached_property
    def _windows(self) -> list[Event]:
        """-> the window watcher's events, flooded."""
        return flood(
            _events(next(b for b in self._buckets.values() if b["type"] == "currentwindow"))
        )

    @cached_property
    def _pages(self) -> list[tuple[str, Span]]:
        """-> every web-watcher span as (host, span), cut to its browser's focused windows and not-AFK."""
        out = []
        for bid, bucket in self._buckets.items():
            if bucket["type"] != "web.tab.current":
                continue
            browser = next(name for name in BROWSER_APPS if name in bid)
            focused = [
                (s, e)
                for s, e, d in self._windows
                if d.get("app", "").casefold() in BROWSER_APPS[browser]
            ]
            live = intersect(focused, self._not_afk)
            for s, e, d in flood(_events(bucket)):
                out += [(host_of(d.get("url", "")), span) for span in intersect([(s, e)], live)]
        return out

    def _app_spans(self, app: str) -> list[Span]:
        """An app's name -> the spans its windows were focused and the person not away."""
        spans = [
            (s, e) for s, e, d in self._windows if d.get("app", "").casefold() == app.casefold()
        ]
        return intersect(spans, self._not_afk)

    def _site_spans(self, site: str) -> list[Span]:
        """A host -> the spans its pages were shown in a focused browser window, the person not away."""
        return [span for host, span in self._pages if host == site or host.endswith("." + site)]

    def app_minutes(self, app: str, window: tuple[datetime, datetime]) -> float:
        """App + aware window -> minutes its windows were focused and the person not away."""
        return minutes(intersect(self._app_spans(app), [_span(window)]))

    def site_minutes(self, site: str, window: tuple[datetime, datetime]) -> float:
        """Host + aware window -> minutes on its pages in a focused browser window, not away."""
        return minutes(intersect(self._site_spans(site), [_span(window)]))

    def activities(self, window: tuple[datetime, datetime]) -> list[tuple[str, float]]:
        """Aware window -> [(app or site, minutes)] largest first: a browser's time goes to the sites it showed."""
        cut = [_span(window)]
        apps = {d.get("app", "") for _, _, d in self._windows}
        totals = {a: minutes(intersect(self._app_spans(a), cut)) for a in apps if a}
        sited = [span for host, span in self._pages if host]
        for app in [a for a in totals if a.casefold() in ANY_BROWSER]:
            totals[app] = minutes(minus(intersect(self._app_spans(app), cut), sited))
        for host in {h for h, _ in self._pages if h}:
            totals[host] = minutes(intersect(self._site_spans(host), cut))
        ranked = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
        return [(name, m) for name, m in ranked if m > 0]

    @cached_property
    def messages(self) -> list[Message]:
        """-> the chat log's messages in order, with local times."""
        text = (self.home / CHAT_LOG).read_text(encoding="utf-8")
        out = []
        for n, raw in enumerate(text.splitlines(), start=1):
            m = json.loads(raw)
            ts = datetime.fromisoformat(m["ts"]).astimezone(self.tz)
            out.append(Message(n, ts, m["conversation"], m["speaker"], m["text"]))
        return out

    def with_person(
        self, person: str, window: tuple[datetime, datetime] | None = None
    ) -> list[Message]:
        """A person (+ aware window) -> the messages of the conversation with them."""
        return [
            m
            for m in self.messages
            if m.conversation == person and (window is None or window[0] <= m.ts < window[1])
        ]

    def sittings(
        self, person: str, window: tuple[datetime, datetime] | None = None
    ) -> list[list[Message]]:
        """A person (+ aware window) -> the conversations with them: messages of one day less than SITTING_GAP apart."""
        out: list[list[Message]] = []
        for m in self.with_person(person, window):
            last = out[-1][-1] if out else None
            if last and last.ts.date() == m.ts.date() and m.ts - last.ts < SITTING_GAP:
                out[-1].append(m)
            else:
                out.append([m])
        return out


def _span(window: tuple[datetime, datetime]) -> Span:
    """Aware window -> epoch seconds."""
    return window[0].timestamp(), window[1].timestamp()
