"""Count and which days, worded: the count (or the days) first, then each occurrence's day and words, each cited, in the question's language.

The occurrences come from `omoide.answer.occurrences`. An answer says what it counted ("days
your notes or messages say so", "conversations with Peter", "sittings with its pages"); when
only pages name an activity, it says that no note or message of the person's does.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from omoide.answer.cite import Answer
from omoide.answer.language import Lang, day_text, moment_text, nothing_recorded, period_text
from omoide.answer.matching import target
from omoide.answer.occurrences import Counted, Occurrence, citations, occurrences
from omoide.answer.when import not_found
from omoide.core.days import local_day

if TYPE_CHECKING:
    from omoide.answer.question import Question
    from omoide.core.settings import Settings

MAX_LISTED = 10
Window = tuple[datetime, datetime]


def asked_window(q: Question) -> Window | None:
    """A question -> its UTC window as asked ("in November" is named whole: what has not happened holds no record), or None."""
    return None if q.window is None else (q.window.start, q.window.end)


def local_days(window: Window | None, tz: str) -> tuple[date, date] | None:
    """A UTC window -> its inclusive local days, or None."""
    if window is None:
        return None
    end = max(window[0], window[1] - timedelta(microseconds=1))
    return local_day(window[0], tz), local_day(end, tz)


def occurrence_text(o: Occurrence, lang: Lang, with_time: bool) -> str:
    """An occurrence -> '<day> (“words”)' or '<day> at 09:00 (“words”)' / '<day>「words」'."""
    when = moment_text(o.at, lang, with_time and o.timed) if with_time else day_text(o.day, lang)
    return f"{when}「{o.text}」" if lang == "ja" else f"{when} (“{o.text}”)"


def _listed(items: list[str], lang: Lang) -> str:
    """Items -> the first MAX_LISTED joined, and how many more."""
    shown = ("、" if lang == "ja" else "; ").join(items[:MAX_LISTED])
    rest = len(items) - MAX_LISTED
    if rest > 0:
        shown += f"、ほか{rest}件" if lang == "ja" else f"; and {rest} more"
    return shown


def _what(counted: Counted, q: Question, lang: Lang) -> str:
    """What was counted -> how the answer names it ('days your notes or messages say so' …)."""
    partner = target(q.subject).partner or q.subject
    if lang == "ja":
        return {
            "own": "メモやメッセージにある日",
            "talk": f"{partner}との会話",
            "seen": "ページやウィンドウを開いていたまとまり",
            "pages": "ページやウィンドウを開いていたまとまり",
        }[counted.basis]
    return {
        "own": "days your notes or messages say so",
        "talk": f"conversations with {partner}",
        "seen": "sittings with its pages or windows",
        "pages": "sittings with pages or windows naming it",
    }[counted.basis]


def _unanswered(q: Question, counted: Counted, days: tuple[date, date] | None, kind: str) -> Answer:
    """A question nothing matched -> the answer saying so, and where it looked."""
    if not counted.recorded and days is not None:
        text = nothing_recorded(*days, q.lang)
    else:
        text = not_found(q.subject, days, q.lang)
    return Answer(kind, days, text, subject=q.subject, basis="none", matched=False)


def _no_own_words(q: Question, days: tuple[date, date] | None) -> str:
    """A question + its days -> the sentence saying no note or message of the person's names it."""
    if q.lang == "ja":
        where = f"{period_text(*days, q.lang)}の" if days else ""
        return f"{where}メモやメッセージには「{q.subject}」がありません。"
    where = f" {period_text(*days, q.lang)}" if days else ""
    return f"No note or message of yours mentions “{q.subject}”{where}."


def count_answer(q: Question, settings: Settings, now: datetime) -> Answer:
    """A count question + settings + now -> how many times, then each time's day, cited."""
    tz, lang = settings.timezone, q.lang
    window = asked_window(q)
    days = local_days(window, tz)
    counted = occurrences(settings.lake_dir, q.subject, window, tz, settings.user_name)
    if not counted.occurrences:
        return _unanswered(q, counted, days, "count")
    n = len(counted.occurrences)
    items = _listed(
        [occurrence_text(o, lang, counted.basis != "own") for o in counted.occurrences], lang
    )
    what = _what(counted, q, lang)
    if lang == "ja":
        where = f"{period_text(*days, lang)}に" if days else "これまでに"
        text = f"{where}{n}回（{what}）：{items}。"
        if counted.basis == "pages":
            text = f"{_no_own_words(q, days)}ページやウィンドウでは{n}回：{items}。"
    else:
        times = "time" if n == 1 else "times"
        where = f" {period_text(*days, lang)}" if days else ""
        text = f"{n} {times}{where} ({what}): {items}."
        if counted.basis == "pages":
            text = (
                f"{_no_own_words(q, days)} Pages and windows name it {n} {times} ({what}): {items}."
            )
    cites = citations(counted, settings.home)
    return Answer("count", days, text, cites, subject=q.subject, basis="lake")


def which_days_answer(q: Question, settings: Settings, now: datetime) -> Answer:
    """A which-days question + settings + now -> the days it happened on, each cited."""
    tz, lang = settings.timezone, q.lang
    window = asked_window(q)
    days = local_days(window, tz)
    counted = occurrences(settings.lake_dir, q.subject, window, tz, settings.user_name)
    if not counted.occurrences:
        return _unanswered(q, counted, days, "which_days")
    first_of_day = counted.first_of_each_day()
    k = len(first_of_day)
    items = _listed([occurrence_text(o, lang, False) for o in first_of_day], lang)
    if lang == "ja":
        where = f"{period_text(*days, lang)}のうち" if days else ""
        text = f"{where}{k}日：{items}。"
        if counted.basis == "pages":
            text = f"{_no_own_words(q, days)}ページやウィンドウでは{k}日：{items}。"
    else:
        plural = "day" if k == 1 else "days"
        where = f" {period_text(*days, lang)}" if days else ""
        text = f"On {k} {plural}{where}: {items}."
        if counted.basis == "pages":
            text = f"{_no_own_words(q, days)} Pages and windows name it on {k} {plural}: {items}."
    cites = citations(counted, settings.home, per_day=True)
    return Answer("which_days", days, text, cites, subject=q.subject, basis="lake")
