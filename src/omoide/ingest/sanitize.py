"""Sanitize stage: drop excluded domains and redact personal data in events, vectorised.

One RE2 pass over each whole column (pyarrow, in C++, split across cores) picks the few
strings that may hold personal data; per-group screens on those tell which detectors of
`omoide.ingest.pii` can find anything, and only those run, once per distinct string.
Categorical columns (the titles and URLs browser collectors emit) are screened once per
category and keep their codes, so a million visits of a few thousand pages cost little.
"""

from __future__ import annotations

import logging
import os
import re
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from omoide.core import schemas
from omoide.ingest import pii
from omoide.ingest.pii import Span, find_pii, redact_text

__all__ = [
    "COUNT_KEYS",
    "TEXT_COLUMNS",
    "Span",
    "find_pii",
    "pii_residue",
    "redact_text",
    "sanitize",
]

log = logging.getLogger(__name__)

TEXT_COLUMNS = ("title", "url", "text", "app", "actor")
EXCLUDED_DOMAIN = "excluded_domain"
COUNT_KEYS = (*pii.TYPES, EXCLUDED_DOMAIN)
_SLICE_ROWS = 200_000  # below this a thread costs more than it saves
_SCREEN_SETS = [
    frozenset(name for bit, name in enumerate(pii.SCREENS) if bits >> bit & 1)
    for bits in range(1 << len(pii.SCREENS))
]


def _as_arrow(values: pd.Series) -> pa.Array:
    """String series (pyarrow-backed or object) -> one contiguous arrow string array."""
    array = values.array
    if hasattr(array, "__arrow_array__"):
        data = array.__arrow_array__()
    else:
        data = pa.array(values.to_numpy(dtype=object), from_pandas=True)
    if isinstance(data, pa.ChunkedArray):
        # Frames built row by row can hold one chunk per row; kernels pay per chunk.
        data = data.combine_chunks()
    try:
        # 32-bit offsets make the kernels below several times faster than large_string.
        return data.cast(pa.string())
    except pa.ArrowInvalid:
        return data.cast(pa.large_string())


