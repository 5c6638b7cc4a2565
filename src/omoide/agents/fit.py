"""One cap for every tool's answer: at most ANSWER_CHARS of JSON a call, what does not fit on later pages.

An agent pays for each answer with its context: a day's sessions (86 KB of JSON on the
sample's Friday) or a well-known person's timeline would crowd out the conversation it
answers. So an answer gives up items from the ends of its long lists, in the order its tool
names them, until its JSON fits; what was left out is page 2, 3, … (each list's items keep
their order across the pages), and the answer says which page it is and how to ask for the
next. A text too long to fit even alone is cut, marked with "…".
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from omoide.core.errors import OmoideError

ANSWER_CHARS = 16_000  # one tool answer at most, in JSON characters
NOTE_CHARS = 600  # kept free on every page for the note saying it was shortened
_SHORTEST = 40  # a text is never cut shorter than this to make an answer fit
_ITEMS = "items"  # an answer that is itself a list is paged as {"items": [...]}


@dataclass(frozen=True)
class Fit:
    """How a tool's answer is shortened: its lists by dotted path (the first given up first), the keys every page
    repeats, and the lists in time order whose newest items matter most (their oldest go to later pages)."""

    cuts: tuple[str, ...] = ()
    keep: tuple[str, ...] = ()
    newest_last: tuple[str, ...] = ()


@dataclass(frozen=True)
class Page:
    """One page of an answer: what it shows, its number, how many pages there are, and per list the items it leaves to other pages."""

    value: Any
    number: int
    pages: int
    left_out: dict[str, int]
    texts_cut: bool = False
    limit: int = ANSWER_CHARS

    def note(self, next_call: str | None) -> dict[str, Any] | None:
        """Page + how to ask for the next one (None: it cannot be asked again) -> what the answer says of its shortening; None when whole."""
        if self.pages == 1 and not self.texts_cut:
            return None
        last = self.number >= self.pages
        said: dict[str, Any] = {
            "page": self.number,
            "pages": self.pages,
            "left_out": self.left_out,
            "limit_chars": self.limit,
            "next": "this is the last page" if last else next_call,
        }
        if self.texts_cut:
            said["texts_cut"] = "texts ending in … were cut to fit: each citation holds the whole"
        return said


def size(value: Any) -> int:
    """A JSON-ready value -> the characters of its JSON as a tool sends it."""
    return len(json.dumps(value, ensure_ascii=False, default=str))


def paged(answer: Any, fit: Fit, number: int = 1, limit: int = ANSWER_CHARS) -> Page:
    """An answer (a dict, or a list) + how its tool shortens it + a page number (+ the cap) -> that page, at most `limit` characters with its note.

    A path may name a dict as well as a list: its entries are then paged in their order.
    """
    whole = size(answer)
    if whole <= limit and number == 1:
        return Page(answer, 1, 1, {}, limit=limit)
    listed = isinstance(answer, list)
    root = {_ITEMS: answer} if listed else dict(answer)
    full: dict[str, list[Any]] = {}
    maps = set()
    for path in (_ITEMS,) if listed else fit.cuts:
        items = _at(root, path)
        if isinstance(items, Mapping):
            maps.add(path)
            items = list(items.items())
        if isinstance(items, list):
            full[path] = items[::-1] if path in fit.newest_last else list(items)
    # An entry of a dict is its key, ": " and its value; a list's item is the item.
    sizes = {
        path: [size(i[0]) + 2 + size(i[1]) if path in maps else size(i) for i in items]
        for path, items in full.items()
    }
    empty = {path: {} if path in maps else [] for path in full}
    kept = {k: root[k] for k in fit.keep if k in root}
    # Room for the note only when there will be one.
    budget = limit if whole <= limit else limit - NOTE_CHARS
    spans = _spans((size(_with(root, empty)), size(_with(kept, empty))), full, sizes, budget)
    if not 1 <= number <= len(spans):
        raise OmoideError(f"page {number}: this answer has {len(spans)} page(s)")
    shown = {}
    for path, (a, b) in spans[number - 1].items():
        items = full[path][a:b][::-1] if path in fit.newest_last else full[path][a:b]
        shown[path] = dict(items) if path in maps else items
    # A later page holds the keys it repeats and the lists it continues, no empty ones.
    value = (
        _with(root, shown) if number == 1 else _with(kept, {p: v for p, v in shown.items() if v})
    )
    cut = size(value) > budget
    if cut:
        value = _trimmed(value, budget)
    left = {p: len(full[p]) - len(v) for p, v in shown.items() if len(full[p]) > len(v)}
    return Page(value[_ITEMS] if listed else value, number, len(spans), left, cut, limit)


def _spans(
    bases: tuple[int, int],
    full: Mapping[str, list[Any]],
    sizes: Mapping[str, list[int]],
    budget: int,
) -> list[dict[str, tuple[int, int]]]:
    """The sizes of a first and a later page with its lists empty + the lists + their items' sizes + the budget -> per page, the slice of each list it shows."""
    start = dict.fromkeys(full, 0)
    spans: list[dict[str, tuple[int, int]]] = []
    while True:
        base = bases[1] if spans else bases[0]
        taken = {p: len(full[p]) - start[p] for p in full}
        # A list of n items is its "[]" plus the items and n - 1 separators of 2 characters.
        total = base + sum(sum(sizes[p][start[p] :]) + 2 * (n - 1) for p, n in taken.items() if n)
        for p in full:
            while total > budget and taken[p]:
                total -= sizes[p][start[p] + taken[p] - 1] + (2 if taken[p] > 1 else 0)
                taken[p] -= 1
        if spans and not any(taken.values()):
            # One item larger than a page on its own: shown alone, its texts cut to fit.
            first = next(p for p in full if start[p] < len(full[p]))
            taken[first] = 1
        spans.append({p: (start[p], start[p] + taken[p]) for p in full})
        start = {p: start[p] + taken[p] for p in full}
        if all(start[p] == len(full[p]) for p in full):
            return spans


def _at(root: Mapping[str, Any], path: str) -> Any:
    """A dict + a dotted path -> the value there (None when a step is missing)."""
    value: Any = root
    for key in path.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def _with(root: Mapping[str, Any], lists: Mapping[str, Any]) -> dict[str, Any]:
    """A dict + {dotted path: items} -> a copy with each path holding those items (the dicts on its way copied, never the original changed)."""
    out = dict(root)
    for path, items in lists.items():
        *parents, last = path.split(".")
        node = out
        for key in parents:
            child = node.get(key)
            node[key] = dict(child) if isinstance(child, Mapping) else {}
            node = node[key]
        node[last] = items
    return out


def _trimmed(value: Any, budget: int) -> Any:
    """A JSON-ready value + a budget in characters -> its longest texts cut (halving their length) until it fits."""
    longest = _longest(value)
    while size(value) > budget and longest > _SHORTEST:
        longest = max(longest // 2, _SHORTEST)
        value = _cut(value, longest)
    return value


def _longest(value: Any) -> int:
    """A JSON-ready value -> the length of its longest text."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, Mapping):
        return max((_longest(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return max((_longest(v) for v in value), default=0)
    return 0


def _cut(value: Any, chars: int) -> Any:
    """A JSON-ready value + a length -> a copy with every longer text cut to it, ending in "…"."""
    if isinstance(value, str):
        return value if len(value) <= chars else value[: chars - 1] + "…"
    if isinstance(value, Mapping):
        return {k: _cut(v, chars) for k, v in value.items()}
    if isinstance(value, list):
        return [_cut(v, chars) for v in value]
    return value
