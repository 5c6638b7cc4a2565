"""Claude's data export (`conversations.json`) -> chat events.

The source path is the export's `conversations.json` or the unzipped export folder (searched
recursively for files of that name, hidden folders skipped; a message read twice is one
event).

Shape, as checked against the public JSON schema and example of the export
(brandtcormorant/claude-json-schema, schema/claude-json-schema.json and example/data.js)
and the parsers found by a code search: a list of conversations, each `{"uuid", "name",
"created_at", "updated_at", "account", "chat_messages"}`, a message being `{"uuid",
"sender": "human" | "assistant", "text", "content": [{"type", "text", ...}],
"created_at": ISO 8601 with zone, "attachments", "files"}`.

Text: the message's `content` blocks of type "text", joined by newlines; only when a
message has no `content` list (older exports) its `text` field, since `text` also carries
placeholders for tool calls ("This block is not supported on your current device yet.").
Thinking, tool use and tool results are left out, and so are attachments and files; a
message left with no text is skipped (counted in the log, not an event). Messages are read
in the order the export lists them.

Speakers: the user's turns ("human") are `user_name` (or "me" when unset), Claude's
"assistant" (see chat_export). The title is the conversation's name. `source_ref` is
`path#<message uuid>`; the event id hashes the conversation and message uuids. A message
with a bad time, an unknown sender or the wrong shape is a Reject naming `path#<uuid>`;
the rest is read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from omoide.core.kinds import ASSISTANT_SPEAKER
from omoide.core.settings import SourceConfig
from omoide.ingest.sources.base import Collected, Reject
from omoide.ingest.sources.chat_export import (
    Parsed,
    Reading,
    collect_export,
    conversations,
    export_files,
    iso_time,
    message,
    own_speaker,
)

KIND = "claude"
FILE = "conversations.json"


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """conversations.json or export folder + UTC [start, end) -> chat events of the window and rejects."""
    files = export_files(source, FILE, "Claude export")
    return collect_export(KIND, source, files, parse_export, start, end, now)


def parse_export(data: bytes, path: str, read: Reading) -> Parsed:
    """conversations.json bytes + reading -> every message it holds, and what it could not use."""
    parsed = Parsed()
    for i, conv in conversations(data, path, parsed, "Claude"):
        uuid = conv.get("uuid")
        conv_id = uuid if isinstance(uuid, str) and uuid else f"conversation-{i}"
        messages = conv.get("chat_messages")
        if not isinstance(messages, list):
            parsed.rejects.append(
                Reject(f"{path}#{conv_id}", "conversation without a 'chat_messages' list")
            )
            continue
        name = conv.get("name")
        title = name if isinstance(name, str) and name.strip() else None
        for j, msg in enumerate(messages):
            _read_message(parsed, path, read, conv_id, title, j, msg)
    return parsed


def _read_message(
    parsed: Parsed,
    path: str,
    read: Reading,
    conv_id: str,
    title: str | None,
    index: int,
    msg: object,
) -> None:
    """One chat message -> added to `parsed`, skipped, or rejected with its ref."""
    uuid = msg.get("uuid") if isinstance(msg, dict) else None
    msg_id = uuid if isinstance(uuid, str) and uuid else f"{conv_id}/{index}"
    ref = f"{path}#{msg_id}"
    if not isinstance(msg, dict):
        parsed.rejects.append(Reject(ref, "message is not an object"))
        return
    sender = msg.get("sender")
    if sender not in ("human", "assistant"):
        parsed.rejects.append(Reject(ref, f"unknown sender {sender!r}"))
        return
    text = _text(msg)
    if text is None:
        parsed.rejects.append(Reject(ref, "message without a 'content' list or 'text'"))
        return
    if not text.strip():
        parsed.skipped += 1
        return
    ts = iso_time(msg.get("created_at"))
    if isinstance(ts, str):
        parsed.rejects.append(Reject(ref, f"'created_at': {ts}"))
        return
    actor = own_speaker(read.user_name) if sender == "human" else ASSISTANT_SPEAKER
    parsed.records.append(message(KIND, read, ts, title, actor, text, ref, (conv_id, msg_id)))


def _text(msg: dict[str, Any]) -> str | None:
    """A message -> its text blocks joined (its `text` when it has no content list); None if neither."""
    content = msg.get("content")
    if isinstance(content, list):
        blocks = [
            b["text"]
            for b in content
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
        ]
        return "\n".join(t for t in blocks if t.strip())
    text = msg.get("text")
    return text if isinstance(text, str) else None
