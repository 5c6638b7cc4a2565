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

Damage: the metadata files' and the export folder's (slack_workspace): users.json that
cannot be read as a whole is a SourceError naming it; a damaged entry, or an entry of the
folder that is a broken or looping link, a Reject naming it on every day (it belongs to
none). A day file that is not text or not JSON is a Reject naming it (salvaged message by
message when it is a damaged list; a list cut short is a Reject naming where it ends), a
message without `ts` or with an impossible one a Reject naming `file#ts=…` or
`file#message-N`, as is one whose `type`, `subtype` or `user` is not a string or whose
`hidden` is not true or false (never guessed into a system line or no one's words).
"""

from __future__ import annotations

import logging
import os
import re
from collections import Counter
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
from omoide.ingest.sources.slack_workspace import (
    Conversation,
    Workspace,
    as_object,
    as_text,
    workspace,
)
from omoide.ingest.sources.text_files import utf8_text

log = logging.getLogger(__name__)

KIND = "slack"
_DAY_FILE = re.compile(r"(\d{4}-\d{2}-\d{2})\.json")
_TS = re.compile(r"(\d{1,12})(?:\.(\d{1,6}))?")
_SPOKEN = frozenset(
    {"thread_broadcast", "reply_broadcast", "me_message", "file_share", "file_comment"}
)
_BOT_SUBTYPES = frozenset({"bot_message"})
# The fields that decide whether and whose a message is, with the JSON type Slack writes.
_TYPED: dict[str, type] = {"type": str, "subtype": str, "user": str, "hidden": bool}
_TYPE_NAMES = {str: "a string", bool: "true or false"}


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """Slack export folder + UTC [start, end) -> chat events of the window and rejects."""
    root = source.path
    if root is None or not root.exists():
        raise SourceError(root or source.name, "no such Slack export folder")
    if not root.is_dir():
        why = "a .zip: unzip it and set `path` to the folder" if root.suffix == ".zip" else ""
        raise SourceError(root, why or "a Slack export is a folder, not a file")
    read = reading(source)
    ws = workspace(root, read.user_name)
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
    path: Path, ws: Workspace, conv: Conversation, read: Reading, now: datetime
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
    ws: Workspace,
    conv: Conversation,
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
    wrong = next((k for k, t in _TYPED.items() if not isinstance(msg.get(k), t | None)), None)
    if wrong is not None:
        # Never guessed at: a subtype that is a list would even fail the set lookup below.
        parsed.rejects.append(Reject(ref, f"'{wrong}' is not {_TYPE_NAMES[_TYPED[wrong]]}"))
        return
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


def _actor(msg: dict[str, Any], ws: Workspace, user_name: str, bot: bool) -> str:
    """A message + people + the user's name -> who spoke: the user's name, a person's, or a marked bot."""
    uid = as_text(msg.get("user"))
    person = ws.users.get(uid)
    if person is not None:
        names = list(person.names)
        bot = bot or person.bot
    else:
        profile = as_object(msg.get("user_profile"))
        names = [as_text(profile.get(k)) for k in ("display_name", "real_name", "name")]
        names = [n for n in names if n] or [uid]
    if bot:
        made_by = as_object(msg.get("bot_profile"))
        label = as_text(msg.get("username")) or as_text(made_by.get("name"))
        return bot_speaker(label or next((n for n in names if n), "") or as_text(msg.get("bot_id")))
    return named_speaker(names, user_name)
