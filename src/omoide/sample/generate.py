"""Deterministic sample data in the real formats: Chrome, Firefox, ActivityWatch, notes, chat."""

from __future__ import annotations

import json
import logging
import random
import re
import sqlite3
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from urllib.parse import quote_plus, urlsplit

from omoide.core.days import zone
from omoide.core.errors import ConfigError
from omoide.sample import content as sc
from omoide.sample.content import INJECTION_TITLE, LOOKALIKES, PII_SAMPLES, Planted

__all__ = ["INJECTION_TITLE", "LOOKALIKES", "PII_SAMPLES", "write_sample"]

log = logging.getLogger(__name__)

CHROME_DB = Path("sources/chrome/Default/History")
FIREFOX_DB = Path("sources/firefox/places.sqlite")
AW_EXPORT = Path("sources/activitywatch/aw-buckets-export.json")
NOTES_DIR = Path("sources/notes")
CHAT_LOG = Path("sources/chat/chat.jsonl")

CHROME_EPOCH_US = 11_644_473_600_000_000  # µs between 1601-01-01 and 1970-01-01
CHAIN_START, CHAIN_END, FROM_ADDRESS_BAR = 0x10000000, 0x20000000, 0x02000000
CHROME_CORE = {"link": 0, "typed": 1, "generated": 5, "form_submit": 7, "reload": 8}
FIREFOX_TYPE = {"link": 1, "typed": 2, "generated": 2, "form_submit": 1, "reload": 9}
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
TIMED_LINE = re.compile(r"^- (\d\d:\d\d) ")
SPEAKERS = {"A": sc.USER_SPEAKER, "P": "Peter", "AI": "assistant"}
# browser -> (window class, window title suffix) as the window watcher sees them on Linux.
BROWSER_WINDOWS = {
    "chrome": (sc.CHROME_APP, " - Google Chrome"),
    "firefox": (sc.FIREFOX_APP, " — Mozilla Firefox"),
}


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


@dataclass(frozen=True)
class Visit:
    """One browser history visit, in unix µs."""

    browser: str
    ts_us: int
    url: str
    title: str
    transition: str
    dur_us: int
    synced: bool = False


def _local_ms(day: date, hhmm: str) -> int:
    """Local day + 'HH:MM' -> unix ms."""
    h, m = (int(x) for x in hhmm.split(":"))
    local = datetime.combine(day, time(h, m), tzinfo=zone(sc.TIMEZONE))
    return int(local.astimezone(UTC).timestamp()) * 1000


def _segments(day: date, plan: str) -> list[tuple[int, int, str, str]]:
    """'HH:MM-HH:MM mode topic; ...' -> [(start_ms, end_ms, mode, topic)]."""
    out = []
    for part in plan.split(";"):
        span, mode, topic = part.split()
        a, b = span.split("-")
        out.append((_local_ms(day, a), _local_ms(day, b), mode, topic))
    return out


def _dwell_ms(rng: random.Random, app: str) -> int:
    """App -> a plausible focus duration in ms."""
    bands = sc.DWELL[app]
    lo, hi = rng.choices([(b[1], b[2]) for b in bands], weights=[b[0] for b in bands])[0]
    return int(rng.uniform(lo, hi) * 1000)


