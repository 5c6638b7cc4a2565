"""Slack workspace exports (the unzipped folder) -> chat events.

The source path is the export's folder, as Slack's "Export data" gives it once unzipped; a
`.zip` is refused with a message saying to unzip it (the interface names the folder, and a
folder lets each day read only the files around it).

Shape, as checked against Slack's "How to read Slack data exports" (slack.com/help/articles/
220556107), its message formatting and subtype references (api.slack.com/reference/surfaces/
formatting, api.slack.com/events/message) and hfaran/slack-export-viewer (slackviewer/
reader.py, formatter.py, user.py): `users.json` (`org_users.json` in an Enterprise Grid
export) lists `{id, name, real_name, deleted, is_bot, profile: {display_name, real_name}}`;
`channels.json` and `groups.json` (private channels) list `{id, name, members}`, `dms.json`
`{id, members}`, `mpims.json` (group direct messages) `{id, name, members}`. Each
conversation is a folder (channels, private channels and group DMs by name, direct messages
by id) holding one `YYYY-MM-DD.json` per day with a list of messages `{type: "message",
subtype?, user, text, ts: "1700000000.123456", thread_ts?, bot_id?, username?, user_profile?,
files?, attachments?, ...}`; `ts` is epoch seconds as text and the message's id in its
conversation.

Which files a day reads: the day files named from the day before the window's first UTC date
to the day after its last (Slack names them by a day of its own; every zone is within a day
of UTC), every message kept whose `ts` lies in the window. A day file's own damage (not JSON,
a message without `ts`) is reported on the day whose window holds noon UTC of the file's
date, once, not on each neighbour that reads it. Files in a conversation folder not named
`YYYY-MM-DD.json` are not part of the format and not read; a folder no metadata file lists
is read with its name as the title.

What is read: messages without a subtype and those whose subtype is still someone's words
(`thread_broadcast`, `reply_broadcast`, `me_message`, `file_share`, `file_comment`,
`bot_message`). The other subtypes (`channel_join`, `channel_leave`, `channel_topic`,
`channel_purpose`, `channel_name`, `pinned_item`, `tombstone`, ...) and hidden messages are
system lines, skipped and counted. Files shared are placeholders: a message that is only a
file is skipped and counted, its words are kept without the file. Link previews
(`attachments`) are not anyone's words and are left out.

Text: Slack's mrkdwn made plain (slack_text): mentions become `@` and the shown name,
channel links `#name`, links `label (address)`, the escaped `&`, `<`, `>` unescaped.

Speakers: the user's shown name. The person is the user whose `name`, `real_name` or
`display_name` equals `user_name` (case-insensitive), written as `user_name` (see
chat_export); Slack has no marker of "me", so with no `user_name` every speaker keeps their
name. A bot (users.json's `is_bot`, a message with `bot_id` or subtype `bot_message`) keeps
its name (`username`, `bot_profile.name`, else its user's) with the "[bot]" mark
(omoide.core.kinds.bot_speaker). Title: `#channel` for channels and private channels, the
other members' shown names for direct and group messages (all members when `user_name`
names none of them). `source_ref` is `path/<folder>/<day>.json#ts=<ts>`; the event id hashes
the conversation's id and `ts`, so a later export of the same workspace gives the same ids.

Damage: users.json that cannot be read as a whole is a SourceError naming it (no name could
be told); a damaged entry of a metadata file is a Reject naming `file#<label>-N`, reported on
every day (it belongs to none). A day file that is not text or not JSON is a Reject naming
it (salvaged message by message when it is a damaged list), a message without `ts` or with
an impossible one a Reject naming `file#ts=…` or `file#message-N`.
"""

from __future__ import annotations

import functools
import logging
import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from omoide.core.errors import SourceError
from omoide.core.kinds import bot_speaker
from omoide.core.settings import SourceConfig
from omoide.ingest.sources.base import (
    Collected,
    Reject,
    events_frame,
    impossible,
    not_a_file,
    read_source,
)
from omoide.ingest.sources.chat_export import (
    Parsed,
    Reading,
    document,
    message,
    named_speaker,
    reading,
)
from omoide.ingest.sources.slack_text import plain_text
from omoide.ingest.sources.text_files import utf8_text

