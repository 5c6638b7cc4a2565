"""A 30-day sample reads like a month: each day its own, each event on its own day or days."""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pandas as pd

from omoide.core.days import day_bounds, zone
from omoide.core.settings import get_settings
from omoide.ingest.sources import collect
from omoide.sample import write_sample
from tests.fakes import run_cli

Month = tuple[Path, dict[str, Any]]
REPO_SAMPLE = Path(__file__).resolve().parents[3] / "data" / "sample"
LAST_THREE = ("2026-11-18", "2026-11-19", "2026-11-20")
KANA_OR_KANJI = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _notes(home: Path) -> dict[str, str]:
    """Sample home -> its notes by day."""
    return {
        p.stem: p.read_text(encoding="utf-8") for p in sorted((home / "sources/notes").glob("*.md"))
    }


def _chat(home: Path) -> list[dict[str, str]]:
    """Sample home -> its chat messages."""
    text = (home / "sources/chat/chat.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def _days_saying(notes: dict[str, str], words: str) -> list[str]:
    """Notes by day + words -> the days whose note holds them."""
    return [day for day, text in notes.items() if words in text]


def _log(text: str) -> set[str]:
    """A note -> its timed lines, times left out."""
    return {line[8:] for line in text.splitlines() if re.match(r"- \d\d:\d\d ", line)}


def test_every_day_of_the_month_is_its_own(month: Month) -> None:
    home, _ = month
    notes, chat = _notes(home), _chat(home)
    assert len(notes) == 30 and len(set(notes.values())) == 30
    said = {day: {m["text"] for m in chat if m["ts"].startswith(day)} for day in notes}
    for day in notes:
        week_before = (date.fromisoformat(day) - timedelta(days=7)).isoformat()
        if week_before in notes:
            # The same weekday a week apart: other things logged (a weekly review may recur),
            # other things said.
            assert len(_log(notes[day]) & _log(notes[week_before])) <= 1, day
            assert not said[day] & said[week_before], day
    assert all(said.values())


def test_one_time_events_are_written_once_on_their_day(month: Month) -> None:
    notes = _notes(month[0])
    once = {
        "First try at dashi": "2026-11-02",
        "Booked the ryokan in Higashiyama": "2026-11-19",
        "Dentist, Dr. Weber: check-up": "2026-11-19",
        "@Peter announced that he moved to the platform team": "2026-11-20",
        "Mina moved to Berlin": "2026-11-20",
        "Helped @Peter move his boxes": "2026-10-31",
        "Birthday dinner for @Peter": "2026-11-14",
    }
    for words, day in once.items():
        assert _days_saying(notes, words) == [day], words


def test_five_runs_on_five_days(month: Month) -> None:
    home, script = month
    runs = [
        (day, line)
        for day, text in _notes(home).items()
        for line in text.splitlines()
        if re.match(r"- \d\d:\d\d (Ran|Long run) ", line)
    ]
    days = [day for day, _ in runs]
    assert len(runs) == 5 and len(set(days)) == 5
    assert script["tallies"]["run"]["days"] == days


def test_the_first_dashi_once_and_oyakodon_twice(month: Month) -> None:
    notes = _notes(month[0])
    assert _days_saying(notes, "dashi: kombu and katsuobushi") == ["2026-11-02"]
    assert _days_saying(notes, "初めて出汁を作った") == ["2026-11-02"]
    cooked = [d for d, t in notes.items() if re.search(r"^- \d\d:\d\d Cooked oyakodon", t, re.M)]
    assert cooked == ["2026-11-06", "2026-11-20"]


def test_the_ryokan_is_booked_one_evening_at_a_clock_time(month: Month) -> None:
    notes = _notes(month[0])
    lines = [
        (day, line)
        for day, t in notes.items()
        for line in t.splitlines()
        if "Booked the ryokan" in line
    ]
    assert lines == [("2026-11-19", "- 20:15 Booked the ryokan in Higashiyama for 3–7 April 2027")]


def test_promises_are_in_the_persons_own_words_and_kept_later(month: Month) -> None:
    home, _ = month
    mine = [m for m in _chat(home) if m["speaker"] == "Aiko"]
    for words, to, day in (
        ("I'll help you move the boxes on Saturday", "Peter", "2026-10-25"),
        ("明日資料を送るね", "Mina", "2026-11-09"),
        ("Let me book the table", "Peter", "2026-11-10"),
    ):
        found = [m for m in mine if words in m["text"]]
        assert [(m["conversation"], m["ts"][:10]) for m in found] == [(to, day)], words
    notes = _notes(home)
    assert _days_saying(notes, "I will send Mina the benchmark by Friday") == ["2026-11-02"]
    # Kept later, in the days named.
    assert _days_saying(notes, "Helped @Peter move his boxes") == ["2026-10-31"]
    assert _days_saying(notes, "Sent @Mina the benchmark") == ["2026-11-05"]
    assert _days_saying(notes, "Sent @Mina the slides") == ["2026-11-10"]
    assert _days_saying(notes, "Booked the table at Izakaya Tori") == ["2026-11-11"]


def test_facts_change_once_on_their_day(month: Month) -> None:
    notes = _notes(month[0])
    hamburg = _days_saying(notes, "Mina lives in Hamburg")
    berlin = _days_saying(notes, "Mina moved to Berlin")
    assert hamburg == ["2026-10-23", "2026-11-19"] and berlin == ["2026-11-20"]
    payments = _days_saying(notes, "Peter works on the payments team")
    assert payments == ["2026-10-23", "2026-11-12", "2026-11-19"]
    assert _days_saying(notes, "Peter moved to the platform team") == ["2026-11-20"]
    assert "W @Mina: Mina leads the warelay storage migration." in notes["2026-10-28"]


def test_who_said_what_and_some_of_it_in_japanese(month: Month) -> None:
    home, _ = month
    chat = _chat(home)
    quieter = [m for m in chat if m["text"] == "Higashiyama, quieter. Go to sleep!"]
    assert [(m["speaker"], m["ts"][:13]) for m in quieter] == [("Peter", "2026-11-18T00")]
    assert {m["conversation"] for m in chat} == {"Peter", "Mina", "assistant"}
    japanese = [m for m in chat if KANA_OR_KANJI.search(m["text"])]
    assert {m["speaker"] for m in japanese} == {"Aiko", "Mina"} and len(japanese) >= 8
    notes = _notes(home)
    assert len([d for d, t in notes.items() if KANA_OR_KANJI.search(t)]) >= 12
    assert notes["2026-10-25"].startswith("# 日曜日、2026年10月25日")


def test_the_last_three_days_are_those_of_the_short_sample(month: Month, tmp_path: Path) -> None:
    home, _ = month
    write_sample(tmp_path, days=3, volume=0.25)  # the month's volume: chat seconds follow it
    for day in LAST_THREE:
        note = f"sources/notes/{day}.md"
        assert (home / note).read_bytes() == (tmp_path / note).read_bytes(), day
    assert [m for m in _chat(home) if m["ts"][:10] in LAST_THREE] == _chat(tmp_path)


def _db_rows(path: Path) -> dict[str, list[tuple]]:
    """SQLite file -> every table's rows, in rowid order."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in tables}
    finally:
        con.close()


def test_the_default_three_days_are_the_repositorys_sample(tmp_path: Path) -> None:
    """The README and many tests quote data/sample: writing three days must give it again."""
    write_sample(tmp_path, days=3)
    files = sorted(p.relative_to(REPO_SAMPLE) for p in REPO_SAMPLE.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    for rel in files:
        if rel.name in {"History", "places.sqlite"}:
            assert _db_rows(tmp_path / rel) == _db_rows(REPO_SAMPLE / rel), rel
        else:
            assert (tmp_path / rel).read_bytes() == (REPO_SAMPLE / rel).read_bytes(), rel


def _refs(events: pd.DataFrame, home: Path, tz: str) -> dict[str, datetime]:
    """Collected events + home + timezone -> each event's source line (relative) and local time."""
    local = (ts.astimezone(zone(tz)) for ts in events["ts"])
    refs = (Path(r).relative_to(home).as_posix() for r in events["source_ref"])
    return dict(zip(refs, local, strict=True))


def test_omoide_collects_every_day_of_the_month_as_written(month: Month) -> None:
    """What `omoide backfill` reads first, each day: every source, nothing rejected, each note line and message on its day."""
    home, script = month
    settings = get_settings(home=home)
    now = datetime(2026, 11, 21, 12, tzinfo=UTC)
    for listed in script["days"]:
        day = date.fromisoformat(listed["day"])
        start, end = day_bounds(day, settings.timezone)
        got = {s.kind: collect(s, start, end, now) for s in settings.sources}
        assert {k: len(c.rejects) for k, c in got.items()} == dict.fromkeys(got, 0), day
        assert all(len(c.events) for c in got.values()), day
        notes = _refs(got["notes"].events, home, settings.timezone)
        timed = {x["source"]: x["time"] for x in listed["note"] if x["time"]}
        assert {s: t.strftime("%H:%M") for s, t in notes.items() if s in timed} == timed, day
        assert set(notes) <= {x["source"] for x in listed["note"]}, day
        chat = _refs(got["chat"].events, home, settings.timezone)
        assert {s: t.strftime("%H:%M:%S") for s, t in chat.items()} == {
            x["source"]: x["time"] for x in listed["chat"]
        }, day


def test_omoide_backfills_the_month_s_days_as_written(tmp_path: Path) -> None:
    """The command on the month's sources (as light as `bench backfill`'s test): the weekend the clocks go back."""
    write_sample(tmp_path, days=30, volume=0.25)
    days = ("--start", "2026-10-24", "--end", "2026-10-25")
    r = run_cli("backfill", *days, "--json", home=tmp_path, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    figures = json.loads(r.stdout)
    assert list(figures) == ["2026-10-24", "2026-10-25"]
    assert all(f["ok"] and f["quarantined"] == 0 and f["facts"] for f in figures.values())
    vault = (tmp_path / "vault/memory/2026-10-25.md").read_text(encoding="utf-8")
    assert "Friedrichshain" in vault
