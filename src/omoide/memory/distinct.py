"""Ranked candidates -> the results to show: no record cited twice, no line shown twice, within a token budget.

A chat memory shows the message it answers as context, so the records of nearby messages
share lines, and a day's digest quotes the notes and messages it was made from.
Walking the candidates best first, a candidate is

- dropped when a result already cites its record (`source`, or any `source_refs` of the
  results taken so far: a digest cites the notes and messages it quotes);
- folded into a result of the same day that shows it already, whose `source_refs` then
  also cite its record, and the slot goes to something new: a chat record whose own
  message is shown that day (its lines not marked as context, `omoide.memory.chat_window`;
  it folds into the result showing most of them), another memory of one record with more
  than half of its lines shown, or nearly the same words as one result (Jaccard ≥ 0.8, a
  note and its copy);
- otherwise taken without the lines a result of the same day shows already (the neighbour
  a window shares with the one above, a digest's highlight quoting a note above), citing
  only the records no result above cites. It is taken while it fits the token budget (a
  result too long for what is left is skipped, not the end: later ones may fit; the first
  one is always taken, whole), and dropped when no line is left.

So no record is cited by two results of a list and no line is shown twice on one day. The
same words on another day are another event ("dinner at the ramen place" twice), and stay
a result of their own. Trimming, not joining overlapping windows into one stretch, is
measured in docs/memory-and-recall.md ("No record cited twice"): at equal words it finds more.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from omoide.core.tokens import count_tokens
from omoide.memory.chat_evidence import evidence
from omoide.memory.chat_window import is_context
from omoide.memory.overlap import Line, Seen, lines

LINE_OVERLAP = 0.5
NEAR_DUPLICATE = 0.8
_WORD = re.compile(r"\w+")


@dataclass
class Shown:
    """A taken result: its candidate index, the records it cites, and the lines it shows."""

    index: int
    day: str
    refs: list[str]
    lines: list[Line]
    words: frozenset[str]
    folded: list[int] = field(default_factory=list)
    seen: Seen = field(default_factory=Seen)

    def __post_init__(self) -> None:
        """Remember the lines shown."""
        self.seen.add(x.key for x in self.lines)

    @property
    def content(self) -> str:
        """The text shown: its lines, each once."""
        return "\n".join(x.text for x in self.lines)


def _words(content: str) -> frozenset[str]:
    """Content -> its set of case-folded words."""
    return frozenset(_WORD.findall(content.casefold()))


def _home(
    mine: list[Line], words: frozenset[str], same_day: list[Shown], one_record: bool
) -> Shown | None:
    """A candidate's lines and words (+ whether it cites one record) + the day's results -> the result it repeats, or None.

    A memory of one record whose own text is shown on that day: the result showing most of
    it. Its own text: a chat record's lines not marked as context, all of which must be
    shown (so a fold never cites a message the list does not show); another record's lines,
    more than half of them. A digest or a session cites many records, and folding would cite
    the ones whose lines are not shown: it is trimmed instead. Otherwise nearly the same
    words as one result (a note and its copy): that one.
    """
    own = [x for x in mine if not is_context(x.text)]
    held = [sum(s.seen.holds(x.key) for x in own) for s in same_day]
    shown = sum(any(s.seen.holds(x.key) for s in same_day) for x in own)
    marked = len(own) < len(mine)  # a chat record: its neighbours are marked
    enough = shown == len(own) if marked else shown > LINE_OVERLAP * len(own)
    if one_record and own and enough:
        return same_day[held.index(max(held))]
    for s in same_day:
        union = words | s.words
        if union and len(words & s.words) >= NEAR_DUPLICATE * len(union):
            return s
    return None


class _Walk:
    """The results taken so far, what they cite, and the token budget they use."""

    def __init__(self, token_budget: int | None) -> None:
        """Token budget (None: none) -> an empty walk."""
        self.taken: list[Shown] = []
        self.cited: set[str] = set()
        self.budget = token_budget
        self.used = 0

    def fits(self, shown: Sequence[Line]) -> tuple[bool, int]:
        """Lines to show -> whether they fit what is left of the budget, and their token count."""
        if self.budget is None:
            return True, 0
        n = count_tokens("\n".join(x.text for x in shown))
        return not self.taken or self.used + n <= self.budget, n

    def take(self, shown: Shown, source: str, refs: Sequence[str], n: int) -> None:
        """A new result + its record and refs + its tokens -> taken, citing what no result above cites."""
        shown.refs = [r for r in dict.fromkeys(refs) if r not in self.cited]
        self.taken.append(shown)
        self.cited.update(refs)
        self.cited.add(source)
        self.used += n

    def fold(self, home: Shown, i: int, source: str, refs: Sequence[str]) -> None:
        """A candidate a result already shows -> that result cites it too."""
        home.refs.extend(r for r in dict.fromkeys(refs) if r not in self.cited)
        home.folded.append(i)
        self.cited.update(refs)
        self.cited.add(source)


def distinct(
    order: list[int],
    contents: list[str],
    sources: list[str],
    refs: list[list[str]],
    days: list[str],
    k: int,
    token_budget: int | None,
) -> list[Shown]:
    """Candidate indices best first + their stored texts, citations, records and days -> up to k distinct results, as recall shows them (`chat_evidence`)."""
    walk = _Walk(token_budget)
    for i in order:
        if len(walk.taken) == k:
            break
        if sources[i] in walk.cited:
            continue
        day = days[i]
        text = evidence(contents[i])  # only the candidates walked: most never are
        mine, words = lines(text), _words(text)
        same_day = [s for s in walk.taken if s.day == day]
        home = _home(mine, words, same_day, len(set(refs[i]) - {sources[i]}) <= 1)
        if home is not None:
            walk.fold(home, i, sources[i], refs[i])
            continue
        mine = [x for x in mine if not any(s.seen.holds(x.key) for s in same_day)]
        if not mine:  # a digest whose every line a result shows: nothing left to show
            continue
        ok, n = walk.fits(mine)
        if ok:
            walk.take(Shown(i, day, [], mine, words), sources[i], refs[i], n)
    return walk.taken
