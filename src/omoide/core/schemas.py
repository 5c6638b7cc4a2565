"""One pyarrow schema per stage edge and per LanceDB table, and helpers to cast frames to them."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa

from omoide.core.kinds import backend_type

TS = pa.timestamp("us", tz="UTC")

EVENTS = pa.schema(
    [
        pa.field("event_id", pa.string(), nullable=False),
        pa.field("ts", TS, nullable=False),
        pa.field("duration_s", pa.float64(), nullable=False),
        pa.field("source", pa.string(), nullable=False),  # kind: chrome, firefox, ...
        pa.field("source_name", pa.string(), nullable=False),  # configured name
        pa.field("event_type", pa.string(), nullable=False),
        pa.field("app", pa.string()),
        pa.field("title", pa.string()),
        pa.field("url", pa.string()),
        pa.field("text", pa.string()),
        pa.field("actor", pa.string()),  # chat speaker
        pa.field("fact_kind", pa.string()),  # W/B/O/S for `## Retain` lines
        pa.field("confidence", pa.float64()),  # O(c=0.9)
        pa.field("entities", pa.list_(pa.string())),
        pa.field("transition", pa.string()),  # browser visit transition core type
        pa.field("source_ref", pa.string(), nullable=False),
        pa.field("recorded_at", TS, nullable=False),
    ]
)

SESSIONS = pa.schema(
    [
        pa.field("session_id", pa.string(), nullable=False),
        pa.field("start", TS, nullable=False),
        pa.field("end", TS, nullable=False),
        pa.field("duration_s", pa.float64(), nullable=False),
        pa.field("app", pa.string()),
        pa.field("domain", pa.string()),
        pa.field("titles", pa.list_(pa.string())),
        pa.field("urls", pa.list_(pa.string())),
        pa.field("n_events", pa.int64(), nullable=False),
        pa.field("source_refs", pa.list_(pa.string())),
        pa.field("event_ids", pa.list_(pa.string())),
        pa.field("recorded_at", TS, nullable=False),
    ]
)

# A day's activity blocks (omoide.memory.blocks.Block), written next to its facts.
BLOCKS = pa.schema(
    [
        pa.field("block_id", pa.string(), nullable=False),
        pa.field("memory_id", pa.string(), nullable=False),  # its row in lake/facts
        pa.field("day", pa.string(), nullable=False),  # local YYYY-MM-DD
        pa.field("start", TS, nullable=False),
        pa.field("end", TS, nullable=False),
        pa.field("active_s", pa.float64(), nullable=False),
        pa.field("kind", pa.string(), nullable=False),  # omoide.memory.blocks.BLOCK_KINDS
        pa.field("label", pa.string(), nullable=False),
        pa.field("topic", pa.string()),
        pa.field("apps", pa.list_(pa.string())),
        pa.field("sites", pa.list_(pa.string())),
        pa.field("people", pa.list_(pa.string())),
        pa.field("entities", pa.list_(pa.string())),
        pa.field("note", pa.string()),
        pa.field("refs", pa.list_(pa.string())),
        pa.field("session_ids", pa.list_(pa.string())),
        pa.field("recorded_at", TS, nullable=False),
    ]
)

# Summarize's output: one row per fact or fine-grained record, before it has a vector.
FACTS = pa.schema(
    [
        pa.field("memory_id", pa.string(), nullable=False),
        pa.field("day", pa.string(), nullable=False),  # local YYYY-MM-DD
        pa.field("ts", TS, nullable=False),  # when it happened
        pa.field("kind", pa.string(), nullable=False),  # omoide.core.kinds.MEMORY_KINDS
        pa.field("entities", pa.list_(pa.string())),
        pa.field("content", pa.string(), nullable=False),
        pa.field("confidence", pa.float64(), nullable=False),
        pa.field("importance", pa.float64(), nullable=False),
        pa.field(
            "source", pa.string(), nullable=False
        ),  # the citation: vault path#Lnn or record ref
        pa.field("source_refs", pa.list_(pa.string())),  # every record it was made from
        pa.field(
            "backend", pa.string(), nullable=False
        ),  # "ollama:<model>", "embedded:digest", "collector"
        pa.field("recorded_at", TS, nullable=False),
        # omoide.core.kinds.MEMORY_TYPES; who told it, for "heard"
        pa.field("memory_type", pa.string(), nullable=False),
        pa.field("heard_from", pa.string()),
    ]
)


def memories_schema(dim: int) -> pa.Schema:
    """Vector dimension -> the LanceDB `memories` schema (the dimension is part of the contract)."""
    return pa.schema(
        [
            *FACTS,
            pa.field("content_hash", pa.string(), nullable=False),
            pa.field("recall_count", pa.int64(), nullable=False),
            pa.field("last_recalled_at", TS),
            pa.field("embed_model", pa.string(), nullable=False),
            pa.field("vector", pa.list_(pa.float32(), dim), nullable=False),
        ]
    )


QUARANTINE = pa.schema(
    [
        pa.field("stage", pa.string(), nullable=False),
        pa.field("source_name", pa.string()),
        pa.field("ref", pa.string()),  # where the bad record lives: path#Lnn, table row id
        pa.field("reason", pa.string(), nullable=False),
        pa.field("excerpt", pa.string()),  # redacted, truncated
        pa.field("quarantined_at", TS, nullable=False),
    ]
)

# Big Five trait names, in the order every score, column and chart uses.
BIG_FIVE_TRAITS = ("openness", "conscientiousness", "extraversion", "agreeableness", "neuroticism")

# LanceDB `entities`: one row per entity, derived from the memories (reindex can rebuild it).
ENTITIES = pa.schema(
    [
        pa.field("slug", pa.string(), nullable=False),
        pa.field("name", pa.string(), nullable=False),
        pa.field("aliases", pa.list_(pa.string())),  # spellings as stored in memories
        pa.field("first_seen", TS, nullable=False),
        pa.field("last_seen", TS, nullable=False),
        pa.field("first_day", pa.string(), nullable=False),
        pa.field("last_day", pa.string(), nullable=False),
        pa.field("n_memories", pa.int64(), nullable=False),
        pa.field("memory_ids", pa.list_(pa.string())),
        pa.field("kinds", pa.list_(pa.string())),
        pa.field("summary", pa.string(), nullable=False),
        pa.field("related", pa.list_(pa.string())),  # co-mentioned slugs, most shared first
        pa.field("related_counts", pa.list_(pa.int64())),  # shared memories, same order
        pa.field("interaction_count", pa.int64(), nullable=False),
        pa.field("avg_importance", pa.float64(), nullable=False),
        pa.field("days_since_last", pa.float64(), nullable=False),
        pa.field("bond_strength", pa.float64(), nullable=False),
        pa.field("relationship_type", pa.string(), nullable=False),
        pa.field("relationship_confidence", pa.float64(), nullable=False),
        pa.field("computed_at", TS, nullable=False),
    ]
)

# LanceDB `fact_validity`: when each W fact was true (omoide.reflect.validity); derived from
# the memories, rebuilt whole by every reflection, and holding ids and times only, no text.
FACT_VALIDITY = pa.schema(
    [
        pa.field("memory_id", pa.string(), nullable=False),
        pa.field("entity", pa.string(), nullable=False),  # slug of the entity it is about
        pa.field("attribute", pa.string(), nullable=False),  # work, store, home, ...
        pa.field("valid_from", TS, nullable=False),
        pa.field("valid_to", TS),  # null while it stands
        pa.field("superseded_by", pa.string()),  # the memory that replaced it
        pa.field("method", pa.string(), nullable=False),  # rule, llm:<model>
    ]
)

OPINION_HISTORY_ENTRY = pa.struct(
    [
        pa.field("at", TS, nullable=False),
        pa.field("memory_id", pa.string(), nullable=False),
        pa.field("delta", pa.float64(), nullable=False),
        pa.field("confidence_after", pa.float64(), nullable=False),
        pa.field("reason", pa.string(), nullable=False),
    ]
)

# LanceDB `opinions`: one row per opinion, its whole history kept in the row.
OPINIONS = pa.schema(
    [
        pa.field("opinion_id", pa.string(), nullable=False),
        pa.field("statement", pa.string(), nullable=False),
        pa.field("entities", pa.list_(pa.string())),
        pa.field("confidence", pa.float64(), nullable=False),
        pa.field("stated_at", TS, nullable=False),
        pa.field("origin_id", pa.string(), nullable=False),
        pa.field("last_updated", TS, nullable=False),
        pa.field("supporting_ids", pa.list_(pa.string())),
        pa.field("contradicting_ids", pa.list_(pa.string())),
        pa.field("history", pa.list_(OPINION_HISTORY_ENTRY)),
        # Variable length: the dimension follows the memories' embedder; no index needs it.
        pa.field("vector", pa.list_(pa.float32())),
    ]
)

# LanceDB `profile_history`: every Big Five analysis, one row each, sources never averaged.
PROFILE_HISTORY = pa.schema(
    [
        pa.field("analysis_id", pa.string(), nullable=False),
        pa.field("source", pa.string(), nullable=False),  # llm | quiz | offline
        pa.field("method", pa.string(), nullable=False),  # ipip-50, ollama:<model>, offline-v1
        pa.field("analyzed_at", TS, nullable=False),
        *(pa.field(t, pa.float64(), nullable=False) for t in BIG_FIVE_TRAITS),
        pa.field("confidence", pa.float64(), nullable=False),
        pa.field("evidence", pa.list_(pa.string())),  # memory ids
        pa.field("trait_evidence", pa.string(), nullable=False),  # JSON {trait: [memory ids]}
        pa.field("provenance", pa.string(), nullable=False),  # JSON: answers, signals, counts
    ]
)

_LIST_DEFAULTS = {"entities", "titles", "urls", "source_refs", "event_ids"}


def empty(schema: pa.Schema) -> pd.DataFrame:
    """Schema -> empty DataFrame with its columns."""
    return schema.empty_table().to_pandas()


def conform(df: pd.DataFrame, schema: pa.Schema) -> pd.DataFrame:
    """Frame -> frame with exactly the schema's columns, in order (missing ones null/empty)."""
    out = df.copy()
    for name in schema.names:
        if name not in out.columns:
            out[name] = [[] for _ in range(len(out))] if name in _LIST_DEFAULTS else None
    return out[schema.names]


