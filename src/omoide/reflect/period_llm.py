"""A period's summary and highlights by an LLM: map-reduce over its days, every line checked.

The items are each day's digest summary (`d1`, `d2`, …) and every highlight candidate of the
period (`h1`, …; `omoide.reflect.period_highlights.candidates`), each one line inside the
data fence with its day and kind. When they exceed the token budget (`[llm] chunk_tokens`)
each chunk is first mapped to cited bullets (the summarizer's map schema); the reduce writes
the period's summary and up to N highlights, each naming the items it rests on. A highlight
that cites no known item, or is not grounded in the items it cites
(`omoide.memory.grounding`), is dropped, and so is a summary sentence that gives orders or
states a specific (a number, a time, an address) no item holds. If no highlight is left the
extractive ones stand; if the model fails the caller keeps the whole extractive digest. A
unit of the period (a week's day, a month's week) none of the model's highlights comes from
keeps the extractive highlight picked for it, so the model's page covers its period too. The
candidates are the extractive ones: no window title, no cut word.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from collections.abc import Collection, Mapping, Sequence

import pandas as pd
from pydantic import BaseModel, Field

from omoide.core.errors import OmoideError
from omoide.core.tokens import count_tokens
from omoide.llm.base import LLM
from omoide.llm.cache import CachedLLM
from omoide.llm.fence import fenced
from omoide.memory.chunks import chunks
from omoide.memory.grounding import instruction, specifics, ungrounded
from omoide.memory.summarize_prompts import SYSTEM, Bullet, ChunkNotes, Item, item_line
from omoide.reflect.period_highlights import Highlight, candidates, day_summaries
from omoide.reflect.periods import N_HIGHLIGHTS, PeriodDigest, units_of

log = logging.getLogger(__name__)

# Part of every cache key: bump it whenever a prompt or schema below changes.
PROMPT_VERSION = "2026-12-02.1"


class PeriodLine(BaseModel):
    """A highlight of the period and the item labels it rests on."""

    text: str = Field(min_length=1, max_length=600)
    items: list[str] = Field(default_factory=list)


class PeriodOut(BaseModel):
    """Reduce output: the period's narrative and its highlights."""

    summary: str = Field(min_length=1, max_length=3000)
    highlights: list[PeriodLine] = Field(default_factory=list, max_length=16)


def period_items(
    days: Sequence[Highlight], cands: Sequence[Highlight]
) -> list[tuple[Item, Highlight]]:
    """Day summaries + highlight candidates -> labelled items (d1…, h1…), each with what it cites."""
    out = [
        (Item(f"d{n}", d.day, "day summary", d.text, d.refs), d)
        for n, d in enumerate(days, start=1)
    ]
    out += [(Item(f"h{n}", c.day, c.kind, c.text, c.refs), c) for n, c in enumerate(cands, start=1)]
    return out


def map_prompt(title: str, items: Sequence[Item]) -> str:
    """A chunk of items -> the map prompt asking for cited bullets."""
    return (
        f"Task: summarise part of the user's {title} as at most 8 short bullets. Each bullet "
        "says what the user did, decided or discussed, and lists the item labels it rests on "
        "in `items`.\n"
        f"{fenced([item_line(i) for i in items])}\n"
        'Respond with JSON: {"bullets": [{"text": ..., "items": ["h1", ...]}]}'
    )


def reduce_prompt(title: str, lines: Sequence[str], n: int) -> str:
    """The period's item lines (or mapped bullets) -> the reduce prompt for its summary and highlights."""
    schema = json.dumps(
        {"summary": "3-6 sentences", "highlights": [{"text": "...", "items": ["h1", "d2"]}]}
    )
    return (
        f"Task: write the overview of the user's {title}: a short narrative `summary` of what "
        f"the user did, decided and discussed over these days, and up to {n} `highlights`, "
        "the things of the period most worth remembering, each one short sentence that lists "
        "in `items` the labels it rests on. Use only what the data says.\n"
        f"{fenced(list(lines))}\n"
        f"Respond with JSON like {schema}"
    )


def _checked_summary(summary: str, sources: Sequence[str]) -> str:
    """The model's narrative + the items' texts -> without any sentence that gives orders or states a specific (a number, an address) they do not hold."""
    folded = "\n".join(sources).casefold()
    sentences = re.split(r"(?<=[.!?。！？])\s+", summary.strip())
    kept = [
        s for s in sentences if instruction(s) is None and all(x in folded for x in specifics(s))
    ]
    return " ".join(kept)


