"""A day's records + its facts -> the records tagged with the entities they talk about.

The user tags an entity once (`W @Kyoto: The ryokan in Higashiyama is booked …`), not on
every line that is about it. Two offline rules carry a day's tags to its other records, so
that a question naming the entity finds the user's own lines, not only browsing about it:

- mention: a note or chat record whose text names an entity of the day as a whole word
  (case-insensitive; a CJK name as a substring, CJK text has no spaces) gets it;
- restatement: a note line that a `## Retain` fact of the same note file restates (at least
  RESTATES of the fact's words, and MIN_WORDS of them, are in the line) gets the fact's
  entities. Containment, not Jaccard: the line carries its heading path as context.

Only names tagged on that day are used, so a day's rows never depend on another day's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import pandas as pd

from omoide.memory.day_summary import Fact
from omoide.memory.terms import has_cjk

RESTATES = 0.8
MIN_WORDS = 3
_WORD = re.compile(r"\w+", re.UNICODE)


def words(text: str) -> set[str]:
    """Text -> its lower-cased words."""
    return set(_WORD.findall(text.lower()))


def _named(text: str, name: str) -> bool:
    """Text + entity name -> whether the text names it (whole words; CJK names as substrings)."""
    if has_cjk(name):
        return name in text
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE) is not None


def _file(ref: str) -> str:
    """Citation `path#Lnn` -> its path."""
    return ref.split("#", 1)[0]


def _restated(content: str, ref: str, facts: Sequence[Fact]) -> list[str]:
    """A note's text + citation + the day's retained facts -> entities of the facts restating it."""
    mine = words(content)
    found: list[str] = []
    for f in facts:
        if f.origin != "retain" or not f.refs or _file(f.refs[0]) != _file(ref):
            continue
        theirs = words(f.content)
        shared = len(mine & theirs)
        if shared >= MIN_WORDS and shared >= RESTATES * len(theirs):
            found += f.entities
    return found


def linked_entities(records: pd.DataFrame, facts: Iterable[Fact]) -> pd.DataFrame:
    """A day's records + its facts -> the records with the day's entities they mention or a fact restates."""
    facts = list(facts)
    names = list(
        dict.fromkeys(
            [n for f in facts for n in f.entities]
            + [n for ents in records["entities"] for n in (ents if ents is not None else [])]
        )
    )
    if not names or records.empty:
        return records
    out = records.copy()
    tagged: list[list[str]] = []
    for kind, ents, content, source in zip(
        out["kind"], out["entities"], out["content"], out["source"], strict=True
    ):
        have = list(ents) if ents is not None else []
        if kind in ("note", "chat"):
            have += [n for n in names if _named(str(content), n)]
        if kind == "note":
            have += _restated(str(content), str(source), facts)
        tagged.append(list(dict.fromkeys(have)))
    out["entities"] = tagged
    return out
