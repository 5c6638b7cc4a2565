"""A lookup ("where does Mina live", anything not an overview, a time or a when) -> recall's best memories, the standing fact first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from omoide.answer.cite import Citation

if TYPE_CHECKING:
    # Only a lookup recalls: an overview, a time or a when must not load LanceDB to start.
    from omoide.memory.recall import Recalled

SHOWN = 3
TEXT_CHARS = 240


def _short(text: str) -> str:
    """Memory content -> one line, cut to TEXT_CHARS."""
    one = " ".join(text.split())
    return one if len(one) <= TEXT_CHARS else one[: TEXT_CHARS - 1] + "…"


def lookup_answer(results: Sequence[Recalled]) -> tuple[str, list[Citation]]:
    """Recalled memories, best first -> the answer's text (the best, then what else bears on it) and citations."""
    if not results:
        return "Nothing in your memory matches that.", []
    best, *rest = results[:SHOWN]
    text = _short(best.content)
    if best.valid_to is not None:
        text += f" (no longer so since {best.valid_to[:10]})"
    also = [f"“{_short(r.content)}” ({r.day})" for r in rest]
    answer = f"{text} ({best.day})" + (" Also: " + "; ".join(also) if also else "")
    return answer, [Citation(r.source, r.day) for r in results[:SHOWN]]