log = logging.getLogger(__name__)

KIND = "slack"
_USERS = ("users.json", "org_users.json")
_CONVERSATIONS = ("channels.json", "groups.json", "mpims.json", "dms.json")
_DAY_FILE = re.compile(r"(\d{4}-\d{2}-\d{2})\.json")
_TS = re.compile(r"(\d{1,12})(?:\.(\d{1,6}))?")
_SPOKEN = frozenset(
    {"thread_broadcast", "reply_broadcast", "me_message", "file_share", "file_comment"}
)
_BOT_SUBTYPES = frozenset({"bot_message"})


@dataclass(frozen=True)
class _Person:
    """A users.json entry: its names (shown first) and whether it is a program."""

    names: tuple[str, ...]
    bot: bool


@dataclass(frozen=True)
class _Conversation:
    """One conversation folder: its name on disk, its id (the event ids' key), its title."""

    folder: str
    cid: str
    title: str


@dataclass
class _Workspace:
    """What the export's metadata files say: people, channel names, conversations, damage."""

    users: dict[str, _Person] = field(default_factory=dict)
    shown: dict[str, str] = field(default_factory=dict)  # user id -> the name Slack shows
    channels: dict[str, str] = field(default_factory=dict)
    conversations: list[_Conversation] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """Slack export folder + UTC [start, end) -> chat events of the window and rejects."""
    root = source.path
    if root is None or not root.exists():
        raise SourceError(root or source.name, "no such Slack export folder")
    if not root.is_dir():
        why = "a .zip: unzip it and set `path` to the folder" if root.suffix == ".zip" else ""
        raise SourceError(root, why or "a Slack export is a folder, not a file")
    read = reading(source)
    ws = _workspace(root, _state(root), read.user_name)
    first, last = (start - timedelta(days=1)).date(), (end + timedelta(days=1)).date()
    records: list[dict[str, Any]] = []
    rejects = list(ws.rejects)
    skipped = files = 0
    for conv in ws.conversations:
        for day, path in _day_files(root / conv.folder, first, last):
            noon = datetime.combine(day, time(12), UTC)
            reports = start <= noon < end  # a file's damage belongs to the day it is named by
            why = not_a_file(path)
            if why is not None:
                rejects += [Reject(str(path), f"Slack day file is {why}")] if reports else []
                continue
            files += 1
            parsed = _parsed_day(path, ws, conv, read, now)
            records += [r for r in parsed.records if start <= r["ts"] < end]
            rejects += parsed.rejects if reports else []
            skipped += parsed.skipped
    log.info(
        "slack: %d day file(s), %d event(s), %d rejected, %d system line(s) and file(s) skipped",
        files,
        len(records),
        len(rejects),
        skipped,
    )
    fixed: Counter[str] = Counter()
    return Collected(events_frame(records, now, fixed, rejects), rejects, dict(fixed))


def _state(root: Path) -> tuple[tuple[str, int, int, int], ...]:
    """Export folder -> (name, inode, size, mtime) of it and each metadata file there: its version.

    The folder's own mtime changes when a conversation folder is added or removed.
    """
    out = []
    for name in ("", *_USERS, *_CONVERSATIONS):
        try:
            st = (root / name).stat()
        except OSError:
            continue
        out.append((name, st.st_ino, st.st_size, st.st_mtime_ns))
    return tuple(out)


