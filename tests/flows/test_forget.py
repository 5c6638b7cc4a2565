"""`omoide forget` end to end: strings planted on a domain, with a person and on a day are forgotten,
the byte scan of the home finds none of them, and a forced re-collection does not bring them back."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from omoide.core.settings import get_settings
from omoide.forget.cascade import own_files
from omoide.forget.scan import scan_home
from omoide.forget.select import Needle
from omoide.sample import write_sample
from omoide.sample.browsers import CHAIN_END, CHAIN_START, CHROME_EPOCH_US
from tests.fakes import run_cli

DOMAIN = [Needle("clinic-zq.example"), Needle("Zorblax")]
SITE = "justonecookbook.com"  # the sample's recipe site: visits, web and window watchers, digests
PERSON = [Needle("Quillon", word=True), Needle("Vantablue")]
DAY = [Needle("Marblefox")]


def _plant_visit(history: Path, when: datetime) -> None:
    """Chrome History -> one more visit, to a page of a clinic's domain."""
    con = sqlite3.connect(history)
    with con:
        uid = con.execute("SELECT max(id) FROM urls").fetchone()[0] + 1
        vid = con.execute("SELECT max(id) FROM visits").fetchone()[0] + 1
        at = int(when.timestamp() * 1_000_000) + CHROME_EPOCH_US
        url = "https://portal.clinic-zq.example/results?patient=77"
        con.execute(
            "INSERT INTO urls VALUES (?, ?, ?, 1, 0, ?, 0)", (uid, url, "Zorblax test results", at)
        )
        con.execute(
            "INSERT INTO visits (id, url, visit_time, from_visit, transition, segment_id,"
            " visit_duration, incremented_omnibox_typed_score, opener_visit,"
            " originator_cache_guid, originator_visit_id, is_known_to_sync,"
            " consider_for_ntp_most_visited) VALUES (?, ?, ?, 0, ?, 0, ?, 0, 0, NULL, NULL, 1, 1)",
            (vid, uid, at, CHAIN_START | CHAIN_END, 90_000_000),
        )
    con.close()


def _cli(home: Path, *args: str, timeout: int = 900) -> subprocess.CompletedProcess[str]:
    """Home + arguments -> `omoide` run with Prefect's database and results in the home, as a user's are."""
    prefect = home / "prefect"
    return run_cli(
        *args,
        home=home,
        timeout=timeout,
        PREFECT_HOME=str(prefect),
        PREFECT_LOCAL_STORAGE_PATH=str(prefect / "storage"),
    )


def _append(path: Path, text: str) -> None:
    """File + text -> the text appended."""
    with path.open("a", encoding="utf-8") as f:
        f.write(text)


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, date, date]:
    """A two-day sample home with the planted strings, backfilled by the `omoide` command."""
    home = tmp_path_factory.mktemp("forget") / "home"
    first, last = write_sample(home, days=2)
    _plant_visit(home / "sources/chrome/Default/History", datetime(2026, 11, 20, 9, 15, tzinfo=UTC))
    notes = home / "sources/notes"
    _append(notes / f"{last}.md", "\n- 13:00 Lunch with @Quillon about the Vantablue plan\n")
    _append(notes / f"{first}.md", "\n- 15:00 Marblefox offsite planning with the team\n")
    _append(
        home / "sources/chat/chat.jsonl",
        json.dumps(
            {
                "ts": f"{last}T13:30:00+01:00",
                "speaker": "Quillon",
                "text": "The Vantablue plan is on, see you Monday",
                "conversation": "Quillon",
            }
        )
        + "\n",
    )
    r = _cli(home, "backfill", "--start", str(first), "--end", str(last))
    assert r.returncode == 0, r.stderr[-2000:]
    assert (home / "prefect/prefect.db").exists()
    return home, first, last


def _site_pages(home: Path, domain: str) -> list[Needle]:
    """Home -> every title and URL of the domain's pages, read from the person's own browser and ActivityWatch files."""
    con = sqlite3.connect(f"file:{home / 'sources/firefox/places.sqlite'}?mode=ro", uri=True)
    pages = con.execute(
        "SELECT url, title FROM moz_places WHERE url LIKE ?", (f"%{domain}%",)
    ).fetchall()
    con.close()
    export = json.loads((home / "sources/activitywatch/aw-buckets-export.json").read_text())
    for bucket in export["buckets"].values():
        pages += [
            (e["data"].get("url"), e["data"].get("title"))
            for e in bucket["events"]
            if domain in str(e["data"].get("url"))
        ]
    return [Needle(t) for t in sorted({t for page in pages for t in page if t})]


def _hits(home: Path, needles: list[Needle]) -> list[str]:
    """Home + needles -> the files (the person's own sources excepted) still holding one."""
    settings = get_settings(home=home)
    return sorted(
        {str(h.path.relative_to(home)) for h in scan_home(home, needles, own_files(settings))}
    )


def _quoting_keys(home: Path, needle: str) -> set[bytes]:
    """Home + a string -> the embedding-cache keys of the memory texts quoting it."""
    import lancedb

    from omoide.embed.cache import _key
    from omoide.embed.text import embedding_text

    rows = lancedb.connect(home / "lancedb").open_table("memories").to_arrow()
    return {
        _key(embedding_text(k, c))
        for k, c in zip(rows["kind"].to_pylist(), rows["content"].to_pylist(), strict=True)
        if needle.lower() in c.lower()
    }


