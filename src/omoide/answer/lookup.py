"""A lookup ("where does Mina live", anything not an overview, a time or a when) -> recall's best memories, the standing fact first.

A lookup asking of a person's attribute (where they live, their team, employer, role, age:
omoide.answer.person_facts) is answered first from their W facts in the lake, the one of
that attribute that stands, cited where it was said, with the fact it replaced; recall
answers the rest.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from omoide.answer.cite import Answer, Citation, shown
from omoide.answer.language import Lang, date_text
from omoide.answer.names import bare, page_names
from omoide.core.days import local_day
from omoide.memory.chat_evidence import own_text

if TYPE_CHECKING:
    # Only a lookup recalls: an overview, a time or a when must not load LanceDB to start.
    from omoide.answer.person_facts import Standing
    from omoide.answer.question import Question
    from omoide.core.settings import Settings
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
    said = _short(own_text(best.content))
    note = _no_longer(best.valid_to, lang) if best.valid_to is not None else ""
    text = said + note
    gap = "" if lang == "ja" else " "
    also = [f"{_quoted(_short(own_text(r.content)), lang)}{gap}{_day(r.day, lang)}" for r in rest]
    matched = any(r.parts.lexical > 0 for r in shown)
    if lang == "ja":
        more = "ほかに：" + "、".join(also) if also else ""
        # Quoted: a memory's words (its English day header too) are not the answer's own.
        lead = (BY_MEANING_ONLY_JA if not matched else "") + _quoted(said, lang) + note
        answer = f"{lead}{_day(best.day, lang)}" + (f" {more}" if more else "")
    elif matched:
        answer = f"{text} {_day(best.day, lang)}" + (" Also: " + "; ".join(also) if also else "")
    else:
        # A question in another language than its memories lands here too: still shown.
        answer = f"{BY_MEANING_ONLY} “{text}” ({best.day})" + (
            "; " + "; ".join(also) if also else ""
        )
    return answer, [Citation(r.source, r.day) for r in shown], matched


_NAME_WORD = re.compile(r"@?[^\W\d_][\w.\-]*(?:['’]s)?")
_ATTRIBUTE_JA = {
    "home": "住まい",
    "team": "チーム",
    "employer": "勤め先",
    "role": "役割",
    "age": "年齢",
}
# A question whose doer is the asker ("where did I work with Peter") asks of no one's attribute.
_ASKER = re.compile(r"\b(?:I|[Ww]e)\b|(?:私|僕|俺|自分|わたし)(?:は|が|たち)")
NAME_WORDS = 3  # the longest name an English question is read for ("Anna Maria Weber")


def _candidates(question: str, lang: Lang) -> list[str]:
    """A question -> the words that may name its person: a Japanese one's content words, an English one's runs of up to NAME_WORDS words."""
    if lang == "ja":
        from omoide.text.japanese import content_words

        return content_words(question)
    words = [bare(w) for w in _NAME_WORD.findall(question)]
    runs = [
        " ".join(words[i : i + n])
        for n in range(NAME_WORDS, 0, -1)
        for i in range(len(words) - n + 1)
    ]
    return [r for r in runs if r]


def _age_now(s: Standing, at: datetime) -> int | None:
    """An age fact + a time -> the age then (the number it said, plus the full years since)."""
    found = re.search(r"\d+", s.fact.text)
    if found is None:
        return None
    said, then = s.since.date(), at.date()
    years = then.year - said.year - ((then.month, then.day) < (said.month, said.day))
    return int(found[0]) + max(years, 0)


def attribute_answer(q: Question, settings: Settings, now: datetime) -> Answer | None:
    """A lookup asking where someone lives, their team, employer, role or age + settings + now
    -> the fact of that attribute standing then, cited where it was said, with what it replaced; None when it asks none or none is known."""
    from omoide.answer.person_facts import answering, asked_attributes, glossed, standing
    from omoide.answer.person_records import stored_validity, w_fact_names, w_facts
    from omoide.answer.who import person_named

    lang: Lang = q.lang
    if _ASKER.search(q.text):
        return None
    wanted = asked_attributes(glossed(q.text) if lang == "ja" else q.text)
    if not wanted:
        return None
    at = min(q.window.end, now) if q.window is not None else now
    seen, pages = w_fact_names(settings.lake_dir), page_names(settings.vault_dir)
    for asked in _candidates(q.text, lang):
        person = person_named(asked, settings, seen, pages)
        if person is None:
            continue
        facts = w_facts(settings.lake_dir, person[1], stored_validity(settings.lancedb_dir))
        found = answering(standing(facts, at), wanted)
        if found is not None:
            name = asked if lang == "ja" else person[0]
            return _attribute_text(q, name, *found, settings, at)
    return None


def _attribute_text(
    q: Question,
    name: str,
    best: Standing,
    plans: Sequence[Standing],
    settings: Settings,
    at: datetime,
) -> Answer:
    """The question + the person's name + the standing fact and the plans bearing on it -> the answer, cited."""
    lang: Lang = q.lang
    tz = settings.timezone

    def day(when: datetime) -> str:
        return local_day(when, tz).isoformat()

    f, old = best.fact, best.replaced
    said, since = day(f.ts), day(best.since)
    text = _short(f.text)
    also = [
        f"{_quoted(_short(p.fact.text), lang)}{'' if lang == 'ja' else ' '}{_day(day(p.fact.ts), lang)}"
        for p in plans
    ]
    age = _age_now(best, at) if best.attribute == "age" else None
    if lang == "ja":
        since_ja = f"、{_date(since, lang)}から" if since != said else ""
        was = f"、{_quoted(_short(old.text), lang)}に代わって" if old else ""
        lead = (
            f"{name}は{age}歳"
            if age is not None
            else f"{name}の{_ATTRIBUTE_JA[best.attribute or '']}"
        )
        answer = f"{lead}：{_quoted(text, lang)}（{_date(said, lang)}{since_ja}{was}）"
        answer += f" ほかに：{'、'.join(also)}" if also else ""
    else:
        bits = [said, *([f"said since {since}"] if since != said else [])]
        if old is not None:
            bits.append(f"replacing {_quoted(_short(old.text), lang)} of {day(old.ts)}")
        answer = f"{text} ({'; '.join(bits)})" + (" Also: " + "; ".join(also) if also else "")
    cites = [Citation(shown(f.ref, settings.home), said)]
    cites += [Citation(shown(old.ref, settings.home), day(old.ts))] if old else []
    cites += [Citation(shown(p.fact.ref, settings.home), day(p.fact.ts)) for p in plans]
    days = None
    if q.window is not None:
        days = (local_day(q.window.start, tz), local_day(at - timedelta(microseconds=1), tz))
    return Answer("lookup", days, answer, cites, subject=q.subject, basis="lake")