@functools.lru_cache(maxsize=8)
def _workspace(
    root: Path, state: tuple[tuple[str, int, int, int], ...], user_name: str
) -> _Workspace:
    """Export folder (+ its metadata files' version, the user's name) -> people and conversations, read once per version."""
    ws = _Workspace()
    users = next((root / n for n in _USERS if (root / n).exists()), None)
    if users is None:
        raise SourceError(root, "not a Slack export: no users.json (or org_users.json) here")
    for _, entry in _entries(users, ws, "user", whole=True):
        ws.users[entry["id"]] = _person(entry)
        ws.shown[entry["id"]] = ws.users[entry["id"]].names[0]
    me = {
        uid
        for uid, p in ws.users.items()
        if user_name and not p.bot and any(n.casefold() == user_name.casefold() for n in p.names)
    }
    listed: set[str] = set()
    for name in _CONVERSATIONS:
        if not (root / name).exists():
            continue
        for _, entry in _entries(root / name, ws, "conversation"):
            conv = _conversation(root / name, entry, ws, me)
            if conv is not None:
                ws.conversations.append(conv)
                listed.add(conv.folder)
    with os.scandir(root) as found:
        unlisted = sorted(e.name for e in found if e.is_dir() and e.name not in listed)
    ws.conversations += [_Conversation(n, n, n) for n in unlisted if not n.startswith(".")]
    return ws


def _entries(
    path: Path, ws: _Workspace, label: str, whole: bool = False
) -> Iterator[tuple[int, dict[str, Any]]]:
    """A metadata file -> (position, entry) of each object with an 'id'; the rest rejected into ws.

    `whole`: a file that cannot be read at all is a SourceError naming it, not a Reject.
    """
    parsed = Parsed()
    try:
        data = utf8_text(read_source(path), path)
    except SourceError as exc:
        if whole:
            raise
        ws.rejects.append(Reject(str(path), exc.reason))
        return
    doc = document(data, str(path), parsed, label=label)
    if whole and (doc is None or not isinstance(doc, list)):
        reason = parsed.rejects[-1].reason if doc is None else f"not a list of {label}s"
        raise SourceError(path, reason)
    ws.rejects.extend(parsed.rejects)
    if not isinstance(doc, list):
        if doc is not None:
            ws.rejects.append(Reject(str(path), f"not a list of {label}s"))
        return
    for i, entry in enumerate(doc):
        if isinstance(entry, dict) and isinstance(entry.get("id"), str) and entry["id"]:
            yield i, entry
        else:
            ws.rejects.append(
                Reject(f"{path}#{label}-{i}", f"{label} is not an object with an 'id'")
            )


def _person(entry: dict[str, Any]) -> _Person:
    """A users.json entry -> its names, the one Slack shows first, and whether it is a bot."""
    profile = _object(entry.get("profile"))
    display = _text(profile.get("display_name")) or _text(entry.get("display_name"))
    real = _text(profile.get("real_name")) or _text(entry.get("real_name"))
    names = tuple(dict.fromkeys(n for n in (display, real, _text(entry.get("name"))) if n))
    return _Person(names or (entry["id"],), entry.get("is_bot") is True)


def _conversation(
    path: Path, entry: dict[str, Any], ws: _Workspace, me: set[str]
) -> _Conversation | None:
    """A metadata file + entry + people + the user's ids -> the conversation, or None (rejected)."""
    cid, name, kind = entry["id"], _text(entry.get("name")), path.name
    if kind in ("channels.json", "groups.json"):
        if not name:
            ws.rejects.append(Reject(f"{path}#{cid}", "channel without a 'name'"))
            return None
        ws.channels[cid] = name
        return _Conversation(name, cid, f"#{name}")
    members = [m for m in entry.get("members") or [] if isinstance(m, str)]
    others = [m for m in members if m not in me] or members
    shown = [ws.users[m].names[0] if m in ws.users else m for m in others]
    title = ", ".join(dict.fromkeys(shown)) or name or cid
    return _Conversation(name if kind == "mpims.json" and name else cid, cid, title)


