"""A day's records + its summary + where the vault wrote them -> the day's memory rows (FACTS schema)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import date, datetime
from pathlib import Path

import pandas as pd

from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.core.ids import stable_id
from omoide.core.kinds import BLOCK_KIND, OWN_SPEAKER
from omoide.core.refs import to_ref
from omoide.memory.day_summary import DaySummary
from omoide.memory.entity_links import linked_entities
from omoide.memory.memory_types import with_memory_types
from omoide.memory.records import activity_sessions, session_line

DIGEST_IMPORTANCE = 0.6


def digest_id(day: str) -> str:
    """Day -> the memory id of its digest."""
    return stable_id("memory", "digest", day)


def session_lines(sessions: pd.DataFrame, tz: str) -> list[tuple[str, str]]:
    """Sessions -> (memory_id, line) for the vault's `## Sessions`, in time order."""
    return [
        (stable_id("memory", "session", s.session_id), session_line(s, tz))
        for s in activity_sessions(sessions).itertuples(index=False)
    ]


def vault_ref(path: Path, line: int, home: Path) -> str:
    """Vault file + line -> citation `vault/memory/DAY.md#Lnn` (a ref: omoide.core.refs)."""
    return to_ref(f"{path}#L{line}", home)


def day_memories(
    records: pd.DataFrame,
    summary: DaySummary,
    vault_path: Path,
    vault_lines: Mapping[str, int],
    home: Path,
    tz: str,
    now: datetime,
    me: Collection[str] = (OWN_SPEAKER,),
) -> pd.DataFrame:
    """Fine-grained records + summary + the daily file and each memory's line in it (+ the user's names) -> every memory row of the day.

    Sessions, blocks and derived facts cite the vault line they were written on; a note, chat
    message or the user's own `## Retain` line cites the record itself, the words the user
    actually wrote or read. Notes and chat messages take the day's entities they name or a
    retained fact restates (`omoide.memory.entity_links`). Every row gets its memory type
    (`omoide.memory.memory_types`): `me` are the names the user's own chat messages carry.
    """
    day = summary.day
    start, _ = day_bounds(date.fromisoformat(day), tz)
    recs = linked_entities(records, summary.facts).copy()
    cite = {mid: vault_ref(vault_path, line, home) for mid, line in vault_lines.items()}
    is_session = recs["kind"] == "session"
    recs.loc[is_session, "source"] = recs.loc[is_session, "memory_id"].map(cite)
    # a block cites its line on the day page, or the digest's while the page does not list it
    is_block = recs["kind"] == BLOCK_KIND
    recs.loc[is_block, "source"] = (
        recs.loc[is_block, "memory_id"].map(cite).fillna(cite[digest_id(day)])
    )
    rows: list[dict[str, object]] = []
    for f in summary.facts:
        rows.append(
            {
                "memory_id": f.memory_id,
                "ts": pd.Timestamp(f.ts),
                "kind": f.kind,
                "entities": list(f.entities),
                "content": f.content,
                "confidence": f.confidence,
                "importance": f.importance,
                "source": f.refs[0] if f.origin == "retain" else cite[f.memory_id],
                "source_refs": list(f.refs),
                "backend": "user" if f.origin == "retain" else summary.produced_by,
            }
        )
    did = digest_id(day)
    rows.append(
        {
            "memory_id": did,
            "ts": pd.Timestamp(start),
            "kind": "digest",
            "entities": [],
            "content": digest_content(summary),
            "confidence": 1.0 if summary.backend == "embedded" else 0.8,
            "importance": DIGEST_IMPORTANCE,
            "source": cite[did],
            "source_refs": list(summary.refs),
            "backend": summary.produced_by,
        }
    )
    derived = pd.DataFrame(rows)
    derived["day"] = day
    derived["recorded_at"] = pd.Timestamp(now)
    out = pd.concat([recs, schemas.conform(derived, schemas.FACTS)], ignore_index=True)
    out = with_memory_types(out, me)
    out["ts"] = pd.to_datetime(out["ts"], utc=True)
    # Citations inside OMOIDE_HOME are shown relative to it: shorter, and a moved home still resolves.
    prefix = home.resolve().as_posix().rstrip("/") + "/"
    out["source"] = out["source"].astype(str).str.removeprefix(prefix)
    return out.drop_duplicates("memory_id", keep="first").reset_index(drop=True)


def digest_content(summary: DaySummary) -> str:
    """Summary -> the digest memory's text: narrative, then highlights."""
    lines: Sequence[str] = [summary.summary, *(f"- {h.text}" for h in summary.highlights)]
    return "\n".join(lines)
