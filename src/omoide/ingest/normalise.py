"""Collected events -> text that can be stored and shown: NUL bytes and lone surrogates replaced, huge values capped; counts.

Sources hold whatever their writers put there. A NUL byte or a lone UTF-16 surrogate (from a
`\\ud800` escape in JSON) cannot be written to Parquet or shown safely, and a 20 MB chat
line would swamp every later stage; none of them may crash a run or vanish. Each is replaced
by U+FFFD or cut at its column's cap (ending in "…"), and counted, so the run summary says
how much was changed. Categorical columns (browser titles and URLs) are checked once per
distinct value, with Arrow kernels: a million clean visits cost milliseconds.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")
# Characters a value may keep; a longer one is cut (a note paragraph or chat message is
# far below 64k characters, a title or URL below 4k).
CAPS = {"text": 65_536, "title": 4_096, "url": 4_096, "app": 1_024, "actor": 1_024}
COUNT_KEYS = ("nul_replaced", "surrogate_replaced", "capped")


def clean_text(value: str, cap: int, counts: Counter[str]) -> str:
    """One string + its cap -> NUL and lone surrogates replaced, cut at the cap; counts updated."""
    if "\x00" in value:
        counts["nul_replaced"] += 1
        value = value.replace("\x00", REPLACEMENT)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        counts["surrogate_replaced"] += 1
        value = _SURROGATE.sub(REPLACEMENT, value)  # one U+FFFD per lone surrogate
    if len(value) > cap:
        counts["capped"] += 1
        value = value[: cap - 1] + "…"
    return value


def _suspects(strings: pa.Array, cap: int) -> np.ndarray:
    """Arrow strings -> positions holding a NUL byte or longer than the cap."""
    nul = pc.fill_null(pc.match_substring(strings, "\x00"), False)
    long = pc.fill_null(pc.greater(pc.utf8_length(strings), cap), False)
    return np.flatnonzero(pc.or_(nul, long).to_numpy(zero_copy_only=False))


def _clean_categories(values: pd.Series, cap: int, counts: Counter[str]) -> pd.Series:
    """Categorical column -> the same codes over cleaned categories (merged when they now repeat)."""
    categories = values.cat.categories
    try:
        strings = pa.array(categories.to_numpy(dtype=object), type=pa.string())
    except (UnicodeEncodeError, pa.ArrowException):
        bad = np.arange(len(categories))
    else:
        bad = _suspects(strings, cap)
    if not bad.size:
        return values
    fixed = list(categories)
    uses = np.bincount(
        values.cat.codes.to_numpy()[values.cat.codes.to_numpy() >= 0], minlength=len(fixed)
    )
    for i in bad.tolist():
        local: Counter[str] = Counter()
        fixed[i] = clean_text(str(fixed[i]), cap, local)
        for key, n in local.items():
            counts[key] += n * int(uses[i])
    codes, uniques = pd.factorize(pd.Index(fixed))
    remapped = np.append(codes, -1)[values.cat.codes.to_numpy()]
    return pd.Series(pd.Categorical.from_codes(remapped, categories=uniques), index=values.index)


def _clean_objects(values: pd.Series, cap: int, counts: Counter[str]) -> pd.Series:
    """Object column of strings and nulls -> cleaned strings (others left as they are)."""
    present = values.dropna()
    if present.empty:
        return values
    try:
        strings = pa.array(present.to_numpy(dtype=object), type=pa.string())
    except (UnicodeEncodeError, pa.ArrowException):
        bad = np.arange(len(present))
    else:
        bad = _suspects(strings, cap)
    if not bad.size:
        return values
    out = values.copy()
    labels = present.index[bad]
    out.loc[labels] = [
        clean_text(v, cap, counts) if isinstance(v, str) else v for v in present.loc[labels]
    ]
    return out


def normalised(events: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, int]]:
    """Events -> the same events with storable text, and counts of what was replaced or cut."""
    counts: Counter[str] = Counter()
    out = events
    for column, cap in CAPS.items():
        if column not in events.columns or events.empty:
            continue
        values = events[column]
        if isinstance(values.dtype, pd.CategoricalDtype):
            fixed = _clean_categories(values, cap, counts)
        else:
            fixed = _clean_objects(values, cap, counts)
        if fixed is not values:
            if out is events:
                out = events.copy()
            out[column] = fixed
    return out, {key: int(counts[key]) for key in COUNT_KEYS}
