"""Recall: query -> memories ranked by hybrid relevance × time decay × importance × confidence.

Both retrievers run inside LanceDB on the same structured prefilter (ts range, kinds,
entities): a BM25 full-text search on `content` and a vector search, each for a pool of
max(100, 5·k) candidates. Their scores are fused by weighted sum, not by rank:

    bm25       = bm25 / max(bm25 in pool)                      (0 when not in the text pool)
    entity     = ln(N/df)/ln(N) of the rarest tag the question names (query_entities)
    lexical    = 1 − (1 − bm25) · (1 − entity)                 (a tag counts like a matched word)
    semantic   = (cos − min cos) / (max cos − min cos) in pool (0 when not in the vector pool)
    relevance  = W_LEX · lexical + W_SEM · semantic             (W_LEX 0.7, W_SEM 0.3)
    decay      = 1 / (1 + λ · days between ts and now)          (λ default 0.05; 0 = no decay)
    recency    = (1 − W_TIME) + W_TIME · decay                  (W_TIME 0.15)
    importance = 0.5 + 0.5 · importance
    confidence = 0.5 + 0.5 · confidence
    strength   = 1 + STRENGTH_GAIN · ln(1 + recall_count)       (rehearsal, mild)
    window     = 1 inside the time window the question names (by its time, or by a date its
                 text states: "yesterday [2023-05-07]", `said_dates`), OUT_OF_WINDOW (0.5) outside
    authorship = BROWSED (0.8) for a browsing/app session, INFERRED (0.7) for an inferred
                 memory (a day's digest, a model's fact), 1 for what was lived, written or heard
    standing   = SUPERSEDED (0.5) for a W fact a later fact had replaced by `now`, else 1
    score      = relevance · recency · importance · confidence · strength · window
                 · authorship · standing

Two passes (pseudo-relevance feedback, Rocchio's centroid): the first ranks as above; the
second moves the question's vector to q + FEEDBACK_WEIGHT · mean(vectors of the first
pass's top FEEDBACK_DOCS), unit length (1.0 and 6), searches the vector pools again with it
and ranks anew (the lexical pool is the question's words in both), keeping the first pass's
first result first. A question joining two records ("what does Melanie do to destress":
pottery in May, running in July) finds the first by its words; the record worded like it but
not like the question ("running farther clears my head") is found through it. On LoCoMo dev
this took multi-hop recall@10 from 49.2 to 50.8 (overall 82.6 -> 83.0; with INFERRED down
from 0.8 to 0.7 the words in the top 10 stay 940, 969 at 0.8); keeping the first result
holds the Japanese set's R@1 at 86.1 (84.7 when the second pass may reorder it). With k = 1
the second pass is skipped: it could change nothing.

A replaced fact (`omoide.reflect.validity`) is still found, marked with `valid_to` and
`superseded_by`, but the fact that stands now comes first: it joins the candidates (when
the filters allow it) and is placed right before the first fact it replaced. "Now" is the
reference time, so a recall as of a past date (`--as-of`, which also keeps out what was
written later) answers with what was believed then.

Why lexical-dominant: on LoCoMo a stemmed, stop-worded BM25 over turns indexed with their
neighbours beats the small MiniLM dense retriever by far, and reciprocal-rank fusion lets
the weaker list pull the stronger one down; a weighted sum of normalised scores lets the
dense list break ties and rescue paraphrases without outvoting exact word matches.
Memories tagged with an entity the question names join the vector pool, so a retained fact
("The ryokan in Higashiyama is booked", @Kyoto) is a candidate for "where am I staying in
Kyoto" though its words differ. A session says what was open, not what the user did or
wrote: at close relevance their own notes, facts and messages come first. A digest
restates records that are memories of their own: at close relevance the record is the better
citation (its own words, a quarter of the length). On LoCoMo this cut the words in the top
10 from 1,014 to 939 with recall@10 unchanged (82.5 -> 82.6).
A question that gathers several events ("how many classes do I attend", "which came first",
"what am I currently working on", `omoide.memory.across_events`) has its results spread over
sittings (a day's records of one kind and conversation; a day's digest also counts as each
conversation it names): each further result of a sitting counts SAME_SITTING (0.7) less while
the list is walked (`omoide.memory.distinct`). On LongMemEval dev this took recall_all@5 from
77.5 to 87.5, on LoCoMo dev (asked for 10) R@10 from 84.8 to 85.0; other questions are ranked
as before (spreading them all cost LoCoMo 2 points: its evidence is often several messages of
one sitting). Its second pass moves the question's vector half as far (FEEDBACK_ACROSS 0.5):
the first pass's best are the sittings found first, and the full pull toward their centroid
found more of them rather than the sitting still missing. On LongMemEval dev this took
recall_all@5 from 87.5 to 90.0 and turn recall@10 from 86.5 to 87.8, on LoCoMo dev R@10 from
84.9 to 85.0 (multi-hop 53.0 -> 53.8); the Japanese set does not move.
Rehearsal gains are logarithmic and small so recalling a memory cannot lock it at the top.
With `forgetting=True` (`omoide recall --forgetting`) the strength part is instead the
Ebbinghaus strength of `omoide.memory.strength` (age since the memory or its last recall, slower
for important memories, reinforced by each rehearsal) floored at 0.8: faded memories rank
lower but are never hidden.

Time words ("last week", "in November", 先週, 3日前; `omoide.memory.time_words`) name a
window relative to `now` when the question gives no --since/--until (those win). The words
are taken out of the searched text, both pools are searched again inside the window (so a
memory there is never missed for the pool's size), and what lies outside counts half: it
ranks after what is inside at similar relevance, yet an exact match outside still beats a
vague one inside.

Why decay enters through `recency` and not as a bare factor: 1/(1+0.05·days) is 0.14 at
four months, so multiplying by it lets any vaguely related memory from this week outrank
an exact match from spring. On LoCoMo (conversations spanning months, asked at their end)
the bare factor cut recall@10 from 76.8 to 44.1. With the floor, age can take at most 30 %
off a score: recent memories win ties and near-ties, old ones are not lost.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

import lancedb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pydantic import BaseModel

from omoide.core.days import day_bounds, parse_when
from omoide.core.errors import OmoideError
from omoide.core.kinds import MEMORY_KINDS, MEMORY_TYPES
from omoide.core.settings import RecallSettings
from omoide.embed.base import Embedder
from omoide.memory.across_events import across_events
from omoide.memory.distinct import Spread, distinct
from omoide.memory.pools import Filters, lexical_while, passing, semantic_scores
from omoide.memory.query_entities import (
    SEP,
    entity_credits,
    entity_index,
    entity_key,
    query_grams,
)
from omoide.memory.row_store import RowStore
from omoide.memory.said_dates import stated_spans
from omoide.memory.strength import strength as memory_strength
from omoide.memory.strength import strength_factor
from omoide.memory.time_words import time_window, without_time_words
from omoide.store.memories import bump_recall, sql_list, sql_str, sql_ts
from omoide.store.searches import vectors_of
from omoide.store.table_version import pinned
from omoide.store.validity_table import Validity, current_of

log = logging.getLogger(__name__)

# Each value, and the LoCoMo and LongMemEval figures behind it: docs/memory-and-recall.md,
# "Recall's constants" (`omoide bench crossval --longmemeval` measures them again).
W_LEX = 0.7
W_SEM = 0.3
W_TIME = 0.15
OUT_OF_WINDOW = 0.5
STRENGTH_GAIN = 0.05
FORGETTING_FLOOR = 0.8
BROWSED = 0.8
INFERRED = 0.7
SUPERSEDED = 0.5
MIN_CREDIT = 0.3
POOL_MIN = 100
POOL_PER_K = 5
FEEDBACK_DOCS = 6
FEEDBACK_WEIGHT = 1.0
FEEDBACK_ACROSS = 0.5
SAME_SITTING = 0.7
COLUMNS = [
    "memory_id",
    "kind",
    "memory_type",
    "heard_from",
    "ts",
    "day",
    "entities",
    "content",
    "source",
    "source_refs",
    "confidence",
    "importance",
    "recall_count",
    "last_recalled_at",
]


class ScoreParts(BaseModel):
    """The parts of a recall score: score = relevance · recency · importance · confidence · strength · window · authorship."""

    relevance: float
    lexical: float
    semantic: float  # against the question's vector as the second pass moved it
    decay: float  # the raw 1/(1+λ·days); it enters the score through `recency`
    recency: float
    importance: float
    confidence: float
    strength: float
    window: float = 1.0  # OUT_OF_WINDOW when the question named a time and this lies outside
    entity: float = 0.0  # credit for a tag the question names; lexical includes it
    # BROWSED for a session, INFERRED for a digest or a model's fact, 1 otherwise
    authorship: float = 1.0
    standing: float = 1.0  # SUPERSEDED for a fact replaced by the reference time


class Recalled(BaseModel):
    """One recalled memory with its citation and score parts."""

    memory_id: str
    kind: str
    memory_type: str  # direct, heard or inferred (omoide.memory.memory_types)
    heard_from: str | None = None
    ts: str
    day: str
    entities: list[str]
    content: str
    source: str
    source_refs: list[str]
    confidence: float
    importance: float
    recall_count: int  # before this recall
    score: float
    parts: ScoreParts
    # For W facts (omoide.reflect.validity): when it became true, and, if a later fact had
    # replaced it by the reference time, when and by which memory; None otherwise.
    valid_from: str | None = None
    valid_to: str | None = None
    superseded_by: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Recalled -> JSON-ready dict."""
        return self.model_dump(mode="json")


