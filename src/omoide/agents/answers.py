"""Agents' questions -> JSON-ready answers, from one set of open stores (the MCP server's state).

The embedding model and the LanceDB tables are opened once and kept, so a question costs a
search, not a start-up. Nothing here writes: an agent's recall is not counted as a rehearsal
(an agent asking the same thing fifty times would otherwise make a memory look cherished),
and a reader never needs the home's writer lock.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import lancedb

from omoide.answer.ask import LOOKUP_K, ask
from omoide.answer.recent import recent_activity
from omoide.core.days import reference_time
from omoide.core.errors import OmoideError
from omoide.core.kinds import FACT_KINDS
from omoide.core.refs import to_ref
from omoide.core.settings import Settings
from omoide.embed import get_embedder
from omoide.embed.base import Embedder
from omoide.memory.associate import around
from omoide.memory.recall import COLUMNS, Asked, Recalled, recall_asked
from omoide.memory.row_store import RowStore
from omoide.profile.report import profile_parts, profile_report
from omoide.reflect.entity_report import entity_report_from_store
from omoide.store.entities_table import open_entities
from omoide.store.memories import day_rows, open_memories
from omoide.store.validity_table import load_validity
from omoide.vault.daily import memory_path
from omoide.vault.page_reader import page_sections

ENTITY_TIMELINE = 20  # an entity's latest memories shown by default, as `omoide entity` shows them
SHOWN_CHARS = 600  # a memory's content as the `day` tool shows it
# Columns of a stored memory an agent is shown (no vector, no bookkeeping).
_SHOWN = ["memory_id", "kind", "ts", "entities", "content", "source", "confidence", "importance"]


@dataclass
class OpenMemory:
    """A home's stores, opened once: settings, the embedder, the memories table and its recall columns kept in memory."""

    settings: Settings
    embedder: Embedder
    memories: lancedb.table.Table
    rows: RowStore = field(default_factory=lambda: RowStore(COLUMNS))

    @classmethod
    def open(cls, settings: Settings) -> OpenMemory:
        """Settings -> the opened stores; a clear error before the first run."""
        if not settings.lancedb_dir.exists():
            raise OmoideError(
                f"no memories yet in {settings.lancedb_dir}: run `omoide run` or `omoide backfill` first"
            )
        embedder = get_embedder(settings.embed, settings.llm.host)
        table = open_memories(settings.lancedb_dir, embedder.model, embedder.dim, create=False)
        memory = cls(settings, embedder, table)
        memory.rows.load(table)  # read while the agent connects, not on its first question
        return memory

    def _fresh(self) -> lancedb.table.Table:
        """() -> the memories table at its newest version (a backfill may have written since)."""
        self.memories.checkout_latest()
        return self.memories


def recall_answer(
    memory: OpenMemory, asked: Asked, now: datetime | None = None
) -> list[dict[str, Any]]:
    """A recall as the agent asked it -> ranked memories with citations and score parts (never a rehearsal)."""
    if not asked.query.strip():
        raise OmoideError("recall needs a query")
    s = memory.settings
    found = recall_asked(
        memory._fresh(),
        memory.embedder,
        asked,
        s.recall,
        s.timezone,
        now or datetime.now(UTC),
        rehearse=False,
        validity=load_validity(s.lancedb_dir),
        store=memory.rows,
    )
    return [r.to_json() for r in found]


