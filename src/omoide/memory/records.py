"""A day's sanitized events and sessions -> the fine-grained memory records recall can cite.

Three kinds, each keeping the refs of what it was made from (relative time words in notes
and messages followed by the dates they mean, `omoide.memory.said_dates`):
- `note`: one per note paragraph or bullet, cited at its `path#Lnn`;
- `chat`: one per message, its content carrying the previous and next message of the same
  conversation *and sitting* as context, marked as such (`omoide.memory.chat_window`: a reply
  like "yes, Friday" means nothing alone; a neighbour is cut to its first CONTEXT_WORDS
  words). A message longer than PASSAGE_WORDS words (an assistant's answer) is one record per
  passage, so a hit shows the part that matched. Its refs name only the message itself: the
  context is there to be found by, not cited (recall shows a long neighbour's first words
  alone, `omoide.memory.chat_evidence`). A sitting ends where the conversation falls silent
  for longer than the session gap (`session_gap_s`, the rule sessionize keeps a chat session
  by), so a window never joins last night's goodbye to this morning's hello;
- `session`: one per browsing/app session, a line of what was open and for how long.
  Chat sessions are left out: their messages are already records of their own.
`## Retain` lines are not records but facts; see `facts.retained_facts`. The promises, plans
and to-dos in the user's own messages and note items are rows of their own beside the records
they were said in (`commitment`, `omoide.memory.commitment_rows`).
"""

from __future__ import annotations

import math
from collections.abc import Collection
from datetime import date, datetime
from typing import Any

import numpy as np
import pandas as pd

from omoide.core import schemas
from omoide.core.ids import stable_id
from omoide.core.kinds import ASSISTANT_CHAT_KINDS, OWN_SPEAKER
from omoide.memory.chat_window import AFTER, BEFORE, cut
from omoide.memory.commitment_rows import commitment_records
from omoide.memory.said_dates import annotated

COLLECTOR = "collector"
CHAT_CONTEXT = 1  # messages on each side of a chat message kept as its context
# A neighbour is context, not evidence: its first words say what the message answers or what
# answered it. An assistant's reply runs to ~290 words (LongMemEval), which made a one-line
# question a 600-word memory; a chat message in LoCoMo is 20 words (90 % under 40).
CONTEXT_WORDS = 80
# A longer message is cut into passages, each a record citing it: a hit shows the part that
# matched, and each part is embedded whole (the model reads ~200 words of a text).
PASSAGE_WORDS = 120
# Settings.session_gap_s by default; the daily flow passes the configured gap.
SITTING_GAP_S = 300.0


def _frame(rows: list[dict[str, object]], day: date, now: datetime) -> pd.DataFrame:
    """Record dicts -> a FACTS-shaped frame for one day."""
    df = pd.DataFrame(rows) if rows else schemas.empty(schemas.FACTS)
    df["day"] = day.isoformat()
    df["recorded_at"] = pd.Timestamp(now)
    return schemas.conform(df, schemas.FACTS)


def note_records(events: pd.DataFrame, day: date, now: datetime, tz: str = "UTC") -> pd.DataFrame:
    """Events (+ timezone) -> one `note` record per note paragraph, cited at its line, its relative dates resolved."""
    notes = events[events["event_type"] == "note"]
    rows = [
        {
            "memory_id": stable_id("memory", "note", e.event_id),
            "ts": e.ts,
            "kind": "note",
            "entities": list(e.entities) if e.entities is not None else [],
            "content": _note_content(e.title, annotated(str(e.text or ""), e.ts, tz)),
            "confidence": 1.0,
            "importance": 0.5,
            "source": e.source_ref,
            "source_refs": [e.source_ref],
            "backend": COLLECTOR,
        }
        for e in notes.itertuples(index=False)
    ]
    return _frame(rows, day, now)


