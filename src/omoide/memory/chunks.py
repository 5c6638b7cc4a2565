"""A day's events and sessions -> labelled summarizer items, and token-budgeted chunks of them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

import pandas as pd

from omoide.core.tokens import count_tokens_batch
from omoide.memory.records import activity_sessions, session_line
from omoide.memory.summarize_prompts import Item, item_line


def day_items(events: pd.DataFrame, sessions: pd.DataFrame, tz: str) -> list[Item]:
    """Events + sessions -> items in time order: activity sessions, note paragraphs, chat, retained facts."""
    rows: list[tuple[pd.Timestamp, str, str, tuple[str, ...]]] = []
    for s in activity_sessions(sessions).itertuples(index=False):
        line = session_line(s, tz).split(" ", 1)[1]  # the label carries the time already
        rows.append((pd.Timestamp(s.start), "session", line, tuple(s.source_refs)))
    texts = events[events["event_type"].isin(["note", "retain", "chat"])]
    for e in texts.itertuples(index=False):
        kind = "retained" if e.event_type == "retain" else e.event_type
        rows.append((pd.Timestamp(e.ts), kind, event_text(e), (e.source_ref,)))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    return [
        Item(f"i{n}", ts.tz_convert(tz).strftime("%H:%M"), kind, text, refs, ts.isoformat())
        for n, (ts, kind, text, refs) in enumerate(rows, start=1)
    ]


def event_text(e: Any) -> str:
    """A note, chat or retain event -> how a summarizer item says it."""
    if e.event_type == "chat":
        return f"{e.actor or '?'} (conversation {e.title}): {e.text}"
    if e.event_type == "retain":
        return f"{e.fact_kind}: {e.text}"
    return str(e.text)


def chunks(items: Sequence[Item], budget: int) -> list[list[Item]]:
    """Items + token budget -> consecutive chunks whose rendered lines fit the budget.

    An item larger than the whole budget gets a chunk of its own rather than being cut:
    the model may see it truncated by its context, but nothing is silently dropped here.
    """
    return group_chunks([[item] for item in items], budget)


def group_chunks(groups: Sequence[Sequence[Item]], budget: int) -> list[list[Item]]:
    """Item groups + token budget -> chunks of whole consecutive groups that fit it (a group over budget alone)."""
    sizes = count_tokens_batch([item_line(i) for g in groups for i in g])
    out: list[list[Item]] = []
    cur: list[Item] = []
    used = at = 0
    for group in groups:
        size = sum(sizes[at : at + len(group)])
        at += len(group)
        if cur and used + size > budget:
            out.append(cur)
            cur, used = [], 0
        cur += group
        used += size
    if cur:
        out.append(cur)
    return out


def refs_of(labels: Sequence[str], by_label: dict[str, Item]) -> tuple[str, ...]:
    """Item labels -> the unique refs they stand for, in order; unknown labels ignored."""
    refs = [r for lab in labels if lab in by_label for r in by_label[lab].refs]
    return tuple(dict.fromkeys(refs))


def day_label(day: date) -> str:
    """Day -> how prompts name it ("Friday 2026-11-20")."""
    return f"{day.strftime('%A')} {day.isoformat()}"
