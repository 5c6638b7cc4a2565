"""A lookup ("where does Mina live", anything not an overview, a time or a when) -> recall's best memories, the standing fact first."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

from omoide.answer.cite import Citation
from omoide.answer.language import Lang, date_text
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
BY_MEANING_ONLY_JA = "質問と同じ言葉を含む記憶はありません。意味の近いもの："
NOTHING = {"en": "Nothing in your memory matches that.", "ja": "それに合う記憶はありません。"}


def _date(day: str, lang: Lang) -> str:
    """A day as stored ('2026-11-20…') -> '2026-11-20' / '2026年11月20日'."""
    try:
        return day[:10] if lang == "en" else date_text(date.fromisoformat(day[:10]), lang)
    except ValueError:
        return day


def _day(day: str, lang: Lang) -> str:
    """A memory's day as stored -> '(2026-11-20)' / '（2026年11月20日）'."""
    return f"({day})" if lang == "en" else f"（{_date(day, lang)}）"


def _quoted(text: str, lang: Lang) -> str:
    """A memory's words -> quoted as the answer's language quotes."""
    return f"「{text}」" if lang == "ja" else f"“{text}”"


def _no_longer(valid_to: str, lang: Lang) -> str:
    """The day a fact stopped holding -> ' (no longer so since 2026-11-20)' / '（2026年11月20日以降は当てはまりません）'."""
    if lang == "en":
        return f" (no longer so since {valid_to[:10]})"
    return f"（{_date(valid_to, lang)}以降は当てはまりません）"


def lookup_answer(
    results: Sequence[Recalled], lang: Lang = "en"
) -> tuple[str, list[Citation], bool]:
    """Recalled memories, best first (+ the answer's language) -> the answer's text (the best,
    then what else bears on it), citations, and whether a memory shown shares a word with the question."""
    if not results:
        return NOTHING[lang], [], False
    shown = results[:SHOWN]
    best, *rest = shown
    # A chat record's neighbours are context: the answer quotes the message it cites.
    text = _short(own_text(best.content))
    if best.valid_to is not None:
        text += _no_longer(best.valid_to, lang)
    gap = "" if lang == "ja" else " "
    also = [f"{_quoted(_short(own_text(r.content)), lang)}{gap}{_day(r.day, lang)}" for r in rest]
    matched = any(r.parts.lexical > 0 for r in shown)
    if lang == "ja":
        more = "ほかに：" + "、".join(also) if also else ""
        lead = f"{BY_MEANING_ONLY_JA}{_quoted(text, lang)}" if not matched else text
        answer = f"{lead}{_day(best.day, lang)}" + (f" {more}" if more else "")
    elif matched:
        answer = f"{text} {_day(best.day, lang)}" + (" Also: " + "; ".join(also) if also else "")
    else:
        # A question in another language than its memories lands here too: still shown.
        answer = f"{BY_MEANING_ONLY} “{text}” ({best.day})" + (
            "; " + "; ".join(also) if also else ""
        )
    return answer, [Citation(r.source, r.day) for r in shown], matched