def _note_content(heading: object, text: object) -> str:
    """Heading path + paragraph -> text that keeps the heading as context."""
    body = str(text or "").strip()
    return f"{heading}: {body}" if isinstance(heading, str) and heading else body


def sittings(ts: pd.Series, gap_s: float) -> np.ndarray:
    """One conversation's message times, in order -> a sitting number per message (a new one after a silence longer than gap_s)."""
    silence = ts.diff().dt.total_seconds().to_numpy()
    return np.cumsum(silence > gap_s)


def chat_records(
    events: pd.DataFrame,
    day: date,
    now: datetime,
    gap_s: float = SITTING_GAP_S,
    tz: str = "UTC",
) -> pd.DataFrame:
    """Events (+ the sitting gap, timezone) -> one `chat` record per message (per passage) with its neighbours in the sitting as context, relative dates resolved."""
    chat = events[events["event_type"] == "chat"].sort_values(["title", "ts", "event_id"])
    rows: list[dict[str, object]] = []
    for _, conv in chat.groupby("title", dropna=False, sort=False):
        for _, sitting in conv.groupby(sittings(conv["ts"], gap_s), sort=False):
            rows.extend(_windows(list(sitting.itertuples(index=False)), tz))
    return _frame(rows, day, now)


def _windows(msgs: list[Any], tz: str) -> list[dict[str, object]]:
    """A sitting's messages in order + timezone -> record dicts per message (one per passage), its neighbours as context."""
    rows: list[dict[str, object]] = []
    said = [annotated(str(m.text), m.ts, tz) for m in msgs]
    for i, m in enumerate(msgs):
        lo, hi = max(0, i - CHAT_CONTEXT), min(len(msgs), i + CHAT_CONTEXT + 1)
        before = [
            f"{BEFORE}{_speaker(o)}: {_gist(said[j])}"
            for j, o in zip(range(lo, i), msgs[lo:i], strict=True)
        ]
        after = [
            f"{AFTER}{_speaker(o)}: {_gist(said[j])}"
            for j, o in zip(range(i + 1, hi), msgs[i + 1 : hi], strict=True)
        ]
        for part, text in enumerate(passages(said[i])):
            rows.append(
                {
                    "memory_id": stable_id("memory", "chat", m.event_id, *([part] if part else [])),
                    "ts": m.ts,
                    "kind": "chat",
                    "entities": _partners(getattr(m, "source", None), m.title),
                    "content": "\n".join([*before, f"{_speaker(m)}: {text}", *after]),
                    "confidence": 1.0,
                    "importance": 0.4,
                    "source": m.source_ref,
                    "source_refs": [m.source_ref],
                    "backend": COLLECTOR,
                    # the speaker, until memory_types keeps it only for someone else's words
                    "heard_from": m.actor if isinstance(m.actor, str) else None,
                }
            )
    return rows


def _speaker(m: Any) -> str:
    """A chat message -> its speaker as a record line names them ('?' when unknown)."""
    return str(m.actor or "?")


def passages(text: str, limit: int = PASSAGE_WORDS) -> list[str]:
    """A message's text -> itself, or when longer than limit words, its passages of at most limit words, marked '…' where cut.

    Cut at line breaks (an answer's paragraphs and list items), a line longer than the limit
    into even runs of words.
    """
    if len(text.split()) <= limit:
        return [text]
    pieces: list[list[str]] = []  # each a run of lines
    size = 0
    for line in (x for x in text.splitlines() if x.strip()):
        n = len(line.split())
        runs = [line] if n <= limit else _even_runs(line.split(), limit)
        for run in runs:
            m = len(run.split())
            if pieces and size + m <= limit:
                pieces[-1].append(run)
                size += m
            else:
                pieces.append([run])
                size = m
    last = len(pieces) - 1
    return [
        ("… " if k else "") + "\n".join(p) + (" …" if k < last else "")
        for k, p in enumerate(pieces)
    ]


