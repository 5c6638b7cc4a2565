"""A day's plan -> the windows a person focuses on, as a window watcher sees them (UTC ms)."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time
from urllib.parse import quote_plus

from omoide.core.days import zone
from omoide.sample.content import Planted, content

# browser -> window title suffix as the window watcher sees it on Linux.
TITLE_SUFFIX = {"chrome": " - Google Chrome", "firefox": " — Mozilla Firefox"}


@dataclass(frozen=True)
class Focus:
    """One focused window: UTC start in ms, duration, app, title; a browser page maybe visited."""

    start_ms: int
    dur_ms: int
    app: str
    title: str
    browser: str | None = None
    url: str | None = None
    visit: str | None = None  # transition name when this focus begins a page load
    page: str = ""  # the page title inside a browser window title
    afk: bool = False
    planted: bool = False


def local_ms(day: date, hhmm: str) -> int:
    """Local day + 'HH:MM' -> unix ms."""
    h, m = (int(x) for x in hhmm.split(":"))
    local = datetime.combine(day, time(h, m), tzinfo=zone(content().timezone))
    return int(local.astimezone(UTC).timestamp()) * 1000


def _segments(day: date, plan: str) -> list[tuple[int, int, str, str]]:
    """'HH:MM-HH:MM mode topic; ...' -> [(start_ms, end_ms, mode, topic)]."""
    out = []
    for part in plan.split(";"):
        span, mode, topic = part.split()
        a, b = span.split("-")
        out.append((local_ms(day, a), local_ms(day, b), mode, topic))
    return out


def _dwell_ms(rng: random.Random, app: str, volume: float = 1.0) -> int:
    """App (+ activity volume) -> a plausible focus duration in ms; `volume` times as many switches."""
    bands = content().dwell[app]
    lo, hi = rng.choices([(b[1], b[2]) for b in bands], weights=[b[0] for b in bands])[0]
    return int(rng.uniform(lo, hi) * 1000 / volume)


class _Desk:
    """The person's screen state while a day is generated: open pages, files, tabs."""

    def __init__(self, rng: random.Random, day: date, volume: float = 1.0) -> None:
        self.rng = rng
        self.volume = volume
        self.day = day
        self.titles: dict[str, str] = {}
        self.pages: dict[str, tuple[str, str]] = {}

    def _page(self, topic: str) -> tuple[str, str, str, str]:
        """Topic -> (browser, url, title, transition) of a newly loaded page."""
        rng = self.rng
        browser, pages = content().pages[topic]
        current = self.pages.get(browser)
        if current and rng.random() < 0.03:
            return browser, current[0], current[1], "reload"
        if topic in content().searches and rng.random() < 0.12:
            q = rng.choice(content().searches[topic])
            if browser == "chrome":
                url, title = (
                    f"https://www.google.com/search?q={quote_plus(q)}",
                    f"{q} - Google Search",
                )
            else:
                url, title = (
                    f"https://duckduckgo.com/?q={quote_plus(q)}&ia=web",
                    f"{q} at DuckDuckGo",
                )
            return browser, url, title, "generated"
        url, title = rng.choice([p for p in pages if current is None or p[0] != current[0]])
        return browser, url, title, "typed" if not current or rng.random() < 0.1 else "link"

    def focus(self, start: int, mode: str, topic: str, last: Focus | None) -> Focus:
        """Screen state + segment -> the next focused window starting at `start`."""
        rng = self.rng
        if last is not None and len(self.titles) > 1 and rng.random() < content().flip_p:
            app = rng.choice(sorted(a for a in self.titles if a != last.app))
            browser = {
                content().apps["chrome"]: "chrome",
                content().apps["firefox"]: "firefox",
            }.get(app)
            url = self.pages[browser][0] if browser else None
            page = self.pages[browser][1] if browser else ""
            return Focus(
                start, rng.randint(1000, 5000), app, self.titles[app], browser, url, page=page
            )
        weights = content().modes[mode]
        kind = rng.choices(list(weights), weights=list(weights.values()))[0]
        if kind == "browser":
            if rng.random() < 0.1:
                topic = "news" if mode == "personal" else "mail"
            browser, url, title, transition = self._page(topic)
            app, suffix = content().apps[browser], TITLE_SUFFIX[browser]
            keep = self.pages.get(browser) if rng.random() < 0.2 else None
            visit: str | None = transition
            if keep is not None:
                (url, title), visit = keep, None
            self.pages[browser] = (url, title)
            self.titles[app] = title + suffix
            return Focus(
                start,
                _dwell_ms(rng, "browser", self.volume),
                app,
                title + suffix,
                browser,
                url,
                visit,
                title,
            )
        self.titles[kind] = self._title(kind)
        return Focus(start, _dwell_ms(rng, kind, self.volume), kind, self.titles[kind])

    def _title(self, app: str) -> str:
        """App -> its next window title."""
        rng = self.rng
        if app == "Code":
            dirty = "● " if rng.random() < 0.3 else ""
            return f"{dirty}{rng.choice(content().code_files)} - warelay - Visual Studio Code"
        if app == "kitty":
            return rng.choice(content().terminals)
        if app == "Slack":
            return rng.choice(content().slack)
        if app == "zoom":
            return rng.choice(content().zoom)
        note = rng.choice((self.day.isoformat(), "Kyoto trip", "warelay", "Recipes"))
        return f"{note} - vault - Obsidian v1.7.7"


