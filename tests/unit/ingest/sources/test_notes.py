"""Markdown daily notes collector: blocks, Retain facts, times, day choice, bad bytes."""

from __future__ import annotations

import functools
import math
import shutil
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.core.errors import SourceError
from omoide.core.ids import stable_id
from omoide.ingest.sources.notes import collect, note_day
from tests.conftest import FIXTURES
from tests.fakes import source_config

VAULT = FIXTURES / "notes" / "vault"
NOTE = VAULT / "memory" / "2026-11-20.md"
NOW = datetime(2026, 11, 21, 3, 0, tzinfo=UTC)
TZ = "Europe/Berlin"
START, END = day_bounds(date(2026, 11, 20), TZ)


_source = functools.partial(source_config, "notes", name="vault")


def _by_line(df: pd.DataFrame, path: Path = NOTE) -> dict[int, dict[str, Any]]:
    """Events of one file -> {line number: row dict}."""
    rows = df[df["source_ref"].str.startswith(f"{path}#L")]
    return {int(r["source_ref"].rsplit("#L", 1)[1]): r for r in rows.to_dict("records")}


def _local(ts: pd.Timestamp) -> str:
    """UTC timestamp -> Berlin wall-clock 'YYYY-MM-DD HH:MM'."""
    return ts.tz_convert(TZ).strftime("%Y-%m-%d %H:%M")


def test_realistic_note_becomes_note_events() -> None:
    out = collect(_source(VAULT), START, END, NOW)
    assert list(out.events.columns) == schemas.EVENTS.names
    schemas.to_table(out.events, schemas.EVENTS)
    rows = _by_line(out.events)
    notes = {n: r for n, r in rows.items() if r["event_type"] == "note"}
    # Front matter (L1-4) and headings (L5, 9, 17, 29, 34) are not events.
    assert sorted(notes) == [7, 11, 12, 13, 14, 15, 19, 21, 24, 31, 32, 42]
    got = {
        n: (_local(r["ts"]), r["title"], r["text"], list(r["entities"])) for n, r in notes.items()
    }
    midnight = "2026-11-20 00:00"
    day, work, meet = (
        "Friday 2026-11-20",
        "Friday 2026-11-20 > Work",
        "Friday 2026-11-20 > Work > Meetings",
    )
    assert got[7] == (midnight, day, "Slow start; the train was late again.", [])
    assert got[11] == ("2026-11-20 09:30", work, "standup with @Peter and @Anna", ["Peter", "Anna"])
    assert got[12] == ("2026-11-20 14:00", work, "reviewed the ActivityWatch collector", [])
    assert got[13] == (midnight, work, "heartbeats extend events in place", [])
    assert got[14] == (midnight, work, "asked @warelay about the export format", ["warelay"])
    assert got[19] == ("2026-11-20 16:15", meet, "1:1 with @Peter about the Q1 plan", ["Peter"])
    assert got[21] == (midnight, meet, "A paragraph spanning\ntwo lines about the plan.", [])
    assert got[24] == (midnight, meet, "@dataclass\nclass Plan: ...", [])  # code: no entities
    assert got[31] == (
        midnight,
        "Friday 2026-11-20 > 日本語",
        "今日は @田中 さんと打ち合わせをした。",
        ["田中"],
    )
    assert got[32] == ("2026-11-20 23:45", "Friday 2026-11-20 > 日本語", "寝る前に日記を書いた", [])
    assert got[42][2] == "just a loose thought"  # no `K ...` head: stays a note
    assert set(out.events["source"]) == {"notes"}
    assert (out.events["recorded_at"] == pd.Timestamp(NOW)).all()


