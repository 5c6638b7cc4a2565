"""Commitments ("what did I promise Peter", "what do I have to do this week", 約束したことは, 今週やることは) -> the promises, plans and to-dos taken from the person's own words, each cited.

Read from the lake's memory rows of kind `commitment` (`omoide.memory.commitment_rows`): the
lake holds every summarized day, and an ask reads only those rows' few columns, never LanceDB
or the embedding model. What is listed:

- a window ("this week", "tomorrow", 来週): every commitment due in it or said in it, the open
  ones first; none named: every open one;
- a person (the question's speaker, a name the commitments are to that the question names, or
  one after promise / for / to / with, 〜に / 〜と / 〜への): those to them or naming them;
- each with to whom, when said (the day alone for a note item without its own time) and when
  due, the soonest due first, and cited at the line it was said in.

Open means not known kept: a ticked note item ("- [x]") is kept, and so is one that a later note
line or message of the person's says was done (`omoide.answer.kept`), shown with that record. Nothing found is
said as such, with where it was looked for, never answered with another memory.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

import pandas as pd

from omoide.answer.cite import Answer, Citation, shown
from omoide.answer.kept import Kept, kept_by_records
from omoide.answer.lake_records import quoted
from omoide.answer.language import Lang, day_text, moment_text, period_text
from omoide.answer.names import bare, meant
from omoide.core.days import day_bounds, local_day, zone
from omoide.core.kinds import COMMITMENT_KIND
from omoide.core.location import StorePath, read_parquet
from omoide.memory.commitment_rows import read_commitment
from omoide.memory.plan_dates import Span
from omoide.memory.terms import has_cjk
from omoide.store.lake import part_path, stage_days

if TYPE_CHECKING:
    from omoide.answer.question import Question
    from omoide.core.settings import Settings

KIND = "commitments"
SHOWN = 10
KEPT_CHARS = 80  # the record that kept a promise, as the answer quotes it
COLUMNS = ["day", "ts", "entities", "content", "source"]
_ASKED_EN = re.compile(
    r"\b(?:promised?|told|for|to|with)\s+@?(?P<who>[A-Z][\w\-]*(?:\s+[A-Z][\w\-]*)?)"
)
_ASKED_JA = re.compile(
    r"(?P<who>[ァ-ヴー]{1,12}|[一-龯々]{1,6}|[A-Za-z]{1,20})(?:さん|くん|君|ちゃん|先生|先輩|様|氏)?"
    r"(?:に|へ|と)(?:の)?(?:した)?(?:約束|やる|する|言った|頼まれ)"
)
# "What do I still owe Mina", "what do I have to do": what is not done yet; "what did I promise
# Peter" asks of every promise, the open ones first.
_ASKS_OPEN = re.compile(
    r"\b(?:still|owe|open|outstanding|pending|left|have\s+to|need\s+to|must|should|to-?dos?|tasks?)\b"
    r"|まだ|残って|やること|やるべき|やらなきゃ|しなきゃ|しなければ|しないと|TODO|ToDo|タスク",
    re.IGNORECASE,
)
# A subject holding these is the question itself, not what the question rules sorted out of it.
_UNSORTED = re.compile(
    r"\b(?:what|which|how|when|did|are|is|promise[ds]?|plans?)\b|約束|やること|予定|何",
    re.IGNORECASE,
)
# What the rules leave before a thing ("what did I promise to do for X" -> "to do for X").
_LEADING = re.compile(r"^\s*(?:to\s+)?(?:do\s+)?(?:for|about|with|to)?\s+", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+|\d+")
_CJK_RUN = re.compile(r"[\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+|[A-Za-z0-9]+")
_STOP = frozenset("i me we a an the of to for with about on in at my your s".split())
_NOT_ASKED = frozenset(
    "I Me My Do Did What This Next Last Today Tomorrow Tonight Monday Tuesday Wednesday Thursday "
    "Friday Saturday Sunday January February March April May June July August September "
    "October November December Christmas Easter".split()
)


@dataclass(frozen=True)
class Item:
    """One stored commitment: the action, to whom, when said (local) and whether that has a time, the due span (UTC), kept, and its citation."""

    action: str
    to: tuple[str, ...]
    said: datetime
    timed: bool
    due: Span | None
    kept: bool
    source: str
    day: str
    kept_by: Kept | None = None  # the later record of the person's own that says it was done


def _day_rows(lake_dir: StorePath, day: date) -> pd.DataFrame:
    """Lake + a summarized day -> that day's commitment rows (only the columns an answer reads)."""
    path = part_path(lake_dir, "facts", day, "facts")
    if not path.exists():
        return pd.DataFrame(columns=COLUMNS)
    table = read_parquet(path, columns=COLUMNS, filters=[("kind", "==", COMMITMENT_KIND)])
    return table.to_pandas()


