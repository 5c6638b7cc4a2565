"""LongMemEval_S retrieval benchmark: each question's haystack as a home of its own, recall against BM25 over turns.

Per question: its haystack sessions are written as one chat JSONL (the LoCoMo bench's format:
speaker "user" or "assistant", the session id as the conversation, each session at its
haystack date with its turns TURN_SPACING_S apart) and ingested through the same library
stages as `bench locomo` (`omoide.bench.locomo.ingest`), as the daily pipeline would have
built it the day after the last turn. The question is then asked through `recall` with its
`question_date` as `now` (decay relative to it), k = 10, no rehearsal. The question's time
words are not turned into a window (as `omoide bench locomo`, `recall` is called directly):
measured, they cost this set (docs/benchmarks.md, "A list cites all it shows").

A hit covers the turns of the chat lines its `source_refs` cite (a chat memory its own turn,
a digest the turns it quotes) and the sessions of those turns. Session recall_any@k: at
least one answer session among the sessions of the top k; recall_all@k: all of them. Turn
recall@k: the share of the question's `has_answer` turns covered by the top k, averaged over
the questions that have such a turn (`turn_questions`). Words: the words of the top k's
contents, as recall returns them (a line shown by a result above is not repeated).

Baseline, measured in the same run: BM25 over single turns, each turn's text one document,
ranked for the question; the same metrics over its top k turns, its words those turns'
words; and at the same words (`bm25_turns_same_words`): BM25's turns in order while their
words stay within what omoide returned at 10 for that question. BM25 is LanceDB's native
full-text search over a small per-question `turns` table kept in the home: LanceDB is already
a dependency and omoide's own lexical pool is the same engine, so no package is added
(rank-bm25 or bm25s would be one) and the index uses the tokenizer settings of omoide's text
index (ICU words, English stemming, stop words): the baseline differs from omoide in what is
indexed and how it is ranked, not in how words are split.

Built homes are kept under a cache folder (`--cache-dir`), one per question, and reopened
while their key (BUILD_FORMAT, a hash of the building code, the chat lines, the build time,
the embedding model, its text version, the index version, the home's path, which source_refs
hold) matches; a changed key rebuilds that home. One run at a time per cache folder: a second run finding a home half
built by the first takes it for stale and deletes it under the first's feet.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import re
import shutil
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import lancedb
import numpy as np
import pyarrow as pa
from lancedb.query import MatchQuery

from omoide.bench.locomo import Conversation, chat_lines, covered, ingest
from omoide.bench.mcp import default_cache_dir
from omoide.embed.base import Embedder
from omoide.embed.text import TEXT_VERSION
from omoide.memory.recall import recall
from omoide.store.connect import connect_db
from omoide.store.memories import INDEX_VERSION, fts_config, open_memories

BUILD_FORMAT = 1  # bump when a home is built differently; cached homes are then rebuilt
# The code that decides a home's rows: this module and every omoide module it imports (the
# pipeline's stages, the store, the embedder) are hashed into the key, so a change to how a
# day becomes memories rebuilds the homes while a change to recall alone does not.
BUILDER = "omoide.bench.pipeline"
K = 10
SESSION_KS = (1, 5, 10)
TURN_KS = (5, 10)
BM25_POOL = 200  # turns BM25 ranks per question: enough to fill omoide's words at 10
_KEY = "bench-key.json"
_DATE = "%Y/%m/%d (%a) %H:%M"
_SEP = "#"  # turn key: session id, SEP, turn index in its session


@dataclass(frozen=True)
class Question:
    """One LongMemEval question: its haystack as chat lines (a turn key per line) and its gold."""

    conv: Conversation  # dia_ids are turn keys "session_id#turn_index"
    kind: str
    text: str
    now: datetime
    sessions: frozenset[str]  # answer_session_ids
    turns: frozenset[str]  # keys of the has_answer turns


def parse_date(text: str) -> datetime:
    """LongMemEval "2023/05/20 (Sat) 02:21" -> aware UTC datetime."""
    return datetime.strptime(text.strip(), _DATE).replace(tzinfo=UTC)


def session_of(turn: str) -> str:
    """Turn key "session_id#3" -> "session_id"."""
    return turn.rpartition(_SEP)[0]


def question(item: dict[str, Any]) -> Question:
    """A LongMemEval record -> its haystack as chat lines with turn keys, and its gold sessions and turns."""
    lines: list[dict[str, Any]] = []
    keys: list[str] = []
    gold: set[str] = set()
    for sid, when, session in zip(
        item["haystack_session_ids"], item["haystack_dates"], item["haystack_sessions"], strict=True
    ):
        said = [(str(t["role"]), str(t.get("content", "")).strip()) for t in session]
        lines += chat_lines(parse_date(when), said, str(sid))
        for i, turn in enumerate(session):
            keys.append(f"{sid}{_SEP}{i}")
            if turn.get("has_answer"):
                gold.add(keys[-1])
    return Question(
        Conversation(str(item["question_id"]), lines, keys, [item]),
        str(item["question_type"]),
        str(item["question"]),
        parse_date(item["question_date"]),
        frozenset(map(str, item["answer_session_ids"])),
        frozenset(gold),
    )


def built_at(q: Question) -> datetime:
    """Question -> when its home is built: the day after its last turn (as `bench locomo`)."""
    return max(datetime.fromisoformat(x["ts"]) for x in q.conv.lines) + timedelta(days=1)


def code_hash(root: str = BUILDER) -> str:
    """A module name -> sha256 over its source and that of every omoide module it imports, transitively."""
    sources: dict[str, bytes] = {}
    todo = [root]
    while todo:
        name = todo.pop()
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):  # `from omoide.x import a_function`
            continue
        if name in sources or spec is None or not (spec.origin or "").endswith(".py"):
            continue
        sources[name] = Path(str(spec.origin)).read_bytes()
        for node in ast.walk(ast.parse(sources[name])):
            if isinstance(node, ast.Import):
                todo += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                todo += [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        todo = [n for n in todo if n.split(".")[0] == "omoide" and n not in sources]
    digest = hashlib.sha256()
    for name in sorted(sources):
        digest.update(name.encode() + b"\0" + sources[name])
    return digest.hexdigest()


def home_key(home: Path, q: Question, embedder: Embedder, code: str) -> dict[str, Any]:
    """Home folder + question + embedder + the builder's code hash -> everything that changes its built home."""
    lines = json.dumps(q.conv.lines, sort_keys=True).encode("utf-8")
    return {
        "format": BUILD_FORMAT,
        "code": code,
        "home": str(home),  # source_refs hold the chat file's path: a moved home is rebuilt
        "lines": hashlib.sha256(lines).hexdigest(),
        "built_at": built_at(q).isoformat(),
        "model": embedder.model,
        "text": TEXT_VERSION,
        "index": INDEX_VERSION,
    }


