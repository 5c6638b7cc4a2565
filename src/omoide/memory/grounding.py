"""A model's statement + the text it claims to rest on -> whether it is grounded there, and why not.

An LLM reads page titles, chat messages and notes that anyone may have written, so a page
titled "ignore previous instructions and …" can make a weak or obliging model invent a fact.
The fence in the prompt asks it not to; this module checks the answer instead of trusting
it. A statement is grounded when:

1. it gives no orders: nothing in it reads as an instruction to a model ("ignore previous
   instructions", "system prompt", "you are now", …);
2. its specifics are in the cited text: every token holding a digit, an `@`, or a `.`, `/`
   or `_` inside it (numbers, times, versions, addresses, passwords) appears there verbatim;
3. it is about that text: at least GROUNDED_SHARE of its content words (letters, three or
   more, case-folded, stop words removed, a plural or -ed/-ing ending trimmed; for Chinese
   and Japanese, character pairs) occur in the cited text.

Only LLM-written facts and highlights are checked; the user's own `## Retain` lines and the
embedded extractive digest quote their sources and need no check.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

GROUNDED_SHARE = 0.5
_INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:instruction|prompt|rule|above|previous|prior)s?\b"
    r"|\bsystem\s+prompt\b|\byou\s+are\s+now\b|\bact\s+as\b|\bnew\s+instructions?\b"
    r"|\bjailbreak\b|\bdeveloper\s+mode\b|<\s*/?\s*(?:system|assistant|user|untrusted_data)\b",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"\S+")
_SPECIFIC = re.compile(r"\d|@|\w[./_]\w")
_WORD = re.compile(r"[^\W\d_]{3,}")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_STOP = frozenset(
    "the and for with that this from was were are has have had been his her their they them "
    "she him its our you your about into onto over after before then than also very just not "
    "user users user's today day did does done will would could should can may might".split()
)


def instruction(text: str) -> str | None:
    """Text -> the part of it that reads as an order to a model, or None."""
    found = _INSTRUCTION.search(text)
    return found.group(0) if found else None


def _stem(word: str) -> str:
    """Word -> a crude stem (plural, -ed, -ing trimmed), so 'passwords' meets 'password'."""
    for ending in ("ing", "ed", "es", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def content_words(text: str) -> set[str]:
    """Text -> its content words: stemmed Latin words and CJK character pairs."""
    words = {_stem(w) for w in _WORD.findall(text.casefold()) if w not in _STOP}
    for run in _CJK.findall(text):
        words |= {run[i : i + 2] for i in range(len(run) - 1)} or {run}
    return words


def specifics(text: str) -> set[str]:
    """Text -> its precise tokens (numbers, times, versions, addresses), punctuation trimmed."""
    out = set()
    for token in _TOKEN.findall(text):
        token = token.strip(".,;:!?()[]{}\"'“”‘’«»").casefold()
        if token and _SPECIFIC.search(token):
            out.add(token)
    return out


def ungrounded(statement: str, sources: Iterable[str]) -> str | None:
    """Statement + the texts it rests on -> why it is not grounded in them, or None when it is."""
    order = instruction(statement)
    if order is not None:
        return f"gives an order ({order!r})"
    source = "\n".join(sources)
    folded = source.casefold()
    missing = sorted(s for s in specifics(statement) if s not in folded)
    if missing:
        return f"specifics not in its sources: {', '.join(missing[:3])}"
    words = content_words(statement)
    if len(words) >= 2:
        known = content_words(source)
        share = len(words & known) / len(words)
        if share < GROUNDED_SHARE:
            return f"only {share:.0%} of its words are in its sources"
    return None
