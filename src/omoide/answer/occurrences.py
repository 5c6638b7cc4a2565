"""Count and which days ("how many times did I go running in November", "which days did I cook", 何回走りましたか, どの日) -> the distinct occurrences of the thing done, each cited.

What matches is the thing done (`omoide.answer.matching`), read from the window's lake records
(the whole history when the question names no time):

- an activity ("go running", "cook", 走った): the person's own note lines and the messages they
  wrote to people, one occurrence a day (a log line and a message about the same run are one;
  `## Retain` lines restate the day and are left out). When none holds it, the pages and windows
  that name it are counted instead, and the answer says so: reading about running is no run;
- something seen or a site ("visit seriouseats.com"): the pages and windows that show it;
- talking with someone ("talk to Peter"): the chat messages with them;
  those two counted by sitting: records less than SITTING_GAP apart on one day are one.

An activity's record counts only when it says the thing was done (`omoide.answer.senses`): not a
plan ("dentist on Thursday", 明日は歯医者), a contact ("Called the dentist") or another sense of
its verb ("the build is still running"). A note line dated by its day only joins that day's
first sitting. When no record holds every key word, the first English one (the question's own
verb) is let go.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

import pandas as pd

from omoide.answer.cite import Citation, shown
from omoide.answer.lake_records import lake_days
from omoide.answer.matching import Target, target, variants
from omoide.answer.record_masks import (
    activity_mask,
    named_mask,
    own_mask,
    quoted_line,
    seen_mask,
    talk_mask,
    word_mask,
)
from omoide.answer.senses import done_mask, later_today
from omoide.core.days import day_bounds, zone
from omoide.store.lake import read_events

# A page reopened after a short break, or a reply within half an hour, is the same sitting.
SITTING_GAP = timedelta(minutes=30)
QUOTE_CHARS = 90
Window = tuple[datetime, datetime]
Matching = Callable[[pd.DataFrame], pd.Series]


@dataclass(frozen=True)
class Occurrence:
    """One time the thing happened: its local day, its first record's local time (and whether that is its own), ref and words."""

    day: date
    at: datetime
    timed: bool
    ref: str
    text: str


@dataclass(frozen=True)
class Counted:
    """What was counted: the occurrences in time order, what they were read from, whether the window held any record."""

    occurrences: list[Occurrence]
    basis: str  # "own": notes and messages (a day each); "seen", "talk", "pages": by sitting
    recorded: bool

    def first_of_each_day(self) -> list[Occurrence]:
        """-> each day's first occurrence, in order."""
        firsts: dict[date, Occurrence] = {}
        for o in self.occurrences:
            firsts.setdefault(o.day, o)
        return list(firsts.values())


def window_events(lake_dir: Path, window: Window | None, tz: str) -> pd.DataFrame:
    """Lake + an optional UTC window -> every record in it, one frame."""
    frames = [
        e for d in lake_days(lake_dir, window, tz) if not (e := read_events(lake_dir, d)).empty
    ]
    if not frames:
        return pd.DataFrame()
    events = pd.concat(frames, ignore_index=True)
    if window is not None:
        events = events[(events["ts"] >= window[0]) & (events["ts"] < window[1])]
    return events.sort_values("ts", kind="stable", ignore_index=True)


def _steps(t: Target, user_name: str, tz: str) -> list[tuple[str, Target, Matching]]:
    """A target + the person's name + timezone -> (basis, target, record test) to try in turn: the strictest first."""
    tried = variants(t)

    def words(v: Target, extra: Callable[[pd.DataFrame], pd.Series]) -> Matching:
        return lambda e: word_mask(e, v.terms) & extra(e)

    if t.partner:
        who = t.partner
        # With no conversation, the person's own records naming them (a meeting in the notes);
        # a page they wrote (a pull request by mina-k) is no talk with them.
        return [
            ("talk", t, lambda e: talk_mask(e, who)),
            ("talk", t, lambda e: named_mask(e, who) & own_mask(e, user_name, False)),
        ]
    if t.seen or t.site:
        return [("seen", v, words(v, seen_mask)) for v in tried]

    def done(v: Target, extra: Callable[[pd.DataFrame], pd.Series], bare: bool = True) -> Matching:
        # The activity's own verb in its sense ("last night's run failed" is no run); a looser
        # variant has let that verb go. Either way a plan or a call to it is not it (senses).
        if v is not t:
            return lambda e: done_mask(e, words(v, extra)(e), v, tz)
        return lambda e: done_mask(e, activity_mask(e, v.terms, bare) & extra(e), v, tz)

    own = [("own", v, done(v, lambda e: own_mask(e, user_name, False))) for v in tried]
    return own + [("pages", v, done(v, seen_mask, bare=False)) for v in tried]


