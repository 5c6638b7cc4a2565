"""A question -> the entities it names, each with how much naming it singles a memory out.

A memory tagged with an entity the question names is about what was asked, whether or not
its text repeats the name ("The ryokan in Higashiyama is booked", tagged @Kyoto, answers
"where am I staying in Kyoto"). The tag counts like a matched word, weighted by how rare
the entity is, the inverse document frequency of BM25 scaled to [0, 1]:

    credit(e) = ln(N / df(e)) / ln(N)     N memories in the table, df(e) of them tagged e

so an entity on two memories of a thousand counts almost as a unique word (0.9), and the
other speaker of a chat, tagged on every message of it, counts for next to nothing.
Names are matched as the question's word n-grams (up to MAX_GRAM words), case-insensitively.
"""

from __future__ import annotations

import math
import re
import threading
import weakref
from collections import Counter
from dataclasses import dataclass
from typing import Any

import lancedb

from omoide.store.table_version import VersionKey, version_key

MAX_GRAM = 3
RARE_ROWS = 1000  # an entity on more memories brings no pool of its own (its credit is small)
SEP = "\x1f"  # joins a row's entities for case-insensitive matching; never in a name
_WORD = re.compile(r"[\w@][\w'’.&-]*", re.UNICODE)


def entity_key(name: str) -> str:
    """Entity name as typed (`@Alice`, `alice`) -> lower-case key for matching."""
    return name.strip().lstrip("@").replace(SEP, "").lower()


def query_grams(query: str) -> list[str]:
    """Question -> entity keys it could name: its word n-grams up to MAX_GRAM, each once."""
    toks = [t.rstrip(".'’-").lstrip("@") for t in _WORD.findall(query)]
    toks = [t for t in toks if t]
    grams = [
        " ".join(toks[i : i + n]) for n in range(1, MAX_GRAM + 1) for i in range(len(toks) - n + 1)
    ]
    return [k for k in dict.fromkeys(entity_key(g) for g in grams) if k]


@dataclass(frozen=True)
class EntityIndex:
    """A table version's entity counts: memories in all, df per entity key, row ids of the rare ones."""

    total: int
    df: Counter[str]
    rows: dict[str, list[int]]  # only for entities on at most RARE_ROWS memories


# A table handle -> (its version, its entity index): one scan per version, not per question;
# a long-lived server asks many questions of one version.
_INDEXES: weakref.WeakKeyDictionary[Any, tuple[VersionKey, EntityIndex]] = (
    weakref.WeakKeyDictionary()
)
_INDEXES_LOCK = threading.Lock()


def entity_index(table: lancedb.table.Table) -> EntityIndex:
    """Table -> its entity index for the version it is at (built by one scan of `entities`, cached)."""
    version = version_key(table)  # a table made again by a reindex is not its namesake
    with _INDEXES_LOCK:
        cached = _INDEXES.get(table)
        if cached is not None and cached[0] == version:
            return cached[1]
    found = table.search().select(["entities"]).with_row_id(True).limit(None).to_arrow()
    df: Counter[str] = Counter()
    rows: dict[str, list[int]] = {}
    for rowid, ents in zip(found["_rowid"].to_pylist(), found["entities"].to_pylist(), strict=True):
        for key in {entity_key(e) for e in ents or ()} - {""}:
            df[key] += 1
            if df[key] <= RARE_ROWS:
                rows.setdefault(key, []).append(rowid)
            else:
                rows.pop(key, None)
    index = EntityIndex(found.num_rows, df, rows)
    with _INDEXES_LOCK:
        _INDEXES[table] = (version, index)
    return index


def entity_credits(index: EntityIndex, grams: list[str]) -> dict[str, float]:
    """Entity index + the question's n-grams -> credit per entity key the question names."""
    if index.total < 2:
        return {}
    scale = math.log(index.total)
    return {k: max(0.0, math.log(index.total / index.df[k]) / scale) for k in grams if index.df[k]}
