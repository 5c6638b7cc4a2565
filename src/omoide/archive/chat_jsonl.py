"""The lake's notes and chats -> a fine-tuning set of the user's own writing, as chat-messages JSONL.

The common form that fine-tuning tools take (OpenAI's, and the chat templates of Hugging
Face's trainers): one JSON object per line, `{"messages": [{"role", "content"}, …]}`. The
user is the one being learnt, so their own words are the `assistant` turns (what a model
trained on the set learns to write) and what came before them is the `user` turns. Every
example is: a system message naming whose voice it is, then `user` and `assistant` turns
alternating, the first `user`, the last `assistant` (strict templates such as Mistral's
accept nothing else):

- a chat conversation gives one example per sitting (messages less than `gap` apart, across
  midnight too): consecutive messages of the same side are one turn (one per line); in a
  sitting with more than one other speaker each of their lines reads "Name: text" (no `name`
  field: OpenAI allows only `[A-Za-z0-9_-]` there); the example ends at the user's last
  message (what follows has nothing to learn from); a sitting that the user opens gets a
  first `user` turn saying where and when ("A chat in “Peter” on Friday, 20 November 2026;
  you write first."), so the user's opening words are learnt too;
- a conversation with an AI assistant (a ChatGPT or Claude export, or a chat whose other
  speakers are all bots, omoide.core.kinds.is_bot) follows the same rule: the person's
  questions are `assistant` turns, the AI's answers `user` turns; its opener names the
  conversation's topic ("A chat with an AI assistant about “Packing list for Kyoto” …");
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
from omoide.core.kinds import ASSISTANT_CHAT_KINDS, OWN_SPEAKER, is_bot
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
    """Chat events -> each conversation's runs of messages less than `gap` apart, in time order."""
    found = []
    for _, conversation in chats.groupby(["source_name", "title"], dropna=False, sort=True):
        conversation = conversation.sort_values(["ts", "source_ref"])
        breaks = (conversation["ts"].diff() > gap).cumsum()
        found += [sitting for _, sitting in conversation.groupby(breaks, sort=True)]
    yield from sorted(found, key=lambda s: (s["ts"].iloc[0], str(s["source_ref"].iloc[0])))


def _is_own(speaker: str, source: object, me: str) -> bool:
    """A message's speaker and source kind + the user's name (case-folded) -> is it the user's?"""
    if speaker.casefold() == me:
        return True
    # An AI export marks the user's turns itself: "me" when user_name was unset at collection.
    return source in ASSISTANT_CHAT_KINDS and speaker == OWN_SPEAKER


def _opener(title: object, with_ai: bool, day: date) -> str:
    """A sitting's conversation title + is it with an AI + its day -> the prompt before the user's first words."""
    named = isinstance(title, str) and bool(title.strip()) and not is_bot(title)
    parts = ["A chat", "with an AI assistant" if with_ai else ""]
    if named:
        parts.append(f"about “{title}”" if with_ai else f"in “{title}”")
    parts.append(f"on {day:%A, %d %B %Y}; you write first.")
    return " ".join(p for p in parts if p)


def chat_example(sitting: pd.DataFrame, user: str, day: date) -> dict[str, Any] | None:
    """A sitting's messages + the user's name + its day -> one example, or None when the user said nothing."""
    me = user.casefold()
    said: list[tuple[str, str, bool]] = []
    for actor, text, source in zip(
        sitting["actor"], sitting["text"], sitting["source"], strict=True
    ):
        speaker = actor if isinstance(actor, str) else ""
        said.append((speaker, str(text), _is_own(speaker, source, me)))
    others = {speaker for speaker, _, own in said if not own}
    group = len(others) > 1
    turns: list[dict[str, str]] = []
    for speaker, text, own in said:
        role = "assistant" if own else "user"
        line = text if own or not group else f"{speaker or '?'}: {text}"
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"] += "\n" + line
        else:
            turns.append({"role": role, "content": line})
    while turns and turns[-1]["role"] != "assistant":
        turns.pop()
    if not turns:
        return None
    if turns[0]["role"] == "assistant":
        with_ai = bool(set(sitting["source"]) & set(ASSISTANT_CHAT_KINDS)) or (
            bool(others) and all(is_bot(o) for o in others)
        )
        turns.insert(
            0, {"role": "user", "content": _opener(sitting["title"].iloc[0], with_ai, day)}
        )
    return {"messages": [_system(user), *turns]}


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
    """Settings + a day range -> JSON lines of fine-tuning examples from the user's notes and chats.

    Day by day: the day's note files, then the chat sittings that start on that day (a
    sitting may run past midnight into the next day's messages).
    """
    user = settings.user_name.strip()
    if not user:
        raise OmoideError(
            "set user_name in omoide.toml (your name as your chat logs write it): "
            "it tells your own messages from others'"
        )
    examples: dict[date, list[dict[str, Any]]] = {}
    chats: list[pd.DataFrame] = []
    for day in stage_days(settings.lake_dir, "events"):
        if (since and day < since) or (until and day > until):
            continue
        events = read_events(settings.lake_dir, day)
        texts = events[events["text"].notna() & (events["text"].str.strip() != "")]
        notes = texts[texts["event_type"].isin(["note", "retain"])]
        by_file = notes["source_ref"].str.replace(r"#.*$", "", regex=True)
        found = examples.setdefault(day, [])
        for _, one_file in notes.groupby(by_file, sort=True):
            found.append(note_example(one_file, day, user))
        chats.append(texts[texts["event_type"] == "chat"].assign(_day=day))
    if chats:
        for sitting in _sittings(pd.concat(chats, ignore_index=True), gap):
            first = sitting["_day"].iloc[0]
            example = chat_example(sitting, user, first)
            if example is not None:
                examples[first].append(example)
    for day in sorted(examples):
        for example in examples[day]:
            yield json.dumps(example, ensure_ascii=False) + "\n"