def turns_table(q: Question, db_dir: Path) -> lancedb.table.Table:
    """Question + a fresh LanceDB folder -> a table of its turns (one row each) with a BM25 index on the text."""
    rows = pa.table(
        {
            "turn": pa.array(q.conv.dia_ids, pa.string()),
            "text": pa.array([x["text"] for x in q.conv.lines], pa.string()),
        }
    )
    table = connect_db(db_dir).create_table("turns", rows)
    table.create_index("text", config=fts_config())
    return table


def cached_home(
    cache: Path, q: Question, embedder: Embedder, code: str
) -> tuple[Path, Any, lancedb.table.Table, float | None]:
    """Cache folder + question + embedder + code hash -> its home, memories and turns tables, build seconds (None: reused)."""
    home = cache / re.sub(r"[^\w.-]", "_", q.conv.sample_id)
    key = home_key(home, q, embedder, code)
    if (home / _KEY).exists() and json.loads((home / _KEY).read_text(encoding="utf-8")) == key:
        memories = open_memories(home / "lancedb", embedder.model, embedder.dim, create=False)
        return home, memories, connect_db(home / "bm25").open_table("turns"), None
    shutil.rmtree(home, ignore_errors=True)  # stale or half-built: a build never resumes
    home.mkdir(parents=True)
    began = time.perf_counter()
    memories = ingest(q.conv, home, embedder, built_at(q))
    turns = turns_table(q, home / "bm25")
    took = time.perf_counter() - began
    (home / _KEY).write_text(json.dumps(key), encoding="utf-8")
    return home, memories, turns, took


def bm25_turns(table: lancedb.table.Table, text: str, n: int) -> list[str]:
    """Turns table + question -> keys of its n best turns by BM25, best first."""
    query = table.search(MatchQuery(text, "text"), query_type="fts")
    found = query.select(["turn", "_score"]).limit(n)
    return found.to_arrow()["turn"].to_pylist()


def scored(
    found: Sequence[set[str]], words: Sequence[int], q: Question, ks: Sequence[int]
) -> dict[str, dict[int, float | None]]:
    """Ranked hits (turn keys each) + their words + the gold -> any, all, turn recall and words at each k."""
    out: dict[str, dict[int, float | None]] = {"any": {}, "all": {}, "turn": {}, "words": {}}
    for k in ks:
        seen = set().union(*found[:k])
        sessions = {session_of(t) for t in seen}
        out["any"][k] = float(bool(q.sessions & sessions))
        out["all"][k] = float(q.sessions <= sessions)
        out["turn"][k] = len(q.turns & seen) / len(q.turns) if q.turns else None
        out["words"][k] = float(sum(words[:k]))
    return out


def within_words(ranked: Sequence[str], words: dict[str, int], budget: float) -> list[str]:
    """Turn keys, best first + their words + a word budget -> the leading turns whose words fit (at least one)."""
    used, out = 0, []
    for turn in ranked:
        used += words[turn]
        if out and used > budget:
            break
        out.append(turn)
    return out


