"""A day's blocks and its note and chat lines -> the summarizer's labelled items, one group per block (chunked whole by omoide.memory.chunks.group_chunks).

A model wording the day is fed the blocks, not the sessions under them: each group is one
block's line, then the note and chat lines it holds (by the refs it rests on, else by falling
within its span); the lines no block holds (a diary paragraph with no time, a `## Retain`
line) make a last group of their own.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from omoide.memory.blocks import Block
from omoide.memory.chunks import event_text
from omoide.memory.day_story import block_text
from omoide.memory.summarize_prompts import Item


def block_items(
    events: pd.DataFrame, blocks: Sequence[Block], tz: str
) -> list[tuple[str | None, list[Item]]]:
    """Events + the day's blocks + zone -> (block id, its items: its line, then its lines) per block in time order, and (None, the lines no block holds)."""
    texts = events[events["event_type"].isin(["note", "retain", "chat"])]
    texts = texts.sort_values(["ts", "source_ref"], kind="stable")
    ordered = sorted(blocks, key=lambda b: (b.start, b.block_id))
    held: list[list[tuple[pd.Timestamp, str, str, tuple[str, ...]]]] = [[] for _ in ordered]
    rest: list[tuple[pd.Timestamp, str, str, tuple[str, ...]]] = []
    for e in texts.itertuples(index=False):
        ts = pd.Timestamp(e.ts)
        kind = "retained" if e.event_type == "retain" else str(e.event_type)
        row = (ts, kind, event_text(e), (str(e.source_ref),))
        at = next((n for n, b in enumerate(ordered) if e.source_ref in b.refs), None)
        if at is None and e.event_type != "retain":
            at = next((n for n, b in enumerate(ordered) if b.start <= ts < b.end), None)
        (rest if at is None else held[at]).append(row)
    groups: list[tuple[str | None, list[tuple[pd.Timestamp, str, str, tuple[str, ...]]]]] = []
    for b, lines in zip(ordered, held, strict=True):
        line = block_text(b, tz).split(" ", 1)[1]  # the label carries the time already
        groups.append((b.block_id, [(pd.Timestamp(b.start), "block", line, tuple(b.refs)), *lines]))
    if rest:
        groups.append((None, rest))
    out: list[tuple[str | None, list[Item]]] = []
    n = 0
    for block_id, group in groups:
        items = []
        for ts, kind, text, refs in group:
            n += 1
            local = ts.tz_convert(tz).strftime("%H:%M")
            items.append(Item(f"i{n}", local, kind, text, refs, ts.isoformat()))
        out.append((block_id, items))
    return out
