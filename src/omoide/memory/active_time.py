"""Time spent, computed the way ActivityWatch does: events of the lake -> seconds on a site, app or topic.

The arithmetic follows aw-client's `canonicalEvents` query (aw-webui's queries.ts): window
events are flooded (gaps of up to PULSETIME_S between consecutive events are filled by the
longer neighbour) and intersected with the flooded not-AFK periods; a browser's web-watcher
events are flooded and intersected with that browser's focused window events and with
not-AFK. Every interval is made disjoint before it is summed (where two events of a stream
overlap, the later one wins and the earlier one keeps what is left outside it), so an
instant is counted once. Browser-history visits, notes and chat carry no duration and are
never counted. Times are UTC epoch seconds inside; optional `since`/`until` clip every
event to [since, until) first, so an event running past midnight counts on each day for the
part that falls in it (pass the events of the day before too to get the part that began
then). No I/O, no clock.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import NamedTuple

import pandas as pd

from omoide.ingest.sessionize import domains
from omoide.memory.terms import has_cjk

PULSETIME_S = 5.0  # aw-core flood()'s default, which the canonical query uses
AW_TYPES = ("window", "afk", "web")
NO_AW = "no ActivityWatch data in this period; browser-history visits alone carry no duration"
NO_AFK = "no AFK data (aw-watcher-afk) in this period: window time is counted as is"
_CHROMIUM = "chromium|chromium-browser|chromium-browser-chromium|chromium.exe"
_CHROME = "google chrome|google-chrome|chrome.exe|google-chrome-stable|google-chrome-beta"
_FIREFOX = "firefox|firefox.exe|firefox developer edition|firefoxdeveloperedition|firefox-esr"
# Web events carry the browser name the collector gives their bucket (ingest.sources.
# activitywatch.BROWSERS); these are the window app names of that browser, lower-case, after
# aw-client's `browser_appnames` (the chrome extension also runs in Chromium and Brave).
BROWSER_WINDOWS: dict[str, frozenset[str]] = {
    browser: frozenset(names.split("|"))
    for browser, names in {
        "Google Chrome": f"{_CHROME}|google-chrome-unstable|{_CHROMIUM}|brave-browser",
        "Chromium": _CHROMIUM,
        "Firefox": f"{_FIREFOX}|firefox beta|nightly|org.mozilla.firefox",
        "Microsoft Edge": "msedge.exe|microsoft edge|microsoft-edge",
        "Brave": "brave.exe|brave browser|brave-browser",
        "Opera": "opera.exe|opera",
        "Vivaldi": "vivaldi-stable|vivaldi-snapshot|vivaldi.exe|vivaldi",
        "Safari": "safari",
        "Arc": "arc",
    }.items()
}
ANY_BROWSER = frozenset().union(*BROWSER_WINDOWS.values())
# ActivityWatch's window watcher names Visual Studio Code "Code" (Linux, macOS) or "Code.exe".
SPOKEN_APPS: dict[str, frozenset[str]] = dict.fromkeys(
    ("vs code", "vscode", "visual studio code", "vsコード"), frozenset({"code", "code.exe"})
)
BROWSER_WINDOWS["Web browser"] = ANY_BROWSER  # a web bucket whose browser is unknown
_HOSTLIKE = re.compile(r"(?:[a-z0-9-]+\.)+[a-z]{2,}")

Interval = tuple[datetime, datetime]
_Span = tuple[float, float]


class _Seg(NamedTuple):
    start: float
    end: float
    app: str
    title: str
    host: str
    ref: str


@dataclass(frozen=True)
class Spent:
    """Time counted for a question: seconds, the intervals (UTC) and the events to cite."""

    seconds: float  # union of the counted intervals, overlaps once
    intervals: list[Interval]  # UTC, sorted, disjoint
    refs: list[str]  # source_refs of the events that contributed, in time order
    basis: str = "activitywatch"  # "activitywatch" | "none" (no duration data at all)
    note: str = ""  # why the figure may be 0 or coarse (no ActivityWatch, no AFK data)
    kind: str = ""  # what the subject was read as: "site", "app", "title" ("" for active time)


@dataclass(frozen=True)
class _Pieces:
    windows: list[_Seg]  # focused window time, not AFK, disjoint
    web: list[_Seg]  # web time inside its browser's focused window, not AFK, disjoint
    active: list[_Span]  # not-AFK periods (window periods when there is no AFK data)
    afk_refs: list[str]
    basis: str
    note: str
    all_windows: list[_Seg]  # before the AFK cut: what the subject may name
    all_web: list[_Seg]


_NONE = _Pieces([], [], [], [], "none", NO_AW, [], [])


def active_periods(
    events: pd.DataFrame, since: datetime | None = None, until: datetime | None = None
) -> list[Interval]:
    """Events (+ UTC bounds) -> the not-AFK periods, flooded, sorted and disjoint."""
    return [_interval(s) for s in _pieces(events, since, until).active]


def active_time(
    events: pd.DataFrame, since: datetime | None = None, until: datetime | None = None
) -> Spent:
    """Events (+ UTC bounds) -> the time at the computer: not-AFK time, or window time without AFK data."""
    p = _pieces(events, since, until)
    refs = p.afk_refs if p.afk_refs else _refs(p.windows)
    return _spent(p.active, refs, p, "")


def time_on(
    events: pd.DataFrame,
    subject: str,
    since: datetime | None = None,
    until: datetime | None = None,
) -> Spent:
    """Events + a site, app or title words (+ UTC bounds) -> the time spent on it, cited."""
    p = _pieces(events, since, until)
    kind, keep = _matcher(subject, p)
    segs = [s for s in (p.windows if kind != "site" else []) if keep(s)]
    segs += [s for s in (p.web if kind != "app" else []) if keep(s)]
    segs.sort()
    return _spent(_union((s.start, s.end) for s in segs), _refs(segs), p, kind)


def time_by_activity(
    events: pd.DataFrame,
    top: int | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> list[tuple[str, float]]:
    """Events (+ UTC bounds) -> [(app or site, seconds)] largest first; the sum is at most the active time."""
    p = _pieces(events, since, until)
    totals: defaultdict[str, float] = defaultdict(float)
    for s in p.windows:
        if s.app.lower() not in ANY_BROWSER:
            totals[s.app] += s.end - s.start
    browsing = [s for s in p.windows if s.app.lower() in ANY_BROWSER]
    # What no web event with a host covers stays the browser's own (no web watcher, about:).
    sited = [w for w in p.web if w.host]
    for s in _clip(browsing, _complement(_union((w.start, w.end) for w in sited))):
        totals[s.app] += s.end - s.start
    for w in sited:
        totals[w.host] += w.end - w.start
    ranked = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    return [(name, secs) for name, secs in ranked[:top] if secs > 0]


def _pieces(events: pd.DataFrame, since: datetime | None, until: datetime | None) -> _Pieces:
    """Events + optional UTC bounds -> the day's counted window and web time and its active periods."""
    if "event_type" not in events.columns:  # an empty frame without the lake's columns
        return _NONE
    aw = events[events["event_type"].isin(AW_TYPES)]
    lo = -float("inf") if since is None else pd.Timestamp(since).timestamp()
    hi = float("inf") if until is None else pd.Timestamp(until).timestamp()
    segs = _segments(aw, lo, hi)
    if not segs:
        return _NONE
    by_type: defaultdict[str, list[tuple[str, _Seg]]] = defaultdict(list)
    for (etype, source_name), seg in segs:
        by_type[etype].append((source_name, seg))
    afk = [s for s in _flood_each(by_type["afk"]) if s.title == "not-afk"]
    windows = _disjoint(_flood_each(by_type["window"]))
    has_afk = bool(by_type["afk"])
    active = _union((s.start, s.end) for s in (afk if has_afk else windows))
    focused = _clip(windows, active)
    web: list[_Seg] = []
    all_web: list[_Seg] = []
    by_browser: defaultdict[str, list[tuple[str, _Seg]]] = defaultdict(list)
    for source_name, s in by_type["web"]:
        by_browser[s.app].append((source_name, s))
    for browser, found in by_browser.items():
        names = BROWSER_WINDOWS.get(browser, frozenset({browser.lower()}))
        flooded = _flood_each(found)
        all_web += flooded
        web += _clip(flooded, _union((s.start, s.end) for s in focused if s.app.lower() in names))
    note = "" if has_afk else NO_AFK
    return _Pieces(
        focused, _disjoint(web), active, _refs(afk), "activitywatch", note, windows, sorted(all_web)
    )


