"""Agents' questions -> JSON-ready answers, from one set of open stores (the MCP server's state).

The embedding model and the LanceDB tables are opened once and kept, so a question costs a
search, not a start-up. Nothing here writes: an agent's recall is not counted as a rehearsal
(an agent asking the same thing fifty times would otherwise make a memory look cherished),
and a reader never needs the home's writer lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import lancedb

from omoide.core.errors import OmoideError
from omoide.core.kinds import FACT_KINDS
from omoide.core.settings import Settings
from omoide.embed import get_embedder
from omoide.embed.base import Embedder
from omoide.memory.associate import around
from omoide.memory.recall import Asked, recall_asked
from omoide.profile.report import profile_parts, profile_report
from omoide.reflect.entity_report import entity_report_from_store
from omoide.store.entities_table import open_entities
from omoide.store.memories import day_rows, open_memories
from omoide.store.validity_table import load_validity
from omoide.vault.daily import memory_path

# Columns of a stored memory an agent is shown (no vector, no bookkeeping).
_SHOWN = ["memory_id", "kind", "ts", "entities", "content", "source", "confidence", "importance"]


@dataclass
class OpenMemory:
    """A home's stores, opened once: settings, the embedder, the memories and entities tables."""

    settings: Settings
    embedder: Embedder
    memories: lancedb.table.Table

    @classmethod
    def open(cls, settings: Settings) -> OpenMemory:
        """Settings -> the opened stores; a clear error before the first run."""
        if not settings.lancedb_dir.exists():
            raise OmoideError(
                f"no memories yet in {settings.lancedb_dir}: run `omoide run` or `omoide backfill` first"
            )
        embedder = get_embedder(settings.embed, settings.llm.host)
        table = open_memories(settings.lancedb_dir, embedder.model, embedder.dim, create=False)
        return cls(settings, embedder, table)

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
    )
    return [r.to_json() for r in found]


def day_answer(memory: OpenMemory, day: str) -> dict[str, Any]:
    """Local day (YYYY-MM-DD) -> its digest, sessions and retained facts, each with its citation."""
    try:
        wanted = date.fromisoformat(day).isoformat()
    except ValueError:
        raise OmoideError(f"day must be YYYY-MM-DD, got {day!r}") from None
    rows = day_rows(memory._fresh(), wanted)
    shown = rows[[c for c in _SHOWN if c in rows.columns]].copy()
    shown["ts"] = shown["ts"].map(lambda t: t.isoformat())
    shown["entities"] = shown["entities"].map(list)
    records = shown.to_dict("records")
    page = memory_path(memory.settings.vault_dir, wanted)
    return {
        "day": wanted,
        "digest": [r for r in records if r["kind"] == "digest"],
        "facts": [r for r in records if r["kind"] in FACT_KINDS],
        "sessions": [r for r in records if r["kind"] == "session"],
        "notes_and_chats": [r for r in records if r["kind"] in ("note", "chat")],
        "page": str(page) if page.exists() else None,
    }


def entity_answer(memory: OpenMemory, name: str, now: datetime | None = None) -> dict[str, Any]:
    """Name as written (@Peter, peter) -> summary, relationship, timeline with citations, related entities."""
    db_dir = memory.settings.lancedb_dir
    return entity_report_from_store(
        open_entities(db_dir),
        memory._fresh(),
        name,
        now or datetime.now(UTC),
        validity=load_validity(db_dir),
    )


def profile_answer(memory: OpenMemory) -> dict[str, Any]:
    """() -> the integrated profile, relationships and Big Five analyses."""
    s = memory.settings
    return profile_report(profile_parts(s.lancedb_dir, s.cache_dir))


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
