"""Week and month pages: `vault/memory/weekly/YYYY-Www.md`, `vault/memory/monthly/YYYY-MM.md`, rendered and written.

The layout is fixed (`omoide ask` reads it). YAML front matter (`period`, `since`, `until`,
`days`, `tags`, `backend`, `model`; the user's other keys kept verbatim), the user's own text
if any, then one block between the daily pages' markers (`omoide.core.markers`):

    ## Summary                  one paragraph (the row's citation is this line)
    ### Picture                 ![[YYYY-Www.png]]                      (week pages with a day only)
    ### Highlights              - TEXT ([[YYYY-MM-DD#ANCHOR]] · `SOURCE`)
    ### Time                    - ACTIVITY: N min
    ### People and projects     - [[slug|Name]] (person): N memories   or   - [[slug|Name]]: N memories
    ### Days                    - [[YYYY-MM-DD]] Weekday
    ### Weeks                   - [[YYYY-Www]] 16–22 November          (month pages only)

Every heading is always there (an empty section has no lines), but `### Picture`: a week's
picture (hours per day per activity, `omoide.vault.pictures.draw_week`) is the PNG beside its
page, of the same name (`week_picture`), under its own heading so the summary stays one
paragraph for what reads it. A highlight ends with where it
came from: the day (a wikilink Obsidian resolves: `#^m0123456789` is the block of a
`## Retain` line, `#Highlights` and `#Summary` the day page's headings) and, in backticks, the
line or record it cites (`vault/memory/2026-11-20.md#L14`, `sources/notes/2026-11-20.md#L22`).
`highlight_parts` takes a line apart. Only the block and omoide's front matter keys are ever
replaced; writing the same page twice leaves the file untouched.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from omoide.core.files import write_text_if_changed
from omoide.core.markers import BEGIN, END, is_begin, is_end
from omoide.reflect.period_highlights import Highlight
from omoide.reflect.periods import Period, PeriodDigest, period_named
from omoide.vault.daily import (
    around_block,
    front_matter_tags,
    merge_front_matter,
    split_front_matter,
)
from omoide.vault.retain_marks import block_id

OWNED_KEYS = ("period", "since", "until", "days", "tags", "backend", "model")
FOLDERS = {"week": "weekly", "month": "monthly"}
_CITED = re.compile(
    r"^(?P<text>.*) \(\[\[(?P<day>\d{4}-\d{2}-\d{2})(?:#(?P<anchor>[^\]|]*))?\]\](?: · `(?P<source>[^`]*)`)?\)$"
)


@dataclass(frozen=True)
class PageWrite:
    """Where a period's page was written, the line of its summary, and whether bytes changed."""

    path: Path
    summary_line: int
    changed: bool


@dataclass(frozen=True)
class HighlightParts:
    """A highlight line taken apart: its text, its day, the day page's anchor and the citation."""

    text: str
    day: str
    anchor: str | None
    source: str | None


def period_path(vault_dir: Path, period: Period) -> Path:
    """Vault root + period -> its page."""
    return vault_dir / "memory" / FOLDERS[period.kind] / f"{period.name}.md"


def period_pages(vault_dir: Path) -> list[tuple[Period, Path]]:
    """Vault root -> every week and month page present, with its period (files not so named are left out)."""
    out = []
    for kind, folder in FOLDERS.items():
        where = vault_dir / "memory" / folder
        for path in sorted(where.glob("*.md")) if where.is_dir() else []:
            period = period_named(kind, path.stem)
            if period is not None:
                out.append((period, path))
    return out


def _one_line(text: str) -> str:
    """Text -> one line (Markdown list items must not break)."""
    return " ".join(text.split())


def anchor(h: Highlight) -> str:
    """Highlight -> where on its day's page it is: a `## Retain` line's block (`^m0123456789`) or a heading."""
    return f"^{block_id(h.fact_id)}" if h.fact_id else h.heading


def highlight_line(h: Highlight) -> str:
    """Highlight -> its bullet: `- TEXT ([[DAY#ANCHOR]] · `SOURCE`)`."""
    cite = f" · `{h.source}`" if h.source and "`" not in h.source else ""
    return f"- {_one_line(h.text)} ([[{h.day}#{anchor(h)}]]{cite})"


