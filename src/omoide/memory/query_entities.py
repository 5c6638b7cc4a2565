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
from collections import Counter
from collections.abc import Callable

import lancedb

MAX_GRAM = 3
DF_CAP = 2000  # rows read to count df; an entity on more is common enough to credit ~nothing
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


def entity_credits(
    table: lancedb.table.Table, grams: list[str], where_any: Callable[[list[str]], str]
) -> dict[str, float]:
    """Table + the question's n-grams + `where` builder for rows tagged with any key -> credit per named entity."""
    total = table.count_rows()
    if total < 2 or not grams:
        return {}
    rows = table.search().where(where_any(grams)).select(["entities"]).limit(DF_CAP).to_arrow()
    wanted = set(grams)
    df: Counter[str] = Counter()
    for ents in rows["entities"].to_pylist():
        df.update({entity_key(e) for e in ents or ()} & wanted)
    if rows.num_rows >= DF_CAP:  # counts from a capped read are lower bounds: count exactly
        df = Counter({k: table.count_rows(where_any([k])) for k in df})
    return {k: max(0.0, math.log(total / n) / math.log(total)) for k, n in df.items() if n}