def stored_commitments(lake_dir: StorePath, tz: str) -> list[Item]:
    """Lake + timezone -> every stored commitment, in the order said."""
    items: list[Item] = []
    for day in stage_days(lake_dir, "facts"):
        for row in _day_rows(lake_dir, day).itertuples(index=False):
            said = pd.Timestamp(row.ts).to_pydatetime().astimezone(zone(tz))
            what = read_commitment(str(row.content), tz)
            items.append(
                Item(
                    action=what.action,
                    to=tuple(row.entities) if row.entities is not None else (),
                    said=said,
                    # A note item without an `HH:MM` of its own is dated by its day's midnight.
                    timed=said != day_bounds(said.date(), tz)[0],
                    due=what.due,
                    kept=what.kept,
                    source=str(row.source),
                    day=str(row.day),
                )
            )
    return sorted(items, key=lambda i: i.said)


def _with_kept(items: list[Item], settings: Settings, now: datetime) -> list[Item]:
    """Stored commitments + settings + now -> the same, those a later record of the person's says were done marked kept."""
    open_ = [(i.source, i.action, i.said, i.due) for i in items if not i.kept]
    found = kept_by_records(open_, settings.lake_dir, settings.timezone, settings.me, now)
    return [
        replace(i, kept=True, kept_by=found[(i.source, i.action)])
        if (i.source, i.action) in found
        else i
        for i in items
    ]


def _names(text: str, name: str) -> bool:
    """Text + a name -> whether the text names it (whole words; CJK as a substring)."""
    if has_cjk(name):
        return name in text
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE) is not None


def person_asked(q: Question, known: Sequence[str]) -> str:
    """A question + the names commitments are to -> the person it asks about ('' for none).

    The speaker the question rules sorted out, else its subject when that is a name the
    commitments know (`omoide.answer.names`: ピーター means Peter), else a known name in the
    subject or the question, else a name after promise / told / for / to / with (〜に / 〜へ / 〜と
    before 約束) that no commitment is to (so the answer says none is).
    """
    speaker = str(getattr(q, "speaker", "") or "").strip()
    if speaker:
        return speaker
    subject = bare(q.subject)
    if subject and meant(subject, known):
        return subject
    for text in (q.subject, q.text):
        hits = [n for n in known if n and _names(text, n)]
        if hits:
            return max(hits, key=len)
    m = _ASKED_JA.search(q.text) if has_cjk(q.text) else None
    if m is not None:
        return m["who"]
    for m in _ASKED_EN.finditer(q.text):
        if m["who"].split()[0] not in _NOT_ASKED:
            return m["who"]
    return ""


def topic_asked(q: Question, person: str) -> str:
    """A question + the person it asks about -> the other words its subject names ('boxes' of 'the boxes'), '' for none.

    A subject still holding the question's asking words was not sorted by the question rules
    (it is the question itself): it names no topic.
    """
    subject = q.subject.strip(" ?？.。")
    if _UNSORTED.search(subject):
        return ""
    if person:
        # "Mina's birthday" asks about the birthday, to or naming Mina.
        subject = re.sub(rf"@?{re.escape(bare(person))}(?:['’]s)?", " ", subject, flags=re.I)
    if has_cjk(subject):
        return subject.strip(" 、の")
    words = [w for w in _WORD.findall(_LEADING.sub("", subject)) if w.casefold() not in _STOP]
    return " ".join(words)


def _stem(word: str) -> str:
    """An English word -> lower case without an -s, -es, -ed or -ing ending (three letters kept)."""
    w = word.casefold()
    for ending in ("ing", "ed", "es", "s"):
        if w.endswith(ending) and len(w) - len(ending) >= 3:
            return w[: -len(ending)]
    return w


def _about(item: Item, topic: str) -> bool:
    """A commitment + a topic -> does its action hold every word of it (Japanese as written)?"""
    if has_cjk(topic):
        return all(t in item.action for t in _CJK_RUN.findall(topic))
    words = {_stem(w) for w in _WORD.findall(item.action)}
    return all(_stem(t) in words for t in _WORD.findall(topic) if t.casefold() not in _STOP)


def _for(item: Item, person: str, means: set[str]) -> bool:
    """A commitment + a person + the known names they are -> is it to them, or does its action name them?"""
    return any(n in means for n in item.to) or _names(item.action, bare(person))


def _in(item: Item, window: Span) -> bool:
    """A commitment + a UTC window -> is it due in it (overlapping) or said in it?"""
    start, end = window
    said = start <= item.said < end
    return said or (item.due is not None and item.due[0] < end and item.due[1] > start)


def _order(item: Item) -> tuple[bool, bool, datetime, datetime]:
    """A commitment -> its place in the answer: open first, then the soonest due, then when said."""
    due = item.due[0] if item.due else datetime.max.replace(tzinfo=item.said.tzinfo)
    return (item.kept, item.due is None, due, item.said)


def _due_text(item: Item, tz: str, lang: Lang) -> str:
    """A commitment's due span -> 'Saturday, 21 November 2026' / 'in the week …' / '2026年11月21日（土）'."""
    if item.due is None:
        return ""
    first = local_day(item.due[0], tz)
    last = local_day(item.due[1] - timedelta(microseconds=1), tz)
    return day_text(first, lang) if first == last else period_text(first, last, lang)