def test_retain_section_gives_typed_facts_and_rejects_bad_confidence() -> None:
    out = collect(_source(VAULT), START, END, NOW)
    rows = _by_line(out.events)
    facts = {
        n: (r["fact_kind"], r["confidence"], r["text"], list(r["entities"]))
        for n, r in rows.items()
        if r["event_type"] == "retain"
    }
    assert facts.keys() == {36, 37, 38, 39, 41}
    assert facts[36][0] == "W" and math.isnan(facts[36][1])
    assert facts[36][2:] == ("prefers async standups", ["Peter"])
    assert facts[37][0] == "B" and facts[37][2:] == (
        "we shipped the collector together",
        ["warelay"],
    )
    assert facts[38] == ("O", 0.9, "the export format is stable", ["warelay"])
    assert facts[39][0] == "S" and facts[39][2:] == ("quiet, productive day", [])
    assert facts[41][2:] == (
        "both live in Berlin, near @Tempelhof",
        ["Peter", "Anna", "Tempelhof"],
    )
    assert [(r.ref, r.reason, r.excerpt) for r in out.rejects] == [
        (f"{NOTE}#L40", "confidence '1.5' is not a number in [0, 1]", "")
    ]


def test_folder_search_is_recursive_and_reads_only_that_day() -> None:
    out = collect(_source(VAULT), START, END, NOW)
    files = {ref.split("#")[0] for ref in out.events["source_ref"]}
    assert files == {str(NOTE), str(VAULT / "journal" / "2026-11-20.md")}
    walk = out.events[out.events["source_ref"] == f"{VAULT / 'journal' / '2026-11-20.md'}#L1"]
    assert walk["text"].tolist() == ["Evening walk along the river with @Anna."]
    prev = collect(_source(VAULT), *day_bounds(date(2026, 11, 19), TZ), NOW).events
    assert [(_local(t), x) for t, x in zip(prev["ts"], prev["text"], strict=True)] == [
        ("2026-11-19 22:00", "finished the Chrome collector")
    ]


@pytest.mark.parametrize(
    "tz",
    [
        "UTC",
        "Europe/Berlin",
        "America/Los_Angeles",
        "Pacific/Honolulu",
        "Asia/Tokyo",
        "Asia/Kolkata",
        "Pacific/Auckland",
        "Pacific/Tongatapu",
        "America/St_Johns",
    ],
)
def test_day_of_window_for_many_zones(tz: str) -> None:
    for day in (date(2026, 1, 15), date(2026, 7, 15), date(2026, 3, 29), date(2026, 10, 25)):
        start, _ = day_bounds(day, tz)
        assert note_day(start) == day


def test_dst_day_times_follow_the_wall_clock(tmp_path: Path) -> None:
    # 2026-10-25: Berlin goes from CEST (+2) back to CET (+1) at 03:00, a 25-hour day.
    (tmp_path / "2026-10-25.md").write_text("- 01:30 still awake\n- 09:00 late breakfast\n")
    start, end = day_bounds(date(2026, 10, 25), TZ)
    ev = collect(_source(tmp_path / "2026-10-25.md"), start, end, NOW).events
    assert [_local(t) for t in ev["ts"]] == ["2026-10-25 01:30", "2026-10-25 09:00"]


def test_ids_survive_edits_above_and_tell_repeats_apart(tmp_path: Path) -> None:
    note = tmp_path / "2026-11-20.md"
    note.write_text("- tea\n- coffee\n- tea\n")
    first = collect(_source(tmp_path), START, END, NOW).events
    note.write_text("# Morning\n\nWoke up early.\n\n- tea\n- coffee\n- tea\n")
    second = collect(_source(tmp_path), START, END, NOW).events
    ids1 = dict(
        zip(first["source_ref"].str.rsplit("#", n=1).str[1], first["event_id"], strict=True)
    )
    ids2 = dict(
        zip(second["source_ref"].str.rsplit("#", n=1).str[1], second["event_id"], strict=True)
    )
    assert [ids1["L1"], ids1["L2"], ids1["L3"]] == [ids2["L5"], ids2["L6"], ids2["L7"]]
    assert ids1["L1"] != ids1["L3"]
    assert ids1["L1"] == stable_id("notes", "vault", "2026-11-20.md", "tea", 0)