def baseline(
    q: Question, turns: lancedb.table.Table, budget: float
) -> tuple[dict[str, dict[int, float | None]], dict[str, dict[int, float | None]]]:
    """Question + its turns table + omoide's words at 10 -> BM25's scores at each k, and at those words."""
    words = {t: len(x["text"].split()) for t, x in zip(q.conv.dia_ids, q.conv.lines, strict=True)}
    ranked = bm25_turns(turns, q.text, BM25_POOL)
    at_k = scored([{t} for t in ranked], [words[t] for t in ranked], q, SESSION_KS)
    fit = within_words(ranked, words, budget)
    at_words = scored([{t} for t in fit], [words[t] for t in fit], q, [len(fit)])
    at_words["turns"] = {len(fit): float(len(fit))}
    return at_k, at_words


def summary(
    per: Sequence[dict[str, dict[int, float | None]]], ks: Sequence[int] = SESSION_KS
) -> dict[str, Any]:
    """Per-question scores -> recall percentages and mean words per k, with the question counts."""

    def pct(name: str, k: int) -> float | None:
        vals = [s[name][k] for s in per if s[name].get(k) is not None]
        return round(100 * float(np.mean(vals)), 1) if vals else None

    tks = [k for k in ks if k in TURN_KS] or list(ks)
    return {
        "session_recall_any": {str(k): pct("any", k) for k in ks},
        "session_recall_all": {str(k): pct("all", k) for k in ks},
        "turn_recall": {str(k): pct("turn", k) for k in tks},
        "words": {str(k): round(float(np.mean([s["words"][k] for s in per])), 1) for k in tks},
        "questions": len(per),
        "turn_questions": sum(1 for s in per if s["turn"][ks[0]] is not None),
    }


def by_type(
    per: Sequence[dict[str, dict[int, float | None]]], kinds: Sequence[str], ks: Sequence[int]
) -> dict[str, Any]:
    """Per-question scores + their question types -> the summary of each type."""
    return {
        kind: summary([s for s, t in zip(per, kinds, strict=True) if t == kind], ks)
        for kind in sorted(set(kinds))
    }


def run_longmemeval(
    data: Path,
    embedder: Embedder | None = None,
    cache_dir: Path | None = None,
    limit: int | None = None,
    decay_lambda: float = 0.05,
    weights: Mapping[str, float] | None = None,
) -> dict[str, Any]:
    """LongMemEval JSON file (+ recall's w_lex/w_sem/w_time) -> omoide's and BM25's session and turn recall (percent), words, per type."""
    from omoide.embed.minilm import MiniLMEmbedder

    began = time.perf_counter()
    emb = embedder or MiniLMEmbedder()
    cache = (cache_dir or default_cache_dir() / "longmemeval").expanduser().resolve()
    items = json.loads(data.read_text(encoding="utf-8"))[:limit]
    code = code_hash()
    ours, theirs, same, kinds = [], [], [], []
    built: list[float] = []
    asked = 0.0
    for item in items:
        q = question(item)
        home, memories, turns, took = cached_home(cache, q, emb, code)
        if took is not None:
            built.append(took)
        chat_path = str((home / "chat.jsonl").resolve())
        started = time.perf_counter()
        got = recall(
            memories,
            emb,
            q.text,
            q.now,
            k=K,
            decay_lambda=decay_lambda,
            rehearse=False,
            **(weights or {}),
        )
        asked += time.perf_counter() - started
        found = [covered(r.source_refs, chat_path, q.conv.dia_ids) for r in got]
        ours.append(scored(found, [len(r.content.split()) for r in got], q, SESSION_KS))
        bm25, fit = baseline(q, turns, float(ours[-1]["words"][K] or 0))
        theirs.append(bm25)
        same.append(fit)
        kinds.append(q.kind)
    return {
        **summary(ours),
        "by_type": by_type(ours, kinds, SESSION_KS),
        "bm25_turns": {**summary(theirs), "by_type": by_type(theirs, kinds, SESSION_KS)},
        "bm25_turns_same_words": _at_budget(same),
        "embed_model": emb.model,
        "decay_lambda": decay_lambda,
        "cache_dir": str(cache),
        "built": len(built),
        "reused": len(items) - len(built),
        "build_seconds": round(sum(built), 1),
        "recall_ms": round(1000 * asked / max(1, len(items)), 1),
        "seconds": round(time.perf_counter() - began, 1),
    }


def _at_budget(per: Sequence[dict[str, dict[int, float | None]]]) -> dict[str, Any]:
    """Per-question scores of BM25 cut at omoide's words (one cut-off each) -> recall percentages and means."""

    def mean(name: str, scale: float = 1.0) -> float | None:
        vals = [v for s in per for v in s[name].values() if v is not None]
        return round(scale * float(np.mean(vals)), 1) if vals else None

    return {
        "session_recall_any": mean("any", 100),
        "session_recall_all": mean("all", 100),
        "turn_recall": mean("turn", 100),
        "words": mean("words"),
        "turns": mean("turns"),
        "questions": len(per),
    }
