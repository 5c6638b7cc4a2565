"""Part of a day ("the afternoon of 11 November", "this morning", "between 14:00 and 16:00", "11月17日の午後") -> an overview of that window of hours, cited.

Four things, each short: the activity blocks overlapping the window, each cited by its
day-page line (omoide.answer.activity_blocks); what was open, by ActivityWatch's arithmetic
over the window's lake events (omoide.memory.active_time.time_by_activity: window time ∩
not-AFK, a site as its browser's focused time, overlaps counted once), the TOP_OPEN largest
with the page titles the window's sessions show for them, each citing its session lines; what
was written (the note lines with a time of their own in the window); what was said (the
window's chat messages, the person's and others'), each quoted and cited. A window with none of these says nothing was recorded in it. A
window running past now ends at now.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from omoide.answer.activity_blocks import blocks_in, blocks_sentence
from omoide.answer.cite import Answer, Citation, shown
from omoide.answer.lake_records import NOTE_KINDS, quoted, timed
from omoide.answer.language import Lang, day_text, duration_text
from omoide.answer.time_spent import sessions_cited
from omoide.core.days import days_between, local_day, zone
from omoide.core.kinds import CHAT_SOURCE_KINDS
from omoide.memory.active_time import time_by_activity, time_on
from omoide.store.lake import read_events, read_sessions

if TYPE_CHECKING:
    from omoide.answer.question import Question
    from omoide.core.settings import Settings

TOP_OPEN = 3
NOTES_SHOWN = 3
MESSAGES_SHOWN = 3
TITLES_SHOWN = 2


def hours_text(start: datetime, end: datetime, lang: Lang) -> str:
    """A local window of hours -> 'on Wednesday, 11 November 2026 from 12:00 to 18:00' / '2026年11月11日（水）12:00〜18:00' (both days when it crosses midnight)."""
    last = (end - timedelta(microseconds=1)).date()
    until = "24:00" if end.time() == datetime.min.time() and last < end.date() else f"{end:%H:%M}"
    if last == start.date():
        if lang == "ja":
            return f"{day_text(start.date(), lang)}{start:%H:%M}〜{until}"
        return f"on {day_text(start.date(), lang)} from {start:%H:%M} to {until}"
    if lang == "ja":
        return (
            f"{day_text(start.date(), lang)}{start:%H:%M}〜{day_text(end.date(), lang)}{end:%H:%M}"
        )
    return f"from {day_text(start.date(), lang)} at {start:%H:%M} to {day_text(end.date(), lang)} at {end:%H:%M}"


def nothing_in_hours(start: datetime, end: datetime, lang: Lang) -> str:
    """A local window of hours -> the sentence saying no record holds it."""
    if lang == "ja":
        return f"{hours_text(start, end, lang)}には何も記録されていません。"
    return f"Nothing was recorded {hours_text(start, end, lang)}."


def _events(lake_dir: Path, days: Sequence[date]) -> pd.DataFrame:
    """Lake + days -> their events, one frame (the day before the first too: an event is stored on the day it starts)."""
    frames = [
        e for d in (days[0] - timedelta(days=1), *days) if not (e := read_events(lake_dir, d)).empty
    ]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _titles(
    lake_dir: Path, days: Sequence[date], name: str, start: datetime, end: datetime
) -> list[str]:
    """Lake + days + an app or site + a UTC window -> the page titles its sessions in the window show, most shown first."""
    seen: dict[str, float] = {}
    for day in days:
        sessions = read_sessions(lake_dir, day)
        for s in sessions.itertuples(index=False):
            if not (s.start < end and s.end > start):
                continue
            if name not in (s.domain, s.app):
                continue
            for title in s.titles if s.titles is not None else ():
                if title:
                    seen[title] = seen.get(title, 0.0) + float(s.duration_s)
    return [t for t, _ in sorted(seen.items(), key=lambda kv: -kv[1])[:TITLES_SHOWN]]


def _open(
    lake_dir: Path,
    days: Sequence[date],
    events: pd.DataFrame,
    window: tuple[datetime, datetime],
    lang: Lang,
) -> tuple[str, list[Citation]]:
    """The window's events -> the sentence naming what was open longest (with titles), and the sessions cited."""
    if events.empty:
        return "", []
    top = time_by_activity(events, TOP_OPEN, *window)
    if not top:
        return "", []
    items, cites = [], []
    for name, seconds in top:
        titles = _titles(lake_dir, days, name, *window)
        took = duration_text(seconds / 60, lang)
        if lang == "ja":
            shown_titles = (
                "（" + "、".join(f"「{quoted(t, 80)}」" for t in titles) + "）" if titles else ""
            )
            items.append(f"{name} {took}{shown_titles}")
        else:
            shown_titles = (
                " (" + "; ".join(f"“{quoted(t, 80)}”" for t in titles) + ")" if titles else ""
            )
            items.append(f"{name} {took}{shown_titles}")
        refs = set(time_on(events, name, *window).refs)
        cites += sessions_cited(lake_dir, list(days), refs, name)[:1]
    if lang == "ja":
        return "開いていたもの：" + "、".join(items) + "。", cites
    return "Open longest: " + ", ".join(items) + ".", cites


