"""A day's blocks, notes and chats -> what its page tells: each block's line, what was written, decided and told, and the day's shape in a sentence.

A block's line is its local span, what it was about, with whom (when the label does not
already name them) and, in parentheses, its kind, where (apps and sites, most time first)
and its active minutes: "09:30–10:30 demo of the sync fix with Mina (meeting · zoom · 58 min)".

What was written, decided and told comes from the records themselves, never from window
titles: every note line is something written (a decision when it says one was taken), a
message the person sent is said, a message from another person is told. The person is
who `me` names, and also whoever speaks to an AI assistant (an assistant's conversation
has one human in it); an assistant's replies are not something a person told them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from datetime import datetime

import pandas as pd

from omoide.core.kinds import ASSISTANT_CHAT_KINDS, BOT_SPEAKERS, OWN_SPEAKER
from omoide.memory.blocks import Block
from omoide.memory.chat_window import cut
from omoide.memory.day_summary import DayLine
from omoide.memory.window_titles import norm_title

# A line recording a decision taken, not one planned ("decide on Friday" has no marker).
DECIDED = re.compile(
    r"\bdecision\s*:|\bdecided\b|\bsettled\s+on\b|\bwent\s+with\b|\bchose\b"
    r"|決めた|決めて(?!な)|決定した|決まった|ことにした",
    re.IGNORECASE,
)
WHERE_SHOWN = 2  # apps and sites named on a block's line
SENTENCE_WORDS = 8  # a block named in the summary's sentence keeps its first words


def _hm(ts: pd.Timestamp | datetime, tz: str) -> str:
    """A UTC instant + zone -> local "HH:MM"."""
    return pd.Timestamp(ts).tz_convert(tz).strftime("%H:%M")


def _minutes(seconds: float) -> str:
    """Seconds -> "58 min" or "2.5 h"."""
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{max(1, round(seconds / 60))} min"


def join_names(names: Sequence[str]) -> str:
    """["a", "b", "c"] -> "a, b and c"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def block_about(block: Block, words: int | None = None) -> str:
    """A block (+ how many of its label's words to keep) -> what it was about and with whom, in words ("demo of the sync fix with Mina")."""
    label = " ".join(block.label.split()) or block.kind
    said = norm_title(label)
    if words is not None:
        # Parentheses inside a label would read as its duration when the sentence is read back.
        label = cut(re.sub(r"[()]", "", label).strip(), words)
    missing = [p for p in block.people if norm_title(p) not in said]
    if not missing:
        return label
    # "demo with Mina" + Peter -> "demo with Mina and Peter", not "… with Mina with Peter".
    joiner = " and " if " with " in f" {said} " else " with "
    return f"{label}{joiner}{join_names(missing)}"


def block_text(block: Block, tz: str) -> str:
    """A block + the day's zone -> its page line without the list mark."""
    where = list(dict.fromkeys([*block.apps[:WHERE_SHOWN], *block.sites[:WHERE_SHOWN]]))
    parts = [block.kind, ", ".join(where[: 2 * WHERE_SHOWN]), _minutes(block.active_s)]
    tail = " · ".join(p for p in parts if p)
    if block.kind == "offline" or block.active_s <= 0:
        tail = "away from the computer"
    span = f"{_hm(block.start, tz)}–{_hm(block.end, tz)}"
    return f"{span} {block_about(block)} ({tail})"


def blocks_sentence(blocks: Sequence[Block], tz: str, shown: int = 3) -> str:
    """A day's blocks -> "14 blocks between 07:11 and 22:49; the longest: a (1.2 h), b (50 min) and c (40 min)." ("" without blocks)."""
    if not blocks:
        return ""
    first = _hm(min(b.start for b in blocks), tz)
    last = _hm(max(b.end for b in blocks), tz)
    head = f"{len(blocks)} block{'s' if len(blocks) != 1 else ''} between {first} and {last}"
    longest = sorted(blocks, key=lambda b: (-b.active_s, b.start))[:shown]
    named = [
        f"{block_about(b, SENTENCE_WORDS)} ({_minutes(b.active_s)})"
        for b in longest
        if b.active_s > 0
    ]
    return head + (f"; the longest: {join_names(named)}." if named else ".")


def people_of(blocks: Iterable[Block]) -> list[str]:
    """Blocks -> the people they were with, by time spent together, most first."""
    spent: dict[str, float] = {}
    for b in blocks:
        for p in b.people:
            spent[p] = spent.get(p, 0.0) + b.active_s
    return sorted(spent, key=lambda p: (-spent[p], p))


def own_speakers(events: pd.DataFrame, me: Collection[str] = (OWN_SPEAKER,)) -> set[str]:
    """Events + the person's names -> every actor that is the person, casefolded (the human of an AI conversation included)."""
    own = {m.casefold() for m in me if m}
    chats = events[events["event_type"] == "chat"]
    with_ai = chats["source"].isin(ASSISTANT_CHAT_KINDS) | chats["title"].map(
        lambda t: isinstance(t, str) and t.casefold() in BOT_SPEAKERS
    )
    for actor in chats.loc[with_ai, "actor"].dropna():
        if str(actor).casefold() not in BOT_SPEAKERS:
            own.add(str(actor).casefold())
    return own


def day_lines(
    events: pd.DataFrame, day_start: datetime, tz: str, me: Collection[str] = (OWN_SPEAKER,)
) -> list[DayLine]:
    """Events + the day's UTC start and zone (+ the person's names) -> its note lines, decisions and messages, in time order."""
    own = own_speakers(events, me)
    start = pd.Timestamp(day_start)
    out: list[tuple[pd.Timestamp, DayLine]] = []
    for e in events[events["event_type"].isin(["note", "chat"])].itertuples(index=False):
        text = " ".join(str(e.text).split())
        if not text:
            continue
        ts = pd.Timestamp(e.ts)
        refs = (str(e.source_ref),)
        if e.event_type == "note":
            # A paragraph with no time of its own carries the day's start; it is shown untimed.
            at = "" if ts <= start else _hm(ts, tz)
            kind = "decided" if DECIDED.search(text) else "wrote"
            out.append((ts, DayLine(at, kind, "", text, refs)))
            continue
        actor = str(e.actor or "")
        if actor.casefold() in BOT_SPEAKERS:
            continue
        title = str(e.title or "")
        mine = actor.casefold() in own
        if mine and DECIDED.search(text):
            kind = "decided"
        else:
            kind = "said" if mine else "told"
        who = title if mine else actor
        out.append((ts, DayLine(_hm(ts, tz), kind, who, text, refs)))
    # Untimed paragraphs (a diary's) close the day rather than open it.
    out.sort(key=lambda p: (not p[1].at, p[0], p[1].refs))
    return [line for _, line in out]
