"""Time spent ("how much time on github.com on Friday", "how long in zoom") -> minutes by ActivityWatch's arithmetic, citing the sessions.

The figure is `omoide.memory.active_time.time_on` over the window's lake events: window
events ∩ not-AFK for an app, web-watcher events ∩ that browser's focused window ∩ not-AFK
for a site, overlaps counted once. A question naming no time asks about the last
DEFAULT_DAYS days (today included). The citations are the daily pages' session lines made
from the events that were counted, longest first.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from pathlib import Path

import pandas as pd

from omoide.answer.cite import Citation
from omoide.answer.language import (
    Lang,
    date_text,
    day_text,
    duration_text,
    nothing_recorded,
    period_text,
)
from omoide.core.days import day_bounds, days_between, local_day
from omoide.memory.active_time import NO_AFK, NO_AW, Spent, time_on
from omoide.store.lake import read_events, read_facts

DEFAULT_DAYS = 7
MAX_CITED = 5
_MINUTES = re.compile(r"\((\d+) min\)")


def default_window(tz: str, now: datetime) -> tuple[datetime, datetime]:
    """Timezone + now -> the last DEFAULT_DAYS local days, today included, up to now."""
    today = local_day(now, tz)
    return day_bounds(today - timedelta(days=DEFAULT_DAYS - 1), tz)[0], now


def _events(lake_dir: Path, days: list[date]) -> pd.DataFrame:
    """Lake + days -> their events, one frame."""
    frames = [e for d in days if not (e := read_events(lake_dir, d)).empty]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def sessions_cited(
    lake_dir: Path, days: list[date], refs: set[str], subject: str
) -> list[Citation]:
    """Lake + days + the refs of the events counted + the subject -> the sessions made from them, those naming it first, longest first."""
    found: list[tuple[bool, int, Citation]] = []
    low = subject.casefold()
    for day in days:
        facts = read_facts(lake_dir, day)
        for kind, source, sources, content in zip(
            facts["kind"], facts["source"], facts["source_refs"], facts["content"], strict=True
        ):
            if kind != "session" or not refs & set(sources if sources is not None else ()):
                continue
            m = _MINUTES.search(str(content))
            named = low in str(content).casefold()
            found.append((named, int(m.group(1)) if m else 0, Citation(source, day.isoformat())))
    found.sort(key=lambda f: (not f[0], -f[1]))
    return [c for _, _, c in found[:MAX_CITED]]


def _phrase(spent: Spent, subject: str, lang: Lang = "en") -> str:
    """What was counted -> 'github.com' or 'the app zoom' or 'windows titled “warelay”' (/ 'アプリ zoom' …)."""
    if lang == "ja":
        titled = f"タイトルに「{subject}」を含むウィンドウとページ"
        return {"app": f"アプリ {subject}", "title": titled}.get(spent.kind, subject)
    return {"app": f"the app {subject}", "title": f"windows and pages titled “{subject}”"}.get(
        spent.kind, subject
    )


# active_time's notes (why a figure may be 0 or coarse), as a Japanese answer says them.
_NOTES_JA = {
    NO_AW: "この期間のActivityWatchのデータがありません（閲覧履歴だけでは時間は分かりません）",
    NO_AFK: "この期間のAFKデータ（aw-watcher-afk）がないため、ウィンドウの時間をそのまま数えています",
}


_NO_SUBJECT = {
    "en": "Say what to count the time of: a site, an app or words of a title.",
    "ja": "何の時間を数えるか（サイト、アプリ、タイトルの言葉）を書いてください。",
}


def _note(note: str, lang: Lang) -> str:
    """active_time's note -> in the answer's language."""
    return _NOTES_JA.get(note, note) if lang == "ja" else note


def _span(first: date, last: date, lang: Lang) -> str:
    """Inclusive local days -> 'on Friday, 20 November 2026' or 'from 2026-11-16 to 2026-11-20' (/ '2026年11月20日（金）' …)."""
    if lang == "ja":
        if first == last:
            return day_text(first, lang)
        return f"{date_text(first, lang)}から{date_text(last, lang)}まで"
    return f"on {day_text(first, lang)}" if first == last else f"from {first} to {last}"


def _said(spent: Spent, subject: str, first: date, last: date, lang: Lang) -> str:
    """What was counted, with time in it, + its days -> the answer's sentence."""
    if lang == "ja":
        lead = "1分未満" if spent.seconds < 30 else f"約{duration_text(spent.seconds / 60, lang)}"
        text = f"{_span(first, last, lang)}、{_phrase(spent, subject, lang)}に{lead}"
        text += "（ActivityWatch：アクティブで離席していない時間、重なりは一度だけ数えています）。"
        return text + (f"{_note(spent.note, lang)}。" if spent.note else "")
    lead = "Under a minute" if spent.seconds < 30 else f"About {_duration(spent.seconds)}"
    text = f"{lead} on {_phrase(spent, subject)} {_span(first, last, lang)}"
    text += " (ActivityWatch: focused and not away; overlaps counted once)."
    return text + (f" {spent.note}" if spent.note else "")


def _none_said(spent: Spent, subject: str, first: date, last: date, lang: Lang) -> str:
    """What was counted, with no time in it (or no time data at all), + its days -> the answer's sentence."""
    span = _span(first, last, lang)
    if spent.basis == "none" and lang == "ja":
        return f"{span}の{subject}の時間は分かりません：{_note(spent.note or NO_AW, lang)}。"
    if spent.basis == "none":
        return f"No time can be told for {subject} {span}: {spent.note or 'no ActivityWatch data'}."
    if lang == "ja":
        return (
            f"{period_text(first, last, lang)}、ActivityWatchには{_phrase(spent, subject, lang)}の"
            "時間の記録がありません（アクティブで離席していない時間）。"
        )
    # Not "About 0 min": that reads as a measurement of something that was there.
    text = f"ActivityWatch recorded no time on {_phrase(spent, subject)} {period_text(first, last, lang)}"
    return text + " (focused and not away)."


def time_spent_answer(
    lake_dir: Path, subject: str, window: tuple[datetime, datetime], tz: str, lang: Lang = "en"
) -> tuple[str, float, list[Citation], str]:
    """Lake + subject + UTC window + timezone (+ the answer's language) -> the answer's text, the minutes, the cited sessions, the basis."""
    first = local_day(window[0], tz)
    last = max(first, local_day(window[1] - timedelta(microseconds=1), tz))
    days = days_between(first, last)
    # An event is stored on the day it starts: one running past midnight into the window counts.
    events = _events(lake_dir, [first - timedelta(days=1), *days])
    if not subject:
        return _NO_SUBJECT[lang], 0.0, [], "none"
    if events.empty:
        return nothing_recorded(first, last, lang), 0.0, [], "none"
    spent = time_on(events, subject, window[0], window[1])
    if spent.basis == "none" or not spent.seconds:
        return _none_said(spent, subject, first, last, lang), 0.0, [], spent.basis
    text = _said(spent, subject, first, last, lang)
    cited = sessions_cited(lake_dir, days, set(spent.refs), subject)
    return text, round(spent.seconds / 60, 1), cited, spent.basis


def _duration(seconds: float) -> str:
    """Seconds -> '42 min' or '2 h 05 min'."""
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"
