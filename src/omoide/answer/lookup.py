"""A lookup ("where does Mina live", anything not an overview, a time or a when) -> recall's best memories, the standing fact first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from omoide.answer.cite import Citation
from omoide.memory.chat_evidence import own_text

if TYPE_CHECKING:
    # Only a lookup recalls: an overview, a time or a when must not load LanceDB to start.
    from omoide.memory.recall import Recalled

SHOWN = 3
TEXT_CHARS = 240


def _short(text: str) -> str:
    """Memory content -> one line, cut to TEXT_CHARS."""
    one = " ".join(text.split())
    return one if len(one) <= TEXT_CHARS else one[: TEXT_CHARS - 1] + "…"


# Said first when no memory shown shares a word (or a tag) with the question: what follows
# is only near it in meaning, and must not read as the answer.
BY_MEANING_ONLY = "No memory shares a word with your question; the closest in meaning:"


def lookup_answer(results: Sequence[Recalled]) -> tuple[str, list[Citation], bool]:
    """Recalled memories, best first -> the answer's text (the best, then what else bears on it),
    citations, and whether a memory shown shares a word with the question."""
    if not results:
        return "Nothing in your memory matches that.", [], False
    shown = results[:SHOWN]
    best, *rest = shown
    # A chat record's neighbours are context: the answer quotes the message it cites.
    text = _short(own_text(best.content))
    if best.valid_to is not None:
        text += f" (no longer so since {best.valid_to[:10]})"
    also = [f"“{_short(own_text(r.content))}” ({r.day})" for r in rest]
    answer = f"{text} ({best.day})" + (" Also: " + "; ".join(also) if also else "")
    matched = any(r.parts.lexical > 0 for r in shown)
    if not matched:
        # A question in another language than its memories lands here too: still shown.
        answer = f"{BY_MEANING_ONLY} “{text}” ({best.day})" + (
            "; " + "; ".join(also) if also else ""
        )
    return answer, [Citation(r.source, r.day) for r in shown], matched
