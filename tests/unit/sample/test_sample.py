"""The sample generator writes deterministic, real-format sources for one fictional person."""

from __future__ import annotations

import json
import re
import sqlite3
import tomllib
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from omoide.core.errors import ConfigError
from omoide.core.settings import get_settings
from omoide.sample import content, write_sample

PII_SAMPLES = content().pii_samples
LOOKALIKES = content().lookalikes
INJECTION_TITLE = content().injection_title

BERLIN = ZoneInfo("Europe/Berlin")
CHROME_EPOCH_US = 11_644_473_600_000_000
DAYS = [date(2026, 11, 18), date(2026, 11, 19), date(2026, 11, 20)]
CHROME_VISITS_COLUMNS = [
    "id",
    "url",
    "visit_time",
    "from_visit",
    "external_referrer_url",
    "transition",
    "segment_id",
    "visit_duration",
    "incremented_omnibox_typed_score",
    "opener_visit",
    "originator_cache_guid",
    "originator_visit_id",
    "originator_from_visit",
    "originator_opener_visit",
    "is_known_to_sync",
    "consider_for_ntp_most_visited",
    "visited_link_id",
    "app_id",
]
CHROME_URLS_COLUMNS = [
    "id",
    "url",
    "title",
    "visit_count",
    "typed_count",
    "last_visit_time",
    "hidden",
]
FIREFOX_COLUMNS = {
    "moz_origins": [
        "id",
        "prefix",
        "host",
        "frecency",
        "recalc_frecency",
        "alt_frecency",
        "recalc_alt_frecency",
    ],
    "moz_places": [
        "id",
        "url",
        "title",
        "rev_host",
        "visit_count",
        "hidden",
        "typed",
        "frecency",
        "last_visit_date",
        "guid",
        "foreign_count",
        "url_hash",
        "description",
        "preview_image_url",
        "site_name",
        "origin_id",
        "recalc_frecency",
        "alt_frecency",
        "recalc_alt_frecency",
    ],
    "moz_historyvisits": [
        "id",
        "from_visit",
        "place_id",
        "visit_date",
        "visit_type",
        "session",
        "source",
        "triggeringPlaceId",
    ],
}
RETAIN_LINE = re.compile(r"^- (W|B|S|O\(c=(0(\.\d+)?|1(\.0+)?)\))( @\S+)*(:)? \S")


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """-> a 3-day sample (2026-11-18..20) written once for the module."""
    out = tmp_path_factory.mktemp("sample")
    assert write_sample(out, days=3) == (DAYS[0], DAYS[-1])
    return out


