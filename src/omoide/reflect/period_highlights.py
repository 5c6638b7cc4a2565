"""A period's highlights, reduced from its days: the candidates, each with where it came from, and their ranking.

Every fact of the days (`## Retain` lines and an LLM's facts: W, B, O, S) and every line of
the days' `### Highlights` is a candidate, and keeps where it came from: its day, the day
page's section (a fact's `## Retain` line also has a block id), the line or record it cites
(`path#Lnn`) and the records it rests on. A day's highlight rests on the note or chat message
its text was taken from, when one holds it.

Never a highlight: a window or page title. A day's line is one when a session record holds
it, or when it is (most of) a title the lake's sessions of the period hold (`is_title`): told
by the records it comes from, never by how a title looks. Never a cut word: a line its day
page cut ("…") is made whole again from the record it was taken from, to the end of its
sentence; with no record, it is shortened to its last whole sentence or word
(`whole_line`); a line longer than HIGHLIGHT_CHARS is shortened at a sentence or word
boundary, or not at all.

Extractive ranking (the default, no model): a candidate weighs its kind (a fact its
importance, 0.9 for what the user retained; a highlight taken from a note 0.7, from a chat
message 0.5, a model's line 0.6), less 10 % per place it held in its day's list; it is
scored by that weight × (0.5 + its cosine to the period's TF-IDF centroid, each candidate
pulling it by its weight), so what recurs across the days comes first; the same line on
several days counts once, on its first day. Near-duplicates (term Jaccard > 0.4) are
skipped. The period is covered first: each of its units (a week's days, a month's weeks)
gets a quota, its share of the period's days with a page (at least 1), picked best first in
turns, so every unit with something is represented before any gets a second; the rest goes
to the best overall, a cap per day (2 × cap / days, at least 2) and a quota per kind (4
facts, 3 notes, 2 model lines, 1 chat message, then topped up) keeping one busy day or kind
from filling the list. They are shown in day order. These weights are choices, not fitted.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from omoide.core.kinds import FACT_KINDS
from omoide.core.quotes import SENTENCE_END, whole_sentences
from omoide.memory.terms import terms
from omoide.memory.window_titles import is_title

# What a candidate weighs before the centroid: a fact weighs its own importance.
WEIGHT = {"note": 0.7, "digest": 0.6, "chat": 0.5}
QUOTA = {"fact": 4, "note": 3, "digest": 2, "chat": 1}
RANK_DECAY = 0.1  # a day's highlight loses this share per place below the first
NEAR_DUPLICATE = 0.4  # term Jaccard above which a candidate repeats one already picked
HIGHLIGHT_CHARS = 240  # a period's line longer than this is shortened at a boundary
CUT_MARKS = ("…", "...")
# omoide.memory.said_dates writes a phrase's date right after it: " [2026-11-09/2026-11-15]".
_SAID_DATE = re.compile(r" \[\d{4}(?:-\d{2}(?:-\d{2})?)?(?:/\d{4}-\d{2}-\d{2})?\]")
_FLAT = "_flat"


@dataclass(frozen=True)
class Highlight:
    """A line of a period's page and where it came from: its day, the day page's anchor, its citation, its records."""

    text: str
    day: str
    heading: str  # the day page's section it is under: "Highlights", "Summary" or "Retain"
    source: str  # `path#Lnn`: the day page's line, or the record a fact cites
    refs: tuple[str, ...]  # the records it rests on
    kind: str  # a fact kind, note, chat, digest (a model's line), or llm
    weight: float = 0.0
    fact_id: str = ""  # a fact's memory id: its `## Retain` line ends with its block id


def _one_line(text: str) -> str:
    """Text -> one line."""
    return " ".join(str(text).split())


def _refs(value: object) -> tuple[str, ...]:
    """A row's source_refs (list, array or null) -> a tuple of strings."""
    return tuple(str(r) for r in value) if value is not None and len(value) else ()  # type: ignore[arg-type]


def _uncut(text: str) -> str:
    """A line -> without the cut mark its page put at its end."""
    for mark in CUT_MARKS:
        if text.endswith(mark):
            return text[: -len(mark)].rstrip()
    return text


def _is_cut(text: str) -> bool:
    """A line -> whether its page cut it."""
    return text.endswith(CUT_MARKS)


def _record_of(text: str, records: pd.DataFrame) -> tuple[pd.Series | None, int]:
    """A day's highlight line + that day's records -> the record it was taken from (notes and chats first) and where the line starts in it, or (None, -1)."""
    wanted = _uncut(_one_line(text))
    if not wanted:
        return None, -1
    for kinds in (("note", "chat"), ("session",)):
        rows = records[records["kind"].isin(kinds)]
        for flat, (_, row) in zip(rows[_FLAT], rows.iterrows(), strict=True):
            at = flat.find(wanted)
            if at >= 0:
                return row, at
    return None, -1


