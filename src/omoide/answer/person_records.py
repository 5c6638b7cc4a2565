"""A person's name -> what the lake holds of them: the chat messages with them, the note lines naming them, the W facts about them and when each held.

Chat messages with someone are those they wrote and those of a conversation titled with
their name (a direct message's title is the other person). Note lines naming them hold one
of their spellings (omoide.answer.lake_records.names_it) or tag them (`@Mina`). W facts are
the lake's `facts` rows of kind W tagged with them; when each held is the reflection's
(the `fact_validity` table, omoide.reflect.validity), or, before any reflection stored one,
the same rule over the facts' words alone (no vectors: only the attribute and head tests).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from omoide.answer.lake_records import NOTE_KINDS, names_it, records_of, timed
from omoide.core.kinds import CHAT_SOURCE_KINDS
from omoide.reflect.entities import entity_slug
from omoide.store.lake import read_facts, stage_days

if TYPE_CHECKING:
    # Types only: LanceDB is opened only when a reflection stored validities.
    from omoide.store.validity_table import Validity


@dataclass(frozen=True)
class Record:
    """One chat message or note line: its time (UTC), whether that time is its own, its source kind and event type, conversation, speaker, words, ref."""

    ts: datetime
    timed: bool
    source: str
    kind: str  # chat, note, or retain (a `## Retain` line)
    title: str
    actor: str
    text: str
    ref: str

    @property
    def is_chat(self) -> bool:
        """-> whether it is a chat message (else a note line)."""
        return self.source in CHAT_SOURCE_KINDS


@dataclass(frozen=True)
class Fact:
    """A W fact about the person: id, time (UTC), words, ref, the fact that replaced it (None while it stands), until when, and who decided ("rule", "llm:<model>")."""

    memory_id: str
    ts: datetime
    text: str
    ref: str
    replaced_by: str | None = None
    until: datetime | None = None
    method: str = ""


def _text(value: object) -> str:
    """A column value -> text ('' for a missing one)."""
    return value if isinstance(value, str) else ""


def lake_records(lake_dir: Path, days: list[date], tz: str) -> list[Record]:
    """Lake + days + timezone -> every chat message and note line of those days, oldest first."""
    out: list[Record] = []
    for day, rows in records_of(lake_dir, days, (*CHAT_SOURCE_KINDS, *NOTE_KINDS), False):
        for r in rows.itertuples(index=False):
            ts = pd.Timestamp(r.ts)
            out.append(
                Record(
                    ts.to_pydatetime(),
                    timed(ts, day, tz, str(r.source)),
                    str(r.source),
                    str(r.event_type),
                    _text(r.title),
                    _text(r.actor),
                    _text(r.text),
                    str(r.source_ref),
                )
            )
    return out


def _tags(record_text: str) -> list[str]:
    """A note line -> the names it @-tags."""
    return [w.lstrip("@").rstrip(".,:;!?") for w in record_text.split() if w.startswith("@")]


def known_names(records: Sequence[Record]) -> list[str]:
    """Records -> the names they know people and things by: chat speakers, direct-message titles, @-tags."""
    out: list[str] = []
    for r in records:
        if r.is_chat:
            out += [r.actor] if r.actor else []
        else:
            out += _tags(r.text)
    return list(dict.fromkeys(n for n in out if n))


def with_them(records: Sequence[Record], names: Collection[str]) -> list[Record]:
    """Records + a person's spellings -> the chat messages with them and the note lines naming them, oldest first."""
    folded = {n.casefold() for n in names}
    out = []
    for r in records:
        if r.is_chat:
            if r.actor.casefold() in folded or names_it(r.title, names):
                out.append(r)
        elif names_it(r.text, names):
            out.append(r)
    return out


def _w_rows(lake_dir: Path) -> list[Any]:
    """Lake -> every W fact row, day by day."""
    rows: list[Any] = []
    for day in stage_days(lake_dir, "facts"):
        facts = read_facts(lake_dir, day)
        rows += list(facts[facts["kind"] == "W"].itertuples(index=False))
    return rows


def _tagged(row: Any) -> list[str]:
    """A W fact row -> the entity names it is tagged with."""
    return [str(e) for e in (row.entities if row.entities is not None else ())]


def w_fact_names(lake_dir: Path) -> list[str]:
    """Lake -> the names its W facts are tagged with, each once."""
    return list(dict.fromkeys(e for r in _w_rows(lake_dir) for e in _tagged(r) if e))


def w_facts(lake_dir: Path, names: Collection[str], validity: Mapping[str, Validity]) -> list[Fact]:
    """Lake + a person's spellings + stored validities (by memory id) -> the W facts about them, oldest first, with what replaced each."""
    slugs = {entity_slug(n) for n in names}
    rows = [r for r in _w_rows(lake_dir) if {entity_slug(e) for e in _tagged(r)} & slugs]
    rows.sort(key=lambda r: (pd.Timestamp(r.ts), str(r.memory_id)))
    found = validity if any(str(r.memory_id) in validity for r in rows) else _by_words(rows)
    out = []
    for r in rows:
        v = found.get(str(r.memory_id))
        by, until, method = (
            (None, None, "") if v is None else (v.superseded_by, v.valid_to, v.method)
        )
        ts = pd.Timestamp(r.ts).to_pydatetime()
        out.append(Fact(str(r.memory_id), ts, str(r.content), str(r.source), by, until, method))
    return out


def _by_words(rows: Sequence[Any]) -> Mapping[str, Validity]:
    """W fact rows -> their validities by the rule on words alone (a zero vector is near nothing)."""
    if not rows:
        return {}
    from omoide.reflect.validity import validities

    frame = pd.DataFrame(
        {
            "memory_id": [str(r.memory_id) for r in rows],
            "ts": [r.ts for r in rows],
            "entities": [list(r.entities) for r in rows],
            "content": [str(r.content) for r in rows],
            "vector": [[0.0] for _ in rows],
        }
    )
    return validities(frame)


def stored_validity(lancedb_dir: Path) -> Mapping[str, Validity]:
    """LanceDB folder -> the validities the last reflection stored ({} before any, or without LanceDB)."""
    if not lancedb_dir.exists():
        return {}
    from omoide.store.validity_table import load_validity

    return load_validity(lancedb_dir)
