"""Outgoing links per day -> every daily file's `## Related Memories` block, with backlinks.

The block lives after omoide's main block, between its own markers, so the main writer
(which replaces only `<!-- omoide:begin` … `<!-- omoide:end -->`) keeps it, and line
citations into the main block never shift:

    <!-- omoide:related:begin -->
    ## Related Memories
    - [[2026-11-18]] — shared warelay; "…" ~ "…" — from `src`, `src` (score 0.69)
    ### Linked from
    - [[2026-11-20]] — … (score 0.75)
    <!-- omoide:related:end -->

A link never pairs a sentence with itself: when its two quotes are one sentence (or nearly,
NEAR_COPY of their words shared) the line says it was written on both days, and a link whose
two sides are one record is not written.

`write_related` computes no links: days not given keep their outgoing lines as written,
and the backlinks of every file are re-derived from all outgoing lines in the vault. So a
backlink never triggers linking of its target (no chain reaction), links stay
bidirectional, and rewriting with the same links changes no byte.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from omoide.core.files import write_text_atomic
from omoide.core.markers import RELATED_BEGIN as BEGIN
from omoide.core.markers import RELATED_END as END
from omoide.core.markers import is_begin, is_end
from omoide.reflect.links import DayLink
from omoide.vault.daily import memory_path

log = logging.getLogger(__name__)

HEADING = "## Related Memories"
BACK_HEADING = "### Linked from"
_LINK = re.compile(r"^- \[\[(\d{4}-\d{2}-\d{2})\]\](.*)$")
_DAY_FILE = re.compile(r"^\d{4}-\d{2}-\d{2}\.md$")


# Two quotes sharing this share of their words are one sentence said twice, not a pair.
NEAR_COPY = 0.8
_WORD = re.compile(r"\w+")


def near_copies(a: str, b: str) -> bool:
    """Two quoted sentences -> whether one is the other, or nearly (word Jaccard >= NEAR_COPY)."""
    x, y = set(_WORD.findall(a.casefold())), set(_WORD.findall(b.casefold()))
    if not x or not y:
        return a.strip() == b.strip()
    return len(x & y) / len(x | y) >= NEAR_COPY


def shown_reason(link: DayLink) -> str | None:
    """Link -> the reason its line gives (a sentence found on both days said once), or None when it joins a record to itself."""
    if link.day == link.target or link.memory_ids[0] == link.memory_ids[1]:
        return None
    if link.sources[0] and link.sources[0] == link.sources[1]:
        return None
    why, sep, quotes = link.reason.rpartition("; ")
    mine, tilde, theirs = quotes.partition(" ~ ")
    if not tilde or not near_copies(mine, theirs):
        return link.reason
    said = f"{mine} written on both days"
    return f"{why}{sep}{said}" if sep else said


def link_line(link: DayLink) -> str | None:
    """Link -> its Markdown list line (None for a link that pairs a record with itself)."""
    reason = shown_reason(link)
    if reason is None:
        return None
    cite = ", ".join(f"`{s}`" for s in dict.fromkeys(link.sources) if s)
    tail = f" — from {cite}" if cite else ""
    return f"- [[{link.target}]] — {reason}{tail} (score {link.score:.2f})"


def _span(lines: Sequence[str]) -> tuple[int, int] | None:
    """File lines -> (first, last) line index of the related block, if any."""
    begin = next((i for i, line in enumerate(lines) if line.strip() == BEGIN), None)
    if begin is None:
        return None
    end = next((i for i in range(begin, len(lines)) if lines[i].strip() == END), len(lines) - 1)
    return begin, end


def outgoing_lines(lines: Sequence[str]) -> list[str]:
    """File lines -> the link lines of its `## Related Memories` section (not backlinks)."""
    span = _span(lines)
    if span is None:
        return []
    out = []
    for line in lines[span[0] : span[1] + 1]:
        if line.strip() == BACK_HEADING:
            break
        if _LINK.match(line):
            out.append(line)
    return out


def render_related(outgoing: Sequence[str], backlinks: Sequence[str]) -> list[str]:
    """Link lines + backlink lines -> the related block's lines (empty when both are)."""
    if not outgoing and not backlinks:
        return []
    lines = [BEGIN, HEADING]
    if outgoing:
        lines += ["", *outgoing]
    if backlinks:
        lines += ["", BACK_HEADING, "", *backlinks]
    return [*lines, END]


def _place(lines: list[str], block: list[str]) -> list[str]:
    """File lines + new block lines -> file lines with the block replaced, inserted or removed."""
    span = _span(lines)
    if span is not None:
        begin, end = span
        if block:
            return [*lines[:begin], *block, *lines[end + 1 :]]
        # Drop the blank line placed before the block when it was inserted.
        cut = begin - 1 if begin and not lines[begin - 1].strip() else begin
        return [*lines[:cut], *lines[end + 1 :]]
    if not block:
        return lines
    main = next((i for i, line in enumerate(lines) if is_begin(line)), None)
    if main is not None:
        close = next((i for i in range(main, len(lines)) if is_end(lines[i])), None)
        if close is not None:
            return [*lines[: close + 1], "", *block, *lines[close + 1 :]]
    pad = [""] if lines and lines[-1].strip() else []
    return [*lines, *pad, *block]


def day_files(vault_dir: Path) -> dict[str, Path]:
    """Vault root -> day -> daily memory file, for every daily file present."""
    folder = memory_path(vault_dir, "x").parent
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.iterdir()) if _DAY_FILE.match(p.name)}


def write_related(vault_dir: Path, links: Mapping[str, Sequence[DayLink]]) -> list[Path]:
    """New outgoing links per day -> every daily file's related block rewritten; files changed.

    Computes no links: days not in `links` keep their outgoing lines as written, and the
    backlinks of every file are re-derived from all outgoing lines in the vault.
    """
    files = day_files(vault_dir)
    texts = {d: p.read_text(encoding="utf-8") for d, p in files.items()}
    outgoing = {d: outgoing_lines(t.splitlines()) for d, t in texts.items()}
    for day, found in links.items():
        if day in files:
            outgoing[day] = [line for link in found if (line := link_line(link)) is not None]
    back: dict[str, list[str]] = {}
    for day in sorted(outgoing):
        for line in outgoing[day]:
            m = _LINK.match(line)
            if m and m.group(1) != day:
                back.setdefault(m.group(1), []).append(f"- [[{day}]]{m.group(2)}")
    written = []
    for day, path in files.items():
        lines = texts[day].splitlines()
        span = _span(lines)
        old = lines[span[0] : span[1] + 1] if span else []
        block = render_related(outgoing[day], back.get(day, []))
        if block == old:
            continue
        write_text_atomic("\n".join(_place(lines, block)) + "\n", path)
        written.append(path)
    log.info("links: %d daily file(s) rewritten of %d", len(written), len(files))
    return written


def refresh_backlinks(vault_dir: Path) -> list[Path]:
    """Vault -> every `### Linked from` re-derived from the outgoing links; files changed."""
    return write_related(vault_dir, {})