def _lines(
    events: pd.DataFrame, window: tuple[datetime, datetime], tz: str, home: Path, lang: Lang
) -> tuple[list[str], list[Citation]]:
    """The window's events -> the sentences quoting its timed note lines and chat messages, and their citations."""
    if events.empty:
        return [], []
    inside = events[(events["ts"] >= window[0]) & (events["ts"] < window[1])]
    local = zone(tz)
    parts: list[str] = []
    cites: list[Citation] = []
    notes = [
        r
        for r in inside[inside["source"].isin(NOTE_KINDS)].itertuples(index=False)
        if timed(pd.Timestamp(r.ts), local_day(r.ts, tz), tz, str(r.source))
        and isinstance(r.text, str)
    ]
    chats = [
        r
        for r in inside[inside["source"].isin(CHAT_SOURCE_KINDS)].itertuples(index=False)
        if isinstance(r.text, str)
    ]
    for rows, limit, kind in ((notes, NOTES_SHOWN, "notes"), (chats, MESSAGES_SHOWN, "chats")):
        if not rows:
            continue
        picked = rows[:limit]
        quotes = []
        for r in picked:
            at = pd.Timestamp(r.ts).tz_convert(local).strftime("%H:%M")
            who = f"{r.actor}: " if kind == "chats" and isinstance(r.actor, str) and r.actor else ""
            quotes.append(
                f"「{who}{quoted(r.text, 100)}」（{at}）"
                if lang == "ja"
                else f"“{who}{quoted(r.text, 100)}” ({at})"
            )
            cites.append(Citation(shown(str(r.source_ref), home), local_day(r.ts, tz).isoformat()))
        more = len(rows) - len(picked)
        if lang == "ja":
            lead = "書いたこと：" if kind == "notes" else "チャット："
            tail = f"ほか{more}件" if more else ""
            parts.append(lead + "、".join(quotes) + (f"、{tail}" if tail else "") + "。")
        else:
            lead = "You wrote: " if kind == "notes" else "Said: "
            tail = f"; and {more} more" if more else ""
            parts.append(lead + "; ".join(quotes) + tail + ".")
    return parts, cites


def part_of_day_answer(q: Question, settings: Settings, now: datetime) -> Answer:
    """A part-of-day question (its window a span of hours) + settings + now -> an overview of that window, cited."""
    lang: Lang = getattr(q, "lang", "en")
    tz = settings.timezone
    if q.window is None:
        text = (
            "何時から何時までかを書いてください。"
            if lang == "ja"
            else "Say which hours: e.g. “this morning”, “14:00 to 16:00”."
        )
        return Answer("part_of_day", None, text, subject=q.subject, basis="none", matched=False)
    start, end = q.window.start, max(q.window.start, min(q.window.end, now))
    first, last = local_day(start, tz), local_day(max(start, end - timedelta(microseconds=1)), tz)
    days = days_between(first, last)
    local = zone(tz)
    events = _events(settings.lake_dir, days) if end > start else pd.DataFrame()
    doing, cites = blocks_sentence(blocks_in(settings.lake_dir, days, start, end), tz, lang)
    opened, open_cites = _open(settings.lake_dir, days, events, (start, end), lang)
    cites += open_cites
    lines, cited = _lines(events, (start, end), tz, settings.home, lang)
    if not opened and not lines and not doing:
        # The hours as asked, even those still to come.
        text = nothing_in_hours(start.astimezone(local), q.window.end.astimezone(local), lang)
        return Answer(
            "part_of_day", (first, last), text, subject=q.subject, basis="none", matched=False
        )
    head = hours_text(start.astimezone(local), end.astimezone(local), lang)
    lead = f"{head}：" if lang == "ja" else f"{head[0].upper()}{head[1:]}: "
    parts = (doing, opened, *lines)
    body = "".join(parts) if lang == "ja" else " ".join(p for p in parts if p)
    return Answer(
        "part_of_day", (first, last), lead + body, cites + cited, subject=q.subject, basis="lake"
    )
