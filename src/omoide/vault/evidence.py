"""Memory rows -> evidence as a page shows it: the day, a short quote and a link to the cited line.

A person reads `2026-11-18 “Lance is the right store…” — [2026-11-18.md, line 20](…#L20)`;
the memory id stays on the line for tools, in an HTML comment (`<!-- memory:ID -->`) that
Markdown viewers hide. Quotes come from the stored text, which was redacted before it was
stored. A citation (`path#Lnn`: a ref, omoide.core.refs) becomes a link relative to the page,
so it still resolves when the home or the vault is moved as a whole.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pandas as pd

from omoide.core.quotes import short_quote
from omoide.core.refs import resolve_ref

# Characters that would turn quoted text into a link, code, an HTML comment, an Obsidian tag or math.
_MARKUP = re.compile(r"([\\`*\[\]<#$])")


@dataclass(frozen=True)
class Cited:
    """One memory as evidence: its id, local day, short quote and cited file and line."""

    memory_id: str
    day: str
    quote: str
    path: Path | None  # the cited file (None: the memory cites no file)
    line: int | None


def cited(row: Mapping[str, Any], home: Path) -> Cited:
    """Memory row + OMOIDE_HOME -> how a page cites it (its ref resolved against the home)."""
    ref = str(row.get("source") or "")
    anchor = ref.rpartition("#L")[2] if "#L" in ref else ""
    return Cited(
        memory_id=str(row["memory_id"]),
        day=str(row.get("day") or ""),
        quote=short_quote(str(row.get("content") or "")),
        path=resolve_ref(ref, home) if ref else None,
        line=int(anchor) if anchor.isdigit() else None,
    )


class CitedMemories(Mapping[str, Cited]):
    """Memory rows + OMOIDE_HOME -> Cited per memory id, each made when a page first asks for it."""

    # A page cites a few dozen of a year's ~100,000 rows: quoting every row cost seconds.

    def __init__(self, rows: pd.DataFrame, home: Path) -> None:
        cols = [c for c in ("memory_id", "day", "content", "source") if c in rows.columns]
        # The last row of an id wins, as when the rows were put in a dict one after another.
        unique = rows[cols].drop_duplicates("memory_id", keep="last")
        self._rows = unique.set_index("memory_id", drop=False)
        self._home = home
        self._made: dict[str, Cited] = {}

    def __getitem__(self, memory_id: str) -> Cited:
        if memory_id not in self._made:
            if memory_id not in self._rows.index:
                raise KeyError(memory_id)
            self._made[memory_id] = cited(self._rows.loc[memory_id].to_dict(), self._home)
        return self._made[memory_id]

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._rows.index

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows.index)

    def __len__(self) -> int:
        return len(self._rows)


def cited_memories(rows: pd.DataFrame, home: Path) -> Mapping[str, Cited]:
    """Memory rows + OMOIDE_HOME -> {memory_id: Cited}, each quote made when first looked up."""
    return CitedMemories(rows, home)


def hidden_ids(ids: Iterable[str], label: str = "memory") -> str:
    """Ids -> `<!-- memory:ID -->` comments: hidden when the page is read, kept for tools."""
    return " ".join(f"<!-- {label}:{i} -->" for i in ids)


def escaped(text: str) -> str:
    """Quoted text -> the same text shown literally in Markdown."""
    return _MARKUP.sub(r"\\\1", text)


def source_link(c: Cited, page_dir: Path) -> str:
    """Cited memory + the page's folder -> a Markdown link to its file at its line ("" without one)."""
    if c.path is None:
        return ""
    target = quote(Path(os.path.relpath(c.path, page_dir)).as_posix())
    # With its folder: `notes/2026-11-18.md` and `memory/2026-11-18.md` are different files.
    name = escaped(f"{c.path.parent.name}/{c.path.name}" if c.path.parent.name else c.path.name)
    if c.line is None:
        return f"[{name}]({target})"
    return f"[{name}, line {c.line}]({target}#L{c.line})"


def evidence(memory_id: str, memories: Mapping[str, Cited], page_dir: Path, kind: str = "") -> str:
    """Memory id + cited memories + the page's folder (+ kind) -> `DAY “quote” — [file, line N](link) <!-- memory:ID -->`."""
    c = memories.get(memory_id)
    if c is None:
        return f"a memory no longer stored {hidden_ids([memory_id])}"
    said = " · ".join(p for p in (c.day, kind) if p) + f" “{escaped(c.quote)}”"
    link = source_link(c, page_dir)
    if link:
        said += f" — {link}"
    return f"{said} {hidden_ids([memory_id])}"


def evidence_items(
    ids: Sequence[str],
    memories: Mapping[str, Cited],
    page_dir: Path,
    shown: int,
    indent: str = "  ",
) -> list[str]:
    """Memory ids -> nested list lines, the first `shown` of them quoted and the rest counted."""
    lines = [f"{indent}- {evidence(i, memories, page_dir)}" for i in ids[:shown]]
    if len(ids) > shown:
        lines.append(f"{indent}- and {len(ids) - shown} more")
    return lines
