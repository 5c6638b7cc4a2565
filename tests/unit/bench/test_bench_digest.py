"""`bench digest`'s readers on hand-written pages: highlights that are window titles, facts said twice, relations stated."""

from __future__ import annotations

from pathlib import Path

from omoide.bench.digest import (
    page_highlights,
    relations_scores,
    repeated_facts,
    section_items,
)
from omoide.memory.window_titles import is_title

DAY = """---
date: '2026-11-20'
---
<!-- omoide:begin -->
## Summary

Friday. Mostly warelay.

### Highlights

- Demo of the sync fix to the team with @Mina — from `sources/notes/2026-11-20.md#L4`
- sync.py - warelay - Visual Studio Code
- Read LanceDB's benchmark post ([[2026-11-01#Highlights]] · `vault/memory/2026-11-01.md#L18`)

## Sessions

- 08:40–08:41 Code (1 min): sync.py - warelay - Visual Studio Code
<!-- omoide:end -->
"""

PERSON = """# Mina

## Summary

Mina appears in 79 memories. Relationship: colleague (evidence: the Kumo Labs Slack).

## Facts

- 2026-11-16 · W “Mina leads the warelay storage migration.” — [n](x) <!-- memory:a -->
- 2026-11-19 · W “Mina leads the warelay storage migration.” — [n](y) <!-- memory:b -->
- 2026-11-20 · W “Mina moved to Berlin last weekend.” — [n](z) <!-- memory:c -->

### Was

- until 2026-11-20, then “Mina moved to Berlin last weekend.”: 2026-11-19 · W “Mina lives in Hamburg.”
- until 2026-11-20, then “Mina moved to Berlin last weekend.”: 2026-10-23 · W “Mina lives in Hamburg.”
"""


def _vault(tmp_path: Path) -> Path:
    """-> a vault with one day page and one person's page."""
    (tmp_path / "memory").mkdir(parents=True)
    (tmp_path / "memory" / "2026-11-20.md").write_text(DAY, encoding="utf-8")
    (tmp_path / "bank" / "entities").mkdir(parents=True)
    (tmp_path / "bank" / "entities" / "mina.md").write_text(PERSON, encoding="utf-8")
    return tmp_path


def test_highlights_are_read_without_their_citations_and_titles_are_told(tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    found = [h for _, h in page_highlights(vault)]
    assert found == [
        "Demo of the sync fix to the team with @Mina",
        "sync.py - warelay - Visual Studio Code",
        "Read LanceDB's benchmark post",
    ]
    titles = {"sync.py - warelay - visual studio code", "lancedb blog"}
    assert [is_title(h, titles) for h in found] == [False, True, False]
    # A title with a figure beside it is still a title; a sentence naming a short one is not.
    assert is_title("sync.py - warelay - Visual Studio Code (12 min)", titles)
    assert not is_title("I read the LanceDB blog about their new index and took notes", titles)


def test_a_fact_said_twice_and_a_change_listed_twice_each_count(tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    assert repeated_facts(vault / "bank" / "entities") == {"mina": 2}
    assert section_items(vault / "bank" / "entities" / "mina.md", "Facts")[2] == (
        "2026-11-20 · W “Mina moved to Berlin last weekend.”"
    )


def test_relations_right_only_when_the_page_states_exactly_the_truth(tmp_path: Path) -> None:
    entities = _vault(tmp_path) / "bank" / "entities"
    (entities / "peter.md").write_text("Relationship: family (bond 0.67).\n", encoding="utf-8")
    got = relations_scores(entities, {"Mina": ["colleague"], "Peter": ["colleague", "friend"]})
    assert got["relations_right"] == 0.5
    assert got["relations"]["Peter"] == {
        "truth": ["colleague", "friend"],
        "stated": ["family"],
        "right": False,
    }


def test_a_home_is_scored_on_its_lakes_blocks_and_the_scripts_people(tmp_path: Path) -> None:
    from datetime import UTC, date, datetime

    from omoide.bench.digest import score_home
    from omoide.memory.block_rows import blocks_frame
    from omoide.store.lake import write_blocks
    from tests.fakes import a_block

    _vault(tmp_path / "vault")
    day = date(2026, 11, 20)
    blocks = [
        a_block(1, "2026-11-20T09:30:00Z", "2026-11-20T10:30:00Z", "meeting", "Demo with Mina"),
        a_block(2, "2026-11-20T10:30:00Z", "2026-11-20T12:30:00Z", "coding", "coding (LanceDB)"),
        a_block(3, "2026-11-20T20:00:00Z", "2026-11-20T21:00:00Z", "browsing", "browsing news"),
    ]
    write_blocks(
        tmp_path / "lake", day, blocks_frame(blocks, day, datetime(2026, 11, 21, tzinfo=UTC))
    )
    script = {
        "sample": {"timezone": "UTC"},
        "activities": [
            {
                "day": "2026-11-20",
                "start": "09:30",
                "end": "10:30",
                "mode": "meeting",
                "topic": "work",
            },
            {
                "day": "2026-11-20",
                "start": "10:30",
                "end": "12:30",
                "mode": "deep",
                "topic": "lancedb",
            },
            {
                "day": "2026-11-20",
                "start": "20:00",
                "end": "21:00",
                "mode": "personal",
                "topic": "kyoto",
            },
            {
                "day": "2026-11-20",
                "start": "21:00",
                "end": "22:00",
                "mode": "personal",
                "topic": "news",
            },
        ],
        "people": [{"name": "Mina", "relations": ["colleague"]}],
    }
    got = score_home(tmp_path, script)
    # the news block overlaps the Kyoto evening, not the news hour after it: 2 of 3 blocks right
    assert (got["block_precision"], got["block_recall"]) == (0.667, 0.5)
    assert got["relations_right"] == 1.0 and got["days"] == 1
    assert got["detail"]["blocks"]["by_kind"]["browsing"] == {"blocks": 1, "right": 0}