def test_single_file_sources(tmp_path: Path) -> None:
    other_day = tmp_path / "2026-11-19.md"
    shutil.copy(VAULT / "memory" / "2026-11-19.md", other_day)
    assert collect(_source(other_day), START, END, NOW).events.empty
    loose = tmp_path / "ideas.md"
    loose.write_text("- an idea\n")
    with pytest.raises(SourceError, match="must be named YYYY-MM-DD.md"):
        collect(_source(loose), START, END, NOW)
    with pytest.raises(SourceError, match="no such notes"):
        collect(_source(tmp_path / "missing"), START, END, NOW)


def test_day_without_a_note_is_empty(tmp_path: Path) -> None:
    (tmp_path / "2026-11-18.md").write_text("- another day\n")
    out = collect(_source(tmp_path), START, END, NOW)
    assert out.events.empty and out.rejects == []
    assert list(out.events.columns) == schemas.EVENTS.names


def test_folder_without_any_daily_note_is_named(tmp_path: Path) -> None:
    # Notes named another way ("Friday.md") or the wrong folder: said, not read as nothing.
    (tmp_path / "Friday.md").write_text("- a note\n")
    with pytest.raises(SourceError, match=r"no daily note \(YYYY-MM-DD.md\) in this folder") as err:
        collect(_source(tmp_path), START, END, NOW)
    assert err.value.path == str(tmp_path)


def test_retain_line_forms(tmp_path: Path) -> None:
    note = tmp_path / "2026-11-20.md"
    note.write_text(
        "## Retain\n"
        "- W @Peter likes green tea\n"
        "- O: remote work suits me\n"
        "- O( c = 0 ) @Anna: never late\n"
        "- W(c=0.5) @Peter: confident world fact\n"
        "- O(c=high) @Peter: vague\n"
        "- B @Peter:\n"
        "- Sometimes I forget things\n"
        "\n"
        "## Later\n"
        "- W @Peter: not under Retain any more\n"
    )
    out = collect(_source(note), START, END, NOW)
    rows = _by_line(out.events, note)
    got = {
        n: (r["event_type"], r["fact_kind"], r["confidence"], r["text"], list(r["entities"]))
        for n, r in rows.items()
    }
    assert got[2][:2] == ("retain", "W") and got[2][3:] == ("@Peter likes green tea", ["Peter"])
    assert got[3][:2] == ("retain", "O") and math.isnan(got[3][2])
    assert got[3][3:] == ("remote work suits me", [])
    assert got[4] == ("retain", "O", 0.0, "never late", ["Anna"])
    assert got[8][0] == "note" and got[8][3] == "Sometimes I forget things"
    assert got[11][0] == "note" and got[11][4] == ["Peter"]
    assert [(r.ref, r.reason) for r in out.rejects] == [
        (f"{note}#L5", "confidence given on a W line (only O lines carry one)"),
        (f"{note}#L6", "confidence 'high' is not a number in [0, 1]"),
        (f"{note}#L7", "retain item without a statement"),
    ]


def test_hidden_folders_like_obsidian_trash_are_skipped(tmp_path: Path) -> None:
    (tmp_path / ".trash").mkdir()
    (tmp_path / ".trash" / "2026-11-20.md").write_text("- deleted thought\n")
    (tmp_path / "daily").mkdir()
    (tmp_path / "daily" / "2026-11-20.md").write_text("- kept thought\n")
    out = collect(_source(tmp_path), START, END, NOW)
    assert out.events["text"].tolist() == ["kept thought"]
    assert out.events["source_ref"].tolist() == [f"{tmp_path / 'daily' / '2026-11-20.md'}#L1"]


