"""DiscordChatExporter JSON exports -> chat events.

The source path is one export `.json` file or a folder of them (searched recursively,
hidden folders skipped): DiscordChatExporter writes a file per channel, and a big channel
may be split across several files; a message read twice is one event.

Shape, as checked against DiscordChatExporter's own writer (Tyrrrz/DiscordChatExporter,
DiscordChatExporter.Core/Exporting/JsonMessageWriter.cs; Guild.cs for direct messages,
MessageKind.cs for message types): `{"guild": {"id", "name"}, "channel": {"id", "type",
"name", ...}, "dateRange", "exportedAt", "messages": [{"id", "type", "timestamp": ISO 8601
with offset, "timestampEdited", "content", "author": {"id", "name", "nickname", "isBot",
...}, "attachments", "embeds", "stickers", "reactions", "mentions", ...}], "messageCount"}`.

What is read: messages of type "Default" and "Reply" (the others are system notices such
as "joined the server" or "pinned a message") with non-empty `content`; attachments,
embeds and stickers are left out, so a message that is only a picture is skipped (counted
in the log, not an event). The title is the channel's name, after the server's name for a
server channel ("Server #general"); a direct message channel (guild id "0", "Direct
Messages") keeps the channel's name alone.

Speakers: the author's display name (`nickname`, else the account `name`); the user is
the author whose `name` or `nickname` equals `user_name` (case-insensitive), written as
`user_name` (see chat_export). An author the export flags with `isBot` keeps its name with
the "[bot]" mark (omoide.core.kinds.bot_speaker), so no bot is taken for a person.
`source_ref` is `path#<message id>`; the event id hashes the channel and message ids, so
an edited message, exported again, replaces itself. A message with a bad time or the
wrong shape is a Reject naming `path#<id>`; a file that is not such an export is one
Reject naming the file; the rest is read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from omoide.core.kinds import bot_speaker
from omoide.core.settings import SourceConfig
from omoide.ingest.sources.base import Collected, Reject
from omoide.ingest.sources.chat_export import (
    Parsed,
    Reading,
    collect_export,
    document,
    export_files,
    iso_time,
    message,
    named_speaker,
)

KIND = "discord"
_SPOKEN = ("Default", "Reply")
_DIRECT_MESSAGES = "0"  # DiscordChatExporter's guild id for direct messages


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """Export .json file or folder + UTC [start, end) -> chat events of the window and rejects."""
    files = export_files(source, "*.json", "DiscordChatExporter export")
    return collect_export(KIND, source, files, parse_export, start, end, now)


def parse_export(data: bytes, path: str, read: Reading) -> Parsed:
    """One channel's export bytes + reading -> its messages, and what it could not use."""
    parsed = Parsed()
    doc = document(data, path, parsed, "messages", label="message")
    if doc is None:
        return parsed
    if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
        parsed.rejects.append(
            Reject(path, "not a DiscordChatExporter export: no top-level 'messages' list")
        )
        return parsed
    channel = _object(doc.get("channel"))
    channel_id = _string(channel.get("id")) or path
    title = _title(_object(doc.get("guild")), channel)
    for i, msg in enumerate(doc["messages"]):
        _read_message(parsed, path, read, channel_id, title, i, msg)
    return parsed


def _title(guild: dict[str, Any], channel: dict[str, Any]) -> str | None:
    """Guild + channel objects -> the conversation's title ("Server #channel", or the DM's name)."""
    name = _string(channel.get("name"))
    server = _string(guild.get("name"))
    if not name:
        return server or None
    if not server or _string(guild.get("id")) == _DIRECT_MESSAGES:
        return name
    return f"{server} #{name}"


def _read_message(
    parsed: Parsed,
    path: str,
    read: Reading,
    channel_id: str,
    title: str | None,
    index: int,
    msg: object,
) -> None:
    """One exported message -> added to `parsed`, skipped, or rejected with its ref."""
    msg_id = _string(msg.get("id")) if isinstance(msg, dict) else ""
    ref = f"{path}#{msg_id or f'message-{index}'}"
    if not isinstance(msg, dict):
        parsed.rejects.append(Reject(ref, "message is not an object"))
        return
    if not msg_id:
        parsed.rejects.append(Reject(ref, "message without an 'id'"))
        return
    if msg.get("type", "Default") not in _SPOKEN:
        parsed.skipped += 1
        return
    content, author = msg.get("content"), msg.get("author")
    if not isinstance(content, str) or not isinstance(author, dict):
        parsed.rejects.append(Reject(ref, "message without text 'content' and an 'author'"))
        return
    if not content.strip():
        parsed.skipped += 1
        return
    ts = iso_time(msg.get("timestamp"))
    if isinstance(ts, str):
        parsed.rejects.append(Reject(ref, f"'timestamp': {ts}"))
        return
    names = [_string(author.get("nickname")), _string(author.get("name"))]
    actor = named_speaker(names, read.user_name)
    if author.get("isBot") is True:
        actor = bot_speaker(actor)
    parsed.records.append(message(KIND, read, ts, title, actor, content, ref, (channel_id, msg_id)))


def _object(value: object) -> dict[str, Any]:
    """A JSON value -> it when it is an object, else an empty one."""
    return value if isinstance(value, dict) else {}


def _string(value: object) -> str:
    """A JSON value -> it when it is a string, else ''."""
    return value if isinstance(value, str) else ""
