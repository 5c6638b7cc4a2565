"""When ("when did I last talk to Peter", "最後に…したのはいつ") -> the moment of the latest (or earliest) record that matches, cited.

The records are the lake's: chat messages, note lines, page visits and window titles, each
with its own time. What matches is the thing done (`omoide.answer.matching`): a conversation
partner's messages; something seen ("visit seriouseats.com", "look at flights to Osaka") in
any record; an activity ("book the ryokan", 出汁を作った) in the person's own notes and messages
first, in the pages and windows only when those hold none. When no record holds every key
word, the first English one (the question's own verb: "eat ramen") is let go.

A note line's time is its own ("- 20:00 First try at dashi" is 20:00); a line or paragraph
without one is dated by its day only. On the day found, a timed record is preferred to an
untimed one; when only untimed lines match (a diary line 今日は初めて出汁を作った), the
person's own timed record of that day about the same thing (one matching the target, or the
target without its verb, in either language) gives the time and is cited beside it. With
none, the answer names the day, not midnight.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

import pandas as pd

from omoide.answer.cite import Citation, shown
from omoide.answer.lake_records import lake_days
from omoide.answer.language import Lang, moment_text, period_text
from omoide.answer.matching import Target, looser, target, unqualified
from omoide.answer.record_masks import (
    activity_mask,
    named_mask,
    own_mask,
    quoted_line,
    talk_mask,
    word_mask,
)
from omoide.answer.senses import done_mask, later_today
from omoide.core.days import day_bounds, local_day, zone
from omoide.store.lake import read_events

TEXT_SHOWN = 120
Window = tuple[datetime, datetime]
Matching = Callable[[pd.DataFrame], pd.Series]


@dataclass(frozen=True)
class Found:
    """The matching record: its time, whether that time is the record's own (not its day's), its ref and words."""

    ts: datetime
    timed: bool
    ref: str
    text: str
    time_ref: str | None = None  # the record that gave the time, when it is not the one quoted


def tiers(t: Target, user_name: str) -> list[tuple[Target, Matching]]:
    """A target + the person's name -> the (target, record test) pairs to try in turn: the strictest first."""

    def words(t: Target) -> Matching:
        return lambda e: word_mask(e, t.terms)

    def own(t: Target) -> Matching:
        return lambda e: word_mask(e, t.terms) & own_mask(e, user_name)

    def done(t: Target) -> Matching:
        # The activity's own verb, in its sense: "last night's run failed" is no run.
        return lambda e: activity_mask(e, t.terms) & own_mask(e, user_name)

    def anyones(t: Target) -> Matching:
        return lambda e: activity_mask(e, t.terms, bare=False)

    loose = looser(t)
    if t.partner:
        who = t.partner
        return [(t, lambda e: talk_mask(e, who)), (t, lambda e: named_mask(e, who))]
    if t.seen or t.site:
        return [(t, words(t))] + ([(loose, words(loose))] if loose else [])
    strict = [t] + ([u] if (u := unqualified(t)) is not None else [])
    steps = [(v, done(v)) for v in strict] + ([(loose, own(loose))] if loose else [])
    return steps + [(v, anyones(v)) for v in strict] + ([(loose, words(loose))] if loose else [])


def find(
    lake_dir: Path,
    subject: str,
    window: Window | None,
    tz: str,
    first: bool,
    user_name: str = "",
) -> Found | None:
    """Lake + subject (+ UTC window) + timezone + earliest or latest (+ the person's name) -> the matching record, or None.

    A conversation partner is matched under every name it means (ピーター is the chats' Peter);
    one no chat names is looked for in the records naming them.
    """
    days = lake_days(lake_dir, window, tz)
    for tried, matching in tiers(target(subject), user_name):
        found = _search(lake_dir, days, window, tz, first, matching, tried, user_name)
        if found is not None:
            return found
    return None


