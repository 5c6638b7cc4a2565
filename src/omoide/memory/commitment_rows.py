"""A day's events + who the person is -> one `commitment` memory row per promise, plan or to-do in their own words.

Read from the person's own chat messages (the speaker is one of their names, `user_name`;
a conversation with an AI assistant is left out: it is no one to promise anything to) and
their note items (not `## Retain` lines, which are facts). Each row:

- `ts` and `day`: when it was said (a note item without its own `HH:MM` has its day's
  midnight: the day alone is known), `source` and `source_refs` the message or line it was
  said in, so forgetting that record takes the row too (`omoide.forget`);
- `entities`: to whom (`omoide.memory.commitments`);
- `content`: one line a person reads and `read_commitment` parses back, the to-do list's own
  notation: a box, ticked when known kept, the action as written, and the day (or span) it
  is due as `omoide.memory.said_dates` writes dates, in ISO between brackets at the end:
  `[ ] help you move the boxes on Saturday [2026-11-21]`, `[x] book flights`. The date there
  also lets recall match a question's own dates ("what do I have to do on 21 November");
- `memory_type` "direct": the person's own words; `confidence` COMMITMENT_CONFIDENCE, since
  the words are theirs and only the reading of them as a promise is a rule's.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, datetime

import pandas as pd

from omoide.core import schemas
from omoide.core.ids import stable_id
from omoide.core.kinds import ASSISTANT_CHAT_KINDS, COMMITMENT_KIND, OWN_SPEAKER, is_bot
from omoide.memory.commitments import Commitment, commitments
from omoide.memory.plan_dates import Span
from omoide.memory.said_dates import date_label, stated_spans

COMMITMENT_CONFIDENCE = 0.9
COMMITMENT_IMPORTANCE = 0.5  # as a note line
_OPEN, _KEPT = "[ ] ", "[x] "
_DUE = re.compile(r"\s\[(?P<due>\d{4}(?:-\d{2}(?:-\d{2})?)?(?:/\d{4}-\d{2}-\d{2})?)\]$")


@dataclass(frozen=True)
class Stored:
    """A commitment as its row's content says it: the action, the due span (UTC) and its ISO label, and whether known kept."""

    action: str
    due: Span | None
    due_label: str | None
    kept: bool


def commitment_content(c: Commitment, tz: str) -> str:
    """A commitment + timezone -> its row's content: box, action, due date in brackets."""
    due = f" [{date_label(c.due[0], c.due[1], tz)}]" if c.due else ""
    return f"{_KEPT if c.kept else _OPEN}{c.action}{due}"


def read_commitment(content: str, tz: str) -> Stored:
    """A commitment row's content + timezone -> what it says (an unmarked line is an open action without a due)."""
    kept = content.startswith(_KEPT)
    body = content[len(_OPEN) :] if content.startswith((_OPEN, _KEPT)) else content
    m = _DUE.search(body)
    if m is None:
        return Stored(body.strip(), None, None, kept)
    spans = stated_spans(f"[{m['due']}]", tz)
    return Stored(body[: m.start()].strip(), spans[0] if spans else None, m["due"], kept)


def _names(events: pd.DataFrame, mine: set[str]) -> list[str]:
    """A day's events + the person's names (case-folded) -> the other names it knows: tagged entities, chat partners and speakers."""
    tagged = [n for ents in events["entities"] if ents is not None for n in ents]
    chat = events[events["event_type"] == "chat"]
    people = [
        *chat.loc[~chat["source"].isin(ASSISTANT_CHAT_KINDS), "title"].dropna(),
        *chat["actor"].dropna(),
    ]
    named = dict.fromkeys(str(n).strip() for n in [*tagged, *people])
    return [n for n in named if n and n.casefold() not in mine and not is_bot(n)]


def _partner(e: object, mine: set[str]) -> str | None:
    """A chat event -> the conversation it was said in, when that names someone other than the person."""
    title = getattr(e, "title", None)
    if not isinstance(title, str) or not title.strip() or title.casefold() in mine:
        return None
    return title.strip()


def commitment_records(
    events: pd.DataFrame,
    day: date,
    now: datetime,
    tz: str,
    me: Collection[str] = (OWN_SPEAKER,),
) -> pd.DataFrame:
    """A day's events + now + timezone + the person's chat names -> one `commitment` row per promise, plan or to-do in their own messages and notes."""
    mine = {m.casefold() for m in me if m}
    names = _names(events, mine) if len(events) else []
    rows: list[dict[str, object]] = []
    for e in events.itertuples(index=False):
        text = e.text if isinstance(e.text, str) else ""
        if e.event_type == "note":
            heading, partner = e.title if isinstance(e.title, str) else None, None
        elif (
            e.event_type == "chat"
            and isinstance(e.actor, str)
            and e.actor.casefold() in mine
            and e.source not in ASSISTANT_CHAT_KINDS
        ):
            heading, partner = None, _partner(e, mine)
        else:
            continue
        found = commitments(text, e.ts, tz, heading=heading, names=names, partner=partner)
        for i, c in enumerate(found):
            rows.append(
                {
                    "memory_id": stable_id("memory", COMMITMENT_KIND, e.event_id, i),
                    "ts": e.ts,
                    "kind": COMMITMENT_KIND,
                    "entities": list(c.to),
                    "content": commitment_content(c, tz),
                    "confidence": COMMITMENT_CONFIDENCE,
                    "importance": COMMITMENT_IMPORTANCE,
                    "source": e.source_ref,
                    "source_refs": [e.source_ref],
                    "backend": "collector",
                    "memory_type": "direct",
                }
            )
    frame = pd.DataFrame(rows) if rows else schemas.empty(schemas.FACTS)
    frame["day"] = day.isoformat()
    frame["recorded_at"] = pd.Timestamp(now)
    return schemas.conform(frame, schemas.FACTS)