def shortened(text: str, limit: int = HIGHLIGHT_CHARS) -> str:
    """A line + a length -> the line, or its first sentences, or its first words and '…', within the length (whole when it has no boundary)."""
    if len(text) <= limit:
        return text
    sentences = whole_sentences(text, limit)
    if sentences is not None:
        return sentences
    space = text.rfind(" ", 0, limit)
    return text[:space].rstrip(" ,;:") + "…" if space > limit // 3 else text


def whole_line(text: str, record_text: str | None = None, at: int = -1) -> str:
    """A day's highlight line (maybe cut, '…') + the record it was taken from and where it starts there -> the line with no cut word, or '' when nothing whole is left."""
    line = _one_line(text)
    if not _is_cut(line):
        return shortened(line)
    kept = _uncut(line)
    if record_text is not None and at >= 0:
        # The rest of the sentence the page cut, from the record that holds it whole.
        found = SENTENCE_END.search(record_text, at + len(kept))
        return shortened(record_text[at : found.end() if found else len(record_text)].strip())
    ends = [m.end() for m in SENTENCE_END.finditer(kept)]
    if ends:
        return kept[: ends[-1]]
    # No record and no sentence: its last word may be cut, so it goes.
    words = kept.split()
    return " ".join(words[:-1]).rstrip(" ,;:") + "…" if len(words) > 3 else ""


def candidates(
    rows: pd.DataFrame,
    day_highlights: Mapping[str, Sequence[tuple[str, str]]],
    titles: Collection[str] = (),
) -> list[Highlight]:
    """The period's memory rows + each day's `### Highlights` lines ((citation, text)) + the period's session titles (normalised) -> highlight candidates.

    A fact cites its `## Retain` line's block and its own source; a day's highlight cites its
    line on the day page and rests on the record it was taken from, when one holds its text.
    A line a session holds, or one of the titles, is no candidate.
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
    flat = records["content"].map(lambda c: _SAID_DATE.sub("", _one_line(c)))
    records = records.assign(**{_FLAT: flat})
    for day in sorted(day_highlights):
        mine = records[records["day"] == day]
        for place, (source, text) in enumerate(day_highlights[day]):
            record, at = _record_of(text, mine)
            kind = "digest" if record is None else str(record["kind"])
            if kind == "session" or is_title(text, titles):
                continue
            line = whole_line(text, None if record is None else record[_FLAT], at)
            refs = () if record is None else _refs(record["source_refs"])
            weight = WEIGHT[kind] / (1.0 + RANK_DECAY * place)
            out.append(Highlight(line, day, "Highlights", source, refs, kind, weight))
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


def _quotas(units: Mapping[str, str], n: int) -> dict[str, int]:
    """Each day's unit (itself, or its week) + how many to pick -> each unit's share of them (at least 1), by its days."""
    sizes = Counter(units.values())
    total = sum(sizes.values()) or 1
    return {u: max(1, n * k // total) for u, k in sizes.items()}


def rank(
    cands: Sequence[Highlight], n: int, n_days: int, units: Mapping[str, str] | None = None
) -> list[Highlight]:
    """Candidates + how many + the period's days with a page (+ each day's unit: itself in a week, its week in a month) -> the n picked, in day order (see the module doc)."""
    merged: dict[str, Highlight] = {}
    # The same line on several days counts once: on its first day, at its best there.
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

    def fits(i: int, within_quota: bool) -> bool:
        group, day = _group(uniq[i].kind), uniq[i].day
        if i in picked or sum(uniq[j].day == day for j in picked) >= per_day:
            return False
        if within_quota and sum(_group(uniq[j].kind) == group for j in picked) >= QUOTA[group]:
            return False
        return all(_jaccard(set(vecs[i]), set(vecs[j])) <= NEAR_DUPLICATE for j in picked)

    if units:
        quota = _quotas(units, n)
        mine = {u: [i for i in order if units.get(uniq[i].day) == u] for u in quota}
        # Units take turns, best first, so each has its first before any has a second.
        turns = sorted((u for u in quota if mine[u]), key=lambda u: (-scores[mine[u][0]], u))
        for turn in range(max(quota.values(), default=0)):
            for u in turns:
                if len(picked) == n or turn >= quota[u]:
                    continue
                for within_quota in (True, False):
                    best = next((i for i in mine[u] if fits(i, within_quota)), None)
                    if best is not None:
                        picked.append(best)
                        break
    for within_quota in (True, False):
        for i in order:
            if len(picked) == n:
                break
            if fits(i, within_quota):
                picked.append(i)
    picked.sort(key=lambda i: (uniq[i].day, -scores[i], uniq[i].text))
    return [uniq[i] for i in picked]
