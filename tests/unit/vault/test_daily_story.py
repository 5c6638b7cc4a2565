"""The day page told as a story: summary first, the picture and blocks cited by line, what was written and told, sessions last."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from omoide.memory.blocks import Block, block_memory_id
from omoide.memory.day_summary import DayLine, DaySummary, Highlight
from omoide.vault.daily import write_daily
from omoide.vault.page_reader import page_sections
from tests.fakes import a_block

TZ = "Europe/Berlin"


def _block(n: int, start: str, minutes: int, kind: str, label: str, **kw: object) -> Block:
    """A hand-made block of `minutes` from its UTC start."""
    end = (pd.Timestamp(start) + pd.Timedelta(minutes=minutes)).isoformat()
    return a_block(n, start, end, kind, label, **kw)


# Given out of order: the page shows them in time order.
BLOCKS = [
    _block(
        2,
        "2026-11-20T08:30Z",
        58,
        "meeting",
        "Sprint planning",
        apps=("zoom",),
        people=("Mina", "Peter"),
    ),
    _block(
        1,
        "2026-11-20T07:00Z",
        45,
        "coding",
        "working on warelay",
        apps=("Code",),
        sites=("github.com",),
    ),
]
LINES = [
    DayLine("09:30", "wrote", "", "Demo of the sync fix to the team with @Mina", ("/notes#L9",)),
    DayLine("16:30", "decided", "", "Decision: warelay moves to LanceDB", ("/notes#L13",)),
    DayLine(
        "17:55", "told", "Peter", "Platform team starts Monday. Drinks tonight?", ("/chat#L1",)
    ),
    DayLine("17:57", "said", "Peter", "Can't, cooking oyakodon.", ("/chat#L2",)),
    DayLine("", "wrote", "", "今週は良い一週間だった。", ("/notes#L19",)),
]
SESSIONS = [("m-s1", "08:00–08:45 Code (45 min): sync.py - warelay - Visual Studio Code")]


def _summary() -> DaySummary:
    return DaySummary(
        day="2026-11-20",
        backend="embedded",
        model="extractive-digest-v3",
        summary="Friday 2026-11-20. 2 blocks between 08:00 and 10:28.",
        highlights=[Highlight("Decision: warelay moves to LanceDB", ("/notes#L13",))],
        time_by_activity=[("Code", 2700.0)],
        lines=LINES,
        tz=TZ,
    )


def test_the_page_leads_with_the_summary_then_picture_blocks_and_what_was_told(tmp_path: Path):
    w = write_daily(tmp_path, _summary(), SESSIONS, "m-digest", BLOCKS, "2026-11-20.png")
    lines = w.path.read_text(encoding="utf-8").splitlines()
    headings = [x for x in lines if x.startswith("#")]
    assert headings == [
        "## Summary",
        "### Timeline",
        "### Written, decided and told",
        "### Highlights",
        "### Time",
        "## Sessions",
        "## Retain",
    ]
    assert lines[w.lines["m-digest"] - 1].startswith("Friday 2026-11-20.")
    assert "![[2026-11-20.png]]" in lines
    first, second = (lines[w.lines[block_memory_id(b)] - 1] for b in reversed(BLOCKS))
    assert first == "- 08:00–08:45 working on warelay (coding · Code, github.com · 45 min)"
    assert second == "- 09:30–10:28 Sprint planning with Mina and Peter (meeting · zoom · 58 min)"
    assert w.lines[block_memory_id(BLOCKS[1])] < w.lines[block_memory_id(BLOCKS[0])]
    assert "- 17:55 Peter: Platform team starts Monday. Drinks tonight? — from `/chat#L1`" in lines
    assert "- 17:57 you to Peter: Can't, cooking oyakodon. — from `/chat#L2`" in lines
    assert "- 今週は良い一週間だった。 — from `/notes#L19`" in lines
    assert lines[w.lines["m-s1"] - 1] == f"- {SESSIONS[0][1]}"  # the sessions stay cited
    # What a reader of the page takes as its summary is the summary alone.
    sections = page_sections(w.path)
    assert [x.text for x in sections["Summary"]] == [_summary().summary]


def test_the_story_is_idempotent_and_keeps_the_users_text(tmp_path: Path):
    w = write_daily(tmp_path, _summary(), SESSIONS, "m-digest", BLOCKS, "2026-11-20.png")
    text = w.path.read_text(encoding="utf-8").replace("---\n\n", "---\n\nMy own words.\n\n", 1)
    w.path.write_text(text, encoding="utf-8")
    again = write_daily(tmp_path, _summary(), SESSIONS, "m-digest", BLOCKS, "2026-11-20.png")
    assert not again.changed and "My own words." in again.path.read_text(encoding="utf-8")
    assert again.lines == {k: v + 2 for k, v in w.lines.items()}  # the user's two lines above


def test_without_blocks_or_lines_the_page_is_as_before(tmp_path: Path):
    s = _summary()
    s.lines = []
    w = write_daily(tmp_path, s, SESSIONS, "m-digest")
    text = w.path.read_text(encoding="utf-8")
    assert "### Timeline" not in text and "### Written" not in text and "## Sessions" in text
