"""A JSON array that does not decode as a whole -> its elements that still do, and a mark for each damaged one.

A flipped byte, a cut-off file or a stray character makes `json.loads` refuse a whole export,
though the damage touches one record. Exports are long arrays of small objects (events,
conversations, messages), so each element is decoded on its own (`json.JSONDecoder.raw_decode`,
the standard library's parser, from the element's first character): an element that does
not decode is `Damaged`, and reading goes on at the next element start; a list that ends
before its `]` (a file cut short) ends with a `Damaged` mark where it ends.

Finding the next element after damage: an object that starts after a `,` or `[` is an
element start (one that does not decode is damaged too, and counted); an object after a `:`
is a value inside an element and skipped; an object after anything else (the `,` before it
was the damaged byte) is taken only when it decodes and the caller's `accept` says it looks
like an element (an AW event has a timestamp). Positions are counted from the array's
start, so a good element keeps the index it has in the intact file; only damage to the
separators themselves can shift the count after it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")
_OBJECT = re.compile(r"\{")
_VALUE_STARTS = frozenset('{["-0123456789tfn')


@dataclass(frozen=True)
class Damaged:
    """An array element that does not decode: where it starts (character offset) and why."""

    offset: int
    reason: str


Element = object  # a decoded JSON value, or Damaged


def _any_object(value: object) -> bool:
    """Decoded value -> is it an object (the default shape of an element found after damage)?"""
    return isinstance(value, dict)


def _reason(exc: Exception, at: int) -> str:
    """Decode error + element offset -> the reason a damaged element gets."""
    if isinstance(exc, json.JSONDecodeError):
        return f"damaged JSON at character {exc.pos} (element from {at}): {exc.msg}"
    return f"damaged JSON at character {at}: nested too deeply"


def array_elements(
    text: str, start: int, end: int, accept: Callable[[object], bool] = _any_object
) -> tuple[list[Element], int | None]:
    """Text + offset just after an array's '[' + where to stop -> its elements (Damaged where broken), offset after its ']'.

    The offset is None when no closing ']' was found before `end` (a file cut short).
    """
    out: list[Element] = []
    pos = _SPACE.match(text, start).end()
    wants_value = True
    while pos < end:
        ch = text[pos]
        if ch == "]":
            return out, pos + 1
        if not wants_value:
            if ch == ",":
                pos, wants_value = _SPACE.match(text, pos + 1).end(), True
                continue
            pos, wants_value = _next_start(text, pos, end, out, accept), True  # damaged separator
            continue
        try:
            value, after = _DECODER.raw_decode(text, pos)
        except (json.JSONDecodeError, RecursionError) as exc:
            later: list[Element] = []
            nxt = _next_start(text, pos + 1, end, later, accept)
            # A stray character right before a good element damaged the space between two
            # elements, not an element: nothing is lost there.
            stray = ch not in _VALUE_STARTS and not later and not text[pos + 1 : nxt].strip()
            if not stray or nxt >= end:
                out.append(Damaged(pos, _reason(exc, pos)))
            out.extend(later)
            pos = nxt
            continue
        if after > end:  # ran into what follows the array: its end was damaged
            out.append(
                Damaged(pos, f"damaged JSON at character {pos}: element runs past its array")
            )
            return out, end
        out.append(value)
        pos, wants_value = _SPACE.match(text, after).end(), False
    return out, None


def _next_start(
    text: str, pos: int, end: int, out: list[Element], accept: Callable[[object], bool]
) -> int:
    """Damage at pos -> offset of the next element start (damaged starts on the way appended), or end."""
    for m in _OBJECT.finditer(text, pos, end):
        at = m.start()
        before, k = _previous_char(text, at, pos)
        if before == ":" and _previous_char(text, k, pos)[0] == '"':
            continue  # a value inside an element (after a key)
        try:
            value, after = _DECODER.raw_decode(text, at)
        except (json.JSONDecodeError, RecursionError) as exc:
            if before in (",", "["):
                out.append(Damaged(at, _reason(exc, at)))
            continue
        if after <= end and (before in (",", "[") or accept(value)):
            return at
    return end


def _previous_char(text: str, at: int, floor: int) -> tuple[str, int]:
    """Text + offset -> the last non-space character before it (looking back to floor - 1) and its offset."""
    k, low = at - 1, max(floor - 1, 0)
    while k >= low and text[k] in " \t\n\r":
        k -= 1
    return (text[k], k) if k >= low else ("", k)


def salvaged_document(text: str, items: str | None) -> tuple[Any, list[tuple[int, Damaged]]] | None:
    """JSON text that does not decode + where its records are -> the document with the good records, and the damaged ones by position.

    `items` None: the document is a list of records; else the records are the list under
    that top-level key and the fields before it (an export's header) must decode. None when
    the records' list cannot be found or its header is damaged.
    """
    body = _SPACE.match(text, 1 if text.startswith("\ufeff") else 0).end()
    if items is None:
        if not text.startswith("[", body):
            return None
        elements, closed = array_elements(text, body + 1, len(text))
        return _split(_cut(elements, closed, len(text)), lambda good: good)
    opener = re.compile(rf'"{re.escape(items)}"\s*:\s*\[').search(text, body)
    if opener is None or not text.startswith("{", body):
        return None
    try:
        header = json.loads(text[body : opener.start()] + f'"{items}": []}}')
    except (json.JSONDecodeError, RecursionError):
        return None
    if not isinstance(header, dict):
        return None
    elements, closed = array_elements(text, opener.end(), len(text))
    return _split(_cut(elements, closed, len(text)), lambda good: {**header, items: good})


def _cut(elements: list[Element], closed: int | None, end: int) -> list[Element]:
    """Salvaged elements + where their array closed (None: never) + the text's length -> them, a mark of the cut appended when nothing marks it yet.

    A file cut right after `[`, a `,` or a whole element decodes to the elements before the
    cut and no damaged one: without the mark, what followed would be lost without a word.
    """
    if closed is not None or (elements and isinstance(elements[-1], Damaged)):
        return elements
    reason = f"damaged JSON: the text ends at character {end} before its list is closed (cut short)"
    return [*elements, Damaged(end, reason)]


def _split(
    elements: list[Element], wrap: Callable[[list[Any]], Any]
) -> tuple[Any, list[tuple[int, Damaged]]]:
    """Salvaged elements + how to rebuild the document -> (document of the good ones, damaged ones by position)."""
    good = [e for e in elements if not isinstance(e, Damaged)]
    damaged = [(i, e) for i, e in enumerate(elements) if isinstance(e, Damaged)]
    return wrap(good), damaged