def _quote(row: pd.Series, terms: tuple[str, ...]) -> str:
    """A record + the key terms -> its words that matched, short, with the speaker of a message."""
    said = row["text"] if isinstance(row["text"], str) and row["text"] else row["title"]
    text = quoted_line(str(said), terms)
    if isinstance(row["actor"], str) and row["actor"]:
        text = f"{row['actor']}: {text}"
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1] + "…"


def _grouped(hits: pd.DataFrame, tz: str, by_day: bool, terms: tuple[str, ...]) -> list[Occurrence]:
    """Matching records in time order + timezone + a day each or by sitting -> the occurrences.

    An occurrence shows its best record: a note line with its own time, else a message or page,
    else a line dated by its day only (the person's log says best what they did, and when).
    """
    local = hits["ts"].map(lambda ts: ts.astimezone(zone(tz)))
    midnight = local.map(lambda t: day_bounds(t.date(), tz)[0])
    notes = hits["source"] == "notes"
    untimed = notes & (hits["ts"] == midnight)
    rank = untimed.astype(int) * 2 + (~notes).astype(int)
    # "Making dashi tonight" shows the day only when nothing of that day says it was done.
    ahead = later_today(hits)
    groups: list[list[int]] = []
    last_ts: datetime | None = None
    for i in hits.index[~untimed.to_numpy()]:
        ts = hits.at[i, "ts"].to_pydatetime()
        same_day = bool(groups) and local[groups[-1][0]].date() == local[i].date()
        joins = by_day or (last_ts is not None and ts - last_ts < SITTING_GAP)
        if same_day and joins:
            groups[-1].append(i)
        else:
            groups.append([i])
        last_ts = ts
    # A line dated by its day only has no sitting of its own: it is that day's first sitting, or
    # the day's one occurrence when nothing timed names it.
    for i in hits.index[untimed.to_numpy()]:
        day = local[i].date()
        into = next((g for g in groups if local[g[0]].date() == day), None)
        if into is None:
            groups.append([i])
        else:
            into.append(i)
    groups.sort(key=lambda g: min(local[i] for i in g))
    out = []
    for group in groups:
        best = min(group, key=lambda i: (bool(ahead[i]), rank[i], hits.at[i, "ts"]))
        out.append(_occurrence(hits.loc[best], local[best], rank[best] < 2, terms))
    return out


def _occurrence(row: pd.Series, local: datetime, timed: bool, terms: tuple[str, ...]) -> Occurrence:
    """A record + its local time + whether that time is its own -> one occurrence."""
    return Occurrence(local.date(), local, timed, str(row["source_ref"]), _quote(row, terms))


def occurrences(
    lake_dir: Path,
    subject: str,
    window: Window | None,
    tz: str,
    user_name: str = "",
    pages: bool = True,
) -> Counted:
    """Lake + subject (+ UTC window) + timezone (+ the person's name, whether pages may stand in
    for an activity's own records) -> its distinct occurrences."""
    events = window_events(lake_dir, window, tz)
    if events.empty or not subject.strip():
        return Counted([], "none", not events.empty)
    for basis, tried, matching in _steps(target(subject), user_name, tz):
        if basis == "pages" and not pages:
            continue
        hits = events.loc[matching(events)]
        if not hits.empty:
            return Counted(_grouped(hits, tz, basis == "own", tried.terms), basis, True)
    return Counted([], "none", True)


def citations(counted: Counted, home: Path, per_day: bool = False) -> list[Citation]:
    """What was counted + home (+ one a day) -> the occurrences' citations."""
    chosen = counted.first_of_each_day() if per_day else counted.occurrences
    return [Citation(shown(o.ref, home), o.day.isoformat()) for o in chosen]