def day_focus(day: date, plan: str, rng: random.Random, volume: float = 1.0) -> list[Focus]:
    """Local day + segment plan (+ activity volume) -> non-overlapping focus events (UTC ms)."""
    desk, out, planned_end, end = _Desk(rng, day, volume), [], 0, 0
    for seg_start, seg_end, mode, topic in _segments(day, plan):
        # Nobody sits down on the minute: blur the planned boundaries by some seconds,
        # but a segment that follows another within minutes starts where that one ended.
        near = 0 <= seg_start - planned_end <= 300_000
        start = end if near else seg_start + rng.randint(0, 50_000)
        planned_end, end = seg_end, seg_end - rng.randint(0, 30_000)
        if mode == "afk":
            # The window watcher keeps reporting the focused window while the user is away.
            last = out[-1] if out else Focus(start, 0, "obsidian", desk._title("obsidian"))
            out.append(replace(last, start_ms=start, dur_ms=end - start, visit=None, afk=True))
            continue
        t = start
        while end - t > 1000:
            last = out[-1] if out else None
            f = desk.focus(t, mode, topic, last)
            f = replace(f, dur_ms=min(f.dur_ms, end - t))
            if (
                last
                and not last.afk
                and f.visit is None
                and (f.app, f.title) == (last.app, last.title)
            ):
                # aw-watcher-window merges heartbeats with unchanged data into one event.
                out[-1] = replace(last, dur_ms=f.start_ms + f.dur_ms - last.start_ms)
            else:
                out.append(f)
            t += f.dur_ms + (rng.randint(0, 600) if rng.random() < 0.5 else 0)
    return out


def plant(focus: list[Focus], day: date, item: Planted) -> list[Focus]:
    """Focus events + a planted window or visits -> events with the item placed at its time."""
    at = local_ms(day, item.at)
    fits = [i for i, f in enumerate(focus) if not (f.afk or f.planted) and f.dur_ms >= 20_000]
    i = next((i for i in fits if focus[i].start_ms >= at), fits[-1])
    host = focus[i]
    if item.kind == "window":
        app, title = item.payload[0]
        placed = replace(
            host, app=app, title=title, browser=None, url=None, visit=None, page="", planted=True
        )
        return [*focus[:i], placed, *focus[i + 1 :]]
    share = host.dur_ms // len(item.payload)
    parts = []
    for n, (browser, url, title, transition) in enumerate(item.payload):
        app, suffix = content().apps[browser], TITLE_SUFFIX[browser]
        parts.append(
            Focus(
                host.start_ms + n * share,
                share,
                app,
                title + suffix,
                browser,
                url,
                transition,
                title,
                planted=True,
            )
        )
    return [*focus[:i], *parts, *focus[i + 1 :]]
