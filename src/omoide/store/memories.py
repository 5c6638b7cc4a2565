"""The LanceDB `memories` table: idempotent upserts by memory_id, day replacement, indices.

One table holds every memory row with its vector. Writes go through `merge_insert` on
memory_id; a row whose content hash (kind, content, embed model) and metadata are unchanged
is not written and not embedded again, so re-running a day changes nothing. A metadata-only
change (importance, entities, ...) keeps the stored vector; recall counters survive upserts.

Indices: a native full-text index on `content` (ICU word segmentation, so Japanese and
Chinese are split into words by ICU's dictionary where the simple tokenizer kept a whole
CJK run as one token; English stemming and stop words; no positions: recall sends match
queries, never phrases; named `FTS_INDEX`, so an index of an older tokenizer is replaced
on the next write or index catch-up) and, once the table holds
`ANN_MIN_ROWS` rows, an IVF_SQ vector index with scalar indices on `ts` and `kind` for
the prefilters. Below that, flat search stays: it is exact and
cheap (384 dims on 2 shared cores: ~10 ms at 10k rows, ~16 ms at 20k), while past it it
climbs steeply (~130 ms at 50k, ~210 ms at 100k). IVF_SQ answers in 3-6 ms at those sizes
with ~96-98% recall@10 and builds in seconds (`_vector_config`); IVF_PQ found only 28% of the true top
10 and took a minute to build at 100k, IVF_HNSW_SQ took three minutes.
The index uses L2 distance: vectors are unit length, so L2² = 2 − 2·cosine ranks exactly as
cosine, and a plain `table.search(vec)` (L2 by default) uses the same index. Its partitions
are trained anew after every `optimize()` (`train_vectors`): Lance's own upkeep folds new rows in
by joining small partitions, which leaves a search comparing nearly every code.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import lancedb
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from lancedb.index import FTS, Bitmap, BTree, IvfSq

from omoide.core import schemas
from omoide.core.errors import EmbeddingMismatchError, OmoideError
from omoide.core.ids import stable_id
from omoide.core.kinds import DAY_KINDS, OWN_BACKENDS
from omoide.embed.base import Embedder
from omoide.embed.text import TEXT_VERSION, embedding_text
from omoide.store.connect import connect_db

log = logging.getLogger(__name__)

TABLE = "memories"
META_MODEL = b"omoide.embed_model"
ANN_MIN_ROWS = 20_000
FTS_LANGUAGE = "English"
# On the Japanese set (../shared/eval/ja, BM25 alone) ICU gave R@1/5/10 88.9/96.5/97.9, the
# simple tokenizer 22.9/23.6/24.3 and character bigrams 85.4/95.8/97.2 (docs/benchmarks.md).
FTS_TOKENIZER = "icu"
FTS_INDEX = "content_fts_icu"  # a new tokenizer gets a new name: older indices are replaced
INDEX_VERSION = 3  # bumped with the index parameters below: cached bench tables are rebuilt
# The vector index is named after the rows its partitions were trained on.
VECTOR_INDEX = "vector_ivf_sq_n"
# FACTS columns whose change means a rewrite; recorded_at is when omoide first wrote the
# row, so a re-run with a later clock is not a change.
COMPARED = [n for n in schemas.FACTS.names if n != "recorded_at"]
_ID_CHUNK = 4096  # ids per `memory_id IN (...)` lookup, to keep SQL texts bounded


@dataclass(frozen=True)
class UpsertStats:
    """What one upsert (or day replacement) did to the memories table."""

    inserted: int
    updated: int
    unchanged: int
    embedded: int
    deleted: int = 0

    def as_dict(self) -> dict[str, int]:
        """Stats -> plain dict of counts."""
        return asdict(self)


def sql_str(value: str) -> str:
    """Text -> SQL string literal (single quotes doubled)."""
    return "'" + value.replace("'", "''") + "'"


def sql_list(values: Iterable[str]) -> str:
    """Texts -> comma-separated SQL string literals."""
    return ", ".join(sql_str(v) for v in values)


def sql_ts(when: datetime) -> str:
    """Timezone-aware datetime -> SQL timestamp literal in UTC."""
    if when.tzinfo is None:
        raise OmoideError(f"timestamp {when.isoformat()} has no timezone")
    return f"timestamp '{when.astimezone(UTC).isoformat()}'"


def content_hash(kind: str, content: str, embed_model: str) -> str:
    """Kind, content, embedding model -> hash deciding whether a row needs a new vector."""
    return stable_id("memory-content", TEXT_VERSION, kind, content, embed_model)


def stored_model(table: lancedb.table.Table) -> str | None:
    """Table -> embedding model named in its schema metadata, else in its first row."""
    meta = table.schema.metadata or {}
    if META_MODEL in meta:
        return meta[META_MODEL].decode()
    rows = table.search().select(["embed_model"]).limit(1).to_list()
    return rows[0]["embed_model"] if rows else None


def open_memories(
    db_dir: Path, embedder_model: str, dim: int, create: bool = True
) -> lancedb.table.Table:
    """LanceDB folder + embedding model and dimension -> the memories table (created if asked).

    Raises EmbeddingMismatchError when the table was built with another model or dimension.
    """
    db = connect_db(db_dir)
    try:
        table = db.open_table(TABLE)
    except ValueError:
        if not create:
            raise OmoideError(
                f"no memories table in {db_dir}: run `omoide run` or `omoide backfill` first"
            ) from None
        schema = schemas.memories_schema(dim).with_metadata({META_MODEL: embedder_model.encode()})
        log.info("memories: created table (dim %d)", dim)
        return db.create_table(TABLE, schema=schema)
    stored_dim = table.schema.field("vector").type.list_size
    stored = stored_model(table)
    if stored_dim != dim or stored not in (None, embedder_model):
        raise EmbeddingMismatchError(
            f"the memories in {db_dir} were embedded with {stored!r} ({stored_dim} dims) "
            f"but the configured model is {embedder_model!r} ({dim} dims); "
            "run `omoide reindex` to drop and re-embed them"
        )
    if "memory_type" not in table.schema.names:
        add_memory_types(table)
    return table


def add_memory_types(table: lancedb.table.Table) -> None:
    """A memories table from before memory types -> `memory_type` and `heard_from` added.

    Typed by backend (the user's records and retained lines direct, the rest inferred); chat
    messages of other people become "heard" when summarize writes their day again (its
    version changed with the types, so the next backfill does).
    """
    own = ", ".join(f"'{b}'" for b in OWN_BACKENDS)
    table.add_columns({"memory_type": "'direct'", "heard_from": "CAST(NULL AS STRING)"})
    table.update(where=f"backend NOT IN ({own})", values={"memory_type": "inferred"})
    # The update moved those rows to new fragments: index them again, or their words are
    # scored without the text index until the next run's upkeep.
    optimize(table)
    log.info("memories: memory_type and heard_from added (typed by backend)")


def drop_memories(db_dir: Path) -> None:
    """LanceDB folder -> memories table dropped (no-op when missing); for `omoide reindex`."""
    connect_db(db_dir).drop_table(TABLE, ignore_missing=True)


def count(table: lancedb.table.Table, where: str | None = None) -> int:
    """Table (+ SQL filter) -> number of rows."""
    return table.count_rows(where)


def memory_ids(table: lancedb.table.Table) -> list[str]:
    """Memories table -> every memory id (only that column is read)."""
    return table.search().select(["memory_id"]).limit(None).to_arrow()["memory_id"].to_pylist()


def memory_rows(
    table: lancedb.table.Table, kinds: Sequence[str] | None = None, with_vectors: bool = False
) -> pd.DataFrame:
    """Memories table (+ kinds) -> those rows; vectors only when asked (they are the bulk of the bytes)."""
    columns = [f.name for f in table.schema if with_vectors or f.name != "vector"]
    query = table.search()
    if kinds is not None:
        query = query.where(f"kind IN ({sql_list(kinds)})")
    return query.select(columns).limit(None).to_pandas()


def rows_with_ids(table: lancedb.table.Table, ids: Sequence[str]) -> pd.DataFrame:
    """Memories table + ids -> those rows without vectors, in the order asked (unknown ids left out)."""
    columns = [f.name for f in table.schema if f.name != "vector"]
    frame = lookup(table, list(ids), columns).to_pandas()
    order = {mid: i for i, mid in enumerate(dict.fromkeys(ids))}
    return frame.sort_values("memory_id", key=lambda s: s.map(order), ignore_index=True)


def day_rows(table: lancedb.table.Table, day: str) -> pd.DataFrame:
    """Table + local day -> that day's rows (all columns, no week or month row), ordered by ts and memory_id."""
    where = f"day = {sql_str(day)} AND kind IN ({sql_list(DAY_KINDS)})"
    frame = table.search().where(where).to_pandas()
    return frame.sort_values(["ts", "memory_id"], ignore_index=True)


def _facts(records: pa.Table | pd.DataFrame, now: datetime) -> pa.Table:
    """Records in the FACTS schema -> arrow table, last row per memory_id, recorded_at and an unset memory type filled (by backend)."""
    if isinstance(records, pd.DataFrame):
        if records.empty:
            return schemas.FACTS.empty_table()
        frame = schemas.conform(records, schemas.FACTS)
        frame["recorded_at"] = frame["recorded_at"].fillna(now)
        frame = schemas.typed_by_backend(frame)
        table = schemas.to_table(frame, schemas.FACTS)
    else:
        missing = [n for n in schemas.FACTS.names if n not in records.column_names]
        if missing:
            raise OmoideError(f"memory records lack column(s) {missing}")
        table = records.select(schemas.FACTS.names)
        table = schemas.typed_rows(table)
        recorded = pc.fill_null(table["recorded_at"].cast(schemas.TS), pa.scalar(now, schemas.TS))
        table = table.set_column(
            table.schema.get_field_index("recorded_at"), "recorded_at", recorded
        )
        table = table.cast(schemas.FACTS)
    last = {mid: i for i, mid in enumerate(table["memory_id"].to_pylist())}
    if len(last) < table.num_rows:
        table = table.take(sorted(last.values()))
    return table


def lookup(table: lancedb.table.Table, ids: Sequence[str], columns: list[str]) -> pa.Table:
    """Table + ids -> stored rows with those ids (chosen columns), in no particular order."""
    parts = [
        table.search()
        .where(f"memory_id IN ({sql_list(ids[i : i + _ID_CHUNK])})")
        .select(columns)
        .to_arrow()
        for i in range(0, len(ids), _ID_CHUNK)
    ]
    return pa.concat_tables(parts) if parts else pa.table({c: [] for c in columns})


def _embed(embedder: Embedder, kinds: list[str], contents: list[str], dim: int) -> np.ndarray:
    """Rows' kinds and contents -> (n, dim) vectors of their embedding texts, checked against the table's dimension."""
    texts = [embedding_text(k, c) for k, c in zip(kinds, contents, strict=True)]
    vectors = np.asarray(embedder.embed(texts), dtype=np.float32)
    if vectors.shape != (len(texts), dim):
        raise EmbeddingMismatchError(
            f"{embedder.model!r} returned vectors of shape {vectors.shape}, expected "
            f"({len(texts)}, {dim}); run `omoide reindex` after changing models"
        )
    return vectors


def _write(table: lancedb.table.Table, facts: pa.Table, embedder: Embedder) -> UpsertStats:
    """FACTS rows -> merged into the table, skipping unchanged ones; counts."""
    ids = facts["memory_id"].to_pylist()
    model = embedder.model
    kinds, contents = facts["kind"].to_pylist(), facts["content"].to_pylist()
    hashes = [content_hash(k, c, model) for k, c in zip(kinds, contents, strict=True)]
    keep = ["content_hash", "recall_count", "last_recalled_at", "recorded_at"]
    stored_rows = lookup(table, ids, [*COMPARED, *keep]).to_pylist() if table.count_rows() else []
    stored = {r["memory_id"]: r for r in stored_rows}
    fresh: list[int] = []  # rows needing a vector: new ids or new content
    reuse: list[int] = []  # metadata-only changes: the stored vector stays valid
    for i, row in enumerate(facts.select(COMPARED).to_pylist()):
        old = stored.get(ids[i])
        if old is None or old["content_hash"] != hashes[i]:
            fresh.append(i)
        elif any(old[c] != row[c] for c in COMPARED):
            reuse.append(i)
    inserted = sum(1 for i in fresh if ids[i] not in stored)
    stats = UpsertStats(
        inserted=inserted,
        updated=len(fresh) + len(reuse) - inserted,
        unchanged=len(ids) - len(fresh) - len(reuse),
        embedded=len(fresh),
    )
    if not fresh and not reuse:
        return stats
    dim = table.schema.field("vector").type.list_size
    vectors = np.empty((len(fresh) + len(reuse), dim), dtype=np.float32)
    if fresh:
        vectors[: len(fresh)] = _embed(
            embedder, [kinds[i] for i in fresh], [contents[i] for i in fresh], dim
        )
    if reuse:
        old = lookup(table, [ids[i] for i in reuse], ["memory_id", "vector"]).to_pylist()
        by_id = {r["memory_id"]: r["vector"] for r in old}
        vectors[len(fresh) :] = np.asarray([by_id[ids[i]] for i in reuse], dtype=np.float32)
    order = fresh + reuse
    olds = [stored.get(ids[i]) for i in order]
    out = facts.take(order)
    # A metadata-only update keeps the first recording time; new content is a new recording.
    recorded = out["recorded_at"].to_pylist()
    recorded[len(fresh) :] = [o["recorded_at"] for o in olds[len(fresh) :]]
    out = out.set_column(
        out.schema.get_field_index("recorded_at"), "recorded_at", pa.array(recorded, schemas.TS)
    )
    extra = {
        "content_hash": pa.array([hashes[i] for i in order], pa.string()),
        "recall_count": pa.array([o["recall_count"] if o else 0 for o in olds], pa.int64()),
        "last_recalled_at": pa.array(
            [o["last_recalled_at"] if o else None for o in olds], schemas.TS
        ),
        "embed_model": pa.array([model] * len(order), pa.string()),
        "vector": pa.FixedSizeListArray.from_arrays(pa.array(vectors.ravel()), dim),
    }
    for name, column in extra.items():
        out = out.append_column(name, column)
    out = out.cast(schemas.memories_schema(dim))
    merge = table.merge_insert("memory_id").when_matched_update_all()
    merge.when_not_matched_insert_all().execute(out)
    return stats


def fts_config() -> FTS:
    """-> the full-text index settings of the content column (and of the benches' BM25 baselines)."""
    return FTS(
        with_position=False,
        base_tokenizer=FTS_TOKENIZER,
        language=FTS_LANGUAGE,
        stem=True,
        remove_stop_words=True,
    )


def _text_index_current(table: lancedb.table.Table, indices: Sequence[Any]) -> bool:
    """Memories table + its indices -> True when its content index is today's (an older one is dropped)."""
    names = [idx.name for idx in indices if "content" in idx.columns]
    for old in (n for n in names if n != FTS_INDEX):
        table.drop_index(old)
    return FTS_INDEX in names


def _vector_config(rows: int) -> IvfSq:
    """Rows to index -> IVF_SQ settings: about √rows partitions of about √rows rows each.

    Searched with LanceDB's default 20 probes, that reads ~6k codes per search at 100k rows and
    ~20k at 1M (3-4 ms), where Lance's own default (partitions of ~8k rows) read every
    partition at 100k (8-16 ms). A lighter training sample (64 rows a partition, 25 rounds)
    keeps a build at 1M rows near a minute; found 97% of the exact top 50 at 100k
    (docs/benchmarks.md, issue 29 part 5). Lance's `optimize()` joins partitions this small, so
    `train_vectors` trains them again after each one.
    """
    return IvfSq(
        distance_type="l2",
        num_partitions=max(1, round(rows**0.5)),
        sample_rate=64,
        max_iterations=25,
    )


def train_vectors(table: lancedb.table.Table) -> bool:
    """Memories table -> its vector index trained afresh on all its rows once it is large enough; whether it was.

    Called after every `optimize()` (see `optimize`): Lance folds new rows into an IVF index by
    joining small partitions, and it joins ours even with no new row (316 become 4 at 100k
    rows), after which a search compares nearly every code. Training again costs ~2.3 s at 100k
    rows and ~35 s at 1M (docs/benchmarks.md, "The vector index after optimize").
    """
    rows = table.count_rows()
    if rows < ANN_MIN_ROWS:
        return False
    name = f"{VECTOR_INDEX}{rows}"
    # The new index is built beside the old one and the old one dropped after, so a reader
    # never meets the table without a vector index (a flat search of 1M rows takes seconds).
    table.create_index("vector", config=_vector_config(rows), name=name, replace=True)
    for old in (i.name for i in table.list_indices() if "vector" in i.columns and i.name != name):
        table.drop_index(old)
    log.info("memories: vector index (IVF_SQ) trained on %d rows", rows)
    return True


def _maintain_indices(table: lancedb.table.Table) -> None:
    """Table after a write -> FTS index present, new rows indexed and compacted, vector index trained once large."""
    indices = table.list_indices()
    current = _text_index_current(table, indices)
    # An older text index was just dropped: it no longer counts as built.
    indexed = {c for idx in indices for c in idx.columns if current or c != "content"}
    if not current:
        table.create_index("content", config=fts_config(), name=FTS_INDEX)
    if table.count_rows() >= ANN_MIN_ROWS and not {"ts", "kind"} <= indexed:
        # Without these the ts/kind prefilter scans both columns on every recall: at 100k
        # rows a filtered recall takes ~26 ms without them and ~15 ms with them.
        table.create_index("ts", config=BTree())
        table.create_index("kind", config=Bitmap())
        log.info("memories: built prefilter indices")
    if indexed:
        # Folds the new rows into the existing indices and compacts small write fragments.
        optimize(table)
    else:
        train_vectors(table)


def optimize(table: lancedb.table.Table, **options: Any) -> None:
    """Any LanceDB table (+ `Table.optimize` options) -> compacted, indices folded forward; the memories table's vector index trained again.

    Every omoide optimize goes through here: Lance's index upkeep joins the memories table's
    IVF partitions, so each one is followed by `train_vectors`.
    """
    table.optimize(**options)
    if table.name == TABLE:
        train_vectors(table)


def rebuild_text_index(table: lancedb.table.Table) -> None:
    """Memories table -> its full-text index built anew (an index folded forward keeps deleted rows' terms)."""
    if table.count_rows():
        _text_index_current(table, table.list_indices())
        table.create_index("content", config=fts_config(), name=FTS_INDEX, replace=True)


def upsert_memories(
    table: lancedb.table.Table, records: pa.Table | pd.DataFrame, embedder: Embedder, now: datetime
) -> UpsertStats:
    """Memory records (FACTS schema) -> merged into the table; counts of what changed."""
    stats = _write(table, _facts(records, now), embedder)
    if stats.inserted or stats.updated:
        _maintain_indices(table)
    log.info("memories: %s", stats)
    return stats


def replace_day(
    table: lancedb.table.Table,
    day: str,
    records: pa.Table | pd.DataFrame,
    embedder: Embedder,
    now: datetime,
    kinds: Sequence[str] | None = None,
    maintain: bool = True,
) -> UpsertStats:
    """A day's full set of records -> upserted, and that day's rows not in it deleted.

    `kinds` limits the deletion to rows of those kinds (default: every kind a day is made
    of, DAY_KINDS: a week or month row dated that day is the reflection's), so a caller
    regenerating only some kinds leaves the others alone. `maintain=False` leaves
    the indices and compaction to a later `catch_up_indices` (a backfill, once per chunk).
    """
    facts = _facts(records, now)
    ids = facts["memory_id"].to_pylist()
    other = set(facts["day"].to_pylist()) - {day}
    if other:
        raise OmoideError(f"replace_day({day}) got records of other day(s): {sorted(other)}")
    stats = _write(table, facts, embedder)
    kinds = DAY_KINDS if kinds is None else kinds
    where = f"day = {sql_str(day)}"
    where += f" AND kind IN ({sql_list(kinds)})" if kinds else " AND false"
    if ids:
        where += f" AND memory_id NOT IN ({sql_list(ids)})"
    # Counting first keeps a no-op replacement from creating a new table version.
    deleted = table.count_rows(where)
    if deleted:
        table.delete(where)
    stats = UpsertStats(stats.inserted, stats.updated, stats.unchanged, stats.embedded, deleted)
    if maintain and (stats.inserted or stats.updated or deleted):
        _maintain_indices(table)
    log.info("memories %s: %s", day, stats)
    return stats


def catch_up_indices(db_dir: Path) -> bool:
    """LanceDB folder -> the memories table's indices brought up to all its rows, and compacted, when behind; whether they were."""
    try:
        table = connect_db(db_dir).open_table(TABLE)
    except (ValueError, FileNotFoundError):  # nothing stored yet
        return False
    indices = table.list_indices()
    indexed = {c for idx in indices for c in idx.columns}
    behind = (
        FTS_INDEX not in {idx.name for idx in indices}
        or ("vector" not in indexed and table.count_rows() >= ANN_MIN_ROWS)
        or any(table.index_stats(idx.name).num_unindexed_rows for idx in indices)
    )
    if behind:
        _maintain_indices(table)
    return behind


def bump_recall(table: lancedb.table.Table, memory_ids: Sequence[str], now: datetime) -> int:
    """Recalled ids + time -> recall_count += 1 and last_recalled_at = now; rows updated."""
    if not memory_ids:
        return 0
    result = table.update(
        where=f"memory_id IN ({sql_list(memory_ids)})",
        values_sql={"recall_count": "recall_count + 1", "last_recalled_at": sql_ts(now)},
    )
    return result.rows_updated