def _bullets(title: str, items: Sequence[Item], llm: LLM, budget: int) -> list[str] | None:
    """Items + budget -> None when they fit one reduce, else the mapped bullets as lines."""
    if count_tokens("\n".join(item_line(i) for i in items)) <= budget:
        return None
    known = {i.label for i in items}
    bullets: list[Bullet] = []
    for chunk in chunks(items, budget):
        bullets += llm.generate(SYSTEM, map_prompt(title, chunk), ChunkNotes).bullets
    return [f"- {b.text} (items: {', '.join(x for x in b.items if x in known)})" for b in bullets]


def covered(kept: Sequence[Highlight], base: PeriodDigest) -> list[Highlight]:
    """The model's highlights + the extractive digest -> them, and the extractive highlight of each unit (day or week) none of them comes from."""
    if not kept:
        return []
    units = units_of(base.period, base.days)
    have = {units.get(h.day) for h in kept}
    missing = [h for h in base.highlights if units.get(h.day) not in have]
    # One per unit that has none: the extractive list holds its best first within a day.
    firsts = list({units.get(h.day): h for h in reversed(missing)}.values())
    return [*kept, *firsts]


def llm_digest(
    base: PeriodDigest,
    days: Sequence[Highlight],
    cands: Sequence[Highlight],
    llm: LLM,
    budget: int,
) -> PeriodDigest:
    """The extractive digest + day summaries + candidates + an LLM and token budget -> the period's digest in the model's words.

    Raises what the model raises (LLMUnavailableError, LLMOutputError, a validation error).
    """
    title = base.period.title()
    pairs = period_items(days, cands)
    items = [i for i, _ in pairs]
    by_label = {i.label: (i, h) for i, h in pairs}
    bullets = _bullets(title, items, llm, budget)
    lines = bullets if bullets is not None else [item_line(i) for i in items]
    n = N_HIGHLIGHTS[base.period.kind]
    out = llm.generate(SYSTEM, reduce_prompt(title, lines, n), PeriodOut)
    kept: list[Highlight] = []
    dropped = 0
    for line in out.highlights:
        cited = [by_label[x] for x in dict.fromkeys(line.items) if x in by_label]
        text = " ".join(line.text.split())
        if not cited or ungrounded(text, [i.text for i, _ in cited]) is not None:
            dropped += 1
            continue
        # The first highlight cited (a day's summary only when nothing else is) gives the citation.
        first = next((h for i, h in cited if i.label.startswith("h")), cited[0][1])
        refs = tuple(dict.fromkeys(r for _, h in cited for r in h.refs))
        kept.append(
            Highlight(text, first.day, first.heading, first.source, refs, "llm", 0.0, first.fact_id)
        )
    if dropped:
        log.warning(
            "period %s: dropped %d ungrounded highlight(s) of the model", base.period.name, dropped
        )
    kept = sorted(covered(kept[:n], base), key=lambda h: h.day)
    summary = _checked_summary(out.summary, [i.text for i in items])
    return dataclasses.replace(
        base,
        summary=summary or base.summary,
        highlights=kept or base.highlights,
        backend=llm.backend,
        model=llm.model,
        llm_calls=llm.calls if isinstance(llm, CachedLLM) else 0,
        ungrounded=dropped,
    )


def reduce_period(
    base: PeriodDigest,
    rows: pd.DataFrame,
    day_highlights: Mapping[str, Sequence[tuple[str, str]]],
    llm: LLM | None,
    budget: int,
    titles: Collection[str] = (),
) -> PeriodDigest:
    """The extractive digest + the period's rows and day highlights + an LLM or None (+ its sessions' titles) -> the digest to write.

    Without a model, or when it fails, the extractive digest stands (the failure is logged).
    """
    if llm is None or not base.days:
        return base
    try:
        cands = candidates(rows, day_highlights, titles)
        return llm_digest(base, day_summaries(rows), cands, llm, budget)
    except (OmoideError, ValueError) as exc:
        log.warning("period %s: the extractive digest stands (%s)", base.period.name, exc)
        return base