def highlight_parts(line: str) -> HighlightParts | None:
    """A highlight line (with or without its `- `) -> its text, day, anchor and citation; None when it carries no day."""
    found = _CITED.match(line.strip().removeprefix("- "))
    if found is None:
        return None
    return HighlightParts(found["text"], found["day"], found["anchor"], found["source"])


def _week_span(week: Period) -> str:
    """A week -> "16–22 November" (its own title without the week number)."""
    return week.title().split("(", 1)[1].rstrip(")")


def render_block(digest: PeriodDigest) -> tuple[list[str], int]:
    """Digest -> the block's lines and the 0-based offset of its summary line."""
    people = [
        f"- [[{m.slug}|{_one_line(m.name)}]]{' (person)' if m.person else ''}: {m.count} memories"
        for m in digest.mentions
    ]
    sections = [
        ("### Highlights", [highlight_line(h) for h in digest.highlights]),
        ("### Time", [f"- {name}: {secs / 60:.0f} min" for name, secs in digest.time]),
        ("### People and projects", people),
        ("### Days", [f"- [[{d}]] {date.fromisoformat(d):%A}" for d in digest.days]),
    ]
    if digest.period.kind == "month":
        sections.append(("### Weeks", [f"- [[{w.name}]] {_week_span(w)}" for w in digest.weeks]))
    lines = [BEGIN, "## Summary", "", _one_line(digest.summary)]
    if digest.picture:
        lines += ["", "### Picture", "", f"![[{digest.picture}]]"]
    for heading, items in sections:
        lines += ["", heading, "", *items] if items else ["", heading]
    return [*lines, END], 3


def picture_path(vault_dir: Path, period: Period) -> Path:
    """Vault root + period -> its picture, beside its page."""
    return period_path(vault_dir, period).with_suffix(".png")


def week_picture(
    vault_dir: Path, period: Period, per_day: Mapping[date, Sequence[tuple[str, float]]]
) -> str | None:
    """Vault root + a week + seconds per activity of each day with a page -> the name of its picture, drawn beside the page; None (and no picture) for a week without days or a month."""
    path = picture_path(vault_dir, period)
    if period.kind != "week" or not per_day:
        # A week whose days are all gone keeps no picture of them.
        path.unlink(missing_ok=True)
        return None
    from omoide.vault.pictures import draw_week  # matplotlib only when a week is drawn

    draw_week(path, period.days(), per_day)
    return path.name


def write_period_page(vault_dir: Path, digest: PeriodDigest) -> PageWrite:
    """Digest -> its page (only omoide's block and front matter keys replaced); the summary's line."""
    period = digest.period
    path = period_path(vault_dir, period)
    old_text = path.read_text(encoding="utf-8") if path.exists() else ""
    front, body = split_front_matter(old_text.splitlines())
    owned = {
        "period": period.name,
        "since": period.since.isoformat(),
        "until": period.until.isoformat(),
        "days": list(digest.days),
        "tags": front_matter_tags(front, ("omoide", FOLDERS[period.kind])),
        "backend": digest.backend,
        "model": digest.model,
    }
    head = ["---", *merge_front_matter(front, owned, OWNED_KEYS), "---"]
    block, at = render_block(digest)
    before, after = around_block(body)
    lines = [*head, *before, *block, *after]
    changed = write_text_if_changed("\n".join(lines) + "\n", path)
    return PageWrite(path, len(head) + len(before) + at + 1, changed)


def day_highlights(path: Path) -> list[tuple[int, str]]:
    """A daily page -> (line number, text) of each `### Highlights` bullet inside omoide's block."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    out: list[tuple[int, str]] = []
    inside = under = False
    for n, line in enumerate(lines, start=1):
        if is_begin(line):
            inside = True
        elif is_end(line):
            inside = under = False
        elif inside and line.startswith("#"):
            under = line.strip() == "### Highlights"
        elif inside and under and line.startswith("- "):
            out.append((n, line[2:].strip()))
    return out
