"""When ("when did I last talk to Peter", "最後に…したのはいつ") -> the moment of the latest (or earliest) record that matches, cited.

The records are the lake's: chat messages, note lines, page visits and window titles, each
with its own time. What matches:

- "talk / chat / speak / write / text / call to or with X", "Xと話した": chat messages X wrote,
  or written in a conversation with X (either side: the last time the two of you talked);
- otherwise every key word of the subject (stop words out; an English word matches its -s,
  -ed, -ing forms; Japanese by its katakana, kanji and Latin runs), in a record's text or title.

A note line without a time of its own ("- Called the dentist" rather than "- 08:05 Called …")
is dated by its day only: the answer names the day, not midnight.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

import pandas as pd

from omoide.answer.cite import Citation, shown
from omoide.answer.periods import day_named, period_named
from omoide.core.days import day_bounds, local_day, zone
from omoide.core.kinds import CHAT_SOURCE_KINDS
from omoide.store.lake import read_events, stage_days

_TALK = re.compile(
    r"\b(?:talk(?:ed|ing)?|chat(?:ted|ting)?|spoke|speak(?:ing)?|message[sd]?|text(?:ed)?|"
    r"call(?:ed)?|wr(?:ote|ite)|heard|hear)\b(?:\s+(?:to|with|from))?\s+(?P<who>.+)$",
    re.IGNORECASE,
)
_TALK_JA = re.compile(r"^(?P<who>.+?)(?:と|に|から)(?:話|チャット|連絡|電話|メッセージ|会)")
_STOP = frozenset(
    "i me my we our you the a an to of on in at for with did do does was were is are be been "
    "have has had last first time ever that this it about".split()
)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?|\d+", re.UNICODE)
_JA_RUN = re.compile(r"[\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff]{2,}|[A-Za-z0-9][\w.\-]+")
_KANA = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
TEXT_SHOWN = 120


@dataclass(frozen=True)
class Found:
    """The matching record: its time, whether that time is the record's own (not its day's), its ref and words."""

    ts: datetime
    timed: bool
    ref: str
    text: str


def _stem(word: str) -> str:
    """English word -> lower case without an -s, -ed or -ing ending (three letters kept)."""
    w = word.casefold()
    for ending in ("ing", "ed", "es", "s"):
        if w.endswith(ending) and len(w) - len(ending) >= 3:
            return w[: -len(ending)]
    return w


def key_terms(subject: str) -> list[str]:
    """Subject -> the words a record must hold (stemmed English words, Japanese runs)."""
    if _KANA.search(subject):
        return [t.casefold() for t in _JA_RUN.findall(subject)]
    return [_stem(w) for w in _WORD.findall(subject) if w.casefold() not in _STOP]


def _holds(text: str, terms: list[str]) -> bool:
    """Text + key terms -> does it hold every one (a Latin term as a word's stem)?"""
    low = text.casefold()
    words = {_stem(w) for w in _WORD.findall(text)}
    return all(
        t in words or (_KANA.search(t) and t in low) or ("." in t and t in low) for t in terms
    )


def _talk_partner(subject: str) -> str | None:
    """Subject -> the person it asks about talking with, or None."""
    m = _TALK.search(subject) or _TALK_JA.search(subject)
    return m["who"].strip(" ?？.。") if m else None


def _talk_mask(events: pd.DataFrame, who: str) -> pd.Series:
    """Events + a name -> chat messages by them, or in a conversation with them."""
    low = who.casefold()
    chat = events["source"].astype(str).isin(CHAT_SOURCE_KINDS)

    def named(value: object) -> bool:
        v = str(value).casefold() if isinstance(value, str) else ""
        return v == low or v.startswith(low + " ") or v.split(" ")[0] == low

    return chat & (events["actor"].map(named) | events["title"].map(named)).astype(bool)


def _word_mask(events: pd.DataFrame, terms: list[str]) -> pd.Series:
    """Events + key terms -> the records whose text or title holds them all."""
    if not terms:
        return pd.Series(False, index=events.index)
    text = events["text"].fillna("").astype(str) + " \n " + events["title"].fillna("").astype(str)
    verdicts = {t: _holds(t, terms) for t in text.unique()}
    return text.map(verdicts).astype(bool)


def _days(lake_dir: Path, window: tuple[datetime, datetime] | None, tz: str) -> list[date]:
    """Lake + an optional UTC window -> the stored days to read."""
    days = stage_days(lake_dir, "events")
    if window is None:
        return days
    first, last = local_day(window[0], tz), local_day(window[1], tz)
    return [d for d in days if first <= d <= last]


def find(
    lake_dir: Path, subject: str, window: tuple[datetime, datetime] | None, tz: str, first: bool
) -> Found | None:
    """Lake + subject (+ UTC window) + timezone + earliest or latest -> the matching record, or None.

    A conversation partner no chat names (ピーター, when the chat writes Peter) is looked for
    by the name's words instead.
    """
    who = _talk_partner(subject)
    days = _days(lake_dir, window, tz)
    if who:
        found = _search(lake_dir, days, window, tz, first, lambda e: _talk_mask(e, who))
        if found is not None:
            return found
    terms = key_terms(who or subject)
    return _search(lake_dir, days, window, tz, first, lambda e: _word_mask(e, terms))


def _search(
    lake_dir: Path,
    days: list[date],
    window: tuple[datetime, datetime] | None,
    tz: str,
    first: bool,
    matching: Callable[[pd.DataFrame], pd.Series],
) -> Found | None:
    """Lake + days + window + which end + a record test -> the first (or last) record that passes it."""
    for day in days if first else reversed(days):
        events = read_events(lake_dir, day)
        if events.empty:
            continue
        mask = matching(events)
        if window is not None:
            mask &= (events["ts"] >= window[0]) & (events["ts"] < window[1])
        hits = events.loc[mask].sort_values("ts", kind="stable")
        if hits.empty:
            continue
        row = hits.iloc[0 if first else -1]
        ts = row["ts"].to_pydatetime()
        timed = not (row["source"] == "notes" and ts == day_bounds(day, tz)[0])
        words = " ".join(str(row["text"] if isinstance(row["text"], str) else row["title"]).split())
        speaker = f"{row['actor']}: " if isinstance(row["actor"], str) and row["actor"] else ""
        return Found(ts, timed, str(row["source_ref"]), speaker + words)
    return None


def when_answer(
    lake_dir: Path,
    home: Path,
    subject: str,
    window: tuple[datetime, datetime] | None,
    tz: str,
    first: bool,
) -> tuple[str, datetime | None, list[Citation]]:
    """Lake + home + subject (+ window) + timezone + first or last -> the answer's text, the moment (local, with offset), the citation."""
    found = find(lake_dir, subject, window, tz, first) if subject else None
    if found is None:
        what = f"“{subject}”" if subject else "your question"
        if window is None:
            return f"No record matches {what}.", None, []
        since, until = (
            local_day(window[0], tz),
            local_day(window[1] - timedelta(microseconds=1), tz),
        )
        return f"No record {period_named(since, until)} matches {what}.", None, []
    local = found.ts.astimezone(zone(tz))
    day = local.date()
    moment = day_named(day) + (f" at {local:%H:%M}" if found.timed else "")
    quote = found.text if len(found.text) <= TEXT_SHOWN else found.text[: TEXT_SHOWN - 1] + "…"
    which = "First" if first else "Most recently"
    return (
        f"{which} on {moment}: “{quote}”.",
        local,
        [Citation(shown(found.ref, home), day.isoformat())],
    )
