"""Entity views -> `vault/bank/entities/<slug>.md` pages, rewritten only when their text changes.

Pages are wholly pipeline-owned and carry the GENERATED marker; every line of them quotes
the memory it rests on, with its day and a link to the line (its id in a hidden comment). A page left under a slug that was merged away (`peter.md` after
`Peter` joined `Peter Schmidt`) is removed only when omoide wrote it.

`## Facts` shows each distinct fact once, with the days it was said ("— said 23 Oct, 12 Nov,
19 Nov 2026"), and `### Was` each change once ("work: “…payments team.” → “…platform team.”
(20 November 2026)"); `page_facts` reads those lines back from a written page (the digest
bench counts repeats with it). `## Relation` says how the user knows a person, each circle
with the memories that show it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from omoide.core.files import write_text_if_changed
from omoide.core.markers import GENERATED
from omoide.reflect.entities import Entity, EntityView, entity_slug
from omoide.reflect.validity import Saying, facts_and_changes
from omoide.store.validity_table import Validity
from omoide.vault.evidence import cited, escaped, evidence, hidden_ids, source_link

log = logging.getLogger(__name__)

PAGE_TAG = "omoide/entity"
TIMELINE_MAX = 50  # most recent timeline lines on a page; older ones are counted


def _line(row: Mapping[str, Any], home: Path, page_dir: Path) -> str:
    """Memory row -> `DAY · KIND “quote” — [file, line N](link) <!-- memory:ID -->`."""
    c = cited(row, home)
    return evidence(c.memory_id, {c.memory_id: c}, page_dir, kind=str(row["kind"]))


def _link_text(name: str) -> str:
    """Display name -> safe as a wikilink's shown text (no `|`, `[`, `]`)."""
    return " ".join(name.translate(str.maketrans("|[]", "   ")).split()) or "?"


def _shared(n: int) -> str:
    """Count -> `1 shared memory` / `n shared memories`."""
    return f"{n} shared memory" if n == 1 else f"{n} shared memories"


def said_days(days: Sequence[str]) -> str:
    """Local days (ISO) -> `23 Oct, 12 Nov, 19 Nov 2026`, the year once when they share it."""
    parsed = [date.fromisoformat(d) for d in days if _ISO_DAY.fullmatch(d)]
    if not parsed:
        return ", ".join(days)
    one_year = len({d.year for d in parsed}) == 1
    shown = [f"{d.day} {d:%b}" + ("" if one_year else f" {d.year}") for d in parsed]
    return ", ".join(shown) + (f" {parsed[0].year}" if one_year else "")


def _long_day(day: str) -> str:
    """Local day (ISO) -> `20 November 2026` (as given when it is no ISO day)."""
    if not _ISO_DAY.fullmatch(day):
        return day
    d = date.fromisoformat(day)
    return f"{d.day} {d:%B} {d.year}"


_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _saying(saying: Saying, home: Path, page_dir: Path) -> str:
    """A distinct fact -> `“quote” — said DAYS — [file, line N](link) <!-- memory:ID … -->`, cited at its latest saying."""
    c = cited(saying.latest, home)
    link = source_link(c, page_dir)
    text = f"“{escaped(c.quote)}” — said {said_days(saying.days)}"
    text += f" — {link}" if link else ""
    return f"{text} {hidden_ids([str(r['memory_id']) for r in saying.rows])}"


def _facts(
    view: EntityView, home: Path, page_dir: Path, validity: Mapping[str, Validity]
) -> list[str]:
    """Entity view + validities -> its `## Facts` section: each standing fact once, then each change once."""
    slugs = frozenset({view.entity.slug, *(entity_slug(a) for a in view.entity.aliases)})
    now, changes = facts_and_changes(view.rows, validity, slugs)
    if not now and not changes:
        return []
    out = ["", "## Facts", ""]
    out += [f"- {_saying(f, home, page_dir)}" for f in now] or ["- (no fact stands)"]
    if changes:
        out += ["", "### Was", ""]
    for ch in changes:
        label = f"{ch.attribute}: " if ch.attribute else ""
        then = f" → “{escaped(cited(ch.by, home).quote)}”" if ch.by is not None else " → replaced"
        out.append(f"- {label}{_saying(ch.before, home, page_dir)}{then} ({_long_day(ch.until)})")
    return out


def _relation(view: EntityView, home: Path, page_dir: Path) -> list[str]:
    """Entity view -> its `## Relation` section: each circle the person is in, with the memories that show it."""
    if not view.relationship.evidence:
        return []
    by_id = {str(r["memory_id"]): r for r in view.rows}
    out = ["", "## Relation", ""]
    for circle, ids in view.relationship.evidence:
        out.append(f"- {circle}, as these say:")
        out += [f"  - {_line(by_id[m], home, page_dir)}" for m in ids if m in by_id]
    return out


