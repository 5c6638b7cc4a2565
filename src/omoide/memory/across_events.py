"""A question -> whether its answer gathers several events: counting, totals, comparison, order.

"How many fitness classes do I attend", "which did I get first, the S22 or the XPS",
"what books has Melanie read", "何回行った": the evidence is one mention per event, usually
said in different conversations on different days, so recall spreads such a question's
results over its sittings (`omoide.memory.distinct`). A question about one thing ("what
breed is my dog") is left as ranked: its evidence is often two or three messages of one
sitting, and spreading would push them down.

The cues are grammar, not topics: words that ask to count, add, compare or order, and the
plural object of a perfect or habitual question ("what states has Maria visited", "what
instruments does Tim play"). They were written from English and Japanese question forms and
checked against both development sets (docs/memory-and-recall.md, "Questions across events").
"""

from __future__ import annotations

import re

_ENGLISH = re.compile(
    r"\b(?:how (?:many|often)|in total|total|combined|altogether|both|each|every"
    r"|in (?:what|which) order|the order|compared? (?:to|with)|than|the most|the least)\b"
    # which of two came first: "which device did I set up first"
    r"|^\s*which\b[^?]*\b(?:first|earliest|last|latest)\b"
    # the plural object of a perfect or habitual question: "what states has ...",
    # "which instruments does ..."
    r"|^\s*(?:what|which)\s+(?:\w+\s+)?\w+[^s\W]s\s+(?:has|have|does|do)\b",
    re.IGNORECASE,
)
_JAPANESE = re.compile(
    r"何回|何度|いくつ|幾つ|何種類|合計|全部|すべて|全て|どちらが|順番|順序|比べ"
)


def across_events(query: str) -> bool:
    """A question -> whether it asks to count, add up, compare or order several events."""
    return bool(_ENGLISH.search(query) or _JAPANESE.search(query))
