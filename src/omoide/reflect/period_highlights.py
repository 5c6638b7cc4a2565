"""A period's highlights, reduced from its days: the candidates, each with where it came from, and their ranking.

Every fact of the days (`## Retain` lines and an LLM's facts: W, B, O, S) and every line of
the days' `### Highlights` is a candidate, and keeps where it came from: its day, the day
page's section (a fact's `## Retain` line also has a block id), the line or record it cites
(`path#Lnn`) and the records it rests on. A day's highlight rests on the note, chat message
or session its text was taken from, when one holds it.

Extractive ranking (the default, no model): a candidate weighs its kind (a fact its
importance, 0.9 for what the user retained; a highlight taken from a note 0.7, from a chat
message 0.5, a page or window title 0.35, a model's line 0.6), less 10 % per place it held
in its day's list; it is scored by that weight × (0.5 + its cosine to the period's TF-IDF
centroid, each candidate pulling it by its weight), so what recurs across the days comes
first; the same line on several days counts once, on its first day. Near-duplicates (term
Jaccard > 0.4) are skipped; a quota per kind (4 facts, 3 notes, 2 model lines, 1 chat
message, 1 title; then topped up from the ranking) and per day (2 × cap / days, at least 2)
keep one busy day or kind from filling the list. They are shown in day order. These weights
are choices, not fitted: the sample has one week.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from omoide.core.kinds import FACT_KINDS
from omoide.memory.terms import terms

# What a candidate weighs before the centroid: a fact weighs its own importance.
WEIGHT = {"note": 0.7, "digest": 0.6, "chat": 0.5, "session": 0.35}
QUOTA = {"fact": 4, "note": 3, "digest": 2, "chat": 1, "session": 1}
RANK_DECAY = 0.1  # a day's highlight loses this share per place below the first
NEAR_DUPLICATE = 0.4  # term Jaccard above which a candidate repeats one already picked


@dataclass(frozen=True)
class Highlight:
    """A line of a period's page and where it came from: its day, the day page's anchor, its citation, its records."""

    text: str
    day: str
    heading: str  # the day page's section it is under: "Highlights", "Summary" or "Retain"
    source: str  # `path#Lnn`: the day page's line, or the record a fact cites
    refs: tuple[str, ...]  # the records it rests on
    kind: str  # a fact kind, note, chat, session, digest (a model's line), or llm
    weight: float = 0.0
    fact_id: str = ""  # a fact's memory id: its `## Retain` line ends with its block id


def _one_line(text: str) -> str:
    """Text -> one line."""
    return " ".join(str(text).split())


def _refs(value: object) -> tuple[str, ...]:
    """A row's source_refs (list, array or null) -> a tuple of strings."""
    return tuple(str(r) for r in value) if value is not None and len(value) else ()  # type: ignore[arg-type]


def _record_of(text: str, records: pd.DataFrame) -> pd.Series | None:
    """A day's highlight line + that day's records -> the record it was taken from (notes and chats first), or None."""
    wanted = _one_line(text)
    for kinds in (("note", "chat"), ("session",)):
        rows = records[records["kind"].isin(kinds)]
        hit = rows[rows["_flat"].str.contains(wanted, regex=False)]
        if len(hit):
            return hit.iloc[0]
    return None