def prefilter(
    since: datetime | None = None,
    until: datetime | None = None,
    kinds: Sequence[str] | None = None,
    entities: Sequence[str] | None = None,
    types: Sequence[str] | None = None,
) -> str | None:
    """Filters -> LanceDB SQL `where` (since inclusive, until exclusive, any entity, any type), or None."""
    parts = []
    if since is not None:
        parts.append(f"ts >= {sql_ts(since)}")
    if until is not None:
        parts.append(f"ts < {sql_ts(until)}")
    if kinds:
        bad = sorted(set(kinds) - set(MEMORY_KINDS))
        if bad:
            raise OmoideError(f"unknown kind(s) {bad}; kinds are {', '.join(MEMORY_KINDS)}")
        parts.append(f"kind IN ({sql_list(kinds)})")
    if types:
        check_types(types)
        parts.append(f"memory_type IN ({sql_list(types)})")
    keys = [k for k in dict.fromkeys(entity_key(e) for e in entities or ()) if k]
    if keys:
        # Lance SQL has no case-insensitive array_has; match the joined, lower-cased list.
        joined = f"concat('{SEP}', lower(array_to_string(entities, '{SEP}')), '{SEP}')"
        anyof = " OR ".join(f"strpos({joined}, {sql_str(SEP + k + SEP)}) > 0" for k in keys)
        parts.append(f"({anyof})")
    return " AND ".join(parts) or None