class _Desk:
    """The person's screen state while a day is generated: open pages, files, tabs."""

    def __init__(self, rng: random.Random, day: date) -> None:
        self.rng = rng
        self.day = day
        self.titles: dict[str, str] = {}
        self.pages: dict[str, tuple[str, str]] = {}

    def _page(self, topic: str) -> tuple[str, str, str, str]:
        """Topic -> (browser, url, title, transition) of a newly loaded page."""
        rng = self.rng
        browser, pages = sc.PAGES[topic]
        current = self.pages.get(browser)
        if current and rng.random() < 0.03:
            return browser, current[0], current[1], "reload"
        if topic in sc.SEARCHES and rng.random() < 0.12:
            q = rng.choice(sc.SEARCHES[topic])
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
        if last is not None and len(self.titles) > 1 and rng.random() < sc.FLIP_P:
            app = rng.choice(sorted(a for a in self.titles if a != last.app))
            browser = {sc.CHROME_APP: "chrome", sc.FIREFOX_APP: "firefox"}.get(app)
            url = self.pages[browser][0] if browser else None
            page = self.pages[browser][1] if browser else ""
            return Focus(
                start, rng.randint(1000, 5000), app, self.titles[app], browser, url, page=page
            )
        weights = sc.MODES[mode]
        kind = rng.choices(list(weights), weights=list(weights.values()))[0]
        if kind == "browser":
            if rng.random() < 0.1:
                topic = "news" if mode == "personal" else "mail"
            browser, url, title, transition = self._page(topic)
            app, suffix = BROWSER_WINDOWS[browser]
            keep = self.pages.get(browser) if rng.random() < 0.2 else None
            visit: str | None = transition
            if keep is not None:
                (url, title), visit = keep, None
            self.pages[browser] = (url, title)
            self.titles[app] = title + suffix
            return Focus(
                start, _dwell_ms(rng, "browser"), app, title + suffix, browser, url, visit, title
            )
        self.titles[kind] = self._title(kind)
        return Focus(start, _dwell_ms(rng, kind), kind, self.titles[kind])

    def _title(self, app: str) -> str:
        """App -> its next window title."""
        rng = self.rng
        if app == "Code":
            dirty = "● " if rng.random() < 0.3 else ""
            return f"{dirty}{rng.choice(sc.CODE_FILES)} - warelay - Visual Studio Code"
        if app == "kitty":
            return rng.choice(sc.TERMINALS)
        if app == "Slack":
            return rng.choice(sc.SLACK)
        if app == "zoom":
            return rng.choice(sc.ZOOM)
        note = rng.choice((self.day.isoformat(), "Kyoto trip", "warelay", "Recipes"))
        return f"{note} - vault - Obsidian v1.7.7"


def _day_focus(day: date, plan: str, rng: random.Random) -> list[Focus]:
    """Local day + segment plan -> non-overlapping focus events (UTC ms)."""
    desk, out, planned_end, end = _Desk(rng, day), [], 0, 0
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


def _plant(focus: list[Focus], day: date, item: Planted) -> list[Focus]:
    """Focus events + a planted window or visits -> events with the item placed at its time."""
    at = _local_ms(day, item.at)
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
        app, suffix = BROWSER_WINDOWS[browser]
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


def _visits(focus: list[Focus], rng: random.Random) -> list[Visit]:
    """Focus events -> the browser visits they began (a page loads just before its title shows)."""
    out = []
    for f in focus:
        if f.visit is None or f.browser is None or f.url is None:
            continue
        ts = (f.start_ms - rng.randint(80, 900)) * 1000 + rng.randint(0, 999)
        out.append(Visit(f.browser, ts, f.url, f.page, f.visit, f.dur_ms * 1000))
    return out


def _phone_visits(day: date, rng: random.Random) -> list[Visit]:
    """Day -> a few Chrome visits synced from the phone (morning commute reading)."""
    browser_pages = [p for t in ("kyoto", "news", "japanese") for p in sc.PAGES[t][1]]
    start = _local_ms(day, "07:10")
    out = []
    for _ in range(rng.randint(2, 5)):
        start += rng.randint(40, 400) * 1000
        url, title = rng.choice(browser_pages)
        out.append(
            Visit(
                "chrome",
                start * 1000 + rng.randint(0, 999),
                url,
                title,
                "link",
                rng.randint(5, 120) * 1_000_000,
                synced=True,
            )
        )
    return out