def _segments(aw: pd.DataFrame, lo: float, hi: float) -> list[tuple[tuple[str, str], _Seg]]:
    """ActivityWatch events + bounds -> ((type, source name), segment) clipped, zero-length dropped."""
    if aw.empty:
        return []
    start = (aw["ts"] - pd.Timestamp(0, tz="UTC")).dt.total_seconds().to_numpy(float)
    end = start + aw["duration_s"].to_numpy(float)
    hosts = domains(aw["url"]).fillna("")
    out = []
    for i, row in enumerate(aw.itertuples(index=False)):
        a, b = max(float(start[i]), lo), min(float(end[i]), hi)
        if b > a:
            title = row.title if isinstance(row.title, str) else ""
            app = row.app if isinstance(row.app, str) else ""
            seg = _Seg(a, b, app, title, str(hosts.iat[i]), str(row.source_ref))
            out.append(((str(row.event_type), str(row.source_name)), seg))
    return out


def _flood_each(found: Sequence[tuple[str, _Seg]]) -> list[_Seg]:
    """(source name, segment) pairs -> each watcher's stream flooded on its own, pooled and sorted."""
    streams: defaultdict[str, list[_Seg]] = defaultdict(list)
    for source_name, seg in found:
        streams[source_name].append(seg)
    return sorted(s for stream in streams.values() for s in _flood(stream))


