"""The lake's window and page titles -> a set to test lines against: a highlight is never one of them."""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Iterable

TITLE_SHARE = 0.6  # a title this share of a line's length makes the line a title
MIN_TITLE_CHARS = 12  # shorter titles ("Slack", "Zoom") are words, not a line's whole


def norm_title(text: str) -> str:
    """Text -> NFKC, casefolded, one space between words (titles and lines compare so)."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def title_set(listed: Iterable[Iterable[str] | None]) -> frozenset[str]:
    """Each session's titles (the lake's `titles` column) -> every title, normalised."""
    return frozenset(norm_title(t) for titles in listed if titles is not None for t in titles if t)


def is_title(text: str, titles: Collection[str]) -> bool:
    """A line + normalised titles -> whether it is one of them, or one with a few words around it."""
    core = norm_title(text).strip(" .")
    if core in titles:
        return True
    return any(
        len(t) >= MIN_TITLE_CHARS and t in core and len(t) >= TITLE_SHARE * len(core)
        for t in titles
    )