def _read(table: lancedb.table.Table, rowids: list[int], store: RowStore | None) -> pa.Table:
    """Row ids (+ a store of this process) -> those rows' COLUMNS and _rowid, from the store when it holds the table's version."""
    held = store.take(table, rowids) if store is not None else None
    if held is None:
        held = table.take_row_ids(rowids).select(COLUMNS).with_row_id().to_arrow()
    return held.select([*COLUMNS, "_rowid"])


def _candidates(
    table: lancedb.table.Table,
    lexical: dict[int, float],
    semantic: dict[int, float],
    store: RowStore | None,
    known: pa.Table | None = None,
) -> tuple[pa.Table, np.ndarray, np.ndarray]:
    """Scored row ids of both pools (+ a row store, rows already read) -> their rows (COLUMNS, _rowid), lexical and semantic scores."""
    rowids = list(dict.fromkeys([*lexical, *semantic]))
    if known is None:
        rows = _read(table, rowids, store)
    else:  # a later pass reads only the rows the earlier one had not
        have = set(known["_rowid"].to_pylist())
        new = [r for r in rowids if r not in have]
        wanted = pa.array(rowids, known.schema.field("_rowid").type)
        rows = known.filter(pc.is_in(known["_rowid"], value_set=wanted))
        if new:
            rows = pa.concat_tables([rows, _read(table, new, store).cast(rows.schema)])
    got = rows["_rowid"].to_pylist()
    lex = np.array([lexical.get(r, 0.0) for r in got], dtype=np.float64)
    sem = np.array([semantic.get(r, 0.0) for r in got], dtype=np.float64)
    return rows, lex, sem