def _db_rows(path: Path) -> dict[str, list[tuple]]:
    """SQLite file -> every table's rows, in rowid order."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in tables}
    finally:
        con.close()


def _columns(con: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in con.execute(f"PRAGMA table_info({table})")]


def _all_text(out: Path) -> str:
    """Sample folder -> all text files and all DB cells joined (to search for planted strings)."""
    parts = []
    for p in sorted(out.rglob("*")):
        if p.suffix in {".json", ".jsonl", ".md", ".toml"}:
            parts.append(p.read_text(encoding="utf-8"))
        elif p.name in {"History", "places.sqlite"}:
            for rows in _db_rows(p).values():
                parts.extend(" ".join(map(str, r)) for r in rows)
    return "\n".join(parts)


def _local_day_us(unix_us: int) -> date:
    return datetime.fromtimestamp(unix_us / 1e6, UTC).astimezone(BERLIN).date()


def test_two_runs_are_identical(sample: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    write_sample(again, days=3)
    files = sorted(p.relative_to(sample) for p in sample.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    for rel in files:
        if rel.name in {"History", "places.sqlite"}:
            assert _db_rows(sample / rel) == _db_rows(again / rel), rel
        else:
            assert (sample / rel).read_bytes() == (again / rel).read_bytes(), rel


def test_other_seed_changes_activity_not_story(tmp_path: Path) -> None:
    write_sample(tmp_path / "a", days=1, seed=1)
    write_sample(tmp_path / "b", days=1, seed=2)
    aw = "sources/activitywatch/aw-buckets-export.json"
    assert (tmp_path / "a" / aw).read_text() != (tmp_path / "b" / aw).read_text()
    note = "sources/notes/2026-11-20.md"
    assert (tmp_path / "a" / note).read_text() == (tmp_path / "b" / note).read_text()


def test_volume_scales_activity_not_story(tmp_path: Path) -> None:
    write_sample(tmp_path / "usual", days=1)
    write_sample(tmp_path / "heavy", days=1, volume=3)
    aw = "sources/activitywatch/aw-buckets-export.json"

    def windows(home: Path) -> int:
        buckets = json.loads((home / aw).read_text())["buckets"].values()
        return sum(len(b["events"]) for b in buckets if b["type"] == "currentwindow")

    assert windows(tmp_path / "heavy") > 2 * windows(tmp_path / "usual")
    note = "sources/notes/2026-11-20.md"
    assert (tmp_path / "usual" / note).read_text() == (tmp_path / "heavy" / note).read_text()
    with pytest.raises(ConfigError, match="volume"):
        write_sample(tmp_path / "bad", days=1, volume=0)


def test_chrome_history_has_the_real_schema_and_consistent_counts(sample: Path) -> None:
    path = sample / "sources/chrome/Default/History"
    assert not Path(f"{path}-wal").exists() and not Path(f"{path}-journal").exists()
    con = sqlite3.connect(path)
    assert _columns(con, "visits") == CHROME_VISITS_COLUMNS
    assert _columns(con, "urls") == CHROME_URLS_COLUMNS
    for table in ("meta", "visit_source", "keyword_search_terms"):
        assert _columns(con, table)
    meta = dict(con.execute("SELECT key, value FROM meta"))
    assert meta["last_compatible_version"] == "16" and int(meta["version"]) >= 36
    bad = con.execute(
        "SELECT count(*) FROM urls u WHERE visit_count != (SELECT count(*) FROM visits v"
        " WHERE v.url = u.id) OR last_visit_time != (SELECT max(visit_time) FROM visits v"
        " WHERE v.url = u.id)"
    ).fetchone()[0]
    assert bad == 0
    transitions = [t for (t,) in con.execute("SELECT transition FROM visits")]
    assert {t & 0xFF for t in transitions} <= {0, 1, 5, 7, 8}
    assert {0, 1} <= {t & 0xFF for t in transitions}
    assert all(t & 0x30000000 == 0x30000000 for t in transitions)
    assert con.execute("SELECT count(*) FROM visits WHERE visit_duration > 0").fetchone()[0] > 100
    assert con.execute("SELECT count(*) FROM visit_source").fetchone()[0] > 0
    assert con.execute("SELECT count(*) FROM keyword_search_terms").fetchone()[0] > 0
    con.close()


def test_firefox_places_has_the_real_schema(sample: Path) -> None:
    con = sqlite3.connect(sample / "sources/firefox/places.sqlite")
    for table, cols in FIREFOX_COLUMNS.items():
        assert _columns(con, table) == cols
    rows = con.execute("SELECT url, rev_host, guid, origin_id FROM moz_places").fetchall()
    origins = {i: (p, h) for i, p, h in con.execute("SELECT id, prefix, host FROM moz_origins")}
    for url, rev_host, guid, origin_id in rows:
        host = url.split("/")[2].rpartition("@")[2].split(":")[0]
        assert rev_host == host[::-1] + "."
        assert len(guid) == 12
        assert url.startswith(origins[origin_id][0] + origins[origin_id][1])
    assert "gro.aidepikiw.ne." in {r[1] for r in rows}
    types = {t for (t,) in con.execute("SELECT visit_type FROM moz_historyvisits")}
    assert {1, 2} <= types
    orphans = con.execute(
        "SELECT count(*) FROM moz_historyvisits v LEFT JOIN moz_places p ON p.id = v.place_id"
        " WHERE p.id IS NULL"
    ).fetchone()[0]
    assert orphans == 0
    con.close()


def test_visits_fall_in_the_requested_local_days(sample: Path) -> None:
    chrome = sqlite3.connect(sample / "sources/chrome/Default/History")
    firefox = sqlite3.connect(sample / "sources/firefox/places.sqlite")
    times = [t - CHROME_EPOCH_US for (t,) in chrome.execute("SELECT visit_time FROM visits")]
    times += [t for (t,) in firefox.execute("SELECT visit_date FROM moz_historyvisits")]
    per_day = Counter(_local_day_us(t) for t in times)
    assert set(per_day) == set(DAYS)
    assert all(150 <= n <= 400 for n in per_day.values()), per_day
    # Some activity just after local midnight lies on the previous UTC day.
    late = [t for t in times if datetime.fromtimestamp(t / 1e6, UTC).astimezone(BERLIN).hour == 0]
    assert late
    assert all(_local_day_us(t) != datetime.fromtimestamp(t / 1e6, UTC).date() for t in late)


def test_activitywatch_export_is_keyed_by_bucket_id(sample: Path) -> None:
    export = json.loads((sample / "sources/activitywatch/aw-buckets-export.json").read_text())
    buckets = export["buckets"]
    assert isinstance(buckets, dict)
    assert all(b["id"] == key for key, b in buckets.items())
    types = {b["type"] for b in buckets.values()}
    assert types == {"currentwindow", "afkstatus", "web.tab.current"}
    for b in buckets.values():
        starts = [datetime.fromisoformat(e["timestamp"]) for e in b["events"]]
        assert starts == sorted(starts)
        for e, nxt in zip(b["events"], starts[1:], strict=False):
            end = datetime.fromisoformat(e["timestamp"]) + timedelta(seconds=e["duration"])
            assert end <= nxt + timedelta(microseconds=1)
    window = buckets["aw-watcher-window_kaze"]["events"]
    per_day = Counter(
        datetime.fromisoformat(e["timestamp"]).astimezone(BERLIN).date() for e in window
    )
    assert all(300 <= n <= 800 for n in per_day.values()), per_day
    assert sum(1 <= e["duration"] <= 5 for e in window) > 100
    assert {"Code", "Slack", "kitty", "zoom", "obsidian"} <= {e["data"]["app"] for e in window}
    afk = {e["data"]["status"] for e in buckets["aw-watcher-afk_kaze"]["events"]}
    assert afk == {"afk", "not-afk"}
    web = buckets["aw-watcher-web-chrome_kaze"]["events"][0]["data"]
    assert set(web) == {"url", "title", "audible", "incognito", "tabCount"}


def test_notes_have_a_retain_section(sample: Path) -> None:
    notes = sorted((sample / "sources/notes").glob("*.md"))
    assert [n.stem for n in notes] == [d.isoformat() for d in DAYS]
    for note in notes:
        lines = note.read_text(encoding="utf-8").splitlines()
        retain = lines[lines.index("## Retain") + 1 :]
        assert retain and all(RETAIN_LINE.match(line) for line in retain), note.name
        assert 8 <= sum(1 for line in lines if line.strip()) <= 30
    text = "".join(n.read_text(encoding="utf-8") for n in notes)
    assert re.search(r"^- \d\d:\d\d .*@\w+", text, re.M)
    assert re.search(r"[\u3040-\u30ff]", text)
    assert text.count("---\n") >= 2


def test_chat_is_jsonl_with_offsets(sample: Path) -> None:
    lines = (sample / "sources/chat/chat.jsonl").read_text(encoding="utf-8").splitlines()
    msgs = [json.loads(line) for line in lines]
    assert all(set(m) == {"ts", "speaker", "text", "conversation"} for m in msgs)
    stamps = [datetime.fromisoformat(m["ts"]) for m in msgs]
    assert all(s.utcoffset() == timedelta(hours=1) for s in stamps)
    assert stamps == sorted(stamps)
    assert {m["conversation"] for m in msgs} == {"Peter", "assistant"}
    per_day = Counter(s.date() for s in stamps)
    assert set(per_day) == set(DAYS) and all(5 <= n <= 30 for n in per_day.values())


def test_settings_load_the_sample_home(sample: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key in [k for k in __import__("os").environ if k.startswith("OMOIDE_")]:
        monkeypatch.delenv(key)
    raw = tomllib.loads((sample / "omoide.toml").read_text(encoding="utf-8"))
    assert all(not Path(s["path"]).is_absolute() for s in raw["sources"])
    settings = get_settings(home=sample)
    assert settings.timezone == "Europe/Berlin"
    assert settings.excluded_domains == ["bank.example"]
    assert sorted(s.kind for s in settings.sources) == sorted(
        ["chrome", "firefox", "activitywatch", "notes", "chat"]
    )
    assert all(s.path is not None and s.path.exists() for s in settings.sources)
    assert all(s.path.is_relative_to(sample.resolve()) for s in settings.sources if s.path)


def test_planted_strings_occur_in_the_sources(sample: Path) -> None:
    text = _all_text(sample)
    for planted in (*PII_SAMPLES, *LOOKALIKES, INJECTION_TITLE, "https://bank.example/"):
        assert planted in text, planted


@pytest.mark.parametrize("days", [1, 2])
def test_short_samples_still_hold_every_planted_string(tmp_path: Path, days: int) -> None:
    first, last = write_sample(tmp_path, days=days, end=date(2026, 11, 15))
    assert (first, last) == (date(2026, 11, 16 - days), date(2026, 11, 15))
    text = _all_text(tmp_path)
    assert all(p in text for p in (*PII_SAMPLES, INJECTION_TITLE))


def test_rewriting_a_folder_drops_stale_days(tmp_path: Path) -> None:
    write_sample(tmp_path, days=4)
    write_sample(tmp_path, days=2)
    assert sorted(p.stem for p in (tmp_path / "sources/notes").glob("*.md")) == [
        "2026-11-19",
        "2026-11-20",
    ]


def test_zero_days_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        write_sample(tmp_path, days=0)


def test_default_week_has_a_plausible_volume_every_day(tmp_path: Path) -> None:
    first, last = write_sample(tmp_path)
    assert (first, last) == (date(2026, 11, 14), date(2026, 11, 20))
    chrome = sqlite3.connect(tmp_path / "sources/chrome/Default/History")
    firefox = sqlite3.connect(tmp_path / "sources/firefox/places.sqlite")
    times = [t - CHROME_EPOCH_US for (t,) in chrome.execute("SELECT visit_time FROM visits")]
    times += [t for (t,) in firefox.execute("SELECT visit_date FROM moz_historyvisits")]
    per_day = Counter(_local_day_us(t) for t in times)
    week = [first + timedelta(days=i) for i in range(7)]
    assert sorted(per_day) == week
    assert all(150 <= n <= 400 for n in per_day.values()), per_day
    notes = {
        p.stem: p.read_text(encoding="utf-8") for p in (tmp_path / "sources/notes").glob("*.md")
    }
    assert len(set(notes.values())) == 7
    assert "## Retain" in notes["2026-11-14"] and "Saturday" in notes["2026-11-14"]
