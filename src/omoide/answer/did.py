"""A yes-or-no question of a thing done ("did I talk to Mina yesterday", "have I been running this week", "昨日ミナと話した？") -> yes with each time it was done (counted as a count question counts), or no and where it looked.

The occurrences are `omoide.answer.occurrences`' (the thing done, one per day or sitting, never
a plan or a mention); only pages naming an activity is said as such, not as a yes.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING

from omoide.answer.cite import Answer, Citation, shown
from omoide.answer.how_often import asked_window, local_days, occurrence_text
from omoide.answer.language import Lang, day_text, period_text
from omoide.answer.matching import target
from omoide.answer.occurrences import Occurrence, occurrences
from omoide.answer.when import not_found

if TYPE_CHECKING:
    from omoide.answer.question import Question
    from omoide.core.settings import Settings

_I = re.IGNORECASE
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


def did_answer(q: Question, settings: Settings, now: datetime) -> Answer:
    """A yes-or-no question + settings + now -> yes and each time it was done, cited; or no, and where it looked."""
    tz, lang = settings.timezone, q.lang
    window = asked_window(q)
    days = local_days(window, tz)
    counted = occurrences(settings.lake_dir, q.subject, window, tz, settings.user_name)
    found = counted.occurrences
    planned: list[Occurrence] = []
    if _GOING.search(q.subject) and not target(q.subject).site:
        planned = [o for o in found if _ABOUT_IT.search(o.text)]
        found = [o for o in found if not _ABOUT_IT.search(o.text)]
    if not found or counted.basis == "pages":
        no = "いいえ。" if lang == "ja" else "No. "
        text = no + not_found(q.subject, days, lang)
        if planned:
            text += _only_planned(planned[::-1], lang)
        return Answer("did", days, text, subject=q.subject, basis="lake", matched=False)
    latest = found[-MAX_SHOWN:][::-1]
    # Yes-or-no says when each time was, its clock time where the record has one.
    items = [occurrence_text(o, lang, True) for o in latest]
    if lang == "ja":
        where = f"{period_text(*days, lang)}に" if days else ""
        text = f"はい。{where}{len(found)}回：{'、'.join(items)}。"
    else:
        times = "once" if len(found) == 1 else f"{len(found)} times"
        where = f" {period_text(*days, lang)}" if days else ""
        text = f"Yes, {times}{where}: {'; '.join(items)}."
    cites = [Citation(shown(o.ref, settings.home), o.day.isoformat()) for o in latest]
    return Answer("did", days, text, cites, when=latest[0].at, subject=q.subject, basis="lake")


def _only_planned(planned: list[Occurrence], lang: Lang) -> str:
    """Records that read about a place or plan going there, latest first -> the sentence naming them."""
    latest = planned[0]
    if lang == "ja":
        return f"読んだり計画したりした記録は{len(planned)}件あります（最新：{day_text(latest.day, lang)}「{latest.text}」）。"
    n = "record" if len(planned) == 1 else "records"
    return f" {len(planned)} {n} read about it or plan it (latest: {day_text(latest.day, lang)}, “{latest.text}”)."
