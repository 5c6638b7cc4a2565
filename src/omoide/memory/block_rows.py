"""A day's blocks -> their lake rows (BLOCKS) and their memory rows (kind `block`), and back."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

import pandas as pd

from omoide.core import schemas
from omoide.core.kinds import BLOCK_KIND
from omoide.memory.blocks import Block, block_memory_id
from omoide.memory.day_story import block_text

BACKEND = "rule:blocks"  # a block is read off the records by a rule: an inferred memory
CONFIDENCE = 0.8
_LISTS = ("apps", "sites", "people", "entities", "refs", "session_ids")


def blocks_frame(blocks: Sequence[Block], day: date, now: datetime) -> pd.DataFrame:
    """Blocks of a day + now -> their rows in the BLOCKS schema."""
    rows = [
        {
            "block_id": b.block_id,
            "memory_id": block_memory_id(b),
            "day": day.isoformat(),
            "start": b.start,
            "end": b.end,
            "active_s": float(b.active_s),
            "kind": b.kind,
            "label": b.label,
            "topic": b.topic,
            **{k: list(getattr(b, k)) for k in _LISTS},
            "note": b.note,
            "recorded_at": pd.Timestamp(now),
        }
        for b in blocks
    ]
    if not rows:
        return schemas.empty(schemas.BLOCKS)
    return schemas.conform(pd.DataFrame(rows), schemas.BLOCKS)


def blocks_of(frame: pd.DataFrame) -> list[Block]:
    """BLOCKS rows -> the blocks, in time order."""
    out = []
    for r in frame.sort_values(["start", "block_id"]).itertuples(index=False):
        out.append(
            Block(
                block_id=r.block_id,
                start=pd.Timestamp(r.start),
                end=pd.Timestamp(r.end),
                active_s=float(r.active_s),
                kind=r.kind,
                label=r.label,
                topic=r.topic if isinstance(r.topic, str) else None,
                **{k: tuple(getattr(r, k) if getattr(r, k) is not None else ()) for k in _LISTS},
                note=r.note if isinstance(r.note, str) else None,
            )
        )
    return out


def block_records(blocks: Sequence[Block], day: date, tz: str, now: datetime) -> pd.DataFrame:
    """Blocks of a day (+ timezone, now) -> one `block` memory row each, its content the block's line.

    Its `source` is filled in by omoide.memory.day_rows (the vault line it is written on);
    until then it cites the first record it rests on.
    """
    rows = [
        {
            "memory_id": block_memory_id(b),
            "ts": b.start,
            "kind": BLOCK_KIND,
            # A topic read off rare title words ("Labs", "Week") is no entity of the person's:
            # as a memory's entity it would get a page of its own. People and named things stay.
            "entities": [e for e in b.entities if e != b.topic or e in b.people],
            "content": block_text(b, tz),
            "confidence": CONFIDENCE,
            # a longer stretch is more of the day, as a session's importance grows with its length
            "importance": round(min(0.6, 0.3 + b.active_s / 3600 * 0.1), 3),
            "source": b.refs[0] if b.refs else b.block_id,
            "source_refs": list(b.refs),
            "backend": BACKEND,
        }
        for b in blocks
    ]
    df = pd.DataFrame(rows) if rows else schemas.empty(schemas.FACTS)
    df["day"] = day.isoformat()
    df["recorded_at"] = pd.Timestamp(now)
    return schemas.conform(df, schemas.FACTS)