# --- encodings, binary files and paths that are not files (shared logic: text_files) -------


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be-bom", "utf-32"])
def test_utf16_and_utf32_notes_with_a_bom_read_as_utf8(tmp_path: Path, codec: str) -> None:
    import codecs

    text = NOTE.read_text(encoding="utf-8")
    raw = (
        codecs.BOM_UTF16_BE + text.encode("utf-16-be")
        if codec == "utf-16-be-bom"
        else text.encode(codec)
    )
    (tmp_path / "2026-11-20.md").write_bytes(raw)
    (tmp_path / "plain").mkdir()
    shutil.copy(NOTE, tmp_path / "plain" / "2026-11-20.md")
    got = collect(_source(tmp_path / "2026-11-20.md"), START, END, NOW)
    want = collect(_source(tmp_path / "plain" / "2026-11-20.md"), START, END, NOW)
    assert [(r.ref.rsplit("#")[1], r.reason) for r in got.rejects] == [
        (r.ref.rsplit("#")[1], r.reason) for r in want.rejects
    ]
    assert list(got.events["text"]) == list(want.events["text"])
    assert "\ufffd" not in " ".join(got.events["text"])


def test_a_database_where_the_note_should_be_is_one_reject(tmp_path: Path) -> None:
    import sqlite3

    note = tmp_path / "2026-11-20.md"
    db = sqlite3.connect(note)
    db.executescript("CREATE TABLE tags(name TEXT); INSERT INTO tags VALUES ('tags');")
    db.commit()
    db.close()
    out = collect(_source(tmp_path), START, END, NOW)
    assert out.events.empty
    assert [(r.ref, r.reason) for r in out.rejects] == [
        (str(note), "the day's note: not text: an SQLite database")
    ]


def test_utf16_without_a_bom_is_refused_not_stored_as_garbage(tmp_path: Path) -> None:
    note = tmp_path / "2026-11-20.md"
    note.write_bytes(NOTE.read_text(encoding="utf-8").encode("utf-16-le"))
    out = collect(_source(tmp_path), START, END, NOW)
    assert out.events.empty
    assert [r.ref for r in out.rejects] == [str(note)]
    assert out.rejects[0].reason.startswith("the day's note: not text: ")


def test_nul_blocks_are_rejected_by_line_and_the_text_before_them_kept(tmp_path: Path) -> None:
    note = tmp_path / "2026-11-20.md"
    note.write_bytes(b"- the trip to Kyoto\n" + bytes(4096))  # what a crash can leave
    out = collect(_source(tmp_path), START, END, NOW)
    assert list(out.events["text"]) == ["the trip to Kyoto"]
    assert [(r.ref, r.reason) for r in out.rejects] == [
        (f"{note}#L2", "not text: mostly control or replacement characters")
    ]
    only_nul = tmp_path / "nul" / "2026-11-20.md"
    only_nul.parent.mkdir()
    only_nul.write_bytes(bytes(300))
    out = collect(_source(only_nul.parent), START, END, NOW)
    assert out.events.empty and [r.ref for r in out.rejects] == [f"{only_nul}#L1"]


@pytest.mark.parametrize("kind", ["dangling", "loop", "nested-dangling", "folder", "fifo"])
def test_a_day_note_that_is_not_a_file_is_named(tmp_path: Path, kind: str) -> None:
    import os

    (tmp_path / "2026-11-19.md").write_text("- yesterday\n")
    where = tmp_path / "Daily" if kind == "nested-dangling" else tmp_path
    where.mkdir(exist_ok=True)
    note = where / "2026-11-20.md"
    if kind in ("dangling", "nested-dangling"):
        note.symlink_to(where / "moved.md")
    elif kind == "loop":
        note.symlink_to(note)
    elif kind == "folder":
        note.mkdir()
    else:
        os.mkfifo(note)
    out = collect(_source(tmp_path), START, END, NOW)
    assert out.events.empty
    assert [r.ref for r in out.rejects] == [str(note)]
    assert out.rejects[0].reason.startswith("the day's note: ")