def _search(
    lake_dir: Path,
    days: list[date],
    window: Window | None,
    tz: str,
    first: bool,
    matching: Matching,
    t: Target,
    user_name: str = "",
) -> Found | None:
    """Lake + days + window + which end + a record test + the target (+ the person's name) -> the
    first (or last) record that passes it, timed by the day's record of the same thing when it has no time."""
    for day in days if first else reversed(days):
        events = read_events(lake_dir, day)
        if events.empty:
            continue
        inside = pd.Series(True, index=events.index)
        if window is not None:
            inside = (events["ts"] >= window[0]) & (events["ts"] < window[1])
        hits = events.loc[done_mask(events, matching(events) & inside, t, tz)]
        hits = hits.sort_values("ts", kind="stable")
        if hits.empty:
            continue
        # "Making dashi tonight" says when it was planned, not when it was done: another record
        # of the day, timed or not, says that better.
        ahead = later_today(hits)
        if ahead.any() and not ahead.all():
            hits = hits.loc[~ahead]
        midnight = day_bounds(day, tz)[0]
        untimed = (hits["source"] == "notes") & (hits["ts"] == midnight)
        # The day is found; a record with its own time says when on it.
        timed = hits.loc[~untimed]
        chosen = timed if not timed.empty else hits
        row = chosen.iloc[0 if first else -1]
        said = row["text"] if isinstance(row["text"], str) and row["text"] else row["title"]
        speaker = f"{row['actor']}: " if isinstance(row["actor"], str) and row["actor"] else ""
        text = speaker + quoted_line(str(said), t.terms)
        ref = str(row["source_ref"])
        if not timed.empty:
            return Found(row["ts"].to_pydatetime(), True, ref, text)
        clock = _timed_same_thing(events.loc[inside], t, midnight, first, user_name)
        if clock is None:
            return Found(row["ts"].to_pydatetime(), False, ref, text)
        return Found(clock["ts"].to_pydatetime(), True, ref, text, str(clock["source_ref"]))
    return None


def _timed_same_thing(
    events: pd.DataFrame, t: Target, midnight: datetime, first: bool, user_name: str
) -> pd.Series | None:
    """A day's records + the target + the day's midnight + which end + the person's name -> their own
    record of that day with its own time that matches the target (else the target without its
    verb), or None."""
    own = own_mask(events, user_name) & ~(
        (events["source"] == "notes") & (events["ts"] == midnight)
    )
    for v in [t] + ([loose] if (loose := looser(t)) else []):
        if not v.terms:
            continue
        hits = events.loc[own & word_mask(events, v.terms)].sort_values("ts", kind="stable")
        hits = hits.loc[~later_today(hits)]
        if not hits.empty:
            return hits.iloc[0 if first else -1]
    return None


LOOKED_IN = {"en": "notes, chats, pages and windows", "ja": "メモ、チャット、ページ、ウィンドウ"}


def not_found(subject: str, days: tuple[date, date] | None, lang: Lang) -> str:
    """Subject + the inclusive local days looked in (or None: all) -> the sentence saying no record matches, and where it looked."""
    if lang == "ja":
        what = f"「{subject}」" if subject else "質問"
        where = f"{period_text(*days, lang)}には" if days else ""
        return f"{where}{what}に当てはまる記録はありません（{LOOKED_IN[lang]}を探しました）。"
    what = f"“{subject}”" if subject else "your question"
    where = f" {period_text(*days, lang)}" if days else ""
    return f"No record{where} matches {what} (looked in {LOOKED_IN[lang]})."


def when_answer(
    lake_dir: Path,
    home: Path,
    subject: str,
    window: Window | None,
    tz: str,
    first: bool,
    lang: Lang = "en",
    user_name: str = "",
) -> tuple[str, datetime | None, list[Citation]]:
    """Lake + home + subject (+ window) + timezone + first or last (+ the answer's language, the person's name)
    -> the answer's text, the moment (local, with offset), the citation."""
    found = find(lake_dir, subject, window, tz, first, user_name) if subject else None
    if found is None:
        days = None
        if window is not None:
            end = window[1] - timedelta(microseconds=1)
            days = (local_day(window[0], tz), local_day(end, tz))
        return not_found(subject, days, lang), None, []
    local = found.ts.astimezone(zone(tz))
    moment = moment_text(local, lang, found.timed)
    quote = found.text if len(found.text) <= TEXT_SHOWN else found.text[: TEXT_SHOWN - 1] + "…"
    if lang == "ja":
        text = f"{'最初' if first else '最後'}は{moment}です：「{quote}」。"
    else:
        text = f"{'First' if first else 'Most recently'} on {moment}: “{quote}”."
    day = local.date().isoformat()
    cites = [Citation(shown(found.ref, home), day)]
    if found.time_ref is not None:
        cites.append(Citation(shown(found.time_ref, home), day))
    return text, local, cites
