"""Paragraph retrieval benchmark (the format of ../shared/eval/ja/): a corpus indexed as notes, then recall.

The corpus goes through omoide's own path: each article's paragraphs are written as one
daily note file (one day per article, paragraphs separated by blank lines, no title: the
set's baselines index `text` alone), and the notes collector, sanitize, the memory rows and
LanceDB (the configured embedder and the content index) make the store. Every question is
then asked through `recall` (no rehearsal, no time decay: the days are arbitrary). A result
covers the paragraph its note line cites. R@k: the share of questions whose evidence is in
the top k. Words: Japanese has no spaces, so each kana or kanji character counts as a word,
and every other run of letters or digits as one.
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from omoide.bench.pipeline import build_table
from omoide.core.settings import SourceConfig
from omoide.embed.base import Embedder
from omoide.memory.recall import recall

KS = (1, 5, 10)
FIRST_DAY = date(2020, 1, 1)
_WORD = re.compile(
    r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]|[^\W\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+"
)
_LINE = re.compile(r"(\d{4}-\d{2}-\d{2})\.md#L(\d+)$")


def words(text: str) -> int:
    """Text -> its words (a kana or kanji character is one; any other letter or digit run is one)."""
    return len(_WORD.findall(text))


def write_notes(corpus: list[dict[str, Any]], folder: Path) -> dict[tuple[str, int], str]:
    """Corpus paragraphs -> one note file per article (a day each); (day, line) -> paragraph id."""
    articles: dict[str, list[dict[str, Any]]] = {}
    for item in corpus:
        articles.setdefault(str(item.get("title") or item["id"].split("#")[0]), []).append(item)
    where: dict[tuple[str, int], str] = {}
    folder.mkdir(parents=True, exist_ok=True)
    for n, paragraphs in enumerate(articles.values()):
        day = (FIRST_DAY + timedelta(days=n)).isoformat()
        lines: list[str] = []
        for item in paragraphs:
            where[(day, len(lines) + 1)] = item["id"]
            # One paragraph, one line: a line break inside would start a new block.
            lines += [" ".join(str(item["text"]).split()), ""]
        (folder / f"{day}.md").write_text("\n".join(lines), encoding="utf-8")
    return where


def run_retrieval(data: Path, embedder: Embedder, limit: int | None = None) -> dict[str, Any]:
    """Retrieval set (corpus + queries) -> recall_at and words_at per k, percent and mean words."""
    spec = json.loads(data.read_text(encoding="utf-8"))
    queries = spec["queries"][:limit]
    hits = {k: [] for k in KS}
    said = {k: [] for k in KS}
    with tempfile.TemporaryDirectory(prefix="omoide-retrieval-") as tmp:
        home = Path(tmp)
        where = write_notes(spec["corpus"], home / "notes")
        days = sorted({date.fromisoformat(d) for d, _ in where})
        now = datetime.combine(days[-1] + timedelta(days=1), datetime.min.time(), UTC)
        source = SourceConfig(kind="notes", path=home / "notes", name="notes")
        started = time.perf_counter()
        table = build_table(source, days, home, embedder, now)
        index_s = time.perf_counter() - started
        started = time.perf_counter()
        for query in queries:
            got = recall(
                table, embedder, query["question"], now, k=max(KS), decay_lambda=0.0, rehearse=False
            )
            found = [
                {
                    where.get((m.group(1), int(m.group(2))))
                    for m in map(_LINE.search, r.source_refs)
                    if m
                }
                for r in got
            ]
            evidence = set(query["evidence"])
            for k in KS:
                hits[k].append(bool(evidence & set().union(*found[:k])))
                said[k].append(sum(words(r.content) for r in got[:k]))
        query_s = time.perf_counter() - started
    return {
        "recall_at": {str(k): round(100 * float(np.mean(hits[k])), 1) for k in KS},
        "words_at": {str(k): round(float(np.mean(said[k])), 1) for k in KS},
        "questions": len(queries),
        "paragraphs": len(spec["corpus"]),
        "embed_model": embedder.model,
        "index_s": round(index_s, 1),
        "query_ms": round(1000 * query_s / max(1, len(queries)), 1),
    }