CHROME_SCHEMA = """
CREATE TABLE meta(key LONGVARCHAR NOT NULL UNIQUE PRIMARY KEY, value LONGVARCHAR);
CREATE TABLE urls(id INTEGER PRIMARY KEY AUTOINCREMENT,url LONGVARCHAR,title LONGVARCHAR,visit_count INTEGER DEFAULT 0 NOT NULL,typed_count INTEGER DEFAULT 0 NOT NULL,last_visit_time INTEGER NOT NULL,hidden INTEGER DEFAULT 0 NOT NULL);
CREATE TABLE visits(id INTEGER PRIMARY KEY AUTOINCREMENT,url INTEGER NOT NULL,visit_time INTEGER NOT NULL,from_visit INTEGER,external_referrer_url TEXT,transition INTEGER DEFAULT 0 NOT NULL,segment_id INTEGER,visit_duration INTEGER DEFAULT 0 NOT NULL,incremented_omnibox_typed_score BOOLEAN DEFAULT FALSE NOT NULL,opener_visit INTEGER,originator_cache_guid TEXT,originator_visit_id INTEGER,originator_from_visit INTEGER,originator_opener_visit INTEGER,is_known_to_sync BOOLEAN DEFAULT FALSE NOT NULL,consider_for_ntp_most_visited BOOLEAN DEFAULT FALSE NOT NULL,visited_link_id INTEGER DEFAULT 0 NOT NULL,app_id TEXT);
CREATE TABLE visit_source(id INTEGER PRIMARY KEY,source INTEGER NOT NULL);
CREATE TABLE keyword_search_terms (keyword_id INTEGER NOT NULL,url_id INTEGER NOT NULL,term LONGVARCHAR NOT NULL,normalized_term LONGVARCHAR NOT NULL);
CREATE INDEX visits_url_index ON visits (url);
CREATE INDEX visits_from_index ON visits (from_visit);
CREATE INDEX visits_time_index ON visits (visit_time);
CREATE INDEX urls_url_index ON urls (url);
CREATE INDEX keyword_search_terms_index1 ON keyword_search_terms (keyword_id, normalized_term);
CREATE INDEX keyword_search_terms_index2 ON keyword_search_terms (url_id);
CREATE INDEX keyword_search_terms_index3 ON keyword_search_terms (term);
"""  # noqa: E501
FIREFOX_SCHEMA = """
CREATE TABLE moz_origins ( id INTEGER PRIMARY KEY, prefix TEXT NOT NULL, host TEXT NOT NULL, frecency INTEGER NOT NULL, recalc_frecency INTEGER NOT NULL DEFAULT 0, alt_frecency INTEGER, recalc_alt_frecency INTEGER NOT NULL DEFAULT 0, UNIQUE (prefix, host) );
CREATE TABLE moz_places (  id INTEGER PRIMARY KEY, url LONGVARCHAR, title LONGVARCHAR, rev_host LONGVARCHAR, visit_count INTEGER DEFAULT 0, hidden INTEGER DEFAULT 0 NOT NULL, typed INTEGER DEFAULT 0 NOT NULL, frecency INTEGER DEFAULT -1 NOT NULL, last_visit_date INTEGER , guid TEXT, foreign_count INTEGER DEFAULT 0 NOT NULL, url_hash INTEGER DEFAULT 0 NOT NULL , description TEXT, preview_image_url TEXT, site_name TEXT, origin_id INTEGER REFERENCES moz_origins(id), recalc_frecency INTEGER NOT NULL DEFAULT 0, alt_frecency INTEGER, recalc_alt_frecency INTEGER NOT NULL DEFAULT 0);
CREATE TABLE moz_historyvisits (  id INTEGER PRIMARY KEY, from_visit INTEGER, place_id INTEGER, visit_date INTEGER, visit_type INTEGER, session INTEGER, source INTEGER DEFAULT 0 NOT NULL, triggeringPlaceId INTEGER);
CREATE INDEX moz_places_url_hashindex ON moz_places (url_hash);
CREATE INDEX moz_places_hostindex ON moz_places (rev_host);
CREATE INDEX moz_places_visitcount ON moz_places (visit_count);
CREATE INDEX moz_places_frecencyindex ON moz_places (frecency);
CREATE INDEX moz_places_lastvisitdateindex ON moz_places (last_visit_date);
CREATE UNIQUE INDEX moz_places_guid_uniqueindex ON moz_places (guid);
CREATE INDEX moz_places_originidindex ON moz_places (origin_id);
CREATE INDEX moz_historyvisits_placedateindex ON moz_historyvisits (place_id, visit_date);
CREATE INDEX moz_historyvisits_fromindex ON moz_historyvisits (from_visit);
CREATE INDEX moz_historyvisits_dateindex ON moz_historyvisits (visit_date);
"""  # noqa: E501
FIREFOX_SCHEMA_VERSION = 77  # PRAGMA user_version of current Firefox places.sqlite