def _replaced(v: Validity | None, now: datetime) -> bool:
    """A fact's validity (or None) + the reference time -> whether a later fact had replaced it by then."""
    return v is not None and not v.standing(now)


def _standing_ids(
    table: lancedb.table.Table,
    ids: Sequence[str],
    validity: Mapping[str, Validity],
    now: datetime,
    filters: Filters,
    store: RowStore | None,
) -> list[int]:
    """Candidate ids + validities (+ a row store) -> row ids of the facts standing in place of replaced candidates (the filters kept)."""
    wanted = {current_of(m, validity, now) for m in ids if _replaced(validity.get(m), now)}
    wanted -= set(ids)
    if not wanted:
        return []
    held = store.having(table, sorted(wanted)) if store is not None else None
    if held is not None:
        return held["_rowid"].filter(pa.array(passing(held, *filters))).to_pylist()
    found = f"memory_id IN ({sql_list(sorted(wanted))})"
    where = prefilter(*filters)
    query = table.search().where(f"{found} AND ({where})" if where else found)
    return query.select(["memory_id"]).with_row_id(True).to_arrow()["_rowid"].to_pylist()


def _current_first(
    order: list[int], ids: Sequence[str], validity: Mapping[str, Validity], now: datetime
) -> list[int]:
    """Ranked candidate indices + validities -> the same, each standing fact moved before the first fact it replaced."""
    if not validity:
        return order
    at = {m: i for i, m in enumerate(ids)}
    out: list[int] = []
    placed: set[int] = set()
    for i in order:
        if i in placed:
            continue
        if _replaced(validity.get(ids[i]), now):
            current = at.get(current_of(ids[i], validity, now))
            if current is not None and current not in placed:
                out.append(current)
                placed.add(current)
        out.append(i)
        placed.add(i)
    return out


def _validity_fields(v: Validity | None, now: datetime) -> dict[str, str | None]:
    """A fact's validity (or None) + the reference time -> its valid_from, and valid_to / superseded_by when replaced by then."""
    if v is None:
        return {}
    ended = _replaced(v, now)
    return {
        "valid_from": v.valid_from.astimezone(UTC).isoformat(),
        "valid_to": v.valid_to.astimezone(UTC).isoformat() if ended and v.valid_to else None,
        "superseded_by": v.superseded_by if ended else None,
    }


@dataclass(frozen=True)
class _How:
    """The knobs of one recall that shape its score."""

    decay_lambda: float
    w_lex: float
    w_sem: float
    w_time: float
    forgetting: bool
    window: tuple[datetime, datetime] | None
    tz: str  # the timezone of the dates stated in memories' text


@dataclass(frozen=True)
class _Ranked:
    """Candidates (COLUMNS, vector, _rowid), their score and its parts (ScoreParts' fields), and the order best first."""

    rows: pa.Table
    score: np.ndarray
    parts: dict[str, np.ndarray]
    order: list[int]


