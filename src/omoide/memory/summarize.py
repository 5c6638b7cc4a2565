"""summarize: a day's sanitized events and sessions -> DaySummary (map-reduce with an LLM, or the embedded digest).

Map: the day's items (activity sessions, note paragraphs, chat messages, retained lines),
cut into chunks by a token budget, each become cited bullets. When the day has activity
blocks (`omoide.memory.blocks`) the model is fed them instead of the sessions: each block's
line with the note and chat lines written during it, a block never split across chunks
(`omoide.memory.day_story_items`); the map step also labels each block in its words, kept only
when grounded in that block's own items (`omoide.memory.block_wording`). Reduce: the bullets become
the digest (summary, highlights) and facts; when the bullets themselves exceed the budget
they are condensed in rounds first. Every fact must cite items and be grounded in them
(`omoide.memory.grounding`); anything else is dropped, and so is a highlight not grounded in
the day or a summary sentence that gives orders: an obeyed injection never reaches the vault. The user's `## Retain` lines enter as facts as-is,
whichever backend runs. With no LLM the embedded extractive digest is used.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Sequence
from datetime import date

import pandas as pd

from omoide.core.days import day_bounds
from omoide.core.kinds import OWN_SPEAKER
from omoide.core.tokens import count_tokens
from omoide.llm.base import LLM
from omoide.llm.cache import CachedLLM
from omoide.memory.active_time import time_by_activity
from omoide.memory.block_wording import block_sources, grounded_labels
from omoide.memory.blocks import Block
from omoide.memory.chunks import chunks, day_items, day_label, group_chunks, refs_of
from omoide.memory.day_story import day_lines
from omoide.memory.day_story_items import block_items
from omoide.memory.day_summary import DaySummary, Fact, Highlight, fact_id, retained_facts
from omoide.memory.extractive_digest import N_ACTIVITIES, embedded_digest
from omoide.memory.grounding import instruction, ungrounded
from omoide.memory.summarize_prompts import (
    SYSTEM,
    BlockLabel,
    Bullet,
    ChunkNotes,
    DailyDigest,
    Item,
    collapse_prompt,
    map_prompt,
    reduce_prompt,
)
from omoide.memory.window_titles import is_title, title_set

log = logging.getLogger(__name__)
MAX_COLLAPSE_ROUNDS = 4


def summarize_day(
    events: pd.DataFrame,
    sessions: pd.DataFrame,
    day: date,
    tz: str,
    llm: LLM | None,
    chunk_tokens: int = 1500,
    blocks: Sequence[Block] = (),
    me: Collection[str] = (OWN_SPEAKER,),
) -> DaySummary:
    """Events + sessions of a day (+ an LLM or None, its activity blocks, the person's names) -> its DaySummary with facts, time per activity and what was written and told."""
    retained = retained_facts(events)
    bounds = day_bounds(day, tz)
    if llm is None:
        out = embedded_digest(events, sessions, day_label(day), tz, bounds, blocks)
    else:
        out = _llm_digest(events, sessions, day, tz, llm, chunk_tokens, blocks)
        # The same arithmetic as the embedded digest: the model does not count time.
        out.time_by_activity = time_by_activity(events, N_ACTIVITIES, *bounds)
        if isinstance(llm, CachedLLM):
            out.llm_calls, out.cached_calls = llm.calls, llm.hits
    out.day = day.isoformat()
    out.tz = tz
    out.lines = day_lines(events, bounds[0], tz, me)
    out.facts = retained + out.facts
    log.info(
        "summarize %s: %s, %d fact(s) (%d retained), %d llm call(s), %d cached",
        day,
        out.produced_by,
        len(out.facts),
        len(retained),
        out.llm_calls,
        out.cached_calls,
    )
    return out


def _llm_digest(
    events: pd.DataFrame,
    sessions: pd.DataFrame,
    day: date,
    tz: str,
    llm: LLM,
    budget: int,
    blocks: Sequence[Block] = (),
) -> DaySummary:
    """Map-reduce over the day's items (its blocks' when it has them) with an LLM -> DaySummary (facts cite items)."""
    sources: dict[str, tuple[str, list[str]]] = {}
    if blocks:
        groups = block_items(events, blocks, tz)
        items = [i for _, g in groups for i in g]
        parts = group_chunks([g for _, g in groups], budget)
        sources = block_sources(groups)
    else:
        items = day_items(events, sessions, tz)
        parts = chunks(items, budget)
    by_label = {i.label: i for i in items}
    name = day_label(day)
    bullets: list[Bullet] = []
    named: list[BlockLabel] = []
    for chunk in parts:
        notes = llm.generate(SYSTEM, map_prompt(name, chunk), ChunkNotes)
        bullets += notes.bullets
        shown = {i.label for i in chunk}
        named += [n for n in notes.blocks if n.item in shown]  # only blocks of this chunk
    bullets = [
        b.model_copy(update={"items": [x for x in b.items if x in by_label]}) for b in bullets
    ]
    for _ in range(MAX_COLLAPSE_ROUNDS):
        if count_tokens("\n".join(b.text for b in bullets)) <= budget:
            break
        bullets = _collapse(name, bullets, llm, budget, by_label)
    kept = [f"{f.kind}: {f.content}" for f in retained_facts(events)]
    digest = llm.generate(SYSTEM, reduce_prompt(name, bullets, kept), DailyDigest)
    facts, dropped = _cited_facts(digest, by_label, day)
    everything = [i.text for i in items]
    highlights = [h.strip() for h in digest.highlights if h.strip()]
    titles = title_set(sessions["titles"]) if "titles" in sessions else frozenset()
    labels, refused = grounded_labels(named, sources, titles)
    # A highlight is something done, decided, written or said: never a window title.
    grounded = [
        h for h in highlights if ungrounded(h, everything) is None and not is_title(h, titles)
    ]
    summary = _without_orders(digest.summary)
    dropped += len(highlights) - len(grounded) + refused
    if dropped:
        log.warning("summarize %s: dropped %d ungrounded statement(s) of the model", day, dropped)
    refs = tuple(dict.fromkeys(r for b in bullets for r in refs_of(b.items, by_label)))
    return DaySummary(
        day=day.isoformat(),
        backend=llm.backend,
        model=llm.model,
        summary=summary,
        highlights=[Highlight(h) for h in grounded],
        facts=facts,
        refs=refs,
        ungrounded=dropped,
        block_labels=labels,
    )


def _without_orders(summary: str) -> str:
    """The model's narrative -> without any sentence that gives orders (an obeyed injection)."""
    sentences = re.split(r"(?<=[.!?。！？])\s+", summary.strip())
    kept = [s for s in sentences if instruction(s) is None]
    if len(kept) == len(sentences):
        return summary.strip()
    return (
        " ".join(kept)
        or "(The model's summary repeated an instruction found in the day's data; it is not shown.)"
    )


def _collapse(
    name: str, bullets: Sequence[Bullet], llm: LLM, budget: int, by_label: dict[str, Item]
) -> list[Bullet]:
    """Bullets over budget -> fewer bullets, condensed group by group."""
    groups: list[list[Bullet]] = [[]]
    used = 0
    for b in bullets:
        size = count_tokens(b.text) + 4 * len(b.items)
        if groups[-1] and used + size > budget:
            groups.append([])
            used = 0
        groups[-1].append(b)
        used += size
    out: list[Bullet] = []
    for g in groups:
        got = llm.generate(SYSTEM, collapse_prompt(name, g), ChunkNotes).bullets
        out += [b.model_copy(update={"items": [x for x in b.items if x in by_label]}) for b in got]
    return out


def _cited_facts(
    digest: DailyDigest, by_label: dict[str, Item], day: date
) -> tuple[list[Fact], int]:
    """Model facts -> Facts with refs resolved, and how many were dropped.

    A fact is dropped when it cites no known item (it could not be traced back) or is not
    grounded in the items it cites (`omoide.memory.grounding`: it gives orders, or its
    specifics or words are not there).
    """
    out: list[Fact] = []
    dropped = 0
    for f in digest.facts:
        cited = [by_label[x] for x in f.items if x in by_label]
        refs = refs_of(f.items, by_label)
        if not refs or ungrounded(f.content, [i.text for i in cited]) is not None:
            dropped += 1
            continue
        out.append(
            Fact(
                kind=f.kind,
                content=f.content.strip(),
                entities=tuple(dict.fromkeys(e.strip() for e in f.entities if e.strip())),
                confidence=f.confidence,
                importance=f.importance,
                refs=refs,
                ts=min(i.at for i in cited),
                origin="llm",
                memory_id=fact_id(day.isoformat(), f.kind, f.content),
            )
        )
    return out, dropped
