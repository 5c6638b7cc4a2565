"""Damaged Telegram Desktop exports (issue 52): lists that are no lists and fields of the wrong type
refused by name, an export cut short named, media never read as anyone's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from omoide.ingest.sources import collect
from tests.unit.ingest.sources.chat_exports import END, NOW, START, export_source, write_json
from tests.unit.ingest.sources.test_telegram import FULL, SINGLE


def _read(path: Path) -> tuple[list[tuple[str, str]], list[str]]:
    """A result.json -> its rejects (ref after the file name, reason) and its texts of the day."""
    out = collect(export_source("telegram", path, user_name="Ken Sato"), START, END, NOW)
    rejects = [(r.ref.removeprefix(str(path)), r.reason) for r in out.rejects]
    return sorted(rejects), sorted(out.events["text"])


def test_chats_list_that_is_an_object_is_refused_by_name(tmp_path: Path) -> None:
    doc = json.loads(FULL.read_text("utf-8"))
    doc["chats"]["list"] = {str(c["id"]): c for c in doc["chats"]["list"]}
    path = write_json(tmp_path / "result.json", doc)
    rejects, texts = _read(path)
    assert rejects == [("#chats.list", "not a list of chats")]
    assert texts == ["Snow expected in Kinosaki this weekend"]  # a chat it left: still read
    doc["left_chats"] = []
    rejects, texts = _read(write_json(path, doc))
    assert rejects == [
        ("#chats.list", "not a list of chats"),
        ("#left_chats", "'left_chats' is not an object with a 'list'"),
    ]
    assert texts == []


def test_one_chat_messages_that_are_no_list_are_refused_by_name(tmp_path: Path) -> None:
    doc = json.loads(SINGLE.read_text("utf-8"))
    doc["messages"] = {str(m["id"]): m for m in doc["messages"]}
    path = write_json(tmp_path / "result.json", doc)
    assert _read(path) == ([("#messages", "'messages' is not a list")], [])


def test_an_export_cut_after_its_list_opens_is_named(tmp_path: Path) -> None:
    text = SINGLE.read_text("utf-8")
    path = tmp_path / "result.json"
    path.write_text(text[: text.index("[", text.index('"messages"')) + 1], encoding="utf-8")
    rejects, texts = _read(path)
    assert [ref for ref, why in rejects if "cut short" in why] == ["#message-0"] and texts == []


@pytest.mark.parametrize(
    ("field", "value"),
    [("type", 1), ("from", {"name": "Aiko"}), ("from_id", 5123456789), ("forwarded_from", 3)],
)
def test_a_message_field_of_the_wrong_type_is_named(
    tmp_path: Path, field: str, value: object
) -> None:
    doc = json.loads(SINGLE.read_text("utf-8"))
    msg = next(
        m for m in doc["messages"] if m.get("text") == "Are you coming to the onsen tomorrow?"
    )
    msg[field] = value
    rejects, texts = _read(write_json(tmp_path / "result.json", doc))
    assert rejects == [(f"#messages[id={msg['id']}]", f"'{field}' is not a string")]
    assert "Are you coming to the onsen tomorrow?" not in texts and texts


def test_media_are_markers_never_anyones_text_and_a_caption_is_kept(tmp_path: Path) -> None:
    doc = json.loads(SINGLE.read_text("utf-8"))
    msg = next(m for m in doc["messages"] if m.get("photo") and m["text"] == "")
    media = [
        {"photo": "photos/photo_9.jpg", "width": 10, "height": 10, "text": ""},
        {"file": "voice_messages/audio_1.ogg", "media_type": "voice_message", "text": ""},
        {"file": "(File not included. Change data exporting settings to download.)", "text": ""},
        {"file": "stickers/s.webp", "media_type": "sticker", "sticker_emoji": "👍"},  # no text
        {"photo": "photos/photo_10.jpg", "text": [{"type": "bold", "text": "Kinosaki"}, "!"]},
    ]
    base = {k: v for k, v in msg.items() if k not in ("photo", "width", "height", "text")}
    doc["messages"] += [{**base, **m, "id": 900 + i} for i, m in enumerate(media)]
    path = write_json(tmp_path / "result.json", doc)
    rejects, texts = _read(path)
    _, intact = _read(SINGLE)
    assert rejects == [] and texts == sorted([*intact, "Kinosaki!"])
    assert not any("photo" in t or ".ogg" in t or "File not included" in t for t in texts)