def _ranked(
    table: lancedb.table.Table,
    lexical: dict[int, float],
    semantic: dict[int, float],
    credits: Mapping[str, float],
    how: _How,
    now: datetime,
    filters: Filters,
    validity: Mapping[str, Validity],
    store: RowStore | None,
    first: int | None = None,
    known: pa.Table | None = None,
) -> _Ranked:
    """Scored row ids of both pools + entity credits + knobs + filters (+ a row store, a row id to keep first, rows already read) -> the candidates ranked (see the module docstring)."""
    rows, lex, sem = _candidates(table, lexical, semantic, store, known)
    standing_now = _standing_ids(
        table, rows["memory_id"].to_pylist(), validity, now, filters, store
    )
    if standing_now:  # the facts that replaced candidates join them, so they can come first
        semantic = {**dict.fromkeys(standing_now, 0.0), **semantic}
        rows, lex, sem = _candidates(table, lexical, semantic, store, rows)
    ids = rows["memory_id"].to_pylist()
    entity = np.array(
        [
            max((credits.get(entity_key(e), 0.0) for e in ents or ()), default=0.0)
            for ents in rows["entities"].to_pylist()
        ],
        dtype=np.float64,
    )
    lex = 1.0 - (1.0 - lex) * (1.0 - entity)  # the tag counts like one more matched word
    now_us = np.datetime64(now.astimezone(UTC).replace(tzinfo=None), "us")
    ts = rows["ts"].to_numpy()
    days = (now_us - ts) / np.timedelta64(1, "D")
    relevance = how.w_lex * lex + how.w_sem * sem
    decay = 1.0 / (1.0 + how.decay_lambda * np.maximum(days, 0.0))
    recency = (1.0 - how.w_time) + how.w_time * decay
    importance = 0.5 + 0.5 * rows["importance"].to_numpy()
    confidence = 0.5 + 0.5 * rows["confidence"].to_numpy()
    if how.forgetting:
        # Ebbinghaus strength (decays with age, slower when important, reset by rehearsal)
        # replaces the mild rehearsal bonus; floored so forgetting fades, never hides.
        strength = strength_factor(
            memory_strength(
                ts,
                rows["importance"].to_numpy(),
                rows["recall_count"].to_numpy(),
                rows["last_recalled_at"].to_numpy(),
                now,
            ),
            floor=FORGETTING_FLOOR,
        )
    else:
        strength = 1.0 + STRENGTH_GAIN * np.log1p(rows["recall_count"].to_numpy())
    in_window = np.ones(len(ids))
    if how.window is not None:
        lo, hi = (np.datetime64(w.astimezone(UTC).replace(tzinfo=None), "us") for w in how.window)
        inside = (ts >= lo) & (ts < hi)
        inside |= _states_a_date_within(rows["content"].to_pylist(), how.window, how.tz)
        in_window = np.where(inside, 1.0, OUT_OF_WINDOW)
    kinds_of = rows["kind"].to_numpy(zero_copy_only=False)
    types_of = rows["memory_type"].to_numpy(zero_copy_only=False)
    authorship = np.select(
        [kinds_of == "session", types_of == "inferred"], [BROWSED, INFERRED], 1.0
    )
    standing = np.where([_replaced(validity.get(m), now) for m in ids], SUPERSEDED, 1.0)
    score = (
        relevance * recency * importance * confidence * strength * in_window * authorship * standing
    )
    order = sorted(range(len(ids)), key=lambda i: (-score[i], ids[i]))
    order = _current_first(order, ids, validity, now)
    if first is not None:
        at = rows["_rowid"].to_pylist().index(first)
        order = [at, *(i for i in order if i != at)]
    parts = {
        "relevance": relevance,
        "lexical": lex,
        "semantic": sem,
        "decay": decay,
        "recency": recency,
        "importance": importance,
        "confidence": confidence,
        "strength": strength,
        "window": in_window,
        "entity": entity,
        "authorship": authorship,
        "standing": standing,
    }
    return _Ranked(rows, score, parts, order)


def _states_a_date_within(
    contents: Sequence[str], window: tuple[datetime, datetime], tz: str
) -> np.ndarray:
    """Memories' texts + a window + timezone -> whether each states a date (`said_dates`) that falls in the window."""
    lo, hi = window
    return np.array(
        [any(a < hi and b > lo for a, b in stated_spans(c or "", tz)) for c in contents],
        dtype=bool,
    )


def _feedback_vector(
    table: lancedb.table.Table, vector: np.ndarray, ranked: _Ranked, weight: float
) -> np.ndarray:
    """Table + query vector + a first ranking + a weight -> the vector moved toward the centroid of its top FEEDBACK_DOCS memories, unit length."""
    # Read apart: only these few of the ~200 candidates need their vector.
    top = ranked.rows["_rowid"].take(pa.array(ranked.order[:FEEDBACK_DOCS], pa.int64()))
    vectors = vectors_of(table, top.to_pylist())
    moved = np.asarray(vector, dtype=np.float64) + weight * vectors.mean(axis=0)
    norm = np.linalg.norm(moved)
    return (moved / norm).astype(np.float32) if norm > 0 else vector


