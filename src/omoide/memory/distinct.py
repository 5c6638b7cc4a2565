"""Ranked candidates -> the results to show: no citation twice, overlapping windows as one, within a token budget.

A chat memory carries its neighbours as context, so the windows of three adjacent messages
share most of their lines and one exchange could fill three of ten results. Walking the
candidates best first, a candidate is

- dropped when a result already cites its record (`source`);
- folded into the first result of the same day it overlaps — more than half of its lines
  already shown there (so a chat window's own message is among them: windows are a message
  and one neighbour each side), or nearly the same words (Jaccard ≥ 0.8, a note and its copy) — whose
  `source_refs` then
  also cite its record: the result shows that line already, and the slot goes to something
  new (what maximal marginal relevance does with embeddings, done here with the shown text).
  The same words on another day are another event ("dinner at the ramen place" twice), and
  stay a result of their own;
- otherwise taken, while it fits the token budget (a result too long for what is left is
  skipped, not the end: later ones may fit; the first one is always taken).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from omoide.core.tokens import count_tokens

LINE_OVERLAP = 0.5
NEAR_DUPLICATE = 0.8
_WORD = re.compile(r"\w+")


@dataclass
class Shown:
    """A taken result: its candidate index, the records it cites, and the text it shows."""

    index: int
    day: str
    refs: list[str]
    lines: frozenset[str]
    words: frozenset[str]
    folded: list[int] = field(default_factory=list)


def _lines(content: str) -> frozenset[str]:
    """Content -> its non-empty lines, whitespace-normalised and case-folded."""
    return frozenset(
        " ".join(line.split()).casefold() for line in content.splitlines() if line.strip()
    )


def _words(content: str) -> frozenset[str]:
    """Content -> its set of case-folded words."""
    return frozenset(_WORD.findall(content.casefold()))


def _overlaps(lines: frozenset[str], words: frozenset[str], shown: Shown) -> bool:
    """A candidate's lines and words + a taken result -> True when the result already shows it."""
    if lines and len(lines & shown.lines) > LINE_OVERLAP * len(lines):
        return True
    union = words | shown.words
    return bool(union) and len(words & shown.words) >= NEAR_DUPLICATE * len(union)


def distinct(
    order: list[int],
    contents: list[str],
    sources: list[str],
    refs: list[list[str]],
    days: list[str],
    k: int,
    token_budget: int | None,
) -> list[Shown]:
    """Candidate indices best first + their texts, citations, records and days -> up to k distinct results."""
    taken: list[Shown] = []
    cited: set[str] = set()
    used = 0
    for i in order:
        if len(taken) == k:
            break
        if sources[i] in cited:
            continue
        lines, words = _lines(contents[i]), _words(contents[i])
        home = next((s for s in taken if s.day == days[i] and _overlaps(lines, words, s)), None)
        if home is not None:
            new = [r for r in refs[i] if r not in home.refs]
            home.refs.extend(new)
            home.folded.append(i)
            cited.add(sources[i])
            continue
        n = count_tokens(contents[i]) if token_budget is not None else 0
        if token_budget is not None and taken and used + n > token_budget:
            continue
        taken.append(Shown(i, days[i], list(refs[i]), lines, words))
        cited.add(sources[i])
        used += n
    return taken