def _even_runs(words: list[str], limit: int) -> list[str]:
    """A line's words + a limit -> the line as runs of about equal length, none over the limit."""
    parts = -(-len(words) // limit)
    step = -(-len(words) // parts)
    return [" ".join(words[k : k + step]) for k in range(0, len(words), step)]


def _gist(text: str) -> str:
    """A neighbour's text -> one line of its first CONTEXT_WORDS words, '…' where cut."""
    return cut(" ".join(text.split()), CONTEXT_WORDS)


def _partners(source: object, title: object) -> list[str]:
    """A chat message's source kind + conversation title -> the title as an entity, if it names one.

    In a messenger the title is the friend or group one talks with; an AI chat's title is
    its topic ("Python date parsing"), which is no one to know.
    """
    if source in ASSISTANT_CHAT_KINDS:
        return []
    return sorted({str(title)} - {"nan", "", "None"})


def session_line(s: object, tz: str) -> str:
    """Session row -> one readable line: local time span, where, how long, what was open."""
    start = pd.Timestamp(s.start).tz_convert(tz).strftime("%H:%M")  # type: ignore[attr-defined]
    end = pd.Timestamp(s.end).tz_convert(tz).strftime("%H:%M")  # type: ignore[attr-defined]
    where = s.domain if isinstance(s.domain, str) and s.domain else s.app  # type: ignore[attr-defined]
    titles = [t for t in (s.titles if s.titles is not None else []) if t]  # type: ignore[attr-defined]
    shown = "; ".join(dict.fromkeys(titles[:4]))
    more = f" (+{len(titles) - 4} more)" if len(titles) > 4 else ""
    mins = max(1, round(float(s.duration_s) / 60))  # type: ignore[attr-defined]
    return f"{start}–{end} {where} ({mins} min): {shown}{more}".rstrip(": ")


def activity_sessions(sessions: pd.DataFrame) -> pd.DataFrame:
    """Sessions -> the ones that are browsing/app activity (chat sessions are not)."""
    return sessions[sessions["app"] != "chat"].sort_values(["start", "session_id"])


def session_importance(duration_s: float) -> float:
    """Session seconds -> importance in [0.1, 0.6], growing with the log of the time spent."""
    return round(min(0.6, 0.1 + 0.1 * math.log1p(max(duration_s, 0.0) / 60.0)), 3)


def session_records(sessions: pd.DataFrame, day: date, tz: str, now: datetime) -> pd.DataFrame:
    """Sessions -> one `session` record per activity session."""
    act = activity_sessions(sessions)
    rows = [
        {
            "memory_id": stable_id("memory", "session", s.session_id),
            "ts": s.start,
            "kind": "session",
            "entities": [],
            "content": session_line(s, tz),
            "confidence": 1.0,
            "importance": session_importance(float(s.duration_s)),
            "source": s.source_refs[0] if len(s.source_refs) else s.session_id,
            "source_refs": list(s.source_refs),
            "backend": COLLECTOR,
        }
        for s in act.itertuples(index=False)
    ]
    return _frame(rows, day, now)


def day_records(
    events: pd.DataFrame,
    sessions: pd.DataFrame,
    day: date,
    tz: str,
    now: datetime,
    gap_s: float = SITTING_GAP_S,
    me: Collection[str] = (OWN_SPEAKER,),
) -> pd.DataFrame:
    """A day's events and sessions (+ the sitting gap, the user's chat names) -> all its fine-grained records (notes, chat, sessions) and the commitments in the user's own words."""
    parts = [
        note_records(events, day, now, tz),
        chat_records(events, day, now, gap_s, tz),
        session_records(sessions, day, tz, now),
        commitment_records(events, day, now, tz, me),
    ]
    parts = [p for p in parts if len(p)]
    if not parts:
        return _frame([], day, now)
    out = pd.concat(parts, ignore_index=True)
    out["ts"] = pd.to_datetime(out["ts"], utc=True)
    out["importance"] = out["importance"].astype(np.float64)
    return out
