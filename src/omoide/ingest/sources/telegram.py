"""Telegram Desktop's JSON export (`result.json`) -> chat events.

The source path is a `result.json` or a folder holding exports (searched recursively for
files of that name, hidden folders skipped; a message read twice is one event). Shape, as
Telegram Desktop writes it (telegramdesktop/tdesktop,
Telegram/SourceFiles/export/output/export_output_json.cpp; the test exports of
joweich/chat-miner, test/telegram/*.json):

    one chat ("Export chat history"):  {"name", "type", "id", "messages": [...]}
    everything ("Export Telegram data"): {"about", "personal_information": {"user_id", ...},
        ..., "chats": {"about", "list": [chat, ...]}, "left_chats": {"about", "list": [...]}}
    a message: {"id", "type": "message" | "service", "date": local ISO time without offset,
        "date_unixtime": "<epoch seconds>", "from", "from_id": "user123" | "channel456",
        "forwarded_from", "via_bot": "@gif", "photo" | "file" + "media_type" +
        "sticker_emoji", "text": a string, or a list of strings and entity objects
        {"type": "bold" | "link" | "mention" | ..., "text"}, "text_entities"}

What is read: messages of type "message" with text; `text` parts are joined into plain text
(an entity gives its text: a link's address, a mention's "@name"). The time is
`date_unixtime` (UTC by definition); `date`, the exporting computer's wall clock, is read in
the source's `timezone` only when the epoch is missing. Kept out and counted in the log as
skipped: service messages (joins, pins, calls, title changes), "unsupported" ones, and media
without a caption (photos, files, stickers, voice messages, polls, locations; `text` empty or,
from another writer, left out): a media marker is never anyone's text. A caption is the
person's words and kept.

The person: in a full export `personal_information.user_id` names the account, so messages
whose `from_id` is `user<that id>` are the user's; in a one-chat export of a personal or bot
chat the chat's `id` is the other party's, so the other user there is the user, and in
Saved Messages every message is. The user's messages get `actor` = `user_name`, or "me"
when it is unset (see chat_export); elsewhere the speaker whose name equals `user_name`
(case-insensitive) is the user, and other speakers keep their names ("Deleted Account" when
the export has none). Whose words a message carries: a forwarded message is spoken by the
one it was forwarded from (`forwarded_from`), a message sent through an inline bot
(`via_bot`) by that bot, and the other party of a bot chat is a bot: bots keep their name
with the "[bot]" mark (omoide.core.kinds.bot_speaker). Telegram's export does not flag a bot
posting in a group, so such a bot keeps a plain name.

The title is the chat's name, with the "[bot]" mark for a bot chat; Saved Messages (notes to
oneself) has none, so no one is taken for a partner there. `source_ref` is
`path#messages[id=N]`, in a full export `path#chats[id=C].messages[id=N]` (message ids
repeat across chats); the event id hashes the chat and message ids, so an edited message,
exported again, replaces itself. A message with a bad time, text or shape is a Reject
naming it, as is one whose `type`, `from`, `from_id`, `forwarded_from` or `via_bot` is
neither a string nor null; a damaged one-chat export loses only the damaged messages
(json_salvage); a file that is not such an export is one Reject naming the file; the rest
is read. A full export's `chats.list` or `left_chats.list` that is not a list is refused by
name (`path#chats.list`), the other one still read: no Telegram version writes an object
there, and taking its values for chats would be a guess. A one-chat export whose
`messages` is not a list is `path#messages`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from omoide.core.days import zone
from omoide.core.kinds import bot_speaker
from omoide.core.settings import SourceConfig
from omoide.ingest.sources.base import Collected, Reject
from omoide.ingest.sources.chat_export import (
    Parsed,
    Reading,
    collect_export,
    document,
    epoch_time,
    export_files,
    message,
    named_speaker,
    own_speaker,
)

KIND = "telegram"
FILE = "result.json"
NOT_EXPORT = "not a Telegram Desktop export: no 'messages' list and no 'chats' list"
_TWO_PARTY = ("personal_chat", "bot_chat")
_CHAT_LISTS = ("chats", "left_chats")
# A message's fields that say what it is and whose it is, when present: strings (or null, as
# Telegram writes `from` for a deleted account); another type is rejected, never guessed.
_NAMES = ("type", "from", "from_id", "forwarded_from", "via_bot")
# The keys of a message that carries media (a photo, file, sticker, voice or video message,
# poll, place, contact): without words of its own it is a marker, not anyone's text.
_MEDIA = ("photo", "file", "media_type", "poll", "location_information", "contact_information")
DELETED_ACCOUNT = "Deleted Account"


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """result.json or export folder + UTC [start, end) -> chat events of the window and rejects."""
    files = export_files(source, FILE, "Telegram Desktop export (result.json)")
    return collect_export(KIND, source, files, parse_export, start, end, now)


def parse_export(data: bytes, path: str, read: Reading) -> Parsed:
    """result.json bytes + reading -> every message of its chats, and what it could not use."""
    parsed = Parsed()
    doc = document(data, path, parsed, "messages", label="message")
    if doc is None:
        return parsed
    if isinstance(doc, dict) and isinstance(doc.get("messages"), list):
        _read_chat(parsed, path, read, doc, f"{path}#", None)
        return parsed
    chats = _chat_lists(doc, path, parsed)
    if chats is None:
        messages = isinstance(doc, dict) and "messages" in doc
        parsed.rejects.append(
            Reject(f"{path}#messages", "'messages' is not a list")
            if messages
            else Reject(path, NOT_EXPORT)
        )
        return parsed
    me = _object(doc.get("personal_information")).get("user_id")
    account = f"user{me}" if isinstance(me, int | str) and str(me) else None
    for i, chat in enumerate(chats):
        if not isinstance(chat, dict) or not isinstance(chat.get("messages"), list):
            parsed.rejects.append(Reject(f"{path}#chats[{i}]", "chat without a 'messages' list"))
            continue
        _read_chat(parsed, path, read, chat, f"{path}#chats[id={chat.get('id')}].", account)
    return parsed


def _chat_lists(doc: object, path: str, parsed: Parsed) -> list[object] | None:
    """A full export -> its chats and left chats, or None when it names neither; a part not shaped as Telegram writes it is rejected by name.

    Telegram writes `chats` and `left_chats` as objects holding a `list`: a `list` that is
    an object, or a `chats` that is not an object, is damage (no Telegram version writes
    it), named `path#chats.list` or `path#chats`, never read as an export with no chats.
    """
    if not isinstance(doc, dict) or not any(key in doc for key in _CHAT_LISTS):
        return None
    chats: list[object] = []
    for key in (k for k in _CHAT_LISTS if k in doc):
        found = doc[key].get("list") if isinstance(doc[key], dict) else None
        if isinstance(found, list):
            chats += found
        elif not isinstance(doc[key], dict):
            parsed.rejects.append(
                Reject(f"{path}#{key}", f"'{key}' is not an object with a 'list'")
            )
        else:
            parsed.rejects.append(Reject(f"{path}#{key}.list", "not a list of chats"))
    return chats


def _read_chat(
    parsed: Parsed,
    path: str,
    read: Reading,
    chat: dict[str, Any],
    prefix: str,
    account: str | None,
) -> None:
    """One chat object (+ the account's from_id when the export names it) -> its messages added."""
    kind, chat_id = chat.get("type"), chat.get("id")
    title = _string(chat.get("name")) or None  # Saved Messages has none: no one else is there
    if title and kind == "bot_chat":
        title = bot_speaker(title)  # a program, never taken for a person one talks with
    peer = f"user{chat_id}" if kind in _TWO_PARTY else None
    own = {account} if account else set()
    if kind == "saved_messages":
        own.add(f"user{chat_id}")
    guess = account is None and peer is not None
    who = _Speakers(read.user_name, frozenset(own), peer, kind == "bot_chat", guess)
    key = str(chat_id) if chat_id is not None else path
    for i, msg in enumerate(chat["messages"]):
        _read_message(parsed, read, who, key, title, prefix, i, msg)


@dataclass(frozen=True)
class _Speakers:
    """How a chat's senders become actors: the user's ids, the other party, bots."""

    user_name: str
    own: frozenset[str]  # from_ids of the user's account
    peer: str | None  # from_id of the other party of a personal or bot chat
    bot_peer: bool  # the other party is a bot (a bot chat)
    guess: bool  # no account id known: the user is the two-party chat's user who is not the peer

    def actor(self, msg: dict[str, Any]) -> str:
        """A message -> who said its words."""
        if "forwarded_from" in msg:
            return named_speaker(
                [_string(msg["forwarded_from"]) or DELETED_ACCOUNT], self.user_name
            )
        if isinstance(msg.get("via_bot"), str) and msg["via_bot"].strip("@ "):
            return bot_speaker(msg["via_bot"].strip("@ "))
        sender = _string(msg.get("from_id"))
        name = _string(msg.get("from")) or DELETED_ACCOUNT
        if sender in self.own or (self.guess and sender.startswith("user") and sender != self.peer):
            return own_speaker(self.user_name)
        if self.bot_peer and sender == self.peer:
            return bot_speaker(name)
        return named_speaker([name], self.user_name)


def _read_message(
    parsed: Parsed,
    read: Reading,
    who: _Speakers,
    chat_key: str,
    title: str | None,
    prefix: str,
    index: int,
    msg: object,
) -> None:
    """One exported message -> added to `parsed`, skipped, or rejected with its ref."""
    msg_id = msg.get("id") if isinstance(msg, dict) else None
    if not isinstance(msg, dict) or isinstance(msg_id, bool) or not isinstance(msg_id, int):
        parsed.rejects.append(Reject(f"{prefix}messages[{index}]", "message without an 'id'"))
        return
    ref = f"{prefix}messages[id={msg_id}]"
    wrong = next((k for k in _NAMES if not isinstance(msg.get(k), str | None)), None)
    if wrong is not None:
        parsed.rejects.append(Reject(ref, f"'{wrong}' is not a string"))
        return
    if msg.get("type", "message") != "message":
        parsed.skipped += 1  # service notices, unsupported media
        return
    if "text" not in msg and any(k in msg for k in _MEDIA):
        parsed.skipped += 1  # media without a caption, from a writer that leaves 'text' out
        return
    text = plain_text(msg.get("text"))
    if text is None:
        parsed.rejects.append(Reject(ref, "'text' is neither text nor a list of text parts"))
        return
    if not text.strip():
        parsed.skipped += 1  # media without a caption, or nothing at all
        return
    ts = _time(msg, read.timezone)
    if isinstance(ts, str):
        parsed.rejects.append(Reject(ref, ts))
        return
    record = message(KIND, read, ts, title, who.actor(msg), text, ref, (chat_key, msg_id))
    parsed.records.append(record)


def plain_text(value: object) -> str | None:
    """A message's `text` (a string, or strings and entity objects) -> plain text, None if neither."""
    if isinstance(value, str):
        return value
    if not isinstance(value, list):
        return None
    parts = []
    for part in value:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict) and isinstance(part.get("text"), str):
            parts.append(part["text"])
        else:
            return None
    return "".join(parts)


def _time(msg: dict[str, Any], tz: str) -> datetime | str:
    """A message -> its UTC time (the epoch, else the local `date` in tz), or why it has none."""
    raw = msg.get("date_unixtime")
    if isinstance(raw, str) and raw.strip().isdigit():
        return epoch_time(int(raw))
    if raw is not None:
        return f"'date_unixtime' is not epoch seconds: {str(raw)[:40]!r}"
    date = msg.get("date")
    try:
        local = datetime.fromisoformat(date) if isinstance(date, str) else None
    except ValueError:
        local = None
    if local is None:
        return "no 'date_unixtime' and no readable 'date'"
    if local.tzinfo is None:
        local = local.replace(tzinfo=zone(tz))
    return local.astimezone(UTC)


def _object(value: object) -> dict[str, Any]:
    """A JSON value -> it when it is an object, else an empty one."""
    return value if isinstance(value, dict) else {}


def _string(value: object) -> str:
    """A JSON value -> it when it is a string, else ''."""
    return value if isinstance(value, str) else ""
