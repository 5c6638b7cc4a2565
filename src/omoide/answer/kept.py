"""Open commitments + the lake -> those a later record of the person's own says were done ("help you move the boxes on Saturday" kept by "Helped Peter move the boxes"), with that record.

A promise is kept by a note line or a message of the person's, written after it was made and
before a few days past its due day (KEEP_DAYS after it was made when it has no due day), that
holds the verb of its first clause (its deed) and at least half of that clause's other words (English stems; a Japanese action's content
words, by any of their forms) and says the thing was done, not planned (`omoide.answer.senses`).
An action of fewer than two words ("be there") is never judged: nothing names it well enough.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path

from omoide.answer.lake_records import own_lines
from omoide.answer.matching import KANA, Target, holds, target
from omoide.answer.senses import said_done
from omoide.core.days import local_day, zone
from omoide.memory.time_words import time_window, without_time_words
from omoide.text import japanese

KEEP_DAYS = 14  # without a due day, how long after it was made a record may keep a promise
GRACE_DAYS = 3  # a record this long past the due day still keeps it


@dataclass(frozen=True)
class Kept:
    """A record that kept a promise: its ref, its local day and its words."""

    ref: str
    day: date
    text: str


# A promise's deed is its first clause: "book the table, I know an izakaya" is booking the table.
_CLAUSE = re.compile(r"[,;、。]|\s+(?:and|but|so|because)\s+", re.IGNORECASE)
# What a time phrase leaves behind ("send Mina the benchmark by [Friday]"), and a Japanese
# promise's own asking words (…と約束した).
_LEFT_OVER = re.compile(
    r"\s+(?:by|on|at|in|before|until|till|for|this|next)\s*$|(?:と|を)?約束(?:した|する|します)?$",
    re.IGNORECASE,
)


def _deed(action: str, tz: str, said: datetime) -> Target:
    """A promise's action + timezone + when it was made -> what doing it is, without its time words."""
    window = time_window(action, tz, said)
    words = without_time_words(action, window) if window else action
    words = _LEFT_OVER.sub("", words)
    deed = next((c for c in _CLAUSE.split(words) if target(c).terms), "")
    return target(_LEFT_OVER.sub("", deed.strip()))


def _keeps(text: str, deed: Target, day: date) -> bool:
    """A record's words + a promise's deed + its day -> does it say the deed was done?"""
    verbs = [t for t in deed.terms if japanese.is_verb(t)] if KANA.search(deed.words) else []
    verb = verbs[0] if verbs else deed.terms[0]
    rest = [t for t in deed.terms if t != verb]
    if not holds(text, (verb,)):
        return False
    held = [t for t in rest if holds(text, (t,))]
    if len(held) * 2 < len(rest):
        return False
    return said_done(text, Target((verb, *held), None, False, False, deed.words), day)


def kept_by_records(
    items: Sequence[tuple[str, str, datetime, tuple[datetime, datetime] | None]],
    lake_dir: Path,
    tz: str,
    me: Sequence[str],
    now: datetime,
) -> dict[tuple[str, str], Kept]:
    """Open promises (source, action, when made, due span) + lake + timezone + the person's names + now -> the record keeping each, by (source, action)."""
    wanted = []
    for source, action, said, due in items:
        terms = _deed(action, tz, said)
        if len(terms.terms) < 2 or terms.partner:
            continue
        end = (due[1] + timedelta(days=GRACE_DAYS)) if due else said + timedelta(days=KEEP_DAYS)
        wanted.append(((source, action), terms, said, min(end, now)))
    if not wanted:
        return {}
    first = min(local_day(s, tz) for _, _, s, _ in wanted)
    last = max(local_day(e, tz) for _, _, _, e in wanted)
    days = [first + timedelta(days=k) for k in range((last - first).days + 1)]
    found: dict[tuple[str, str], Kept] = {}
    for line in own_lines(lake_dir, days, me, newest_first=False):
        at = line.ts.astimezone(zone(tz))
        for promise, terms, said, end in wanted:
            if promise in found or not said < at <= end or line.ref == promise[0]:
                continue
            if _keeps(line.text, terms, line.day):
                found[promise] = Kept(line.ref, line.day, line.text)
    return found
