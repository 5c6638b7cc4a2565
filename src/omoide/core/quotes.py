"""Memory text -> a short one-line quote, the way pages and the CLI show evidence."""

from __future__ import annotations

import re

QUOTE_CHARS = 80
# A sentence's end: a full stop, ! or ? before a space or the end, or a Japanese one anywhere.
SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[。！？]")
# Digit groups at the end of a cut ("order no. 4929 1234"): a number the cut splits.
_NUMBER_TAIL = re.compile(r"[\d(][\d\s().+/-]*$")


def short_quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """Text -> one line of at most `limit` characters, cut on a word boundary with an ellipsis."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    space = cut.rfind(" ")
    # One long word (a URL, a path) is cut inside itself rather than shrunk to a stub.
    if space > limit // 2:
        cut = cut[:space]
    # A number cut in two is not what was written, and its first half can read as another
    # kind of number (a 16-digit order number's first eight digits as a phone number).
    if flat[len(cut) :].lstrip()[:1].isdigit():
        cut = _NUMBER_TAIL.sub("", cut)
    return cut.rstrip(" ,;:.–—-") + "…"


def whole_sentences(text: str, limit: int) -> str | None:
    """Text + a length -> its first whole sentences within the length when they fill a third of it, else None."""
    ends = [m.end() for m in SENTENCE_END.finditer(text, 0, limit + 1)]
    return text[: ends[-1]].rstrip() if ends and ends[-1] > limit // 3 else None
