"""Memory text -> a short one-line quote, the way pages and the CLI show evidence."""

from __future__ import annotations

QUOTE_CHARS = 80


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
    return cut.rstrip(" ,;:.–—-") + "…"