def _fresh_db(path: Path, schema: str) -> sqlite3.Connection:
    """Path + schema -> a new SQLite DB there (any older copy and its journals removed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    for p in (path, Path(f"{path}-journal"), Path(f"{path}-wal"), Path(f"{path}-shm")):
        p.unlink(missing_ok=True)
    con = sqlite3.connect(path)
    con.executescript(schema)
    return con


def _chain(visits: list[Visit]) -> list[int]:
    """Visits of one browser (time order) -> 1-based index of the referring visit, or 0."""
    out, prev = [], 0
    for i, v in enumerate(visits, start=1):
        out.append(
            prev if v.transition in ("link", "form_submit", "reload") and not v.synced else 0
        )
        prev = 0 if v.synced else i
    return out


def _write_chrome(path: Path, visits: list[Visit]) -> None:
    """Chrome visits -> a Chrome `History` DB (current schema, WebKit-epoch µs)."""
    visits = sorted((v for v in visits if v.browser == "chrome"), key=lambda v: v.ts_us)
    url_ids: dict[str, int] = {}
    for v in visits:
        url_ids.setdefault(v.url, len(url_ids) + 1)
    con = _fresh_db(path, CHROME_SCHEMA)
    with con:
        con.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [("mmap_status", "-1"), ("version", "70"), ("last_compatible_version", "16")],
        )
        for url, uid in url_ids.items():
            mine = [v for v in visits if v.url == url]
            con.execute(
                "INSERT INTO urls VALUES (?, ?, ?, ?, ?, ?, 0)",
                (
                    uid,
                    url,
                    mine[-1].title,
                    len(mine),
                    sum(v.transition == "typed" for v in mine),
                    mine[-1].ts_us + CHROME_EPOCH_US,
                ),
            )
        for i, (v, src) in enumerate(zip(visits, _chain(visits), strict=True), start=1):
            core = CHROME_CORE[v.transition]
            bar = FROM_ADDRESS_BAR if v.transition in ("typed", "generated") else 0
            con.execute(
                "INSERT INTO visits (id, url, visit_time, from_visit, transition, segment_id,"
                " visit_duration, incremented_omnibox_typed_score, opener_visit,"
                " originator_cache_guid, originator_visit_id, is_known_to_sync,"
                " consider_for_ntp_most_visited) VALUES (?, ?, ?, ?, ?, 0, ?, ?, 0, ?, ?, 1, ?)",
                (
                    i,
                    url_ids[v.url],
                    v.ts_us + CHROME_EPOCH_US,
                    src,
                    CHAIN_START | CHAIN_END | bar | core,
                    v.dur_us,
                    int(v.transition == "typed"),
                    "WkF0cGhvbmUtQWlrbzIwMjY=" if v.synced else None,
                    9000 + i if v.synced else None,
                    int(v.transition != "reload"),
                ),
            )
            if v.synced:
                con.execute("INSERT INTO visit_source VALUES (?, 0)", (i,))  # 0 = SOURCE_SYNCED
            if v.transition == "generated":
                term = v.title.rsplit(" - Google Search", 1)[0]
                con.execute(
                    "INSERT INTO keyword_search_terms VALUES (2, ?, ?, ?)",
                    (url_ids[v.url], term, term.lower()),
                )
    con.close()


def _hash_string(text: str) -> int:
    """Text -> mozilla::HashString (golden-ratio rotate/xor hash over bytes)."""
    h = 0
    for b in text.encode("utf-8"):
        h = (0x9E3779B9 * ((((h << 5) | (h >> 27)) & 0xFFFFFFFF) ^ b)) & 0xFFFFFFFF
    return h


def _url_hash(url: str) -> int:
    """URL -> Firefox places url_hash (scheme hash in the high 16 bits, URL hash low)."""
    scheme = url[: min(url.find(":"), 50)]
    return ((_hash_string(scheme) & 0xFFFF) << 32) + _hash_string(url[:1500])


def _write_firefox(path: Path, visits: list[Visit], rng: random.Random) -> None:
    """Firefox visits -> a Firefox `places.sqlite` (current schema, unix µs)."""
    visits = sorted((v for v in visits if v.browser == "firefox"), key=lambda v: v.ts_us)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    origins: dict[tuple[str, str], int] = {}
    places: dict[str, int] = {}
    origin_of: dict[str, int] = {}
    for v in visits:
        parts = urlsplit(v.url)
        key = (f"{parts.scheme}://", parts.netloc.rpartition("@")[2])
        origin_of[v.url] = origins.setdefault(key, len(origins) + 1)
        places.setdefault(v.url, len(places) + 1)
    frecency: dict[str, int] = {}
    con = _fresh_db(path, FIREFOX_SCHEMA)
    with con:
        con.execute(f"PRAGMA user_version = {FIREFOX_SCHEMA_VERSION}")
        for url, pid in places.items():
            mine = [v for v in visits if v.url == url]
            typed = int(any(v.transition in ("typed", "generated") for v in mine))
            frecency[url] = 100 * len(mine) + 2000 * typed
            host = urlsplit(url).hostname or ""
            con.execute(
                "INSERT INTO moz_places (id, url, title, rev_host, visit_count, hidden, typed,"
                " frecency, last_visit_date, guid, url_hash, origin_id)"
                " VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)",
                (
                    pid,
                    url,
                    mine[-1].title,
                    host[::-1] + ".",
                    len(mine),
                    typed,
                    frecency[url],
                    mine[-1].ts_us,
                    "".join(rng.choices(alphabet, k=12)),
                    _url_hash(url),
                    origin_of[url],
                ),
            )
        for (prefix, host), oid in origins.items():
            total = sum(f for u, f in frecency.items() if origin_of[u] == oid)
            con.execute(
                "INSERT INTO moz_origins (id, prefix, host, frecency) VALUES (?, ?, ?, ?)",
                (oid, prefix, host, total),
            )
        con.executemany(
            "INSERT INTO moz_historyvisits VALUES (?, ?, ?, ?, ?, 0, 0, NULL)",
            [
                (i, src, places[v.url], v.ts_us, FIREFOX_TYPE[v.transition])
                for i, (v, src) in enumerate(zip(visits, _chain(visits), strict=True), start=1)
            ],
        )
    con.close()


def _iso_utc(ms: int) -> str:
    """Unix ms -> ActivityWatch timestamp '2026-11-20T08:01:02.345000+00:00'."""
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="microseconds")


def _afk_spans(focus: list[Focus]) -> list[tuple[int, int, str]]:
    """Focus events -> merged (start_ms, end_ms, 'afk'|'not-afk') spans while the machine is on."""
    out: list[tuple[int, int, str]] = []
    for f in focus:
        status = "afk" if f.afk else "not-afk"
        # A gap over a minute means the lid was closed: the AFK watcher records nothing then.
        if out and f.start_ms - out[-1][1] < 60_000 and out[-1][2] == status:
            out[-1] = (out[-1][0], f.start_ms + f.dur_ms, status)
        else:
            out.append((f.start_ms, f.start_ms + f.dur_ms, status))
    return out


def _aw_export(focus: list[Focus], afk: list[tuple[int, int, str]], rng: random.Random) -> dict:
    """Focus events + AFK spans -> an ActivityWatch export with buckets keyed by id."""
    meta = {
        "window": ("currentwindow", "aw-watcher-window"),
        "afk": ("afkstatus", "aw-watcher-afk"),
        "web-chrome": ("web.tab.current", "aw-client-web"),
        "web-firefox": ("web.tab.current", "aw-client-web"),
    }
    rows: dict[str, list[tuple[int, int, dict]]] = {k: [] for k in meta}
    tabs = {"chrome": 6, "firefox": 9}
    for f in focus:
        rows["window"].append((f.start_ms, f.dur_ms, {"app": f.app, "title": f.title}))
        if f.browser and f.url:
            tabs[f.browser] = max(2, min(18, tabs[f.browser] + rng.choice((-1, 0, 0, 1))))
            rows[f"web-{f.browser}"].append(
                (
                    f.start_ms,
                    f.dur_ms,
                    {
                        "url": f.url,
                        "title": f.page,
                        "audible": "youtube.com" in f.url,
                        "incognito": False,
                        "tabCount": tabs[f.browser],
                    },
                )
            )
    rows["afk"] = [(a, b - a, {"status": s}) for a, b, s in afk]
    buckets, next_id = {}, 1
    for key, (kind, client) in meta.items():
        bucket_id = f"aw-watcher-{key}_{sc.HOST}"
        events = []
        for start, dur, data in sorted(rows[key], key=lambda r: r[0]):
            events.append(
                {
                    "id": next_id,
                    "timestamp": _iso_utc(start),
                    "duration": round(dur / 1000, 3),
                    "data": data,
                }
            )
            next_id += 1
        buckets[bucket_id] = {
            "id": bucket_id,
            "created": "2025-02-11T08:14:03.512000+00:00",
            "name": None,
            "type": kind,
            "client": client,
            "hostname": sc.HOST,
            "data": {},
            "events": events,
        }
    return {"buckets": buckets}


def _note(day: date, text: str, planted: list[Planted]) -> str:
    """Day's note template + planted lines -> the Markdown of that day's note."""
    long = f"{day.day} {MONTHS[day.month - 1]} {day.year}"
    lines = text.replace("{long}", long).splitlines()
    retain = lines.index("## Retain")
    for item in planted:
        line = f"- {item.at} {item.payload[0][0]}"
        timed = [i for i in range(retain) if TIMED_LINE.match(lines[i])]
        after = [i for i in timed if lines[i][2:7] <= item.at]
        lines.insert(after[-1] + 1 if after else timed[0], line)
        retain += 1
    return "\n".join(lines) + "\n"


def _chat(day: date, script: str, planted: list[Planted], rng: random.Random) -> list[dict]:
    """Day's chat script + planted messages -> chat records with local ISO timestamps."""
    msgs: list[tuple[str, str, str, str]] = []  # (HH:MM, conversation, speaker, text)
    conversation = ""
    for line in script.splitlines():
        if line.startswith("@"):
            conversation = line[1:]
            continue
        hhmm, code, text = line.split(" ", 2)
        msgs.append((hhmm, conversation, SPEAKERS[code], text))
    for item in planted:
        msgs.extend((item.at, conv, speaker, text) for conv, speaker, text in item.payload)
    msgs.sort(key=lambda m: m[0])
    tz, last, out = zone(sc.TIMEZONE), {}, []
    for hhmm, conv, speaker, text in msgs:
        ms = _local_ms(day, hhmm) + rng.randint(0, 40) * 1000
        ms = max(ms, last.get(conv, 0) + rng.randint(4, 30) * 1000)
        last[conv] = ms
        local = datetime.fromtimestamp(ms / 1000, UTC).astimezone(tz)
        out.append(
            {
                "ts": local.isoformat(timespec="seconds"),
                "speaker": speaker,
                "text": text,
                "conversation": conv,
                "_ms": ms,
            }
        )
    return out


