"""The lake's notes and chats -> a fine-tuning set of the user's own writing, as chat-messages JSONL.

The common form that fine-tuning tools take (OpenAI's, and the chat templates of Hugging
Face's trainers): one JSON object per line, `{"messages": [{"role", "content"}, …]}`. The
user is the one being learnt, so their own words are the `assistant` turns:

- a chat conversation gives one example per sitting (messages less than `gap` apart): the
  user's own messages are `assistant`, everyone else's are `user` with their `name`; the
  example ends at the user's last message (what follows has nothing to learn from);
- a day's note file gives one example: asked for the notes of that day, the user's text.

It reads the lake, so every text is the sanitized one (PII already redacted) and nothing
forgotten is in it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pandas as pd

from omoide.core.errors import OmoideError
from omoide.core.settings import Settings
from omoide.store.lake import read_events, stage_days

_LINE = re.compile(r"#L(\d+)$")


def _line_of(ref: str) -> int:
    """A source_ref `path#Lnn` -> nn (0 when it names no line)."""
    found = _LINE.search(ref)
    return int(found.group(1)) if found else 0


def _system(user: str) -> dict[str, str]:
    """User's name -> the system message that says whose voice this is."""
    return {"role": "system", "content": f"You are {user}. Write as {user} writes."}


def _sittings(chats: pd.DataFrame, gap: timedelta) -> Iterator[pd.DataFrame]:
    """One day's chat events -> each conversation's runs of messages less than `gap` apart."""
    for _, conversation in chats.groupby(["source_name", "title"], dropna=False, sort=True):
        conversation = conversation.sort_values(["ts", "source_ref"])
        breaks = (conversation["ts"].diff() > gap).cumsum()
        for _, sitting in conversation.groupby(breaks, sort=True):
            yield sitting


def chat_example(sitting: pd.DataFrame, user: str) -> dict[str, Any] | None:
    """A sitting's messages + the user's name -> one example, or None when the user said nothing."""
    me = user.casefold()
    messages: list[dict[str, str]] = []
    for actor, text in zip(sitting["actor"], sitting["text"], strict=True):
        speaker = actor if isinstance(actor, str) else ""
        own = speaker.casefold() == me
        last = messages[-1] if messages else None
        if last is not None and last.get("_speaker") == speaker:
            last["content"] += "\n" + text
            continue
        message = {"role": "assistant" if own else "user", "content": text, "_speaker": speaker}
        if not own and speaker:
            message["name"] = speaker
        messages.append(message)
    while messages and messages[-1]["role"] != "assistant":
        messages.pop()
    if not messages:
        return None
    for message in messages:
        del message["_speaker"]
    return {"messages": [_system(user), *messages]}


def note_example(notes: pd.DataFrame, day: date, user: str) -> dict[str, Any]:
    """A day's note events (of one file) + the day -> one example: asked for that day's notes, the text."""
    ordered = notes.assign(_line=notes["source_ref"].map(_line_of)).sort_values("_line")
    ask = f"Write your notes for {day:%A, %d %B %Y}."
    return {
        "messages": [
            _system(user),
            {"role": "user", "content": ask},
            {"role": "assistant", "content": "\n\n".join(ordered["text"].dropna())},
        ]
    }


def chat_jsonl_lines(
    settings: Settings, since: date | None, until: date | None, gap: timedelta = timedelta(hours=1)
) -> Iterator[str]:
    """Settings + a day range -> JSON lines of fine-tuning examples from the user's notes and chats."""
    user = settings.user_name.strip()
    if not user:
        raise OmoideError(
            "set user_name in omoide.toml (your name as your chat logs write it): "
            "it tells your own messages from others'"
        )
    for day in stage_days(settings.lake_dir, "events"):
        if (since and day < since) or (until and day > until):
            continue
        events = read_events(settings.lake_dir, day)
        texts = events[events["text"].notna() & (events["text"].str.strip() != "")]
        notes = texts[texts["event_type"].isin(["note", "retain"])]
        by_file = notes["source_ref"].str.replace(r"#.*$", "", regex=True)
        for _, one_file in notes.groupby(by_file, sort=True):
            yield json.dumps(note_example(one_file, day, user), ensure_ascii=False) + "\n"
        for sitting in _sittings(texts[texts["event_type"] == "chat"], gap):
            example = chat_example(sitting, user)
            if example is not None:
                yield json.dumps(example, ensure_ascii=False) + "\n"
