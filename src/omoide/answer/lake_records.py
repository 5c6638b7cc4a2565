"""What the person-centred answers (said by, who, part of a day) read of the lake: chat and note records, a topic's words in them, a quote.

A topic's words are omoide.memory.terms' (spaced words of three letters or more, CJK bigrams),
stop words out, an English word matched by its stem (-s, -ed, -ing). A record is about the
topic when it holds all of them, or near it when it holds at least half (a Japanese topic's
bigrams across a particle: 京都の旅館 is near 東山の旅館).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

import pandas as pd

from omoide.core.days import day_bounds, local_day
from omoide.core.kinds import CHAT_SOURCE_KINDS, OWN_SPEAKER
from omoide.memory.terms import has_cjk, terms
from omoide.store.lake import read_events, stage_days

NOTE_KINDS = ("notes",)
QUOTE_CHARS = 160
NEAR = 0.5
_STOP = frozenset(
    "the and about with for from that this what did does was were have has had say said tell "
    "told our your their his her its any some all my mine vs versus".split()
)


def lake_days(lake_dir: Path, window: tuple[datetime, datetime] | None, tz: str) -> list[date]:
    """Lake + an optional UTC window -> the stored days of events to read, oldest first."""
    days = stage_days(lake_dir, "events")
    if window is None:
        return days
    first = local_day(window[0], tz)
    last = local_day(max(window[0], window[1] - timedelta(microseconds=1)), tz)
    return [d for d in days if first <= d <= last]


def records_of(
    lake_dir: Path, days: list[date], sources: Collection[str], newest_first: bool = True
) -> Iterator[tuple[date, pd.DataFrame]]:
    """Lake + days + source kinds -> each day's records of those sources, time-ordered (days with none skipped)."""
    for day in reversed(days) if newest_first else days:
        events = read_events(lake_dir, day)
        if events.empty:
            continue
        kept = events[events["source"].astype(str).isin(set(sources))]
        if not kept.empty:
            yield day, kept


@dataclass(frozen=True)
class OwnLine:
    """One line of the person's own: its local day, time (UTC), words, ref and source kind."""

    day: date
    ts: datetime
    text: str
    ref: str
    source: str


def own_lines(
    lake_dir: Path, days: list[date], me: Collection[str], newest_first: bool = True
) -> Iterator[OwnLine]:
    """Lake + days + the person's names -> their note lines and their own chat messages, with words, day by day."""
    speakers = {m.casefold() for m in me} | {OWN_SPEAKER}
    kinds = (*NOTE_KINDS, *CHAT_SOURCE_KINDS)
    for day, records in records_of(lake_dir, days, kinds, newest_first):
        for ts, text, ref, source, actor in zip(
            records["ts"],
            records["text"],
            records["source_ref"],
            records["source"],
            records["actor"],
            strict=True,
        ):
            own = source in NOTE_KINDS or str(actor).strip().casefold() in speakers
            if own and isinstance(text, str) and text.strip():
                yield OwnLine(day, ts.to_pydatetime(), text, str(ref), str(source))


def _stem(word: str) -> str:
    """A lower-case Latin word -> without an -s, -ed or -ing ending (three letters kept)."""
    for ending in ("ing", "ed", "es", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def topic_terms(topic: str) -> list[str]:
    """A topic -> the terms a record about it holds (stems for Latin words, CJK bigrams as they are)."""
    found = [t if has_cjk(t) else _stem(t) for t in terms(topic) if t not in _STOP]
    return list(dict.fromkeys(found))


def share(text: str, wanted: list[str]) -> float:
    """A record's text + a topic's terms -> the fraction of those terms it holds (0 without terms)."""
    if not wanted:
        return 0.0
    held = {t if has_cjk(t) else _stem(t) for t in terms(text)}
    return sum(t in held for t in wanted) / len(wanted)


def quoted(text: object, limit: int = QUOTE_CHARS) -> str:
    """A record's text -> one line, cut to `limit` characters."""
    one = " ".join(str(text).split()) if isinstance(text, str) else ""
    return one if len(one) <= limit else one[: limit - 1] + "…"


def timed(ts: pd.Timestamp, day: date, tz: str, source: str) -> bool:
    """A record's time + its day + its source kind -> whether that time is its own (a note line without one sits at midnight)."""
    return not (source in NOTE_KINDS and ts.to_pydatetime() == day_bounds(day, tz)[0])


def names_it(text: object, names: Collection[str]) -> bool:
    """A record's text + a person's spellings -> whether it names one (a whole word, any case; a CJK name as written)."""
    if not isinstance(text, str) or not text:
        return False
    for name in names:
        if has_cjk(name):
            if name in text:
                return True
        elif re.search(rf"(?<!\w)@?{re.escape(name)}(?!\w)", text, re.IGNORECASE):
            return True
    return False