def to_table(df: pd.DataFrame, schema: pa.Schema) -> pa.Table:
    """Frame -> arrow table cast to the schema; raises if a column cannot be cast."""
    table = pa.Table.from_pandas(conform(df, schema), schema=schema, preserve_index=False)
    # Pandas metadata would pin reader-side dtypes (e.g. Arrow-backed lists that some pandas
    # versions cannot rebuild); the lake stays plain Arrow, readable by any engine.
    return table.replace_schema_metadata(None)


def typed_by_backend(facts: pd.DataFrame) -> pd.DataFrame:
    """Memory rows -> the same rows, a missing `memory_type` filled from the backend.

    Rows written before memory types existed, or made by code that does not type them: the
    user's records and retained lines are direct, the rest inferred (a day summarized again
    types its chat messages heard or direct, see omoide.memory.memory_types).
    """
    if "memory_type" in facts and not facts["memory_type"].isna().any():
        return facts
    out = facts.copy()
    known = out["memory_type"] if "memory_type" in out else pd.Series(None, index=out.index)
    out["memory_type"] = known.where(known.notna(), out["backend"].map(backend_type))
    return out


def typed_rows(rows: pa.Table) -> pa.Table:
    """Memory rows as Arrow -> the same rows, a missing `memory_type` filled from the backend."""
    column = rows["memory_type"]
    if not column.null_count:
        return rows
    backends = rows["backend"].to_pylist()
    typed = [t or backend_type(b) for t, b in zip(column.to_pylist(), backends, strict=True)]
    at = rows.schema.get_field_index("memory_type")
    return rows.set_column(at, rows.schema.field(at), pa.array(typed, pa.string()))
