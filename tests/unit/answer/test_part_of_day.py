"""Part of a day: what was open (ActivityWatch's arithmetic, overlaps once), written and said in a window of hours, each cited; nothing recorded said so."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pandas as pd

from omoide.answer.part_of_day import hours_text, part_of_day_answer
from omoide.core.days import zone
from tests.unit.answer.person_days import NOW, TZ, WEDNESDAY, Asked, build, utc, window


def _asked(lang: str, start: str, end: str) -> Asked:
    """A part-of-day question of Wednesday's hours."""
    return Asked("the afternoon", "part_of_day", window(WEDNESDAY, start, end), "", lang=lang)


def test_an_afternoon_says_what_was_open_written_and_said_each_cited(omoide_home: Path) -> None:
    settings = build(omoide_home)
    got = part_of_day_answer(_asked("en", "12:00", "18:00"), settings, NOW)
    assert got.kind == "part_of_day" and got.basis == "lake"
    assert got.window == (WEDNESDAY, WEDNESDAY)
    assert got.answer.startswith("On Wednesday, 11 November 2026 from 12:00 to 18:00: ")
    # Largest first; zoom's two window streams are one half hour; the morning's Code is outside.
    assert "Open longest: github.com 1 h (“warelay PR #42 · GitHub”), Code 45 min" in got.answer
    assert "zoom 30 min (“Zoom Meeting”)" in got.answer
    assert "You wrote: “Release sync with @Mina and @Peter” (14:00)." in got.answer
    assert "Water the plants" not in got.answer  # a line without a time is no part of the hours
    assert "Sprint planning" not in got.answer  # 08:30, before the window
    assert "“Mina: Can you review the storage migration PR?” (16:05)" in got.answer
    assert "“Aiko: On it after the standup” (16:07)" in got.answer  # the person's own words too
    assert got.answer.endswith("; and 1 more.")
    sources = [c.source for c in got.citations]
    assert "notes/2026-11-11.md#L5" in sources and "slack/D1/2026-11-11.json#ts=1" in sources
    assert any(s.startswith("aw#") for s in sources)  # the sessions counted
    assert {c.day for c in got.citations} == {"2026-11-11"}


def test_an_afternoon_in_japanese(omoide_home: Path) -> None:
    settings = build(omoide_home)
    got = part_of_day_answer(_asked("ja", "12:00", "18:00"), settings, NOW).answer
    assert got.startswith("2026年11月11日（水）12:00〜18:00：開いていたもの：github.com 1時間")
    assert "Code 45分（「storage.py — warelay」）" in got
    assert "書いたこと：「Release sync with @Mina and @Peter」（14:00）。" in got
    assert "チャット：「Mina: Can you review the storage migration PR?」（16:05）" in got
    assert got.endswith("ほか1件。")


def test_hours_with_no_record_say_so_in_both_languages(omoide_home: Path) -> None:
    settings = build(omoide_home)
    for lang, said in (
        ("en", "Nothing was recorded on Wednesday, 11 November 2026 from 19:00 to 23:00."),
        ("ja", "2026年11月11日（水）19:00〜23:00には何も記録されていません。"),
    ):
        got = part_of_day_answer(_asked(lang, "19:00", "23:00"), settings, NOW)
        assert got.answer == said and got.citations == [] and got.basis == "none"
    # Hours still to come hold nothing yet.
    early = part_of_day_answer(_asked("en", "12:00", "18:00"), settings, utc(WEDNESDAY, "11:00"))
    assert (
        early.answer == "Nothing was recorded on Wednesday, 11 November 2026 from 12:00 to 18:00."
    )
    assert early.citations == []
    # A window running past now is said up to now.
    now = utc(WEDNESDAY, "14:30")
    assert part_of_day_answer(_asked("en", "12:00", "18:00"), settings, now).answer.startswith(
        "On Wednesday, 11 November 2026 from 12:00 to 14:30: Open longest: github.com 1 h"
    )


