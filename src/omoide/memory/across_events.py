"""A question -> whether its answer gathers several events: counting, totals, comparison, order.

"How many fitness classes do I attend", "which did I get first, the S22 or the XPS",
"what books has Melanie read", "何回行った": the evidence is one mention per event, usually
said in different conversations on different days, so recall spreads such a question's
results over its sittings (`omoide.memory.distinct`). A question about one thing ("what
breed is my dog") is left as ranked: its evidence is often two or three messages of one
sitting, and spreading would push them down.

The cues are grammar, not topics: words that ask to count, add, compare or order, the
plural object of a perfect or habitual question ("what states has Maria visited", "what
instruments does Tim play"), and the state now or the last time ("what model am I currently
working on", "when did I last ...", 今は, 最後に): the latest account is known as the latest
only beside the earlier ones, which a ranking of one conversation's windows pushes out. They
were written from English and Japanese question forms and checked against both development
sets (docs/memory-and-recall.md, "Questions across events").
"""

from __future__ import annotations

import re

_ENGLISH = re.compile(
    r"\b(?:how (?:many|often)|in total|total|combined|altogether|both|each|every"
    r"|in (?:what|which) order|the order|compared? (?:to|with)|than|the most|the least"
    # the state now, or the last time: the latest of several accounts, known as the latest
    # only beside the earlier ones ("what am I currently working on", "when did I last ...")
    r"|currently|current|now|still|anymore|these days|most recent(?:ly)?|latest"
    r"|the last time|(?:did|have|has|was|were)\s+(?:\w+\s+)?last)\b"
    # which of two came first: "which device did I set up first"
    r"|^\s*which\b[^?]*\b(?:first|earliest|last|latest)\b"
    # the plural object of a perfect or habitual question: "what states has ...",
    # "which instruments does ..."
    r"|^\s*(?:what|which)\s+(?:\w+\s+)?\w+[^s\W]s\s+(?:has|have|does|do)\b",
    re.IGNORECASE,
)
_JAPANESE = re.compile(
    r"何回|何度|いくつ|幾つ|何種類|合計|全部|すべて|全て|どちらが|順番|順序|比べ"
    r"|現在|今は|今でも|今も|まだ|最新|最後に"
)


def across_events(query: str) -> bool:
    """A question -> whether it asks to count, add up, compare or order several events."""
    return bool(_ENGLISH.search(query) or _JAPANESE.search(query))
