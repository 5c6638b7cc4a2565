"""Facts: the user's own `## Retain` lines (taken as-is, highest trust) and ids for derived ones."""

from __future__ import annotations

import pandas as pd

from omoide.ids import stable_id
from omoide.summary import Fact

# What the user wrote down on purpose outranks anything inferred from logs.
RETAIN_IMPORTANCE = 0.9


def fact_id(day: str, kind: str, content: str) -> str:
    """Day, kind, content -> the memory id of a derived fact (same statement, same id)."""
    return stable_id("memory", "fact", day, kind, " ".join(content.lower().split()))


def retained_facts(events: pd.DataFrame) -> list[Fact]:
    """Events -> one Fact per `## Retain` line, exactly as written (O keeps its c=...)."""
    kept = events[events["event_type"] == "retain"].sort_values(["ts", "source_ref"])
    out = []
    for e in kept.itertuples(index=False):
        conf = e.confidence
        out.append(
            Fact(
                kind=str(e.fact_kind),
                content=str(e.text),
                entities=tuple(e.entities) if e.entities is not None else (),
                confidence=float(conf) if pd.notna(conf) else 1.0,
                importance=RETAIN_IMPORTANCE,
                refs=(e.source_ref,),
                ts=pd.Timestamp(e.ts).isoformat(),
                origin="retain",
                memory_id=stable_id("memory", "retain", e.event_id),
            )
        )
    return out
