"""The model's labels of a day's blocks -> the ones grounded in each block's own items, and the blocks worded with them.

The map step of the summarizer (`omoide.memory.summarize`) sees each block as an item of
kind `block` followed by the note and chat lines written during it, and may answer a short
label for it ("demo of the sync fix with Mina"). A label replaces the rule's label only when
it is grounded in that block's own items (`omoide.memory.grounding`: it gives no orders, its
specifics and most of its words are there), names no one and nothing those items do not
(a label is a few words, so one invented name is not outweighed by the rest), and is not a
window title; otherwise the rule's label stays.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace

from omoide.memory.blocks import Block
from omoide.memory.grounding import content_words, ungrounded
from omoide.memory.summarize_prompts import BlockLabel, Item
from omoide.memory.window_titles import is_title

_LETTERS = re.compile(r"[^\W\d_]+")


def block_sources(
    groups: Sequence[tuple[str | None, Sequence[Item]]],
) -> dict[str, tuple[str, list[str]]]:
    """The day's item groups (`block_items`) -> block item label -> (block id, that block's item texts)."""
    return {
        items[0].label: (block_id, [i.text for i in items])
        for block_id, items in groups
        if block_id is not None
    }


def refusal(label: str, sources: Sequence[str], titles: Collection[str]) -> str | None:
    """A model's block label + that block's item texts + the day's titles -> why it is refused, or None to keep it."""
    why = ungrounded(label, sources)
    if why is not None:
        return why
    source = "\n".join(sources)
    known = content_words(source) | set(_LETTERS.findall(source.casefold()))
    names = [w for w in _LETTERS.findall(label) if not w.islower()]
    unknown = [w for w in names if w.casefold() not in known and not content_words(w) <= known]
    if unknown:
        return f"names what its block does not: {', '.join(unknown[:3])}"
    if is_title(label, titles):
        return "a window title"
    return None


def grounded_labels(
    named: Iterable[BlockLabel],
    sources: dict[str, tuple[str, list[str]]],
    titles: Collection[str],
) -> tuple[dict[str, str], int]:
    """The model's block labels + each block item's sources + the day's titles -> block id -> kept label, and how many were refused."""
    out: dict[str, str] = {}
    refused = 0
    for n in named:
        label = " ".join(n.label.split())
        if n.item not in sources or not label:
            continue  # not about a block the model was shown: no statement about one
        block_id, texts = sources[n.item]
        if block_id in out:
            continue  # the first grounded label of a block stands
        if refusal(label, texts, titles) is not None:
            refused += 1
            continue
        out[block_id] = label
    return out, refused


def worded(blocks: Sequence[Block], labels: dict[str, str]) -> list[Block]:
    """Blocks + block id -> the model's grounded label -> the blocks, each with its worded label where there is one."""
    return [replace(b, label=labels[b.block_id]) if b.block_id in labels else b for b in blocks]
