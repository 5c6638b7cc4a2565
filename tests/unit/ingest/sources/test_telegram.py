"""Telegram Desktop's result.json read through `collect`: one-chat and full exports, who is the
user, entities, media and service messages, bots, damaged messages and files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from omoide.core import schemas
from omoide.core.errors import SourceError
from omoide.ingest.fingerprint import input_files
from omoide.ingest.sources import collect
from omoide.ingest.sources.chat_export import Reading
from omoide.ingest.sources.telegram import NOT_EXPORT, parse_export, plain_text
from tests.unit.ingest.sources.chat_exports import (
    DAY,
    END,
    FIXTURES,
    NOW,
    START,
    TZ,
    export_source,
    shown_rows,
    write_json,
)

TELEGRAM = FIXTURES / "telegram"
SINGLE = TELEGRAM / "ChatExport_2026-11-21" / "result.json"
FULL = TELEGRAM / "DataExport_2026-11-21" / "result.json"
AIKO = "result.json#messages[id="
HIKE = "result.json#chats[id=1700000001].messages[id="


def test_one_chat_export_with_the_user_named() -> None:
    out = collect(export_source("telegram", SINGLE, user_name="ken sato"), START, END, NOW)
    assert shown_rows(out.events) == [
        (
            "11-20 08:30:00.000000",
            "Aiko Tanaka",
            "Aiko Tanaka",
            "Are you coming to the onsen tomorrow?",
            f"{AIKO}102]",
        ),
        (
            "11-20 08:31:10.000000",
            "Aiko Tanaka",
            "ken sato",
            "Yes! Booked two nights at https://ryokan.example/kinosaki",
            f"{AIKO}103]",
        ),
        ("11-20 08:32:30.000000", "Aiko Tanaka", "Aiko Tanaka", "The view from the bath", f"{AIKO}105]"),
        (
            "11-20 08:40:00.000000",
            "Aiko Tanaka",
            "Kinosaki News",
            "Snow expected in Kinosaki this weekend",
            f"{AIKO}107]",
        ),
        (
            "11-20 08:41:00.000000",
            "Aiko Tanaka",
            "wiki [bot]",
            "Kinosaki Onsen is a hot spring town in Hyogo",
            f"{AIKO}108]",
        ),
    ]  # fmt: skip
    # Not the call (a service message), the photo and the sticker without a caption, nor
    # the 21st's message. A forwarded post is its channel's words, an inline bot's its own.
    assert out.rejects == []
    schemas.to_table(out.events, schemas.EVENTS)
    assert set(out.events["source"]) == {"telegram"} and set(out.events["event_type"]) == {"chat"}
    parsed = parse_export(SINGLE.read_bytes(), str(SINGLE), Reading("t", "", TZ))
    assert parsed.skipped == 3


def test_without_user_name_the_export_itself_tells_the_user() -> None:
    # A personal chat's id is the other party's, so the other sender is the user ("me").
    single = collect(export_source("telegram", SINGLE), START, END, NOW).events
    assert single.loc[single["source_ref"].str.endswith("[id=103]"), "actor"].tolist() == ["me"]
    assert "Ken Sato" not in set(single["actor"])
    # A full export names the account (personal_information.user_id).
    full = collect(export_source("telegram", FULL), START, END, NOW)
    rows = [(r[1] if isinstance(r[1], str) else None, r[2], r[3]) for r in shown_rows(full.events)]
    assert rows == [
        ("Kinosaki News", "Kinosaki News", "Snow expected in Kinosaki this weekend"),
        ("Weather Bot [bot]", "me", "/forecast kyoto"),
        ("Weather Bot [bot]", "Weather Bot [bot]", "Kyoto: 12°C, light rain"),
        ("Aiko Tanaka", "Aiko Tanaka", "Are you coming to the onsen tomorrow?"),
        ("Aiko Tanaka", "me", "Yes! Booked two nights at https://ryokan.example/kinosaki"),
        ("Kyoto Hiking", "Jun Mori", "Trail starts at Kurama station, 9:00"),
        ("Kyoto Hiking", "me", "I'll bring onigiri"),
        ("Kyoto Hiking", "Jun Mori", "@aiko_t are you in?"),
        (None, "me", "Buy yatsuhashi for the office"),
    ]  # a left channel is read too; the poll and the service message are not
    refs = [r[4] for r in shown_rows(full.events)]
    assert f"{HIKE}51]" in refs and "result.json#chats[id=4000000001].messages[id=7]" in refs
    assert "result.json#chats[id=1800000004].messages[id=7]" in refs  # same id, another chat
    assert full.rejects == []


def test_a_message_in_two_exports_is_one_event() -> None:
    out = collect(export_source("telegram", TELEGRAM, user_name="Ken Sato"), START, END, NOW)
    assert out.events["event_id"].is_unique
    assert len(out.events) == 5 + 9 - 2  # Aiko's 102 and 103 are in both exports
    assert [p.parent.name for p in input_files(export_source("telegram", TELEGRAM), DAY)] == [
        "ChatExport_2026-11-21",
        "DataExport_2026-11-21",
    ]


def test_text_parts_are_joined_as_written() -> None:
    assert plain_text("plain") == "plain"
    parts = ["See ", {"type": "text_link", "text": "the map", "href": "https://x.example"}, "!"]
    assert plain_text(parts) == "See the map!"
    assert plain_text([]) == ""
    assert plain_text([{"type": "bold"}]) is None and plain_text(5) is None


def test_damaged_messages_and_other_json_are_named(tmp_path: Path) -> None:
    doc = json.loads(SINGLE.read_text("utf-8"))
    msgs = doc["messages"]
    msgs[1]["date_unixtime"] = "yesterday"
    msgs[2]["text"] = {"bold": "not a list"}
    del msgs[4]["date_unixtime"]  # the local `date` is read in the source's zone instead
    msgs[5] = ["not", "a", "message"]
    del msgs[6]["id"]
    path = write_json(tmp_path / "a" / "result.json", doc)
    write_json(tmp_path / "b" / "result.json", {"theme": "dark"})
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "result.json").write_bytes(b"SQLite format 3\x00" + bytes(100))
    out = collect(export_source("telegram", tmp_path), START, END, NOW)
    got = sorted((r.ref.replace(str(tmp_path) + "/", ""), r.reason) for r in out.rejects)
    assert got == [
        ("a/result.json#messages[5]", "message without an 'id'"),
        ("a/result.json#messages[6]", "message without an 'id'"),
        ("a/result.json#messages[id=102]", "'date_unixtime' is not epoch seconds: 'yesterday'"),
        ("a/result.json#messages[id=103]", "'text' is neither text nor a list of text parts"),
        ("b/result.json", NOT_EXPORT),
        ("c/result.json", "not text: an SQLite database"),
    ]
    assert [r[:4] for r in shown_rows(out.events)] == [
        ("11-20 08:32:30.000000", "Aiko Tanaka", "Aiko Tanaka", "The view from the bath"),
        ("11-20 08:41:00.000000", "Aiko Tanaka", "wiki [bot]", "Kinosaki Onsen is a hot spring town in Hyogo"),
    ]  # fmt: skip
    assert {r.ref.split("#")[0] for r in out.rejects if "#" in r.ref} == {str(path)}


def test_a_cut_off_export_keeps_the_messages_before_the_cut(tmp_path: Path) -> None:
    text = SINGLE.read_text("utf-8")
    cut = text[: text.index('"id": 105')]
    path = tmp_path / "result.json"
    path.write_text(cut, encoding="utf-8")
    out = collect(export_source("telegram", path, user_name="Ken Sato"), START, END, NOW)
    assert [r[3] for r in shown_rows(out.events)][:2] == [
        "Are you coming to the onsen tomorrow?",
        "Yes! Booked two nights at https://ryokan.example/kinosaki",
    ]
    assert [r.ref.rsplit("#", 1)[1] for r in out.rejects] == ["message-4"]


def test_a_missing_export_or_empty_folder_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such"):
        collect(export_source("telegram", tmp_path / "nowhere"), START, END, NOW)
    with pytest.raises(SourceError, match=r"result\.json"):
        collect(export_source("telegram", tmp_path), START, END, NOW)
