"""A day's memory rows + who the user is -> each row's memory type (direct, heard, inferred) and who told it.

The rule, in order:
- **inferred**: what a rule or a model derived — day digests, facts an LLM extracted (their
  `backend` names the method: `embedded:…`, `ollama:<model>`; `confidence` how sure);
- **heard**: a chat message someone else wrote (`heard_from` = the speaker; an assistant's
  reply is heard from "assistant"), and a note or retained line that says who told it:
  "Peter said …", "@Peter told me …", "according to Peter, …", "ペーターさんによると…",
  "ペーターさんから聞いた…", "ペーターさんが言っていた…" (`heard_from` = that name; a pronoun,
  "I said …", "she said …", names no one and leaves the line direct);
- **direct**: everything else the user lived or wrote — notes, retained lines, their own chat
  messages, browsing and app sessions.
A chat record arrives with its message's speaker in `heard_from` (`omoide.memory.records`);
it stays there only when the speaker is not the user.
"""

from __future__ import annotations

import re
from collections.abc import Collection

import pandas as pd

from omoide.core.kinds import backend_type

_NAME = r"@?(?P<who>[A-Z][\w.\-]*(?: [A-Z][\w.\-]*)?)"
_TOLD = (
    re.compile(rf"\b{_NAME} (?:said|says|told me|mentioned|thinks|claims)\b"),
    re.compile(rf"\b(?i:according to) {_NAME}\b"),
    re.compile(
        r"@?(?P<who>[^\s、。「」@]{1,12}?)(?:さん|くん|ちゃん|氏)?"
        r"(?:によると|から聞いた|が言って(?:い)?た|曰く)"
    ),
)


# Words that start "… said" without naming anyone ("I said", "The doctor said" names a role).
_NOT_NAMES = {"i", "we", "you", "he", "she", "they", "it", "this", "that", "someone", "everyone"}


def told_by(text: str) -> str | None:
    """A note or retained line -> the person it says told it, or None when it says no one."""
    for pattern in _TOLD:
        for found in pattern.finditer(text):
            if found.group("who").casefold() not in _NOT_NAMES:
                return found.group("who")
    return None


def with_memory_types(rows: pd.DataFrame, me: Collection[str]) -> pd.DataFrame:
    """A day's memory rows + the user's names -> the rows with `memory_type` and `heard_from`."""
    mine = {m.casefold() for m in me if m}
    speakers = rows["heard_from"] if "heard_from" in rows else pd.Series(None, index=rows.index)
    types, sources = [], []
    for kind, backend, content, speaker in zip(
        rows["kind"], rows["backend"], rows["content"], speakers, strict=True
    ):
        kind_of = backend_type(backend)
        who: str | None = None
        if kind_of == "direct" and kind == "chat":
            named = speaker if isinstance(speaker, str) and speaker.strip() else None
            who = None if named is None or named.casefold() in mine else named
        elif kind_of == "direct" and kind != "session":
            who = told_by(str(content))
        types.append("heard" if who else kind_of)
        sources.append(who)
    return rows.assign(memory_type=types, heard_from=sources)
