"""Untrusted text -> a fenced data block every prompt uses, which no line can break out of."""

from __future__ import annotations

from collections.abc import Sequence

FENCE = "untrusted_data"


def _defang(text: str) -> str:
    """Untrusted text -> the same text unable to open or close the data fence."""
    return text.replace(f"<{FENCE}", f"‹{FENCE}").replace(f"</{FENCE}", f"‹/{FENCE}")


def fenced(lines: Sequence[str]) -> str:
    """Data lines -> one fenced block that no line can break out of."""
    body = "\n".join(_defang(line) for line in lines)
    return f"<{FENCE}>\n{body}\n</{FENCE}>"