def test_hours_are_named_across_midnight_and_to_its_end() -> None:
    berlin = zone(TZ)
    start = datetime(2026, 11, 11, 22, tzinfo=berlin)
    eleven = datetime(2026, 11, 11, 23, tzinfo=berlin)
    midnight = datetime(2026, 11, 12, tzinfo=berlin)
    assert hours_text(start, eleven, "en") == "on Wednesday, 11 November 2026 from 22:00 to 23:00"
    assert hours_text(start, midnight, "en") == "on Wednesday, 11 November 2026 from 22:00 to 24:00"
    assert hours_text(start, midnight.replace(hour=6), "en") == (
        "from Wednesday, 11 November 2026 at 22:00 to Thursday, 12 November 2026 at 06:00"
    )
    assert hours_text(start, midnight.replace(hour=6), "ja") == (
        "2026年11月11日（水）22:00〜2026年11月12日（木）06:00"
    )


def _with_blocks(settings) -> None:
    """Wednesday's lake + two activity blocks in the afternoon and one in the morning, their memory rows citing page lines."""
    from omoide.memory.block_rows import block_records, blocks_frame
    from omoide.store.lake import read_facts, write_blocks, write_facts
    from tests.fakes import a_block

    blocks = [
        a_block(1, utc(WEDNESDAY, "08:30"), utc(WEDNESDAY, "09:10"), "meeting", "Sprint planning"),
        a_block(
            2,
            utc(WEDNESDAY, "12:05"),
            utc(WEDNESDAY, "13:55"),
            "coding",
            "review of warelay PR #42",
            apps=("Code",),
        ),
        a_block(
            3,
            utc(WEDNESDAY, "14:00"),
            utc(WEDNESDAY, "14:30"),
            "meeting",
            "Release sync",
            people=("Mina", "Peter"),
        ),
        a_block(
            4, utc(WEDNESDAY, "17:00"), utc(WEDNESDAY, "17:00"), "offline", "Ran 5 km", active_s=0.0
        ),
    ]
    write_blocks(settings.lake_dir, WEDNESDAY, blocks_frame(blocks, WEDNESDAY, NOW))
    rows = block_records(blocks, WEDNESDAY, TZ, NOW)
    rows["source"] = [f"vault/memory/2026-11-11.md#L{7 + i}" for i in range(len(rows))]
    facts = pd.concat([read_facts(settings.lake_dir, WEDNESDAY), rows], ignore_index=True)
    write_facts(settings.lake_dir, WEDNESDAY, facts)


def test_an_afternoon_leads_with_what_was_being_done_its_blocks_cited(omoide_home: Path) -> None:
    settings = build(omoide_home)
    _with_blocks(settings)
    got = part_of_day_answer(_asked("en", "12:00", "18:00"), settings, NOW)
    head = "On Wednesday, 11 November 2026 from 12:00 to 18:00: Doing: "
    assert got.answer.startswith(
        head + "12:05–13:55 review of warelay PR #42 (coding); "
        "14:00–14:30 Release sync with Mina and Peter (meeting); "
    ), got.answer
    assert "; 17:00–17:00 Ran 5 km (away from the computer). Open longest" in got.answer
    assert "Sprint planning" not in got.answer  # the morning's block lies outside the hours
    sources = [c.source for c in got.citations]
    assert sources[:3] == [f"vault/memory/2026-11-11.md#L{n}" for n in (8, 9, 10)]
    ja = part_of_day_answer(_asked("ja", "12:00", "18:00"), settings, NOW).answer
    assert "していたこと：12:05–13:55 review of warelay PR #42（コーディング）、" in ja
    # "what was I doing at 9": an hour's window finds the block it falls in
    at_nine = part_of_day_answer(_asked("en", "09:00", "10:00"), settings, NOW).answer
    assert "Doing: 08:30–09:10 Sprint planning (meeting)." in at_nine