def _cache_keys(home: Path) -> set[bytes]:
    """Home -> the keys its embedding cache holds."""
    from omoide.embed.cache import CACHE_FILE

    path = home / "cache" / CACHE_FILE
    if not path.exists():
        return set()
    with sqlite3.connect(path) as db:
        return {k for (k,) in db.execute("SELECT key FROM vectors")}


def _forget(home: Path, *selector: str) -> dict:
    """Home + selector options -> the receipt of `omoide forget … --yes --json`."""
    r = _cli(home, "forget", *selector, "--yes", "--json")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.timeout(1500)  # three forgets and a re-collection, each a Prefect run: slow when busy
def test_forget_a_domain_a_person_and_a_day_leaves_no_trace_even_after_recollecting(
    planted: tuple[Path, date, date],
) -> None:
    home, first, last = planted
    assert _hits(home, DOMAIN) and _hits(home, PERSON) and _hits(home, DAY)
    # The week and month pages name the person too: the scans below prove they are rewritten.
    pages = {"vault/memory/weekly/2026-W47.md", "vault/memory/monthly/2026-11.md"}
    assert pages <= set(_hits(home, PERSON))

    before = sorted(p.stat().st_mtime_ns for p in (home / "lake").rglob("*.parquet"))
    preview = _cli(home, "forget", "--domain", "clinic-zq.example", "--dry-run", "--json")
    assert preview.returncode == 0, preview.stderr
    plan = json.loads(preview.stdout)
    assert plan["dry_run"] and plan["records"] >= 1 and plan["days"] == [str(last)]
    assert sorted(p.stat().st_mtime_ns for p in (home / "lake").rglob("*.parquet")) == before

    keys_before = _quoting_keys(home, "Zorblax")
    assert keys_before and keys_before <= _cache_keys(home)
    receipt = _forget(home, "--domain", "clinic-zq.example")
    assert receipt["scan"]["hits"] == [] and receipt["removed"]["lake events"] >= 1
    # The shared embedding cache keeps no vector computed from a forgotten text.
    assert receipt["removed"]["embedding cache vectors"] >= 1
    assert not keys_before & _cache_keys(home)
    assert receipt["removed"]["tombstones added"] >= 2
    assert _hits(home, DOMAIN) == []

    receipt = _forget(home, "--entity", "Quillon")
    assert receipt["scan"]["hits"] == [] and receipt["removed"]["lake events"] >= 2
    # The person's own files are never edited: the receipt says where they still mention it.
    assert any(w.startswith(f"sources/notes/{last}.md#L") for w in receipt["still_in_your_files"])
    assert any(w.startswith("sources/chat/chat.jsonl#L") for w in receipt["still_in_your_files"])
    assert not (home / "vault/bank/entities/quillon.md").exists()
    assert _hits(home, PERSON) == []

    receipt = _forget(home, "--day", str(first))
    assert receipt["scan"]["hits"] == [] and str(first) in receipt["days_remade"]
    assert receipt["prefect_db_vacuumed"]
    assert _hits(home, DAY) == []

    # A real site: its pages are also in the window watcher's titles ("… • Just One Cookbook —
    # Mozilla Firefox"), which carry no URL, in sessions, digests and Prefect's database.
    site = _site_pages(home, SITE)
    assert len(site) >= 6 and _hits(home, site)
    receipt = _forget(home, "--domain", SITE)
    assert receipt["scan"]["hits"] == [] and receipt["scan"]["strings"] >= len(site)
    removed = receipt["removed"]
    assert removed["lake events"] >= 3 * 3  # each page: a visit, a web and a window record
    # rows that held them, not every row of the day made again
    assert 0 < removed["lake sessions"] < 50 and 0 < removed["lake memory rows"] < 50
    assert _hits(home, site) == []

    # The sources still hold all of it: a forced re-collection must not bring any of it back.
    r = _cli(home, "backfill", "--start", str(first), "--end", str(last), "--force")
    assert r.returncode == 0, r.stderr[-2000:]
    assert _hits(home, DOMAIN + PERSON + DAY + site) == []
    tombstones = (home / "state/tombstones.jsonl").read_text(encoding="utf-8")
    assert "clinic" not in tombstones and "Quillon" not in tombstones
    for question in ("Zorblax Vantablue Quillon Marblefox clinic", "just one cookbook dashi"):
        r = _cli(home, "recall", question, "--json")
        assert r.returncode == 0, r.stderr
        found = " ".join(m["content"] for m in json.loads(r.stdout)).lower()
        assert not any(n.text.lower() in found for n in DOMAIN + PERSON + DAY + site)

    # Asked about what was forgotten, omoide says so and when, never "0 min" or another memory.
    asked = {
        f"how long was I on {SITE} last week": SITE,
        "when did I last talk to Quillon": "Quillon",
    }
    for question, what in asked.items():
        r = run_cli("ask", question, "--now", "2026-11-23T10:00", "--json", home=home)
        assert r.returncode == 0, r.stderr[-2000:]
        got = json.loads(r.stdout)
        assert got["answer"].startswith(f"You asked omoide to forget {what} on "), got["answer"]
        assert got["answer"].endswith("; nothing of it is kept.") and "0 min" not in got["answer"]
        assert got["citations"] == [] and got["minutes"] is None and got["basis"] == "tombstones"