def _flood(segs: Iterable[_Seg], pulse: float = PULSETIME_S) -> list[_Seg]:
    """Segments of one watcher -> disjoint, with gaps up to `pulse` s given to the longer neighbour."""
    out = _disjoint(segs)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if 0 < b.start - a.end <= pulse:
            if a.end - a.start >= b.end - b.start:
                out[i] = a._replace(end=b.start)
            else:
                out[i + 1] = b._replace(start=a.end)
    return out


def _disjoint(segs: Iterable[_Seg]) -> list[_Seg]:
    """Segments -> disjoint and sorted: where two overlap the later-starting one wins."""
    out: list[_Seg] = []
    for s in sorted(segs):
        heads: list[_Seg] = []
        tails: list[_Seg] = []
        while out and out[-1].end > s.start:
            o = out.pop()
            if o.start < s.start:
                heads.insert(0, o._replace(end=s.start))
            if o.end > s.end:
                tails.insert(0, o._replace(start=max(o.start, s.end)))
        out += [*heads, s, *tails]
    return out


def _union(spans: Iterable[_Span]) -> list[_Span]:
    """Spans -> sorted, disjoint spans covering the same time."""
    out: list[_Span] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        elif b > a:
            out.append((a, b))
    return out


def _complement(spans: Sequence[_Span]) -> list[_Span]:
    """Sorted disjoint spans -> the spans of everything else."""
    edges = [-float("inf"), *(x for s in spans for x in s), float("inf")]
    return [(edges[i], edges[i + 1]) for i in range(0, len(edges), 2) if edges[i] < edges[i + 1]]


def _clip(segs: Iterable[_Seg], spans: Sequence[_Span]) -> list[_Seg]:
    """Segments + sorted disjoint spans -> the parts of the segments inside the spans."""
    out: list[_Seg] = []
    j0 = 0
    for s in sorted(segs):
        while j0 < len(spans) and spans[j0][1] <= s.start:
            j0 += 1
        j = j0
        while j < len(spans) and spans[j][0] < s.end:
            a, b = max(s.start, spans[j][0]), min(s.end, spans[j][1])
            if b > a:
                out.append(s._replace(start=a, end=b))
            j += 1
    return out


def _matcher(subject: str, p: _Pieces) -> tuple[str, Callable[[_Seg], bool]]:
    """Subject + the period's events -> ("site" | "app" | "title", a segment predicate)."""
    text = subject.strip()
    host = re.sub(r"^[a-z]+://", "", text.lower()).split("/")[0].removeprefix("www.")
    words = re.compile(_phrase(text), re.IGNORECASE)

    def on_site(s: _Seg) -> bool:
        return s.host == host or s.host.endswith("." + host)

    def titled(s: _Seg) -> bool:
        return bool(words.search(s.title))

    if _HOSTLIKE.fullmatch(host):
        seen = any(on_site(s) for s in p.all_web)
        if seen or not any(titled(s) for s in p.all_windows + p.all_web):
            return "site", on_site
    apps = _app_names(text)
    if any(s.app.lower() in apps for s in p.all_windows):
        return "app", lambda s: s.app.lower() in apps
    return "title", titled


def _app_names(subject: str) -> frozenset[str]:
    """App subject -> the window app names it stands for (a browser's name: all of its windows;
    a name people say otherwise than the window watcher records it: that one too)."""
    key = subject.lower()
    for browser, names in BROWSER_WINDOWS.items():
        if key in (browser.lower(), browser.lower().split()[-1]):
            return names | {key}
    return frozenset({key, *SPOKEN_APPS.get(key, ())})


def _phrase(text: str) -> str:
    """Title words -> a regex for them in order as whole words (a CJK subject: as written)."""
    words = [re.escape(w) for w in text.split()] or ["(?!)"]
    joined = r"\W+".join(words)
    return joined if has_cjk(text) else rf"(?<!\w){joined}(?!\w)"


def _refs(segs: Iterable[_Seg]) -> list[str]:
    """Segments -> their refs, each once, in time order."""
    return list(dict.fromkeys(s.ref for s in sorted(segs)))


def _spent(spans: list[_Span], refs: list[str], p: _Pieces, kind: str) -> Spent:
    """Counted spans + refs + the period's basis -> Spent."""
    seconds = float(sum(b - a for a, b in spans))
    return Spent(seconds, [_interval(s) for s in spans], refs, p.basis, p.note, kind)


def _interval(span: _Span) -> Interval:
    """(start, end) epoch seconds -> UTC datetimes."""
    return datetime.fromtimestamp(span[0], UTC), datetime.fromtimestamp(span[1], UTC)
