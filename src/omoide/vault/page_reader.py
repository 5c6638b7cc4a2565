"""A vault page the pipeline wrote -> its sections and their lines, numbered as the file is, so an answer can cite `path#Lnn`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_BULLET = re.compile(r"^\s*[-*+]\s+")


@dataclass(frozen=True)
class PageLine:
    """One line of a page with text: its 1-based number and its text (a bullet's marker taken off)."""

    line: int
    text: str


def page_sections(path: Path) -> dict[str, list[PageLine]]:
    """Markdown page -> heading (as written) -> the non-empty lines under it, up to the next heading (empty when unreadable)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return {}
    out: dict[str, list[PageLine]] = {}
    current: list[PageLine] | None = None
    fence = False
    for n, raw in enumerate(lines, start=1):
        if raw.strip().startswith(("```", "~~~")):
            fence = not fence
        heading = None if fence else _HEADING.match(raw)
        if heading:
            current = out.setdefault(heading.group(2), [])
            continue
        text = raw.strip()
        if current is None or not text or text.startswith(("<!--", "---")):
            continue
        current.append(PageLine(n, _BULLET.sub("", text)))
    return out