def recall(
    table: lancedb.table.Table,
    embedder: Embedder,
    query: str,
    now: datetime,
    k: int = 10,
    since: datetime | None = None,
    until: datetime | None = None,
    kinds: Sequence[str] | None = None,
    entities: Sequence[str] | None = None,
    decay_lambda: float = 0.05,
    token_budget: int | None = None,
    rehearse: bool = True,
    w_lex: float = W_LEX,
    w_sem: float = W_SEM,
    w_time: float = W_TIME,
    forgetting: bool = False,
    window: tuple[datetime, datetime] | None = None,
    types: Sequence[str] | None = None,
    validity: Mapping[str, Validity] | None = None,
    tz: str = "UTC",
    store: RowStore | None = None,
) -> list[Recalled]:
    """Query + filters (+ a time window to favour, the facts' validities, the timezone of dates in the text, a row store) -> up to k memories, best first (see the module docstring)."""
    # The stores ask the table's version before serving rows: once per recall, not per read.
    with pinned(table):
        where = prefilter(since, until, kinds, entities, types)
        inside = None
        if window is not None:
            start = max(window[0], since) if since else window[0]
            end = min(window[1], until) if until else window[1]
            inside = prefilter(start, end, kinds, entities, types) if start < end else None
        n = max(POOL_MIN, POOL_PER_K * k)
        wheres = [where] if inside is None else [where, inside]
        index = entity_index(table)
        credits = entity_credits(index, query_grams(query))
        tagged = sorted(
            {r for key, c in credits.items() if c >= MIN_CREDIT for r in index.rows.get(key, ())}
        )
        filters = (since, until, kinds, entities, types)

        def embedded() -> tuple[np.ndarray, dict[int, float]]:
            """() -> the question's vector and its vector pools."""
            vector = embedder.embed([query or " "], query=True)[0]
            return vector, semantic_scores(table, vector, wheres, tagged, n, filters)

        lexical, (vector, semantic) = lexical_while(table, query, wheres, n, embedded)
        if not lexical and not semantic:
            return []
        how = _How(decay_lambda, w_lex, w_sem, w_time, forgetting, window, tz)
        validity = validity or {}
        ranked = _ranked(table, lexical, semantic, credits, how, now, filters, validity, store)
        gathers = across_events(query)
        if k > 1 and FEEDBACK_DOCS and len(ranked.order) > 1:
            # Second pass: the question's vector moved toward what the first pass ranked best
            # finds evidence worded like the answer rather than like the question.
            weight = FEEDBACK_ACROSS if gathers else FEEDBACK_WEIGHT
            moved = _feedback_vector(table, vector, ranked, weight)
            head = int(ranked.rows["_rowid"][ranked.order[0]].as_py())
            semantic = semantic_scores(table, moved, wheres, tagged, n, filters)
            semantic.setdefault(head, 0.0)
            ranked = _ranked(
                table,
                lexical,
                semantic,
                credits,
                how,
                now,
                filters,
                validity,
                store,
                head,
                ranked.rows,
            )
        rows, order, parts = ranked.rows, ranked.order, ranked.parts
        shown = distinct(
            order,
            rows["content"].to_pylist(),
            rows["source"].to_pylist(),
            [r or [] for r in rows["source_refs"].to_pylist()],
            rows["day"].to_pylist(),
            k,
            token_budget,
            _spread(rows, ranked.score) if gathers else None,
        )
        chosen = [s.index for s in shown]
        results = []
        for i, row, pick in zip(
            chosen,
            rows.select(COLUMNS).take(pa.array(chosen, pa.int64())).to_pylist(),
            shown,
            strict=True,
        ):
            row.update(
                ts=row["ts"].astimezone(UTC).isoformat(),
                entities=row["entities"] or [],
                content=pick.content,  # without the lines a result above shows already
                source_refs=pick.refs,
                **_validity_fields(validity.get(row["memory_id"]), now),
            )
            results.append(
                Recalled(
                    **row,
                    score=ranked.score[i],
                    parts=ScoreParts(**{name: float(v[i]) for name, v in parts.items()}),
                )
            )
    if rehearse and results:
        bump_recall(table, [r.memory_id for r in results], now)
    # Debug, not info: `omoide mcp` logs to the console through Rich, and a line per question
    # cost ~20 ms of a 40-60 ms recall at 100k memories (docs/benchmarks.md, issue 29 part 5).
    log.debug("recall: %d candidates, %d results", rows.num_rows, len(results))
    return results


