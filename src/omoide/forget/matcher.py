"""Every forgotten string looked for at once: one Aho-Corasick automaton over the needles' forms.

A forget by domain may leave thousands of distinct titles, URLs and texts to look for; one
regular expression per string would read each file thousands of times. The automaton
(ahocorasick-rs) reads it once. Matching ignores case (both sides lower-cased); a `word`
needle only counts with no letter, digit or underscore on either side.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import quote, quote_plus

import ahocorasick_rs
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


@dataclass(frozen=True)
class Needle:
    """A string the receipt's byte scan must not find; `word` ones match as a whole word."""

    text: str
    word: bool = False


def forms(text: str) -> set[bytes]:
    """Needle text -> the byte forms it can take on disk, lower-cased (UTF-8, JSON-escaped, URL-quoted)."""
    low = text.lower()
    out = {
        low.encode("utf-8"),
        json.dumps(low)[1:-1].encode("ascii"),
        quote(low, safe="").lower().encode("ascii"),
        quote_plus(low, safe="").lower().encode("ascii"),
        quote(low, safe="/:").lower().encode("ascii"),
    }
    return {f for f in out if f}


def _is_word_char(ch: str) -> bool:
    """Character -> does it continue a word (letter, digit, underscore)?"""
    return ch.isalnum() or ch == "_"


def _whole_word(hay: bytes, start: int, end: int, lo: int = 0, hi: int | None = None) -> bool:
    """Bytes + a match's span (+ the value's bounds) -> no word character touches it on either side."""
    hi = len(hay) if hi is None else hi
    before = hay[max(lo, start - 4) : start].decode("utf-8", "ignore")
    after = hay[end : min(hi, end + 4)].decode("utf-8", "ignore")
    return not (before and _is_word_char(before[-1])) and not (after and _is_word_char(after[0]))


class Matcher:
    """Needles -> which of them a file's bytes or a column's decoded text holds."""

    def __init__(self, needles: Sequence[Needle]) -> None:
        self.needles = list(needles)
        raw = sorted({(f, i) for i, n in enumerate(self.needles) for f in forms(n.text)})
        self._raw_owner = [i for _, i in raw]
        self._raw = ahocorasick_rs.BytesAhoCorasick([f for f, _ in raw]) if raw else None
        plain = [n.text.lower().encode("utf-8") for n in self.needles]
        self._plain = ahocorasick_rs.BytesAhoCorasick(plain) if plain else None

    def __bool__(self) -> bool:
        return bool(self.needles)

    def _found(
        self, automaton: object, owner: Sequence[int] | None, hay: bytes, bounds: np.ndarray | None
    ) -> set[int]:
        """Automaton + lower-cased bytes (+ value offsets) -> needles found inside one value, whole words where asked."""
        found: set[int] = set()
        if automaton is None or not hay:
            return found
        for k, start, end in automaton.find_matches_as_indexes(hay, overlapping=True):
            i = owner[k] if owner is not None else k
            if i in found:
                continue
            lo, hi = 0, len(hay)
            if bounds is not None:
                v = int(np.searchsorted(bounds, start, side="right")) - 1
                lo, hi = int(bounds[v]), int(bounds[v + 1])
                if end > hi:
                    continue  # spans two values: no value holds it
            if not self.needles[i].word or _whole_word(hay, start, end, lo, hi):
                found.add(i)
        return found

    def in_bytes(self, data: bytes) -> set[int]:
        """Raw file bytes -> indexes of the needles they hold in any of their forms (any ASCII case)."""
        return self._found(self._raw, self._raw_owner, data.lower(), None)

    def in_text(self, text: str) -> set[int]:
        """Decoded text -> indexes of the needles it holds (any case)."""
        return self._found(self._plain, None, text.lower().encode("utf-8"), None)

    def any_text(self, texts: Iterable[object]) -> bool:
        """Texts -> True when any string among them holds a needle."""
        return any(isinstance(t, str) and self.in_text(t) for t in texts)

    def in_table(self, table: pa.Table) -> set[int]:
        """Arrow table -> indexes of the needles any of its string columns (lists too) holds once decoded."""
        found: set[int] = set()
        for column in table.columns:
            for chunk in column.chunks:
                data = chunk
                while pa.types.is_list(data.type) or pa.types.is_large_list(data.type):
                    data = pc.list_flatten(data)
                if pa.types.is_string(data.type) or pa.types.is_large_string(data.type):
                    found |= self._in_strings(data)
        return found

    def _in_strings(self, values: pa.Array) -> set[int]:
        """Arrow strings -> needles found within one value, the values searched as one buffer."""
        low = pc.utf8_lower(values.cast(pa.large_string()))
        if len(low) == 0:
            return set()
        offsets = np.frombuffer(low.buffers()[1], dtype=np.int64)[
            low.offset : low.offset + len(low) + 1
        ]
        data = low.buffers()[2]
        if data is None:
            return set()
        base = int(offsets[0])
        hay = data.to_pybytes()[base : int(offsets[-1])]
        return self._found(self._plain, None, hay, offsets - base)
