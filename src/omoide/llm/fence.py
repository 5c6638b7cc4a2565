"""Untrusted text -> a fenced data block every prompt uses, which no line can break out of."""

from __future__ import annotations

import re
from collections.abc import Sequence

FENCE = "untrusted_data"
# Anything a model might read as the fence's own tag: any case, spaces or line breaks inside
# the brackets, `-` or a space for the underscore.
_TAG = re.compile(r"<(\s*/?\s*untrusted[\s_-]*data)", re.IGNORECASE)


def _defang(text: str) -> str:
    """Untrusted text -> the same text unable to open or close the data fence."""
    return _TAG.sub(lambda m: "‹" + m.group(1), text)


def fenced(lines: Sequence[str]) -> str:
    """Data lines -> one fenced block that no line can break out of."""
    body = "\n".join(_defang(line) for line in lines)
    return f"<{FENCE}>\n{body}\n</{FENCE}>"
