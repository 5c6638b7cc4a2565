"""A day's blocks and its note and chat lines -> the summarizer's labelled items, one group per block, and chunks of whole groups.

A model wording the day is fed the blocks, not the sessions under them: each group is one
block's line, then the note and chat lines it holds (by the refs it rests on, else by falling
within its span); the lines no block holds (a diary paragraph with no time, a `## Retain`
line) make a last group of their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from omoide.core.tokens import count_tokens_batch
from omoide.memory.blocks import Block
from omoide.memory.day_story import block_text
from omoide.memory.summarize_prompts import Item, item_line


def _text(e: Any) -> str:
    """A note, chat or retain event -> how an item says it."""
    if e.event_type == "chat":
        return f"{e.actor or '?'} (conversation {e.title}): {e.text}"
    if e.event_type == "retain":
        return f"{e.fact_kind}: {e.text}"
    return str(e.text)


def block_items(events: pd.DataFrame, blocks: Sequence[Block], tz: str) -> list[list[Item]]:
    """Events + the day's blocks + zone -> one group of items per block (its line, then its lines), and the lines no block holds."""
    texts = events[events["event_type"].isin(["note", "retain", "chat"])]
    texts = texts.sort_values(["ts", "source_ref"], kind="stable")
    ordered = sorted(blocks, key=lambda b: (b.start, b.block_id))
    held: list[list[tuple[pd.Timestamp, str, str, tuple[str, ...]]]] = [[] for _ in ordered]
    rest: list[tuple[pd.Timestamp, str, str, tuple[str, ...]]] = []
    for e in texts.itertuples(index=False):
        ts = pd.Timestamp(e.ts)
        kind = "retained" if e.event_type == "retain" else str(e.event_type)
        row = (ts, kind, _text(e), (str(e.source_ref),))
        at = next((n for n, b in enumerate(ordered) if e.source_ref in b.refs), None)
        if at is None and e.event_type != "retain":
            at = next((n for n, b in enumerate(ordered) if b.start <= ts < b.end), None)
        (rest if at is None else held[at]).append(row)
    groups: list[list[tuple[pd.Timestamp, str, str, tuple[str, ...]]]] = []
    for b, lines in zip(ordered, held, strict=True):
        line = block_text(b, tz).split(" ", 1)[1]  # the label carries the time already
        groups.append([(pd.Timestamp(b.start), "block", line, tuple(b.refs)), *lines])
    if rest:
        groups.append(rest)
    out: list[list[Item]] = []
    n = 0
    for group in groups:
        items = []
        for ts, kind, text, refs in group:
            n += 1
            local = ts.tz_convert(tz).strftime("%H:%M")
            items.append(Item(f"i{n}", local, kind, text, refs, ts.isoformat()))
        out.append(items)
    return out


def block_chunks(groups: Sequence[Sequence[Item]], budget: int) -> list[list[Item]]:
    """Item groups + token budget -> chunks of whole consecutive groups that fit it (a group over budget alone)."""
    sizes = [sum(count_tokens_batch([item_line(i) for i in g])) if g else 0 for g in groups]
    out: list[list[Item]] = []
    cur: list[Item] = []
    used = 0
    for group, size in zip(groups, sizes, strict=True):
        if cur and used + size > budget:
            out.append(cur)
            cur, used = [], 0
        cur += group
        used += size
    if cur:
        out.append(cur)
    return out
