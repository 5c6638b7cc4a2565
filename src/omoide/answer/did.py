"""A yes-or-no question of a thing done ("did I talk to Mina yesterday", "have I been running this week", "昨日ミナと話した？") -> yes with each time it was done (counted as a count question counts), or no and where it looked.

The occurrences are `omoide.answer.occurrences`' (the thing done, one per day or sitting, never
a plan or a mention); only pages naming an activity is said as such, not as a yes.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING

from omoide.answer.asking import tidy, tidy_ja
from omoide.answer.cite import Answer, Citation, shown
from omoide.answer.how_often import asked_window, local_days
from omoide.answer.language import Lang, day_text, moment_text, period_text
from omoide.answer.occurrences import Occurrence, occurrences
from omoide.answer.when import not_found

if TYPE_CHECKING:
    from omoide.answer.question import Question
    from omoide.core.settings import Settings

_I = re.IGNORECASE
ASKS = re.compile(r"^\s*(?:did|have|had)\s+(?:i|we)\s+(?:ever\s+)?\w", _I)
_ASKING = re.compile(r"^\s*(?:did|have|had)\s+(?:i|we)\s+(?:ever\s+)?", _I)
# A Japanese question ending in a past verb with no question word of its own: 昨日ミナと話した？
ASKS_JA = re.compile(r"(?:た|だ|ました)(?:か|っけ|の)?\s*[?？]\s*$|(?:ましたか|たっけ|だっけ)\s*$")
_QUESTION_WORD_JA = re.compile(r"何|なに|なん|いつ|どこ|誰|だれ|どの|どう|どれ|なぜ|どんな|いくつ")
_ASKING_JA = re.compile(r"(?:か|っけ|の)?\s*[?？]?\s*$")
MAX_SHOWN = 5
# "Did I go to Kyoto": a line that reads about it, plans or books the trip is no going there.
_GOING = re.compile(
    r"^(?:go|goes|went|gone|been|travel(?:l?ed)?|get|got)\s+(?:back\s+)?to\s+|^visit(?:ed)?\s+"
    r"|(?:に|へ)(?:行|訪|旅行)",
    _I,
)
_ABOUT_IT = re.compile(
    r"\b(?:read(?:ing)?\s+about|list\s+of|itinerary|guides?|plan(?:s|ning|ned)?|flights?"
    r"|book(?:ed|ing)?|trip\s+to|forecast|research(?:ed|ing)?|talk(?:ed)?\s+about)\b|調べ|読ん|計画|予約|リスト|ガイド|準備|予報|の話|について",
    _I,
)
_SITE = re.compile(r"(?:[a-z0-9-]+\.)+[a-z]{2,}", _I)


def asks_yes_no(text: str) -> bool:
    """A question -> does it ask whether something was done?"""
    if ASKS.search(text):
        return True
    return bool(ASKS_JA.search(text)) and not _QUESTION_WORD_JA.search(text)


def did_subject(rest: str) -> str:
    """A yes-or-no question without its time words -> the thing asked of ('did I talk to Mina' -> 'talk to Mina')."""
    out = _ASKING.sub("", rest, count=1)
    if out != rest:
        out = re.sub(r"^been\s+(?=\w+ing\b)", "", out.strip(), flags=_I)
        return tidy(out)
    return tidy_ja(_ASKING_JA.sub("", rest.strip()))


def did_answer(q: Question, settings: Settings, now: datetime) -> Answer:
    """A yes-or-no question + settings + now -> yes and each time it was done, cited; or no, and where it looked."""
    tz, lang = settings.timezone, q.lang
    window = asked_window(q)
    days = local_days(window, tz)
    counted = occurrences(settings.lake_dir, q.subject, window, tz, settings.user_name)
    found = counted.occurrences
    planned: list[Occurrence] = []
    if _GOING.search(q.subject) and not _SITE.search(q.subject):
        planned = [o for o in found if _ABOUT_IT.search(o.text)]
        found = [o for o in found if not _ABOUT_IT.search(o.text)]
    if not found or counted.basis == "pages":
        no = "いいえ。" if lang == "ja" else "No. "
        text = no + not_found(q.subject, days, lang)
        if planned:
            text += _only_planned(planned[::-1], lang)
        return Answer("did", days, text, subject=q.subject, basis="lake", matched=False)
    latest = shown_first(found)
    with_time = counted.basis != "own"
    if lang == "ja":
        where = f"{period_text(*days, lang)}に" if days else ""
        items = "、".join(f"{_moment(o, lang, with_time)}「{o.text}」" for o in latest)
        text = f"はい。{where}{len(found)}回：{items}。"
    else:
        times = "once" if len(found) == 1 else f"{len(found)} times"
        where = f" {period_text(*days, lang)}" if days else ""
        items = "; ".join(f"{_moment(o, lang, with_time)} (“{o.text}”)" for o in latest)
        text = f"Yes, {times}{where}: {items}."
    cites = [Citation(shown(o.ref, settings.home), o.day.isoformat()) for o in shown_first(found)]
    return Answer("did", days, text, cites, when=latest[0].at, subject=q.subject, basis="lake")


def _only_planned(planned: list[Occurrence], lang: Lang) -> str:
    """Records that read about a place or plan going there, latest first -> the sentence naming them."""
    latest = planned[0]
    if lang == "ja":
        return f"読んだり計画したりした記録は{len(planned)}件あります（最新：{day_text(latest.day, lang)}「{latest.text}」）。"
    n = "record" if len(planned) == 1 else "records"
    return f" {len(planned)} {n} read about it or plan it (latest: {day_text(latest.day, lang)}, “{latest.text}”)."


def shown_first(found: list[Occurrence]) -> list[Occurrence]:
    """Occurrences, oldest first -> the latest MAX_SHOWN, latest first."""
    return found[-MAX_SHOWN:][::-1]


def _moment(o: Occurrence, lang: Lang, with_time: bool) -> str:
    """An occurrence + language + whether its clock time is told -> when it was, as the answer says it."""
    return moment_text(o.at, lang, o.timed) if with_time or o.timed else day_text(o.day, lang)
