"""The script's planned activities and people's relations: what blocks and entity pages are scored against."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from omoide.bench.digest_blocks import block_scores


def test_script_lists_every_planned_segment_but_away_and_the_excluded_site(
    month: tuple[Path, dict[str, Any]],
) -> None:
    _, script = month
    assert script["schema"] == 2
    acts = script["activities"]
    assert {a["day"] for a in acts} == {d["day"] for d in script["days"]}
    assert not any(a["mode"] == "afk" or a["topic"] == "bank" for a in acts)
    friday = [
        f"{a['start']}-{a['end']} {a['mode']} {a['topic']}"
        for a in acts
        if a["day"] == "2026-11-20"
    ]
    assert friday[:2] == ["08:40-09:30 comms work", "09:30-10:30 meeting work"]
    people = {p["name"]: p["relations"] for p in script["people"]}
    assert people == {"Peter": ["colleague", "friend"], "Mina": ["colleague"]}


def test_block_scores_match_one_to_one_by_overlap_and_words() -> None:
    script = {
        "sample": {"timezone": "UTC"},
        "activities": [
            {
                "day": "2026-11-20",
                "start": "09:00",
                "end": "10:00",
                "mode": "meeting",
                "topic": "work",
            },
            {
                "day": "2026-11-20",
                "start": "10:00",
                "end": "12:00",
                "mode": "research",
                "topic": "lancedb",
            },
        ],
        "events": [{"day": "2026-11-20", "time": "13:00"}],
        "days": [],
    }

    def block(s: str, e: str, kind: str, label: str) -> dict[str, Any]:
        return {
            "start": f"2026-11-20T{s}Z",
            "end": f"2026-11-20T{e}Z",
            "kind": kind,
            "label": label,
        }

    blocks = {
        "2026-11-20": [
            block("09:05", "10:00", "meeting", "standup"),
            block("09:30", "09:50", "meeting", "standup again"),  # one to one: left over
            block("10:00", "11:50", "coding", "reading about LanceDB"),
            block("13:00", "14:00", "offline", "helped Peter move"),  # a timed event inside it
        ]
    }
    got = block_scores(script, blocks)
    assert (got["block_precision"], got["block_recall"]) == (0.75, 1.0)
    blocks["2026-11-20"][2]["label"] = "reading about Prefect"  # the words do not name the topic
    assert block_scores(script, blocks)["block_recall"] == 0.5
