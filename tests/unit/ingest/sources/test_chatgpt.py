"""ChatGPT's `conversations.json` read through `collect`: the branch the app shows, the user's
turns, damaged messages and corrupt exports; the export time readers."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from omoide.core.days import day_bounds
from omoide.ingest.sources import collect
from omoide.ingest.sources.chat_export import epoch_time, iso_time
from tests.unit.ingest.sources.chat_exports import (
    CHATGPT,
    END,
    NOW,
    START,
    TZ,
    export_source,
    shown_rows,
    write_json,
)


def test_chatgpt_export_reads_the_shown_branch_and_marks_the_user() -> None:
    out = collect(export_source("chatgpt", CHATGPT.parent), START, END, NOW)
    title = "Quiet Kyoto ryokan area"
    assert shown_rows(out.events) == [
        (
            "11-20 07:30:01.500000",
            title,
            "me",
            "Which area of Kyoto is quiet for a ryokan stay?",
            "conversations.json#b1d5a6c2-0000-4000-8000-000000000003",
        ),
        (
            "11-20 07:31:00.250000",
            title,
            "assistant",
            "Higashiyama near Kodai-ji is quiet after 6 pm.",
            "conversations.json#d8f3a4b5-0000-4000-8000-000000000005",
        ),
        (
            "11-20 07:34:00.000000",
            title,
            "me",
            "This is the view from the room I booked. Is it Higashiyama?",
            "conversations.json#e9a4b5c6-0000-4000-8000-000000000006",
        ),
        (
            "11-20 07:35:02.500000",
            title,
            "assistant",
            "Yes: that is the Yasaka pagoda, so you are in Higashiyama.",
            "conversations.json#f0b5c6d7-0000-4000-8000-000000000007",
        ),
    ]  # not the regenerated-away answer, the hidden system message or the image part
    assert out.rejects == [] and set(out.events["source"]) == {"chatgpt"}
    named = collect(export_source("chatgpt", CHATGPT, user_name="Ken"), START, END, NOW)
    assert sorted(set(named.events["actor"])) == ["Ken", "assistant"]
    later = collect(export_source("chatgpt", CHATGPT), *day_bounds(date(2026, 11, 21), TZ), NOW)
    # the tool call (recipient "python") and the tool's output are no one's words
    assert [r[3] for r in shown_rows(later.events)] == [
        "Plot 8200, 10400 and 6100 steps as a bar chart.",
        "Here is the chart: Tuesday was your best day.",
    ]


def test_chatgpt_damaged_messages_and_corrupt_exports_are_rejects(tmp_path: Path) -> None:
    doc = json.loads(CHATGPT.read_text("utf-8"))
    mapping = doc[0]["mapping"]
    mapping["b1d5a6c2-0000-4000-8000-000000000003"]["message"]["create_time"] = "yesterday"
    mapping["f0b5c6d7-0000-4000-8000-000000000007"]["message"]["create_time"] = 500_000_000.0
    del doc[0]["current_node"]  # without it, every node is read, branches included
    good = write_json(tmp_path / "good" / "conversations.json", doc)
    bad = tmp_path / "bad" / "conversations.json"
    bad.parent.mkdir()
    bad.write_bytes(CHATGPT.read_bytes()[:2000])  # a download cut short
    write_json(tmp_path / "other" / "conversations.json", {"conversations": []})
    out = collect(export_source("chatgpt", tmp_path), START, END, NOW)
    # The cut-off export costs the conversation it cuts, named by its position.
    assert [(r.ref, r.reason.split(" at ")[0]) for r in out.rejects] == [
        (f"{bad}#conversation-0", "damaged JSON"),
        (
            f"{good}#b1d5a6c2-0000-4000-8000-000000000003",
            "'create_time': missing or non-numeric timestamp",
        ),
        (
            f"{good}#f0b5c6d7-0000-4000-8000-000000000007",
            "impossible timestamp 1985-11-05T00:53:20+00:00 (before 1990)",
        ),
        (
            str(tmp_path / "other" / "conversations.json"),
            "not a ChatGPT export: not a list of conversations",
        ),
    ]
    assert [r[3] for r in shown_rows(out.events)] == [
        "Try Arashiyama.",
        "Higashiyama near Kodai-ji is quiet after 6 pm.",
        "This is the view from the room I booked. Is it Higashiyama?",
    ]


def test_chatgpt_a_looping_branch_ends(tmp_path: Path) -> None:
    doc = json.loads(CHATGPT.read_text("utf-8"))
    root = doc[0]["mapping"]["aaa1b2c3-0000-4000-8000-000000000001"]
    root["parent"] = doc[0]["current_node"]  # parent pointers that go round
    out = collect(export_source("chatgpt", write_json(tmp_path / "c.json", doc)), START, END, NOW)
    assert len(out.events) == 4 and out.rejects == []


@pytest.mark.parametrize(
    ("read", "value", "expected"),
    [
        (iso_time, "2026-11-20T08:02:11.123+09:00", datetime(2026, 11, 19, 23, 2, 11, 123000, UTC)),
        (
            iso_time,
            "1970-01-01T00:16:41.0000000+00:00",
            datetime(1970, 1, 1, 0, 16, 41, tzinfo=UTC),
        ),
        (iso_time, "2026-11-20T08:02:11", "timestamp without timezone"),
        (iso_time, "9999-12-31T23:59:59-05:00", "timestamp out of range"),
        (iso_time, 1795127400, "missing or non-text timestamp"),
        (epoch_time, 1795127400.5, datetime(2026, 11, 19, 22, 30, 0, 500000, UTC)),
        (epoch_time, "1795127400", "missing or non-numeric timestamp"),
        (epoch_time, float("nan"), "timestamp out of range"),
        (epoch_time, 1e300, "timestamp out of range"),
    ],
)
def test_export_times(read: Any, value: object, expected: object) -> None:
    assert read(value) == expected
