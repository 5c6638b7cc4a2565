"""A Slack export's metadata files (users, channels, private channels, group and direct messages) -> its people and conversations.

Read once per version of the files (their identity, size and times, and the export
folder's, which changes when a conversation folder comes or goes). See omoide.ingest.sources.slack
for the format. Damage: users.json that cannot be read as a whole is a SourceError naming it
(no name could be told); a damaged entry of a metadata file is a Reject naming
`file#<label>-N` (or `file#<id>` for an entry with an id whose fields are of the wrong
type), and an entry of the export folder that cannot be told a file or a folder (a broken
or looping link) a Reject naming it: reported on every day (they belong to none).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from omoide.core.errors import SourceError
from omoide.ingest.sources.base import Reject, read_source, subfolders
from omoide.ingest.sources.chat_export import Parsed, document
from omoide.ingest.sources.text_files import utf8_text

USERS = ("users.json", "org_users.json")
CONVERSATIONS = ("channels.json", "groups.json", "mpims.json", "dms.json")
State = tuple[tuple[str, int, int, int], ...]


@dataclass(frozen=True)
class Person:
    """A users.json entry: its names (shown first) and whether it is a program."""

    names: tuple[str, ...]
    bot: bool


@dataclass(frozen=True)
class Conversation:
    """One conversation folder: its name on disk, its id (the event ids' key), its title."""

    folder: str
    cid: str
    title: str


@dataclass
class Workspace:
    """What the export's metadata files say: people, channel names, conversations, damage."""

    users: dict[str, Person] = field(default_factory=dict)
    shown: dict[str, str] = field(default_factory=dict)  # user id -> the name Slack shows
    channels: dict[str, str] = field(default_factory=dict)
    conversations: list[Conversation] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)


def workspace(root: Path, user_name: str) -> Workspace:
    """Export folder + the user's name -> its people and conversations (cached per version of its files)."""
    return _workspace(root, _state(root), user_name)


def _state(root: Path) -> State:
    """Export folder -> (name, inode, size, mtime) of it and each metadata file there: its version."""
    out = []
    for name in ("", *USERS, *CONVERSATIONS):
        try:
            st = (root / name).stat()
        except OSError:
            continue
        out.append((name, st.st_ino, st.st_size, st.st_mtime_ns))
    return tuple(out)


@functools.lru_cache(maxsize=8)
def _workspace(root: Path, state: State, user_name: str) -> Workspace:
    """Export folder (+ its metadata files' version, the user's name) -> people and conversations."""
    ws = Workspace()
    # lexists: a broken or looping users.json is named as such by its reader, not "missing".
    users = next((root / n for n in USERS if os.path.lexists(root / n)), None)
    if users is None:
        raise SourceError(root, "not a Slack export: no users.json (or org_users.json) here")
    for _, entry in _entries(users, ws, "user", whole=True):
        ws.users[entry["id"]] = person(entry)
        ws.shown[entry["id"]] = ws.users[entry["id"]].names[0]
    me = {
        uid
        for uid, p in ws.users.items()
        if user_name and not p.bot and any(n.casefold() == user_name.casefold() for n in p.names)
    }
    listed: set[str] = set()
    for name in CONVERSATIONS:
        if not os.path.lexists(root / name):
            continue
        for _, entry in _entries(root / name, ws, "conversation"):
            conv = _conversation(root / name, entry, ws, me)
            if conv is not None:
                ws.conversations.append(conv)
                listed.add(conv.folder)
    folders, odd = subfolders(root, "an entry of the Slack export")
    # A metadata file that is such a link is named by its reader above.
    ws.rejects += [r for r in odd if Path(r.ref).name not in (*USERS, *CONVERSATIONS)]
    ws.conversations += [Conversation(n, n, n) for n in folders if n not in listed]
    return ws


def _entries(
    path: Path, ws: Workspace, label: str, whole: bool = False
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


def person(entry: dict[str, Any]) -> Person:
    """A users.json entry -> its names, the one Slack shows first, and whether it is a bot."""
    profile = as_object(entry.get("profile"))
    display = as_text(profile.get("display_name")) or as_text(entry.get("display_name"))
    real = as_text(profile.get("real_name")) or as_text(entry.get("real_name"))
    names = tuple(dict.fromkeys(n for n in (display, real, as_text(entry.get("name"))) if n))
    return Person(names or (entry["id"],), entry.get("is_bot") is True)


def _conversation(
    path: Path, entry: dict[str, Any], ws: Workspace, me: set[str]
) -> Conversation | None:
    """A metadata file + entry + people + the user's ids -> the conversation, or None (rejected)."""
    cid, name, kind = entry["id"], as_text(entry.get("name")), path.name
    if kind in ("channels.json", "groups.json"):
        if not name:
            ws.rejects.append(Reject(f"{path}#{cid}", "channel without a 'name'"))
            return None
        ws.channels[cid] = name
        return Conversation(name, cid, f"#{name}")
    members = entry.get("members")
    if not isinstance(members, list | None):
        # A string would be read letter by letter, a number not at all: its messages are
        # still read, titled by the conversation's name or id.
        ws.rejects.append(Reject(f"{path}#{cid}", "'members' is not a list"))
        members = None
    members = [m for m in members or [] if isinstance(m, str)]
    others = [m for m in members if m not in me] or members
    shown = [ws.users[m].names[0] if m in ws.users else m for m in others]
    title = ", ".join(dict.fromkeys(shown)) or name or cid
    return Conversation(name if kind == "mpims.json" and name else cid, cid, title)


def as_object(value: object) -> dict[str, Any]:
    """A JSON value -> it when it is an object, else an empty one."""
    return value if isinstance(value, dict) else {}


def as_text(value: object) -> str:
    """A JSON value -> it when it is a string, else ''."""
    return value.strip() if isinstance(value, str) else ""
