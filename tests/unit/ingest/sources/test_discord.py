"""DiscordChatExporter JSON read through `collect`: channels, direct messages, damaged messages
and other JSON."""

from __future__ import annotations

import json
from pathlib import Path

from omoide.ingest.sources import collect
from tests.unit.ingest.sources.chat_exports import (
    DISCORD,
    DM,
    END,
    GUILD,
    NOW,
    START,
    export_source,
    shown_rows,
    write_json,
)


def test_discord_export_reads_channels_and_direct_messages() -> None:
    out = collect(export_source("discord", DISCORD, user_name="KenSato"), START, END, NOW)
    assert shown_rows(out.events) == [
        (
            "11-20 08:02:11.123000",
            "Kyoto Trip #planning",
            "KenSato",
            "Booked the ryokan in Higashiyama for Friday.",
            f"{GUILD.name}#1309000000000000002",
        ),
        (
            "11-20 08:05:40.500000",
            "Kyoto Trip #planning",
            "Aiko",
            "Nice, send me the address",
            f"{GUILD.name}#1309000000000000003",
        ),
        (
            "11-20 21:30:00.000000",
            "aiko.m",
            "Aiko",
            "Did you get the train tickets?",
            f"{DM.name}#1309000000000000021",
        ),
        (
            "11-20 21:31:15.250000",
            "aiko.m",
            "KenSato",
            "Yes, both seats on the 9:03 Nozomi.",
            f"{DM.name}#1309000000000000022",
        ),
    ]  # not the "joined the server" notice, nor the message that is only a picture
    by_nickname = collect(export_source("discord", GUILD, user_name="ken"), START, END, NOW)
    assert by_nickname.events["actor"].tolist()[:1] == ["ken"]
    strangers = collect(export_source("discord", DM), START, END, NOW)
    assert sorted(strangers.events["actor"]) == ["Aiko", "Ken"]


def test_discord_damaged_messages_and_other_json_are_rejects(tmp_path: Path) -> None:
    doc = json.loads(GUILD.read_text("utf-8"))
    doc["messages"][1]["timestamp"] = "2026-11-20T08:02:11"
    doc["messages"][2]["author"] = None
    path = write_json(tmp_path / "planning.json", doc)
    write_json(tmp_path / "settings.json", {"theme": "dark"})
    (tmp_path / "empty.json").write_bytes(b"")
    out = collect(export_source("discord", tmp_path), START, END, NOW)
    assert [(r.ref, r.reason) for r in out.rejects] == [
        (str(tmp_path / "empty.json"), "invalid JSON at line 1 col 1: Expecting value"),
        (f"{path}#1309000000000000002", "'timestamp': timestamp without timezone"),
        (f"{path}#1309000000000000003", "message without text 'content' and an 'author'"),
        (
            str(tmp_path / "settings.json"),
            "not a DiscordChatExporter export: no top-level 'messages' list",
        ),
    ]
    assert out.events.empty
