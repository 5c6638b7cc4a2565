"""ChatGPT's data export (`conversations.json`) -> chat events.

The source path is the export's `conversations.json` or the unzipped export folder (searched
recursively for files of that name, hidden folders skipped; several exports in one folder
are merged, a message read twice is one event).

Shape, as checked against public descriptions of the export (mitkury/chatgpt-export-parser,
docs/chatgpt-data-export-format.md, and the parsers found by a code search): a list of
conversations, each `{"id", "title", "create_time", "current_node", "mapping"}` where
`mapping` maps node ids to `{"id", "message", "parent", "children"}` and a message is
`{"id", "author": {"role"}, "create_time": epoch seconds, "content": {"content_type",
"parts"}, "metadata", "recipient"}`.

Which messages: the conversation as the app shows it, the branch from the root to
`current_node` (regenerated answers and edited questions left on other branches are not
read); when `current_node` is missing or unknown, every node in the mapping's order. A
message is kept when its role is "user" or "assistant", it is not hidden
(`metadata.is_visually_hidden_from_conversation`), it is addressed to everyone (an
assistant's `recipient` other than "all" is a tool call) and its content type is "text" or
"multimodal_text". Its text is its string parts (and the text of a voice message's
`audio_transcription` part) joined by newlines; other parts (images, audio, files) are
left out, and a message left with no text is skipped (counted in the log, not an event).

Speakers: the user's turns are `user_name` (or "me" when unset), ChatGPT's "assistant"
(see chat_export). The title is the conversation's title. `source_ref` is
`path#<message id>`; the event id hashes the conversation and message ids, so a newer
export of the same conversations gives the same events. A message with a bad time, or a
node or message of the wrong shape, is a Reject naming `path#<id>`; the rest is read.
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
    epoch_time,
    export_files,
    message,
    own_speaker,
)

KIND = "chatgpt"
FILE = "conversations.json"
_ROLES = ("user", "assistant")
_TEXT_TYPES = ("text", "multimodal_text")


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """conversations.json or export folder + UTC [start, end) -> chat events of the window and rejects."""
    files = export_files(source, FILE, "ChatGPT export")
    return collect_export(KIND, source, files, parse_export, start, end, now)


def parse_export(data: bytes, path: str, read: Reading) -> Parsed:
    """conversations.json bytes + reading -> every message it holds, and what it could not use."""
    parsed = Parsed()
    for i, conv in conversations(data, path, parsed, "ChatGPT"):
        conv_id = _text(conv.get("id")) or _text(conv.get("conversation_id")) or f"conversation-{i}"
        mapping = conv.get("mapping")
        if not isinstance(mapping, dict):
            parsed.rejects.append(
                Reject(f"{path}#{conv_id}", "conversation without a 'mapping' object")
            )
            continue
        title = _text(conv.get("title")) or None
        for node_id in _thread(mapping, conv.get("current_node")):
            _read_node(parsed, path, read, conv_id, title, node_id, mapping[node_id])
    return parsed


def _thread(mapping: dict[str, Any], current: object) -> list[str]:
    """A conversation's nodes + its current node -> the node ids of the shown branch, root first."""
    if not isinstance(current, str) or current not in mapping:
        return list(mapping)
    chain: list[str] = []
    seen: set[str] = set()  # a damaged export can loop
    node_id: object = current
    while isinstance(node_id, str) and node_id in mapping and node_id not in seen:
        chain.append(node_id)
        seen.add(node_id)
        node = mapping[node_id]
        node_id = node.get("parent") if isinstance(node, dict) else None
    return chain[::-1]


def _read_node(
    parsed: Parsed,
    path: str,
    read: Reading,
    conv_id: str,
    title: str | None,
    node_id: str,
    node: object,
) -> None:
    """One mapping node -> its message added to `parsed`, skipped, or rejected with its ref."""
    if not isinstance(node, dict):
        parsed.rejects.append(Reject(f"{path}#{node_id}", "mapping node is not an object"))
        return
    msg = node.get("message")
    if msg is None:
        return  # the root placeholder
    if not isinstance(msg, dict):
        parsed.rejects.append(Reject(f"{path}#{node_id}", "message is not an object"))
        return
    msg_id = _text(msg.get("id")) or node_id
    ref = f"{path}#{msg_id}"
    author = msg.get("author")
    role = author.get("role") if isinstance(author, dict) else None
    if not isinstance(role, str):
        parsed.rejects.append(Reject(ref, "message without an author role"))
        return
    metadata = msg.get("metadata")
    hidden = isinstance(metadata, dict) and metadata.get("is_visually_hidden_from_conversation")
    content = msg.get("content")
    if role not in _ROLES or hidden or msg.get("recipient", "all") not in ("all", None):
        parsed.skipped += 1
        return
    if not isinstance(content, dict) or not isinstance(content.get("parts", []), list):
        parsed.rejects.append(Reject(ref, "message content is not an object with a 'parts' list"))
        return
    text = _parts_text(content.get("parts", []))
    if content.get("content_type") not in _TEXT_TYPES or not text.strip():
        parsed.skipped += 1
        return
    ts = epoch_time(msg.get("create_time"))
    if isinstance(ts, str):
        parsed.rejects.append(Reject(ref, f"'create_time': {ts}"))
        return
    actor = own_speaker(read.user_name) if role == "user" else ASSISTANT_SPEAKER
    parsed.records.append(message(KIND, read, ts, title, actor, text, ref, (conv_id, msg_id)))


def _parts_text(parts: list[Any]) -> str:
    """A message's content parts -> its text: string parts and voice transcriptions, one per line."""
    texts = [
        p
        if isinstance(p, str)
        else p.get("text", "")
        if isinstance(p, dict) and p.get("content_type") == "audio_transcription"
        else ""
        for p in parts
    ]
    return "\n".join(t for t in texts if isinstance(t, str) and t.strip())


def _text(value: object) -> str:
    """A JSON value -> it when it is a string, else ''."""
    return value if isinstance(value, str) else ""
