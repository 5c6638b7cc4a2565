"""Associative recall: a memory -> its neighbours, each labelled with why it is associated.

Three reasons, a neighbour may carry several:

- "same session/event": it shares a source ref with the memory (made from the same
  session, note line or message). Digests are left out of this reason on both sides: a
  digest is made from the whole day, so it shares a ref with everything in it.
- "±7 days": it happened within WINDOW_DAYS of the memory and names one of its entities.
- "similar": it is among the SIMILAR_N nearest memories by embedding cosine.

    score = cosine + W_SESSION·[same session/event] + W_NEARBY·[±7 days]

so a structural tie outranks mere similarity, and cosine orders within a reason. Ties break
by memory_id, so the order is deterministic.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import lancedb
import numpy as np
import pandas as pd
from pydantic import BaseModel

from omoide.core.errors import OmoideError
from omoide.memory.query_entities import entity_key
from omoide.store.memories import sql_list, sql_str, sql_ts

log = logging.getLogger(__name__)

SAME_SESSION = "same session/event"
NEARBY = "±7 days"
SIMILAR = "similar"
WINDOW_DAYS = 7
SIMILAR_N = 10
W_SESSION = 0.5
W_NEARBY = 0.25
_COLUMNS = ["memory_id", "kind", "ts", "day", "entities", "content", "source", "source_refs"]


class Associated(BaseModel):
    """One neighbour of a memory, with the reasons it is associated and its score."""

    memory_id: str
    kind: str
    ts: str
    day: str
    content: str
    source: str
    reasons: list[str]
    shared_entities: list[str]
    similarity: float
    score: float

    def to_json(self) -> dict[str, Any]:
        """Associated -> JSON-ready dict."""
        return self.model_dump(mode="json")


def _rows(table: lancedb.table.Table, where: str, limit: int | None = None) -> pd.DataFrame:
    """SQL filter -> matching memory rows with their vectors."""
    query = table.search().where(where).select([*_COLUMNS, "vector"])
    return (query.limit(limit) if limit else query).to_pandas()


def _anchor(table: lancedb.table.Table, memory_id: str) -> pd.Series:
    """Memory id -> its row; OmoideError when no memory has it."""
    found = _rows(table, f"memory_id = {sql_str(memory_id)}", limit=1)
    if found.empty:
        raise OmoideError(f"no memory with id {memory_id!r}")
    return found.iloc[0]


def _keys(entities: object) -> set[str]:
    """Entity list (or None) -> lower-case keys."""
    return {entity_key(e) for e in (entities if entities is not None else ())} - {""}


def around(
    table: lancedb.table.Table,
    memory_id: str,
    now: datetime,
    k: int = 10,
    window_days: int = WINDOW_DAYS,
    similar_n: int = SIMILAR_N,
) -> list[Associated]:
    """Memory id -> up to k neighbours (as of `now`), best first, each with its reasons."""
    anchor = _anchor(table, memory_id)
    visible = f"memory_id != {sql_str(memory_id)} AND ts <= {sql_ts(now)}"
    reasons: dict[str, list[str]] = {}
    frames: list[pd.DataFrame] = []

    refs = list(anchor["source_refs"] if anchor["source_refs"] is not None else ())
    if refs and anchor["kind"] != "digest":
        same = _rows(
            table,
            f"{visible} AND kind != 'digest' AND "
            f"array_has_any(source_refs, make_array({sql_list(refs)}))",
        )
        frames.append(same)
        for mid in same["memory_id"]:
            reasons.setdefault(mid, []).append(SAME_SESSION)

    mine = _keys(anchor["entities"])
    if mine:
        at = anchor["ts"].to_pydatetime().astimezone(UTC)
        span = timedelta(days=window_days)
        near = _rows(
            table,
            f"{visible} AND ts >= {sql_ts(at - span)} AND ts <= {sql_ts(at + span)} "
            "AND array_length(entities) > 0",
        )
        near = near[[bool(mine & _keys(e)) for e in near["entities"]]]
        frames.append(near)
        for mid in near["memory_id"]:
            reasons.setdefault(mid, []).append(NEARBY)

    vector = np.asarray(anchor["vector"], dtype=np.float32)
    similar = (
        table.search(vector, vector_column_name="vector")
        .where(visible, prefilter=True)
        .select([*_COLUMNS, "vector", "_distance"])
        .limit(similar_n)
        .to_pandas()
        .drop(columns="_distance")
    )
    frames.append(similar)
    for mid in similar["memory_id"]:
        reasons.setdefault(mid, []).append(SIMILAR)

    if not reasons:
        return []
    rows = pd.concat(frames, ignore_index=True).drop_duplicates("memory_id", ignore_index=True)
    cosine = np.stack(rows["vector"].to_numpy()).astype(np.float64) @ vector.astype(np.float64)
    structural = np.array(
        [
            W_SESSION * (SAME_SESSION in reasons[m]) + W_NEARBY * (NEARBY in reasons[m])
            for m in rows["memory_id"]
        ]
    )
    rows["similarity"] = cosine
    rows["score"] = cosine + structural
    pool = len(rows)
    rows = rows.sort_values(["score", "memory_id"], ascending=[False, True]).head(k)
    out = []
    for r in rows.itertuples(index=False):
        ents = list(r.entities) if r.entities is not None else []
        out.append(
            Associated(
                memory_id=r.memory_id,
                kind=r.kind,
                ts=r.ts.to_pydatetime().astimezone(UTC).isoformat(),
                day=r.day,
                content=r.content,
                source=r.source,
                reasons=reasons[r.memory_id],
                shared_entities=sorted(e for e in ents if entity_key(e) in mine),
                similarity=float(r.similarity),
                score=float(r.score),
            )
        )
    log.info("around: %d neighbour(s) of %d candidate(s)", len(out), pool)
    return out