def _day_files(folder: Path, first: date, last: date) -> list[tuple[date, Path]]:
    """A conversation folder + dates -> its day files named within them, in order."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    out = []
    for name in sorted(names):
        m = _DAY_FILE.fullmatch(name)
        if m is None:
            continue
        try:
            day = date.fromisoformat(m[1])
        except ValueError:
            continue
        if first <= day <= last:
            out.append((day, folder / name))
    return out


def _parsed_day(
    path: Path, ws: _Workspace, conv: _Conversation, read: Reading, now: datetime
) -> Parsed:
    """One day file + workspace + conversation -> its messages, and what it could not use."""
    parsed = Parsed()
    try:
        data = utf8_text(read_source(path), path)
    except SourceError as exc:
        parsed.rejects.append(Reject(str(path), exc.reason))
        return parsed
    doc = document(data, str(path), parsed, label="message")
    if doc is None:
        return parsed
    if not isinstance(doc, list):
        parsed.rejects.append(Reject(str(path), "not a Slack day file: not a list of messages"))
        return parsed
    for i, msg in enumerate(doc):
        _read_message(parsed, str(path), ws, conv, read, now, i, msg)
    return parsed


def _read_message(
    parsed: Parsed,
    path: str,
    ws: _Workspace,
    conv: _Conversation,
    read: Reading,
    now: datetime,
    index: int,
    msg: object,
) -> None:
    """One exported message -> added to `parsed`, skipped (counted), or rejected with its ref."""
    if not isinstance(msg, dict):
        parsed.rejects.append(Reject(f"{path}#message-{index}", "message is not an object"))
        return
    ts_text = msg.get("ts")
    found = _TS.fullmatch(ts_text) if isinstance(ts_text, str) else None
    if found is None:
        reason = "message without Slack's 'ts' (epoch seconds as text)"
        parsed.rejects.append(Reject(f"{path}#message-{index}", reason))
        return
    ref = f"{path}#ts={ts_text}"
    subtype = msg.get("subtype")
    bot = subtype in _BOT_SUBTYPES or bool(msg.get("bot_id"))
    if msg.get("type", "message") != "message" or msg.get("hidden") is True:
        parsed.skipped += 1
        return
    if subtype is not None and subtype not in _SPOKEN and subtype not in _BOT_SUBTYPES:
        parsed.skipped += 1  # a system line: joined, left, topic, pinned, deleted
        return
    text = msg.get("text", "")
    if not isinstance(text, str):
        parsed.rejects.append(Reject(ref, "'text' is not a string"))
        return
    text = plain_text(text, ws.shown, ws.channels).strip()
    if not text:
        parsed.skipped += 1  # only a file (a placeholder), or nothing
        return
    try:
        seconds, micro = int(found[1]), int((found[2] or "0").ljust(6, "0"))
        ts = datetime.fromtimestamp(seconds, UTC) + timedelta(microseconds=micro)
    except (OverflowError, OSError, ValueError):
        parsed.rejects.append(Reject(ref, "'ts': timestamp out of range"))
        return
    if why := impossible(ts, now):
        parsed.rejects.append(Reject(ref, why))
        return
    actor = _actor(msg, ws, read.user_name, bot)
    parsed.records.append(
        message(KIND, read, ts, conv.title, actor, text, ref, (conv.cid, ts_text))
    )


def _actor(msg: dict[str, Any], ws: _Workspace, user_name: str, bot: bool) -> str:
    """A message + people + the user's name -> who spoke: the user's name, a person's, or a marked bot."""
    uid = _text(msg.get("user"))
    person = ws.users.get(uid)
    if person is not None:
        names = list(person.names)
        bot = bot or person.bot
    else:
        profile = _object(msg.get("user_profile"))
        names = [_text(profile.get(k)) for k in ("display_name", "real_name", "name")]
        names = [n for n in names if n] or [uid]
    if bot:
        label = _text(msg.get("username")) or _text(_object(msg.get("bot_profile")).get("name"))
        return bot_speaker(label or next((n for n in names if n), "") or _text(msg.get("bot_id")))
    return named_speaker(names, user_name)


def _object(value: object) -> dict[str, Any]:
    """A JSON value -> it when it is an object, else an empty one."""
    return value if isinstance(value, dict) else {}


def _text(value: object) -> str:
    """A JSON value -> it when it is a string, else ''."""
    return value.strip() if isinstance(value, str) else ""
