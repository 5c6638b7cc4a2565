"""The `## Retain` lines of the daily files: each fact's type and block id, and a mark on a fact another replaced.

A line ends with how the fact is known and an Obsidian block id made from its memory id:

    - W @Mina: Mina lives in Hamburg. — from `notes/2026-11-19.md#L24` · direct ^m1f2e3d4c5b

Once a later fact replaces it (`omoide.reflect.validity`) the line is kept and marked, the
mark linking the line that replaced it:

    - W @Mina: Mina lives in Hamburg. — from `…` · direct · superseded 2026-11-20 by [[2026-11-20#^m9a8b7c6d5e]] ^m1f2e3d4c5b

The reflection writes the marks (`write_marks`); the daily writer keeps them when it writes
a day again (`carried_marks`), so re-running a day changes no byte.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from omoide.core.files import write_text_atomic

if TYPE_CHECKING:  # the store's module loads LanceDB, which an overview answer never needs
    from omoide.store.validity_table import Validity

log = logging.getLogger(__name__)

_BLOCK = re.compile(r" \^(m[0-9a-f]{10})$")
_MARK = re.compile(r" · superseded \d{4}-\d{2}-\d{2} by \[\[[^\]]*\]\]")


def block_id(memory_id: str) -> str:
    """Memory id -> the block id its `## Retain` line ends with (`m` + 10 hex digits)."""
    return "m" + memory_id[:10]


def type_label(memory_type: str, heard_from: str | None) -> str:
    """A fact's type (+ who told it) -> how its line says it: direct, heard from Peter, inferred."""
    return f"heard from {heard_from}" if heard_from else memory_type


def superseded_mark(day: str, by: str) -> str:
    """The replacing fact's day + memory id -> the mark put on the replaced line."""
    return f" · superseded {day} by [[{day}#^{block_id(by)}]]"


def with_mark(line: str, mark: str) -> str:
    """A `## Retain` line + its mark ("" for none) -> the line with that mark before its block id."""
    found = _BLOCK.search(line)
    if found is None:
        return line
    body = _MARK.sub("", line[: found.start()])
    return body + mark + line[found.start() :]


def carried_marks(old: Sequence[str], new: Sequence[str]) -> list[str]:
    """A daily file's lines before and after a rewrite -> the new lines with the old marks kept."""
    marks: dict[str, str] = {}
    for line in old:
        block, mark = _BLOCK.search(line), _MARK.search(line)
        if block and mark:
            marks[block.group(1)] = mark.group(0)
    out = []
    for line in new:
        block = _BLOCK.search(line)
        out.append(
            with_mark(line, marks[block.group(1)]) if block and block.group(1) in marks else line
        )
    return out


def wanted_marks(
    found: Mapping[str, Validity], days: Mapping[str, str]
) -> dict[str, dict[str, str]]:
    """Validities + each W fact's local day -> {day: {block id: mark}} for every fact with a line."""
    out: dict[str, dict[str, str]] = {}
    for v in found.values():
        day = days.get(v.memory_id)
        if day is None:
            continue
        by = v.superseded_by
        mark = superseded_mark(days[by], by) if by and by in days else ""
        out.setdefault(day, {})[block_id(v.memory_id)] = mark
    return out


def write_marks(
    vault_dir: Path, found: Mapping[str, Validity], days: Mapping[str, str]
) -> list[Path]:
    """Vault root + validities + each W fact's local day -> daily files whose marks changed, rewritten."""
    written = []
    for day, marks in sorted(wanted_marks(found, days).items()):
        path = vault_dir / "memory" / f"{day}.md"
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for i, line in enumerate(lines):
            block = _BLOCK.search(line)
            if block and block.group(1) in marks:
                lines[i] = with_mark(line, marks[block.group(1)])
        new = "\n".join(lines) + ("\n" if text.endswith("\n") else "")
        if new != text:
            write_text_atomic(new, path)
            written.append(path)
    log.info("retain marks: %d daily file(s) rewritten", len(written))
    return written