def _spread(rows: pa.Table, score: np.ndarray) -> Spread:
    """Candidates + their scores -> the spread over sittings for a question across events: a message's sitting is its day's records of one kind and the same entities (a conversation); a day's digest restates each conversation of the day it names."""
    sittings = []
    for day, kind, ents in zip(
        rows["day"].to_pylist(),
        rows["kind"].to_pylist(),
        rows["entities"].to_pylist(),
        strict=True,
    ):
        own = (day, kind, tuple(sorted(ents or ())))
        restated = ((day, "chat", (e,)) for e in ents or ()) if kind == "digest" else ()
        sittings.append((own, *restated))
    return Spread(score, sittings, SAME_SITTING)


@dataclass(frozen=True)
class Asked:
    """A recall as a person or an agent words it: the query and its options as typed."""

    query: str
    since: str | None = None  # 30d, 12h, 2w, 6m, 1y (ago) or YYYY-MM-DD
    until: str | None = None
    kinds: Sequence[str] | None = None
    entities: Sequence[str] | None = None
    k: int | None = None  # default: [recall] k
    token_budget: int | None = None  # default: [recall] token_budget
    types: Sequence[str] | None = None  # direct, heard, inferred
    as_of: str | None = None  # YYYY-MM-DD: answer with what was known and believed that day


def check_types(types: Sequence[str]) -> None:
    """Memory types asked for -> nothing, or OmoideError naming the unknown ones."""
    bad = sorted(set(types) - set(MEMORY_TYPES))
    if bad:
        raise OmoideError(f"unknown memory type(s) {bad}; types are {', '.join(MEMORY_TYPES)}")


def recall_asked(
    table: lancedb.table.Table,
    embedder: Embedder,
    asked: Asked,
    knobs: RecallSettings,
    tz: str,
    now: datetime,
    rehearse: bool,
    forgetting: bool = False,
    validity: Mapping[str, Validity] | None = None,
    store: RowStore | None = None,
) -> list[Recalled]:
    """Table + embedder + a recall as asked + `[recall]` settings + timezone (+ the facts' validities, a row store) -> the ranked memories.

    `as_of` makes the end of that local day the reference time (for time words, decay and
    which facts stood) and keeps out every memory of a later time.
    """
    bad = sorted(set(asked.kinds or []) - set(MEMORY_KINDS))
    if bad:
        raise OmoideError(f"unknown kind(s) {bad}; kinds are {', '.join(MEMORY_KINDS)}")
    check_types(asked.types or [])
    cutoff = as_of_end(asked.as_of, tz) if asked.as_of else None
    now = cutoff or now
    until = parse_when(asked.until, tz, now) if asked.until else None
    if cutoff is not None:
        until = min(until, cutoff) if until else cutoff
    query, window = asked.query, None
    if not (asked.since or asked.until):
        named = time_window(asked.query, tz, now)
        if named is not None:
            query, window = without_time_words(asked.query, named), (named.start, named.end)
    return recall(
        table,
        embedder,
        query,
        now,
        window=window,
        k=asked.k or knobs.k,
        since=parse_when(asked.since, tz, now) if asked.since else None,
        until=until,
        kinds=asked.kinds or None,
        entities=asked.entities or None,
        types=asked.types or None,
        decay_lambda=knobs.decay_lambda,
        token_budget=asked.token_budget or knobs.token_budget,
        rehearse=rehearse,
        forgetting=forgetting,
        validity=validity,
        tz=tz,
        store=store,
    )


def as_of_end(as_of: str, tz: str) -> datetime:
    """A local day as typed (YYYY-MM-DD) + timezone -> the end of that day, or OmoideError."""
    try:
        day = date.fromisoformat(as_of)
    except ValueError:
        raise OmoideError(f"--as-of wants a day as YYYY-MM-DD, not {as_of!r}") from None
    return day_bounds(day, tz)[1]