def candidates(
    rows: pd.DataFrame, day_highlights: Mapping[str, Sequence[tuple[str, str]]]
) -> list[Highlight]:
    """The period's memory rows + each day's `### Highlights` lines ((citation, text)) -> highlight candidates.

    A fact cites its `## Retain` line's block and its own source; a day's highlight cites its
    line on the day page and rests on the record it was taken from, when one holds its text.
    """
    out: list[Highlight] = []
    facts = rows[rows["kind"].isin(FACT_KINDS)].sort_values(["day", "ts", "memory_id"])
    for r in facts.itertuples(index=False):
        out.append(
            Highlight(
                _one_line(r.content),
                str(r.day),
                "Retain",
                str(r.source),
                _refs(r.source_refs),
                str(r.kind),
                float(r.importance),
                str(r.memory_id),
            )
        )
    records = rows[rows["kind"].isin(("note", "chat", "session"))].sort_values(["ts", "memory_id"])
    records = records.assign(_flat=records["content"].map(_one_line))
    for day in sorted(day_highlights):
        mine = records[records["day"] == day]
        for place, (source, text) in enumerate(day_highlights[day]):
            record = _record_of(text, mine)
            kind = "digest" if record is None else str(record["kind"])
            refs = () if record is None else _refs(record["source_refs"])
            weight = WEIGHT[kind] / (1.0 + RANK_DECAY * place)
            out.append(Highlight(_one_line(text), day, "Highlights", source, refs, kind, weight))
    return [c for c in out if c.text]


def day_summaries(rows: pd.DataFrame) -> list[Highlight]:
    """The period's memory rows -> each day's digest narrative (its first line), citing the day page's `## Summary`."""
    digests = rows[rows["kind"] == "digest"].sort_values("day")
    return [
        Highlight(
            _one_line(str(r.content).split("\n", 1)[0]),
            str(r.day),
            "Summary",
            str(r.source),
            _refs(r.source_refs),
            "digest",
        )
        for r in digests.itertuples(index=False)
    ]


def _group(kind: str) -> str:
    """Candidate kind -> its quota group (every fact kind is one)."""
    return "fact" if kind in FACT_KINDS else kind


def _jaccard(a: set[str], b: set[str]) -> float:
    """Two term sets -> |a∩b| / |a∪b| (0 for two empty sets)."""
    return len(a & b) / len(a | b) if a or b else 0.0


def rank(cands: Sequence[Highlight], n: int, n_days: int) -> list[Highlight]:
    """Candidates + how many + the period's days with a page -> the n picked, in day order (see the module doc)."""
    merged: dict[str, Highlight] = {}
    # The same line on several days (a window title) counts once: on its first day, at its best there.
    for c in sorted(cands, key=lambda c: (c.day, -c.weight)):
        merged.setdefault(c.text.casefold(), c)
    uniq = list(merged.values())
    if not uniq:
        return []
    bags = [Counter(terms(c.text)) for c in uniq]
    df = Counter(t for bag in bags for t in bag)
    idf = {t: math.log((1 + len(uniq)) / (1 + d)) + 1.0 for t, d in df.items()}
    vecs = [{t: f * idf[t] for t, f in bag.items()} for bag in bags]
    centroid: Counter[str] = Counter()
    for c, v in zip(uniq, vecs, strict=True):
        for t, x in v.items():
            centroid[t] += c.weight * x
    cnorm = math.sqrt(sum(x * x for x in centroid.values())) or 1.0

    def score(i: int) -> float:
        v = vecs[i]
        norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
        return uniq[i].weight * (0.5 + sum(x * centroid[t] for t, x in v.items()) / (norm * cnorm))

    scores = [score(i) for i in range(len(uniq))]
    order = sorted(range(len(uniq)), key=lambda i: (-scores[i], uniq[i].day, uniq[i].text))
    per_day = max(2, math.ceil(2 * n / max(n_days, 1)))
    picked: list[int] = []
    for within_quota in (True, False):
        for i in order:
            if len(picked) == n:
                break
            group, day = _group(uniq[i].kind), uniq[i].day
            if i in picked or sum(uniq[j].day == day for j in picked) >= per_day:
                continue
            if within_quota and sum(_group(uniq[j].kind) == group for j in picked) >= QUOTA[group]:
                continue
            if all(_jaccard(set(vecs[i]), set(vecs[j])) <= NEAR_DUPLICATE for j in picked):
                picked.append(i)
    picked.sort(key=lambda i: (uniq[i].day, -scores[i], uniq[i].text))
    return [uniq[i] for i in picked]
