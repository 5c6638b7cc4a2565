"""Browser visits -> real Chrome `History` and Firefox `places.sqlite` databases (current schemas)."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from urllib.parse import urlsplit

from omoide.sample.content import content
from omoide.sample.desk import Focus, local_ms

CHROME_EPOCH_US = 11_644_473_600_000_000  # µs between 1601-01-01 and 1970-01-01
CHAIN_START, CHAIN_END, FROM_ADDRESS_BAR = 0x10000000, 0x20000000, 0x02000000
CHROME_CORE = {"link": 0, "typed": 1, "generated": 5, "form_submit": 7, "reload": 8}
FIREFOX_TYPE = {"link": 1, "typed": 2, "generated": 2, "form_submit": 1, "reload": 9}


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


def focus_visits(focus: list[Focus], rng: random.Random) -> list[Visit]:
    """Focus events -> the browser visits they began (a page loads just before its title shows)."""
    out = []
    for f in focus:
        if f.visit is None or f.browser is None or f.url is None:
            continue
        ts = (f.start_ms - rng.randint(80, 900)) * 1000 + rng.randint(0, 999)
        out.append(Visit(f.browser, ts, f.url, f.page, f.visit, f.dur_ms * 1000))
    return out


def phone_visits(day: date, rng: random.Random) -> list[Visit]:
    """Day -> a few Chrome visits synced from the phone (morning commute reading)."""
    browser_pages = [p for t in ("kyoto", "news", "japanese") for p in content().pages[t][1]]
    start = local_ms(day, "07:10")
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


def write_chrome(path: Path, visits: list[Visit]) -> None:
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


def write_firefox(path: Path, visits: list[Visit], rng: random.Random) -> None:
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
