"""Compare ("more time on github.com or on lancedb.github.io last week", "did I run more in October or November", XとYのどちら) -> both figures, the larger first, cited.

Time is ActivityWatch's arithmetic (`omoide.answer.time_spent`), counts are distinct occurrences
(`omoide.answer.occurrences`: an activity a day from the person's own notes and messages, talking
with someone by conversation); `minutes` is the larger one's for time. Two things are measured in
the question's one window (the last DEFAULT_DAYS days for time when it names none); one thing in
two periods is measured in each.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from omoide.answer.alternatives import measures_time
from omoide.answer.asking import spoken_ja
from omoide.answer.cite import Answer, Citation
from omoide.answer.how_often import asked_window, local_days
from omoide.answer.language import Lang, duration_text, period_text
from omoide.answer.matching import target
from omoide.answer.occurrences import citations, occurrences
from omoide.answer.time_spent import default_window, time_spent_answer
from omoide.answer.when import LOOKED_IN

if TYPE_CHECKING:
    from omoide.answer.question import Question
    from omoide.core.settings import Settings

Window = tuple[datetime, datetime]


@dataclass(frozen=True)
class Side:
    """One side of a comparison: what it is (a thing or a period), its figure, how that is said, its citations."""

    name: str
    figure: float
    said: str
    cites: list[Citation]
    told: bool  # False: no figure can be told (no ActivityWatch data for time)


def _time_side(name: str, subject: str, window: Window, settings: Settings, lang: Lang) -> Side:
    """A side's name + its subject + its window -> the minutes on it."""
    _, minutes, cites, basis = time_spent_answer(
        settings.lake_dir, subject, window, settings.timezone, lang
    )
    return Side(name, minutes, duration_text(minutes, lang), cites, basis != "none")


def _count_side(
    name: str, subject: str, window: Window | None, settings: Settings, lang: Lang
) -> Side:
    """A side's name + its subject + its window -> how many times it happened (an activity in the
    person's own notes and messages only: pages naming it on one side are no match for the other's doing)."""
    counted = occurrences(
        settings.lake_dir, subject, window, settings.timezone, settings.user_name, pages=False
    )
    n = len(counted.occurrences)
    if lang == "ja":
        said = f"{n}回"
    elif counted.basis == "talk":
        said = f"{n} conversation" + ("" if n == 1 else "s")
    else:
        said = f"{n} time" + ("" if n == 1 else "s")
    return Side(name, float(n), said, citations(counted, settings.home), True)


def _sides(
    q: Question, settings: Settings, now: datetime, time: bool
) -> tuple[list[Side], Window | None]:
    """A comparison + settings + now + time or counts -> its two sides and the window both share (None: two periods, or all)."""
    tz, lang = settings.timezone, q.lang
    measure = _time_side if time else _count_side
    if q.windows:
        sides = []
        for w in q.windows:
            span = (w.start, w.end)
            days = local_days(span, tz)
            name = period_text(*days, lang) if days else w.phrase
            sides.append(measure(name, q.subjects[0], span, settings, lang))
        return sides, None
    window = asked_window(q)
    if time:
        window = window or default_window(tz, now)
    # Talking with someone is named by the person ("Peter"), not by the verb it was asked with.
    names = [s if time else target(s).partner or s for s in q.subjects]
    return [
        measure(n, s, window, settings, lang) for n, s in zip(names, q.subjects, strict=True)
    ], window


def _worded(q: Question, big: Side, small: Side, where: str, time: bool) -> str:
    """The larger and the smaller side + where both were measured ('' for two periods) -> the answer's sentence."""
    thing = q.subjects[0]
    if q.lang == "ja":
        more = "長く" if time else "多く"
        if big.figure == small.figure:
            return f"{where}{big.name}も{small.name}も同じで、どちらも{big.said}でした。"
        if q.windows:
            of = f"{spoken_ja(thing)}に" if time else f"{spoken_ja(thing)}は"
            return f"{big.name}の方が{more}、{of}{big.said}でした（{small.name}は{small.said}）。"
        return f"{where}{big.name}の方が{more}、{big.said}でした（{small.name}は{small.said}）。"
    at = f" {where}" if where else ""
    if big.figure == small.figure:
        if q.windows:
            return f"The same for {thing} {big.name} and {small.name}: {big.said} each."
        if time:
            return f"As much on {big.name} as on {small.name}{at}: {big.said} each."
        return f"As often {big.name} as {small.name}{at}: {big.said} each."
    if q.windows and time:
        return f"More time on {thing} {big.name}: {big.said}, against {small.said} {small.name}."
    if q.windows:
        return f"More often {big.name} ({thing}): {big.said}, against {small.said} {small.name}."
    if time:
        return f"More time on {big.name}: {big.said}, against {small.said} on {small.name}{at}."
    return f"More often {big.name}: {big.said}, against {small.said} for {small.name}{at}."


def compare_answer(q: Question, settings: Settings, now: datetime) -> Answer:
    """A comparison + settings + now -> both figures, the larger first, each cited."""
    tz, lang = settings.timezone, q.lang
    time = measures_time(q.text, periods=bool(q.windows))
    sides, window = _sides(q, settings, now, time)
    if q.windows:
        spans = [local_days((w.start, w.end), tz) for w in q.windows]
        days = (min(s[0] for s in spans if s), max(s[1] for s in spans if s))
    else:
        days = local_days(window, tz)
    where = period_text(*days, lang) if days and not q.windows else ""
    if lang == "ja" and where:
        where += "は"
    big, small = sorted(sides, key=lambda s: -s.figure)
    if not any(s.figure for s in sides):
        text = _neither(q, sides, where, time)
        return Answer("compare", days, text, subject=q.subject, basis="none", matched=False)
    text = _worded(q, big, small, where, time)
    if time and not all(s.told for s in sides):
        text += " " + _untold(small, lang)
    minutes = big.figure if time else None
    return Answer(
        "compare",
        days,
        text,
        big.cites + small.cites,
        minutes=minutes,
        subject=q.subject,
        basis="activitywatch" if time else "lake",
    )


def _neither(q: Question, sides: list[Side], where: str, time: bool) -> str:
    """A comparison whose sides both measure nothing -> the sentence saying so, and where it looked."""
    a, b = (s.name for s in sides)
    if q.lang == "ja":
        looked = "ActivityWatch" if time else LOOKED_IN["ja"]
        return f"{where}{a}にも{b}にも記録がありません（{looked}を探しました）。"
    looked = "ActivityWatch's time" if time else LOOKED_IN["en"]
    where = f" {where}" if where else ""
    what = f"{q.subjects[0]} " if q.windows else ""
    return f"Neither {a} nor {b} holds any {what}record{where} (looked in {looked})."


def _untold(side: Side, lang: Lang) -> str:
    """A side with no ActivityWatch data -> the sentence saying its time cannot be told."""
    if lang == "ja":
        return f"{side.name}はActivityWatchのデータがないため時間が分かりません。"
    return f"No time can be told for {side.name}: no ActivityWatch data."