def _toml() -> str:
    """-> omoide.toml text pointing at the sample sources by paths relative to the home."""
    lines = [
        f"timezone = {json.dumps(sc.TIMEZONE)}",
        f"user_name = {json.dumps(sc.USER_SPEAKER)}",
        'people = ["Peter", "Mina"]',
        f"excluded_domains = [{json.dumps(sc.EXCLUDED_DOMAIN)}]",
        "",
    ]
    for kind, path in (
        ("chrome", CHROME_DB),
        ("firefox", FIREFOX_DB),
        ("activitywatch", AW_EXPORT),
        ("notes", NOTES_DIR),
        ("chat", CHAT_LOG),
    ):
        lines += [
            "[[sources]]",
            f"kind = {json.dumps(kind)}",
            f"path = {json.dumps(path.as_posix())}",
            "",
        ]
    return "\n".join(lines)


def _write_text(path: Path, text: str) -> None:
    """Path + text -> file written as UTF-8 with LF line ends (parents created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def write_sample(
    out: Path, days: int = 7, end: date = date(2026, 11, 20), seed: int = 7
) -> tuple[date, date]:
    """Folder + days ending at `end` -> sample sources and omoide.toml written; (first, last) day."""
    if days < 1:
        raise ConfigError(f"days must be at least 1, got {days}")
    first = end - timedelta(days=days - 1)
    span = [first + timedelta(days=i) for i in range(days)]
    planted: list[list[Planted]] = [[] for _ in span]
    for k, item in enumerate(sc.PLANTED):
        planted[k % days].append(item)
    focus, visits, afk, chat = [], [], [], []
    notes_dir = out / NOTES_DIR
    if notes_dir.is_dir():
        for old in notes_dir.glob("[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9].md"):
            old.unlink()
    for idx, day in enumerate(span):
        rng = random.Random(f"{seed}:{day.isoformat()}")
        script = sc.DAYS[day.weekday()]
        plan = script.segments
        if idx == 0 and not plan.startswith("00:"):
            # Always some activity just after local midnight: it belongs to the previous UTC day.
            plan = "00:14-00:38 personal news; " + plan
        day_focus = _day_focus(day, plan, rng)
        for item in planted[idx]:
            if item.kind in ("visits", "window"):
                day_focus = _plant(day_focus, day, item)
        focus += day_focus
        visits += _visits(day_focus, rng) + _phone_visits(day, rng)
        afk += _afk_spans(day_focus)
        _write_text(
            notes_dir / f"{day.isoformat()}.md",
            _note(day, script.note, [p for p in planted[idx] if p.kind == "note"]),
        )
        chat += _chat(day, script.chat, [p for p in planted[idx] if p.kind == "chat"], rng)
    _write_chrome(out / CHROME_DB, visits)
    _write_firefox(out / FIREFOX_DB, visits, random.Random(f"{seed}:firefox"))
    export = _aw_export(focus, afk, random.Random(f"{seed}:aw"))
    _write_text(out / AW_EXPORT, json.dumps(export, ensure_ascii=False))
    chat.sort(key=lambda m: m["_ms"])
    for m in chat:
        del m["_ms"]
    _write_text(out / CHAT_LOG, "".join(json.dumps(m, ensure_ascii=False) + "\n" for m in chat))
    _write_text(out / "omoide.toml", _toml())
    log.info(
        "sample written: %d days, %d visits, %d window events, %d chat messages",
        days,
        len(visits),
        len(focus),
        len(chat),
    )
    return first, end
