"""A question of what was decided ("what did I decide about the vector store", "ベクトルの保存先は何に決めた") -> the person's own lines that record a decision about it, the latest first, cited.

A decision is what the person wrote as one in their notes or their own chat messages: a line
saying "Decision:", "decided", "settled on", "went with", 決めた, 決定, …, as written, not one
that plans to decide ("decide on Friday", "the decision in November": no past decision in
it). The topic is what the question says it was about; a line is about it when it holds at
least half of the topic's words (omoide.answer.lake_records), or for a Japanese topic its
English glosses (omoide.text.japanese), so "the vector store" finds "warelay moves its vectors
to LanceDB". Those lines are shown newest first; with no topic, the latest
decisions of the window.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import pandas as pd

from omoide.answer.cite import Answer, Citation, shown
from omoide.answer.how_often import asked_window, local_days
from omoide.answer.lake_records import (
    NEAR,
    lake_days,
    own_lines,
    quoted,
    share,
    timed,
    topic_terms,
)
from omoide.answer.language import Lang, moment_text, period_text
from omoide.answer.matching import KANA
from omoide.core.days import local_day, zone

if TYPE_CHECKING:
    from omoide.answer.question import Question
    from omoide.core.settings import Settings

SHOWN = 3
_I = re.IGNORECASE
# A line that records a decision taken, not one planned ("decide on Friday" has no marker).
_MADE = re.compile(
    r"\bdecision\s*:|\bdecided\b|\bsettled\s+on\b|\bwent\s+with\b|\bchose\b|\bpicked\b"
    r"|\bwe(?:'ll|\s+will)\s+go\s+with\b|\bgoing\s+with\b",
    _I,
)
_MADE_JA = re.compile(r"決めた|決めて|決定した|決定。|決まった|決まり|にした。|ことにした")


@dataclass(frozen=True)
class _Line:
    """One decision line: when (UTC) and whether that time is its own, its words, its ref, how much of the topic it holds."""

    ts: datetime
    clock: bool
    text: str
    ref: str
    held: float


def _wanted(topic: str) -> list[set[str]]:
    """A topic -> per topic word, the forms a line may hold it by (a Japanese word as written or by its English glosses)."""
    if not KANA.search(topic):
        return [{t} for t in topic_terms(topic)]
    from omoide.text.japanese import content_words, glosses

    return [
        {word, *(t for g in glosses(word) for t in topic_terms(g))} for word in content_words(topic)
    ]


def _held(text: str, forms: list[set[str]]) -> float:
    """A line + the topic's forms -> the share of topic words it holds by any form."""
    if not forms:
        return 1.0
    got = sum(any(share(text, [f]) == 1.0 or (f in text) for f in group) for group in forms)
    return got / len(forms)


def _made(text: str) -> bool:
    """A line -> does it record a decision taken?"""
    return bool(_MADE.search(text) or _MADE_JA.search(text))


def decision_answer(q: Question, settings: Settings, now: datetime) -> Answer:
    """A decision question + settings + now -> the person's decision lines about its topic, newest first, cited."""
    lang: Lang = q.lang
    tz = settings.timezone
    window = (q.window.start, min(q.window.end, max(now, q.window.start))) if q.window else None
    forms = _wanted(q.subject)
    found: list[_Line] = []
    days = lake_days(settings.lake_dir, window, tz)
    for line in own_lines(settings.lake_dir, days, settings.me):
        if not _made(line.text):
            continue
        if window is not None and not window[0] <= line.ts < window[1]:
            continue
        clock = timed(pd.Timestamp(line.ts), line.day, tz, line.source)
        found.append(_Line(line.ts, clock, line.text, line.ref, _held(line.text, forms)))
    # The latest decision is what stands, so every line near the topic is shown newest first.
    about = sorted((f for f in found if f.held >= NEAR), key=lambda f: f.ts, reverse=True)
    days = local_days(asked_window(q), tz)
    if not about:
        return Answer("decision", days, _none(q, days, lang), [], subject=q.subject, basis="lake")
    home = settings.home
    cites = [Citation(shown(f.ref, home), local_day(f.ts, tz).isoformat()) for f in about[:SHOWN]]
    return Answer(
        "decision",
        days,
        _worded(about, tz, lang),
        cites,
        when=about[0].ts.astimezone(zone(tz)),
        subject=q.subject,
        basis="lake",
    )


def _worded(about: list[_Line], tz: str, lang: Lang) -> str:
    """Decision lines, newest first -> the answer quoting up to SHOWN of them with their times."""
    said = [(f, f.ts.astimezone(zone(tz))) for f in about[:SHOWN]]
    if lang == "ja":
        first, *rest = (f"{moment_text(t, lang, f.clock)}「{quoted(f.text)}」" for f, t in said)
        more = f" その前に：{'、'.join(rest)}。" if rest else ""
        return f"最新の決定は{first}です。{more}".rstrip()
    first, *rest = (f"{moment_text(t, lang, f.clock)}: “{quoted(f.text)}”" for f, t in said)
    more = f" Before that: {'; '.join(rest)}." if rest else ""
    return f"The latest decision, {first}.{more}"


def _none(q: Question, days: tuple | None, lang: Lang) -> str:
    """A question no decision line answers + its local days -> the sentence saying so and where it looked."""
    where = period_text(days[0], days[1], lang) if days else ""
    if lang == "ja":
        about = f"「{q.subject}」についての" if q.subject else ""
        return f"{where}{about}決定は、メモにもあなたのメッセージにも見つかりません。"
    about = f" about “{q.subject}”" if q.subject else ""
    span = f" {where}" if where else ""
    return f"No decision{about} is written in your notes or your own messages{span}."