_FACT_LINE = re.compile(r"^- (?:[\w ]+: )?“(?P<quote>.*?)” — said ")


def page_facts(page: str) -> list[str]:
    """A written entity page's text -> the quotes of its `## Facts` lines that stand (not those under `### Was`)."""
    out, inside = [], False
    for line in page.splitlines():
        if line.startswith("## ") or line.startswith("### "):
            inside = line == "## Facts"
            continue
        found = _FACT_LINE.match(line) if inside else None
        if found:
            out.append(found.group("quote"))
    return out


def repeated_facts(page: str) -> int:
    """A written entity page's text -> how many of its standing Facts lines repeat an earlier one."""
    seen: set[str] = set()
    repeats = 0
    for quote in page_facts(page):
        key = " ".join(quote.casefold().split())
        repeats += key in seen
        seen.add(key)
    return repeats


def entity_page(
    view: EntityView, home: Path, page_dir: Path, validity: Mapping[str, Validity] | None = None
) -> str:
    """Entity view + OMOIDE_HOME + the page's folder (+ fact validities) -> its page: front matter, summary, key facts, facts now and was, timeline, related."""
    entity, rows = view.entity, view.rows
    front = {
        "name": entity.name,
        "aliases": [a for a in entity.aliases if a != entity.name],
        "tags": [PAGE_TAG],
    }
    out = ["---", yaml.safe_dump(front, sort_keys=False, allow_unicode=True).rstrip(), "---"]
    out += [GENERATED, "", f"# {entity.name}", "", "## Summary", "", view.summary]
    if view.key_facts:
        out += ["", "Most important:", ""]
        out += [f"- {_line(r, home, page_dir)}" for r in view.key_facts]
    out += _relation(view, home, page_dir)
    out += _facts(view, home, page_dir, validity or {})
    out += ["", "## Timeline", ""]
    shown = rows[-TIMELINE_MAX:]
    if len(rows) > len(shown):
        out.append(f"_{len(rows) - len(shown)} earlier memories are not shown._")
        out.append("")
    out += [f"- {_line(r, home, page_dir)}" for r in shown]
    if view.related:
        out += ["", "## Related", ""]
        out += [f"- [[{s}|{_link_text(name)}]] ({_shared(n)})" for s, name, n in view.related]
    return "\n".join(out) + "\n"


def page_path(vault_dir: Path, slug: str) -> Path:
    """Vault root + slug -> its entity page."""
    return vault_dir / "bank" / "entities" / f"{slug}.md"


def _drop_superseded(vault_dir: Path, entity: Entity, current: set[str]) -> int:
    """Entity + current slugs -> our pages under its merged-away slugs removed (Peter -> Peter Schmidt)."""
    removed = 0
    for alias in entity.aliases:
        path = page_path(vault_dir, entity_slug(alias))
        if entity_slug(alias) in current or not path.exists():
            continue
        # Only a page this module wrote is removed; a user's own note of that name stays.
        if GENERATED in path.read_text(encoding="utf-8").splitlines():
            path.unlink()
            removed += 1
    return removed


def _drop_vanished(vault_dir: Path, current: set[str]) -> int:
    """Every current slug -> our pages of entities no memory mentions any more removed (a forget)."""
    removed = 0
    for path in sorted((vault_dir / "bank" / "entities").glob("*.md")):
        if path.stem in current:
            continue
        if GENERATED in path.read_text(encoding="utf-8").splitlines():
            path.unlink()
            removed += 1
    return removed


def write_entity_pages(
    vault_dir: Path,
    views: Sequence[EntityView],
    home: Path,
    current: Collection[str] = (),
    prune: bool = False,
    validity: Mapping[str, Validity] | None = None,
) -> list[Path]:
    """Entity views + OMOIDE_HOME (+ every current slug) -> pages written; unchanged pages untouched, merged-away pages removed.

    `prune` (only when `current` is every entity there is) also removes our pages of entities
    that no memory mentions any more. `validity` (by memory id) gives each page its
    `## Facts`: the W facts that stand, and under `### Was` those a later fact replaced.
    """
    # Views of some entities only (an incremental reflection) must not remove the others' pages.
    current = {v.entity.slug for v in views} | set(current)
    written, removed = [], 0
    for view in views:
        path = page_path(vault_dir, view.entity.slug)
        if write_text_if_changed(entity_page(view, home, path.parent, validity), path):
            written.append(path)
        removed += _drop_superseded(vault_dir, view.entity, current)
    if prune:
        removed += _drop_vanished(vault_dir, current)
    log.info(
        "entity pages: %d written, %d unchanged, %d superseded removed",
        len(written),
        len(views) - len(written),
        removed,
    )
    return written