def _screen(data: pa.Array, pattern: str) -> np.ndarray:
    """Arrow strings and an RE2 pattern -> boolean array of the strings it matches (nulls no)."""
    # RE2 runs without the GIL: big arrays are split across threads, one slice per core.
    slices = min(os.cpu_count() or 1, len(data) // _SLICE_ROWS + 1)
    step = -(-len(data) // slices)

    def match(offset: int) -> np.ndarray:
        found = pc.match_substring_regex(data.slice(offset, step), pattern)
        return pc.fill_null(found, False).to_numpy(zero_copy_only=False)

    if slices == 1:
        return match(0)
    with ThreadPoolExecutor(max_workers=slices) as pool:
        return np.concatenate(list(pool.map(match, range(0, len(data), step))))


def _redact_arrow(
    data: pa.Array, weights: np.ndarray | None = None
) -> tuple[pa.Array | None, Counter[str]]:
    """Arrow strings (+ how many rows each stands for) -> (redacted or None; counts per type)."""
    counts: Counter[str] = Counter()
    if len(data) == data.null_count:
        return None, counts
    positions = np.flatnonzero(_screen(data, pii.PREFILTER))
    if not positions.size:
        return None, counts
    candidates = data.take(positions)
    # Which screens each candidate matched, as a bit set: only those detectors run on it.
    bits = np.zeros(len(candidates), dtype=np.int64)
    for bit, screen in enumerate(pii.SCREENS.values()):
        bits |= _screen(candidates, screen).astype(np.int64) << bit
    seen: dict[str, tuple[str, Counter[str]]] = {}
    occurrences: Counter[str] = Counter()
    changed: list[int] = []
    replacements: list[str] = []
    rows = zip(positions.tolist(), bits.tolist(), candidates.to_pylist(), strict=True)
    for position, screen_bits, text in rows:
        # Titles and URLs repeat: each distinct string goes through the detectors once.
        if text not in seen:
            seen[text] = redact_text(text, screens=_SCREEN_SETS[screen_bits])
        redacted, found = seen[text]
        if found:
            changed.append(position)
            replacements.append(redacted)
            occurrences[text] += 1 if weights is None else int(weights[position])
    for text, n in occurrences.items():
        for kind, per_string in seen[text][1].items():
            counts[kind] += per_string * n
    if not changed:
        return None, counts
    mask = np.zeros(len(data), dtype=bool)
    mask[changed] = True
    return pc.replace_with_mask(data, mask, pa.array(replacements, type=data.type)), counts


def _categories(values: pd.Series) -> tuple[np.ndarray, pa.Array] | None:
    """Categorical string column -> (codes, -1 for null; categories as Arrow), else None."""
    if not isinstance(values.dtype, pd.CategoricalDtype):
        return None
    return values.cat.codes.to_numpy(), _as_arrow(values.cat.categories.to_series())


def _recode(codes: np.ndarray, strings: pa.Array, index: pd.Index) -> pd.Series:
    """Codes into strings that may now repeat -> categorical series over distinct strings."""
    categories = pd.Index(strings.to_pandas())
    if not categories.is_unique:
        # Two values that differed only in what was redacted are one value now.
        encoded = pc.dictionary_encode(strings)
        codes = np.append(encoded.indices.to_numpy(zero_copy_only=False), -1)[codes]
        categories = pd.Index(encoded.dictionary.to_pandas())
    return pd.Series(pd.Categorical.from_codes(codes, categories=categories), index=index)


def _redact_strings(values: pd.Series) -> tuple[pd.Series, Counter[str]]:
    """String column -> (column with personal data replaced, counts per type)."""
    distinct = _categories(values)
    if distinct is not None:
        # Titles and URLs arrive once per distinct value: redact those, weighted by use.
        codes, categories = distinct
        uses = np.bincount(codes[codes >= 0], minlength=len(categories))
        redacted, counts = _redact_arrow(categories, uses)
        if redacted is None:
            return values, counts
        return _recode(codes, redacted, values.index), counts
    if values.isna().all():  # text/actor of browser visits: nothing to convert or scan
        return values, Counter()
    redacted, counts = _redact_arrow(_as_arrow(values))
    if redacted is None:
        return values, counts
    return pd.Series(redacted.to_pandas(), index=values.index), counts


def _as_lists(values: pd.Series) -> pa.ListArray:
    """Series of string lists (lists, numpy arrays, nulls or Arrow) -> arrow list<string> array."""
    array = values.array
    if hasattr(array, "__arrow_array__"):
        data = pa.array(array, type=pa.list_(pa.string()))
        return data.combine_chunks() if isinstance(data, pa.ChunkedArray) else data
    return pa.array(values.to_numpy(dtype=object), type=pa.list_(pa.string()), from_pandas=True)


def _redact_lists(values: pd.Series) -> tuple[pd.Series, Counter[str]]:
    """List-of-strings column (entities) -> (column with items redacted, counts per type)."""
    if values.empty:
        return values, Counter()
    lists = _as_lists(values)
    items, counts = _redact_arrow(lists.flatten())
    if items is None:
        return values, counts
    offsets = pc.subtract(lists.offsets, lists.offsets[0])
    rebuilt = pa.ListArray.from_arrays(offsets, items, mask=lists.is_null())
    return pd.Series(rebuilt.to_pandas(), index=values.index), counts


def _residue(data: pa.Array) -> np.ndarray:
    """Arrow strings -> number of PII spans still found in each (0 for nulls)."""
    found = np.zeros(len(data), dtype=np.int64)
    if len(data) == data.null_count:
        return found
    positions = np.flatnonzero(_screen(data, pii.PREFILTER))
    seen: dict[str, int] = {}
    for position, text in zip(positions.tolist(), data.take(positions).to_pylist(), strict=True):
        if text not in seen:
            seen[text] = len(find_pii(text))
        found[position] = seen[text]
    return found


def pii_residue(events: pd.DataFrame) -> pd.Series:
    """Events -> per-row count of PII the detectors still find in text columns and entities."""
    residue = np.zeros(len(events), dtype=np.int64)
    for column in TEXT_COLUMNS:
        if column not in events.columns:
            continue
        distinct = _categories(events[column])
        if distinct is None:
            residue += _residue(_as_arrow(events[column]))
        else:
            codes, categories = distinct
            residue += np.append(_residue(categories), 0)[codes]
    if "entities" in events.columns and len(events):
        lists = _as_lists(events["entities"])
        rows = pc.list_parent_indices(lists).to_numpy(zero_copy_only=False)
        np.add.at(residue, rows, _residue(lists.flatten()))
    return pd.Series(residue, index=events.index, name="pii_residue")


def _normalise_domains(domains: Iterable[str]) -> list[str]:
    """Configured domains -> lower-case hostnames without wildcards or dots at the ends."""
    out = []
    for domain in domains:
        name = domain.strip().lower().removeprefix("*.").strip(".")
        if name:
            out.append(name)
    return out


def host_of(url: str) -> str | None:
    """URL (with or without a scheme) -> lower-case hostname, or None if there is none."""
    try:
        parts = urlsplit(url if "//" in url else "//" + url)
        return (parts.hostname or "").rstrip(".") or None
    except ValueError:
        return None


def _is_excluded(url: str, domains: list[str]) -> bool:
    """URL and excluded domains -> True if its host is one of them or a subdomain of one."""
    host = host_of(url)
    if host is None:
        # No host urllib can read (malformed, or no authority): judge by a host-shaped
        # occurrence rather than keep a page from an excluded domain.
        lowered = url.lower()
        return any(re.search(rf"(?:^|[/.@]){re.escape(d)}(?:[:/?#]|$)", lowered) for d in domains)
    return any(host == d or host.endswith("." + d) for d in domains)


def _excluded_rows(urls: pd.Series, domains: list[str]) -> np.ndarray:
    """URL column and excluded domains -> boolean mask of rows to drop."""
    if not domains or urls.empty:
        return np.zeros(len(urls), dtype=bool)
    distinct = _categories(urls)
    if distinct is not None:
        codes, categories = distinct
        return np.append(_excluded(categories, domains), False)[codes]
    return _excluded(_as_arrow(urls), domains)


def _excluded(data: pa.Array, domains: list[str]) -> np.ndarray:
    """Arrow URL strings and excluded domains -> boolean mask of those to drop."""
    drop = np.zeros(len(data), dtype=bool)
    # Cheap substring test first; only URLs mentioning a domain are parsed.
    maybe = np.zeros(len(data), dtype=bool)
    for domain in domains:
        hit = pc.fill_null(pc.match_substring(data, domain, ignore_case=True), False)
        maybe |= hit.to_numpy(zero_copy_only=False)
    positions = np.flatnonzero(maybe)
    verdicts: dict[str, bool] = {}
    for position, url in zip(positions.tolist(), data.take(positions).to_pylist(), strict=True):
        if url not in verdicts:
            verdicts[url] = _is_excluded(url, domains)
        drop[position] = verdicts[url]
    return drop


def sanitize(
    events: pd.DataFrame, excluded_domains: list[str]
) -> tuple[pd.DataFrame, dict[str, int]]:
    """Events, excluded domains -> (new events frame without them and with PII redacted, counts)."""
    names = schemas.EVENTS.names
    # Selecting columns copies no data (pandas copy-on-write), and the assignments below
    # never reach the caller's frame; only a frame missing columns is conformed (a copy).
    frame = (
        events[names]
        if set(names) <= set(events.columns)
        else schemas.conform(events, schemas.EVENTS)
    )
    counts: Counter[str] = Counter()
    drop = _excluded_rows(frame["url"], _normalise_domains(excluded_domains))
    counts[EXCLUDED_DOMAIN] = int(drop.sum())
    frame = frame.loc[~drop] if drop.any() else frame
    frame = frame.reset_index(drop=True)
    for column in TEXT_COLUMNS:
        frame[column], found = _redact_strings(frame[column])
        counts.update(found)
    frame["entities"], found = _redact_lists(frame["entities"])
    counts.update(found)
    result = {key: int(counts[key]) for key in COUNT_KEYS}
    log.info("sanitize: %d events in, %d out, redactions %s", len(events), len(frame), result)
    return frame, result
