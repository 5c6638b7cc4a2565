"""Claude's `conversations.json` read through `collect`: text blocks, the human's turns, damaged
messages and old exports."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from omoide.core.days import day_bounds
from omoide.ingest.sources import collect
from tests.unit.ingest.sources.chat_exports import (
    CLAUDE,
    END,
    NOW,
    START,
    TZ,
    export_source,
    shown_rows,
    write_json,
)


def test_claude_export_reads_text_blocks_and_marks_the_human() -> None:
    out = collect(export_source("claude", CLAUDE, user_name="Ken Sato"), START, END, NOW)
    title, ref = "Packing list for Kyoto", "conversations.json#1a2b3c4d-0000-4000-8000-00000000e00"
    assert shown_rows(out.events) == [
        (
            "11-20 08:10:02.118265",
            title,
            "Ken Sato",
            "What should I pack for three nights in Kyoto in late November?",
            f"{ref}1",
        ),
        (
            "11-20 08:10:20.550120",
            title,
            "assistant",
            "Let me check the forecast first.\nLayers: 6-14 °C, so a light down jacket and a scarf.",
            f"{ref}2",
        ),
        (
            "11-20 08:16:30.004871",
            title,
            "Ken Sato",
            "Here is my itinerary; anything missing?",
            f"{ref}3",
        ),
        (
            "11-20 08:16:41.503310",
            title,
            "assistant",
            "Comfortable shoes: Arashiyama means a lot of walking.",
            f"{ref}4",
        ),
    ]  # tool use and results, the "not supported" placeholder and attachments are left out
    later = collect(
        export_source("claude", CLAUDE.parent), *day_bounds(date(2026, 11, 21), TZ), NOW
    )
    assert [(r[1], r[2]) for r in shown_rows(later.events)] == [(None, "me"), (None, "assistant")]


def test_claude_damaged_messages_are_rejects_and_old_exports_use_text(tmp_path: Path) -> None:
    doc = json.loads(CLAUDE.read_text("utf-8"))
    messages = doc[0]["chat_messages"]
    messages[0]["sender"] = "robot"
    messages[1]["created_at"] = "2026-11-20 08:10:20"
    del messages[2]["content"]  # an older export: only `text`
    doc.append("not a conversation")
    path = write_json(tmp_path / "conversations.json", doc)
    out = collect(export_source("claude", path), START, END, NOW)
    ref = f"{path}#1a2b3c4d-0000-4000-8000-00000000e00"
    assert [(r.ref, r.reason) for r in out.rejects] == [
        (f"{ref}1", "unknown sender 'robot'"),
        (f"{ref}2", "'created_at': timestamp without timezone"),
        (f"{path}#conversation-2", "conversation is not an object"),
    ]
    assert [r[3] for r in shown_rows(out.events)] == [
        "Here is my itinerary; anything missing?",
        "Comfortable shoes: Arashiyama means a lot of walking.",
    ]