def day_answer(memory: OpenMemory, day: str, detail: bool = False) -> dict[str, Any]:
    """Local day (YYYY-MM-DD) (+ detail: its sessions too) -> its summary, highlights, time, facts, notes and chats, cited.

    A day holds hundreds of sessions, more than one answer should spend: the tool pages
    them (`omoide.agents.fit`); each memory's content is cut to SHOWN_CHARS here.
    """
    try:
        wanted = date.fromisoformat(day).isoformat()
    except ValueError:
        raise OmoideError(f"day must be YYYY-MM-DD, got {day!r}") from None
    rows = day_rows(memory._fresh(), wanted)
    shown = rows[[c for c in _SHOWN if c in rows.columns]].copy()
    shown["ts"] = shown["ts"].map(lambda t: t.isoformat())
    shown["entities"] = shown["entities"].map(list)
    shown["content"] = shown["content"].map(_short)
    records = shown.to_dict("records")
    page = memory_path(memory.settings.vault_dir, wanted)
    sections = page_sections(page)
    rel = to_ref(page, memory.settings.home)
    answer: dict[str, Any] = {
        "day": wanted,
        "page": rel if page.exists() else None,
        **{
            key: [{"text": ln.text, "source": f"{rel}#L{ln.line}"} for ln in sections.get(name, [])]
            for key, name in (
                ("summary", "Summary"),
                ("highlights", "Highlights"),
                ("time", "Time"),
            )
        },
        "digest": [r for r in records if r["kind"] == "digest"],
        "facts": [r for r in records if r["kind"] in FACT_KINDS],
        "notes_and_chats": [r for r in records if r["kind"] in ("note", "chat")],
    }
    if detail:
        answer["sessions"] = [r for r in records if r["kind"] == "session"]
    return answer


def _short(text: str) -> str:
    """Memory content -> cut to SHOWN_CHARS."""
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


def ask_answer(memory: OpenMemory, question: str, now: str | None = None) -> dict[str, Any]:
    """A question (+ the ISO time it is asked at) -> one cited answer, as `omoide ask --json` prints it."""
    s = memory.settings
    at = reference_time(now, s.timezone)

    def recall(text: str) -> Sequence[Recalled]:
        asked = Asked(text, k=LOOKUP_K)
        validity = load_validity(s.lancedb_dir)
        return recall_asked(
            memory._fresh(),
            memory.embedder,
            asked,
            s.recall,
            s.timezone,
            at,
            False,
            validity=validity,
            store=memory.rows,
        )

    return ask(question, s, at, recall).to_json()


def recent_answer(
    memory: OpenMemory,
    timeframe: str | None,
    since: str | None,
    until: str | None,
    now: str | None = None,
) -> dict[str, Any]:
    """A time frame or two dates (+ the ISO time it is asked at, default the clock) -> the period's summary, time per activity and citations."""
    s = memory.settings
    return recent_activity(s, timeframe, since, until, reference_time(now, s.timezone))


def entity_answer(
    memory: OpenMemory, name: str, detail: bool = False, now: datetime | None = None
) -> dict[str, Any]:
    """Name as written (@Peter, peter) (+ detail: every memory in its timeline, not the latest ENTITY_TIMELINE) -> summary, relationship, facts, timeline with citations, related entities."""
    db_dir = memory.settings.lancedb_dir
    return entity_report_from_store(
        open_entities(db_dir),
        memory._fresh(),
        name,
        now or datetime.now(UTC),
        limit=sys.maxsize if detail else ENTITY_TIMELINE,
        validity=load_validity(db_dir),
    )


def profile_answer(memory: OpenMemory, detail: bool = False) -> dict[str, Any]:
    """(+ detail: the latest Big Five analysis of every source too) -> the integrated profile, relationships and the current analysis."""
    s = memory.settings
    report = profile_report(profile_parts(s.lancedb_dir, s.cache_dir))
    if not detail:
        # Each source's analysis repeats the current one's shape: asked for, not sent by default.
        report.pop("by_source", None)
    return report


def around_answer(
    memory: OpenMemory, memory_id: str, k: int | None = None, now: datetime | None = None
) -> list[dict[str, Any]]:
    """Memory id -> its neighbours (same session, nearby days, similar), best first, with reasons."""
    found = around(
        memory._fresh(), memory_id, now or datetime.now(UTC), k=k or memory.settings.recall.k
    )
    return [a.to_json() for a in found]


def vault_pages(vault_dir: Path) -> list[Path]:
    """Vault folder -> its Markdown pages (daily notes and bank pages), by path."""
    if not vault_dir.is_dir():
        return []
    return sorted(
        p
        for p in vault_dir.rglob("*.md")
        if not any(part.startswith(".") for part in p.relative_to(vault_dir).parts)
    )
