"""A chat record's text: its own message between the messages around it, which are marked as context.

A chat record is stored as a window: the message before it (a line starting BEFORE), its own
message or one passage of it (unmarked lines: a message may span several), and the message
after it (AFTER), each neighbour cut to its first words. The whole window is what recall
matches: a reply often names what a message was about ("yes, the support group was great"),
and LoCoMo dev R@10 fell from 82.9 to 76.2 with the message after left out
(docs/benchmarks.md). What recall shows is the evidence (`omoide.memory.chat_evidence`).
"""

from __future__ import annotations

BEFORE = "↑ "
AFTER = "↓ "


def is_context(line: str) -> bool:
    """A line of a record -> True when it is a neighbour kept as context, not the record's own text."""
    return line.startswith((BEFORE, AFTER))


def cut(text: str, words: int) -> str:
    """Text + a word count -> its first that many words, '…' where cut."""
    parts = text.split()
    if len(parts) <= words:
        return text
    kept = " ".join(parts[:words])
    return kept if kept.endswith("…") else kept + " …"