def _line(item: Item, tz: str, lang: Lang) -> str:
    """A commitment -> its line in the answer, in the question's language (the action as written)."""
    said = moment_text(item.said, lang, with_time=item.timed)
    due = _due_text(item, tz, lang)
    to = ", ".join(item.to)
    by = item.kept_by
    if lang == "ja":
        done = (
            f"済み（{day_text(by.day, lang)}「{quoted(by.text, KEPT_CHARS)}」）" if by else "済み"
        )
        parts = [f"{to}へ"] if to else []
        parts += [said] + ([f"期限：{due}"] if due else []) + ([done] if item.kept else [])
        return f"・「{item.action}」（{'／'.join(parts)}）"
    done = f"done (“{quoted(by.text, KEPT_CHARS)}”, {day_text(by.day, lang)})" if by else "done"
    parts = [f"to {to}"] if to else []
    parts += [f"said {said}"] + ([f"due {due}"] if due else []) + ([done] if item.kept else [])
    return f"- “{item.action}” — {'; '.join(parts)}"


def _where(
    window: tuple[date, date] | None, person: str, topic: str, lang: Lang, open_only: bool = True
) -> str:
    """The window, person and topic asked about -> how the answer names them (' to Peter about “the move” in the week …')."""
    if lang == "ja":
        period = (
            f"{period_text(*window, lang)}の" if window else "まだ済んでいない" if open_only else ""
        )
        about = f"「{topic}」についての" if topic else ""
        return period + (f"{person}への" if person else "") + about
    return (
        (f" to {person}" if person else "")
        + (f" about “{topic}”" if topic else "")
        + (f" {period_text(*window, lang)}" if window else "")
    )


def _nothing(
    window: tuple[date, date] | None,
    person: str,
    topic: str,
    lang: Lang,
    days: int,
    open_only: bool = True,
) -> str:
    """The window, person and topic asked about + the days looked at -> the sentence saying no commitment was found, and where it looked."""
    if lang == "ja":
        return (
            f"{_where(window, person, topic, lang, open_only)}約束や予定は見つかりませんでした"
            f"（あなた自身のメッセージとメモから取った約束を{days}日分探しました）。"
        )
    which = "open " if window is None and open_only else ""
    return (
        f"No {which}promise, plan or to-do{_where(window, person, topic, lang)} was found "
        f"(looked in the commitments taken from your own messages and notes, {days} day(s))."
    )


def _heading(
    items: Sequence[Item],
    window: tuple[date, date] | None,
    person: str,
    topic: str,
    lang: Lang,
    open_only: bool = True,
) -> str:
    """The commitments listed + the window, person and topic asked about -> the answer's first sentence."""
    n, done = len(items), sum(i.kept for i in items)
    if lang == "ja":
        kept = f"（うち{done}件は済み）" if done else ""
        return f"{_where(window, person, topic, lang, open_only)}約束・予定は{n}件です{kept}："
    what = "commitment" if n == 1 else "commitments"
    which = "open " if window is None and open_only else ""
    kept = f", {done} of them done" if done else ""
    return f"{n} {which}{what}{_where(window, person, topic, lang)}{kept}:"


def _local_days(window: Span, tz: str) -> tuple[date, date]:
    """A UTC window -> its inclusive local days."""
    return local_day(window[0], tz), local_day(window[1] - timedelta(microseconds=1), tz)


def commitments_answer(q: Question, settings: Settings, now: datetime) -> Answer:
    """A sorted question + settings + now -> the commitments it asks about, open first, each cited."""
    tz = settings.timezone
    lang: Lang = getattr(q, "lang", "en")
    items = _with_kept(stored_commitments(settings.lake_dir, tz), settings, now)
    person = person_asked(q, list(dict.fromkeys(n for i in items for n in i.to)))
    window = (q.window.start, q.window.end) if q.window else None
    days = _local_days(window, tz) if window else None
    chosen = [i for i in items if _in(i, window)] if window else items
    open_only = window is None and bool(_ASKS_OPEN.search(q.text))
    if open_only:
        chosen = [i for i in chosen if not i.kept]
    topic = topic_asked(q, person)
    if person:
        means = set(meant(person, [n for i in items for n in i.to]))
        chosen = [i for i in chosen if _for(i, person, means)]
    if topic:
        chosen = [i for i in chosen if _about(i, topic)]
    chosen.sort(key=_order)
    subject = person or topic
    if not chosen:
        looked = len(stage_days(settings.lake_dir, "facts"))
        text = _nothing(days, person, topic, lang, looked, open_only)
        return Answer(KIND, days, text, subject=subject, basis="lake")
    listed = chosen[:SHOWN]
    lines = [
        _heading(chosen, days, person, topic, lang, open_only),
        *(_line(i, tz, lang) for i in listed),
    ]
    if len(chosen) > SHOWN:
        more = len(chosen) - SHOWN
        lines.append(f"…ほか{more}件" if lang == "ja" else f"… and {more} more")
    cites = [Citation(shown(i.source, settings.home), i.day) for i in listed]
    cites += [
        Citation(shown(i.kept_by.ref, settings.home), i.kept_by.day.isoformat())
        for i in listed
        if i.kept_by is not None
    ]
    return Answer(KIND, days, "\n".join(lines), cites, subject=subject, basis="lake")
