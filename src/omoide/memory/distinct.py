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

Once k results are taken the walk goes on through the rest of the pool to fold: a record
whose own message the list shows is cited by the result showing it, wherever it ranked (asked
for 10, a record ranked 40th whose message is the neighbour shown whole under the 3rd result is
cited there; a near copy is looked for among the first k only). Nothing is shown that was not
shown before; what is shown is cited.

With a spread (a question across events, `omoide.memory.across_events`), the walk takes
each next candidate by its score times `factor` for every result its sitting has already,
so a second window of one conversation comes after the first window of another unless it
scores clearly higher. A candidate may show several sittings (a day's digest restates each
conversation it names): it counts as the one of them with the most results, and a result
adds one to each.

So no record is cited by two results of a list and no line is shown twice on one day. The
same words on another day are another event ("dinner at the ramen place" twice), and stay
a result of their own. Trimming, not joining overlapping windows into one stretch, is
measured in docs/memory-and-recall.md ("No record cited twice"): at equal words it finds more.
"""

from __future__ import annotations

import heapq
import re
from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field

from omoide.core.tokens import count_tokens
from omoide.memory.chat_evidence import evidence
from omoide.memory.chat_window import is_context
from omoide.memory.overlap import Line, Seen, line_key, lines

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


def _own(text: str) -> tuple[list[Line], bool]:
    """A candidate's shown text -> its own lines (a chat record's not marked as context), and whether it had marked ones."""
    mine = [t for t in text.splitlines() if t.strip()]
    # Not `overlap.lines`: only the own lines are keyed, since the walk past k reads ~200
    # candidates this way (keying their context lines too cost distinct 2.6 -> 3.3 ms).
    own = [Line(t, line_key(t)) for t in mine if not is_context(t)]
    return own, len(own) < len(mine)


def _shows_own(
    own: list[Line], marked: bool, same_day: list[Shown], day: Seen, one_record: bool
) -> Shown | None:
    """A candidate's own lines (+ whether it is a marked chat record, cites one record) + the day's results and what they show -> the result showing them, or None.

    A memory of one record whose own text is shown on that day: the result showing most of
    it. Its own text: a chat record's lines not marked as context, all of which must be
    shown (so a fold never cites a message the list does not show); another record's lines,
    more than half of them. A digest or a session cites many records, and folding would cite
    the ones whose lines are not shown: it is trimmed instead.
    """
    if not (one_record and own):
        return None
    shown = sum(day.holds(x.key) for x in own)  # by any result of the day
    if not (shown == len(own) if marked else shown > LINE_OVERLAP * len(own)):
        return None
    held = [sum(s.seen.holds(x.key) for x in own) for s in same_day]
    return same_day[held.index(max(held))]


def _near_copy(words: frozenset[str], same_day: list[Shown]) -> Shown | None:
    """A candidate's words + the day's results -> the one with nearly the same words (a note and its copy), or None."""
    for s in same_day:
        # |A ∩ B| ≥ t·|A ∪ B| needs the smaller set to be at least t times the larger
        small, large = sorted((len(words), len(s.words)))
        if small < NEAR_DUPLICATE * large:
            continue
        union = words | s.words
        if union and len(words & s.words) >= NEAR_DUPLICATE * len(union):
            return s
    return None


@dataclass(frozen=True)
class Spread:
    """How a walk spreads its results over sittings: each candidate's score and the sittings it shows (a message one, a day's digest each it restates), and the factor a sitting's every result costs the next."""

    score: Sequence[float]
    sittings: Sequence[tuple[Hashable, ...]]
    factor: float


def _spread_order(
    order: list[int], spread: Spread | None, taken: Counter[Hashable]
) -> Iterator[int]:
    """Candidate indices best first + a spread + the results taken per sitting (updated by the caller) -> the candidates in the order to walk them.

    Without a spread, the given order. With one, each next candidate is the one whose score
    times factor ** (most results any of its sittings has) is highest, ties by the given order; the score
    of a candidate the ranking placed above its own score (the first result kept first, a
    standing fact before the one it replaced) is raised to the best below it, so those
    places hold.
    """
    if spread is None or spread.factor >= 1.0:
        yield from order
        return
    placed = [0.0] * len(order)
    best = 0.0
    for p in range(len(order) - 1, -1, -1):
        best = max(best, float(spread.score[order[p]]))
        placed[p] = best
    heap = [(-placed[p], p) for p in range(len(order))]
    heapq.heapify(heap)
    while heap:
        bound, p = heapq.heappop(heap)
        i = order[p]
        now = placed[p] * spread.factor ** max((taken[x] for x in spread.sittings[i]), default=0)
        if now < -bound:  # its sitting took a result since: queue it again at its new score
            heapq.heappush(heap, (-now, p))
            continue
        yield i


class _Walk:
    """The results taken so far, what they cite, and the token budget they use."""

    def __init__(self, token_budget: int | None) -> None:
        """Token budget (None: none) -> an empty walk."""
        self.taken: list[Shown] = []
        self.days: dict[str, Seen] = {}  # the lines each day's results show, together
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
        self.days.setdefault(shown.day, Seen()).add(x.key for x in shown.lines)
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
    spread: Spread | None = None,
) -> list[Shown]:
    """Candidate indices best first + their stored texts, citations, records and days (+ a spread over sittings) -> up to k distinct results, as recall shows them (`chat_evidence`)."""
    walk = _Walk(token_budget)
    per_sitting: Counter[Hashable] = Counter()
    for i in _spread_order(order, spread, per_sitting):
        full = len(walk.taken) == k
        if sources[i] in walk.cited:
            continue
        day = days[i]
        same_day = [s for s in walk.taken if s.day == day]
        if full and not same_day:
            continue
        seen = walk.days.get(day, Seen())
        one_record = len(set(refs[i]) - {sources[i]}) <= 1
        if full:
            # k taken: the rest of the pool is walked only to cite the records whose own
            # text the list shows (stored and shown, a record's own lines are the same)
            home = _shows_own(*_own(contents[i]), same_day, seen, one_record)
            if home is not None:
                walk.fold(home, i, sources[i], refs[i])
            continue
        text = evidence(contents[i])
        words = _words(text)
        home = _shows_own(*_own(text), same_day, seen, one_record) or _near_copy(words, same_day)
        if home is not None:
            walk.fold(home, i, sources[i], refs[i])
            continue
        mine = [x for x in lines(text) if not seen.holds(x.key)]
        if not mine:  # a digest whose every line a result shows: nothing left to show
            continue
        ok, n = walk.fits(mine)
        if ok:
            walk.take(Shown(i, day, [], mine, words), sources[i], refs[i], n)
            if spread is not None:
                per_sitting.update(spread.sittings[i])
    return walk.taken
