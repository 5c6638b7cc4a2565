"""The Markdown vault: `vault/memory/YYYY-MM-DD.md`, pipeline sections between markers, user text untouched.

A daily file is YAML front matter, then the user's own text, then one omoide block:

    <!-- omoide:begin ... -->
    ## Summary / ### Timeline / ### Written, decided and told / ### Highlights / ### Time
    ## Sessions / ## Retain
    <!-- omoide:end -->

The summary says the day's shape; the timeline shows the day's picture (a file beside the
page) and its activity blocks in order; then what the person wrote, decided and was told,
each line citing its record (`omoide.vault.day_sections`); the highlights; time per
activity; the session list, still cited; the retained facts. docs/day-pages.md tells it.

Each `## Retain` line says how its fact is known and ends with a block id; a line a later
fact replaced keeps the reflection's mark (`omoide.vault.retain_marks`).

Regenerating replaces only what lies between the markers and the front matter keys omoide
owns (`date`, `tags`, `backend`, `model`); every other byte of the file is kept. Writing the
same content twice leaves the file untouched. The line each memory was written on is
returned so a recall can cite `vault/memory/DAY.md#Lnn`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from omoide.core.files import write_text_atomic
from omoide.core.markers import BEGIN, END, is_begin, is_end
from omoide.memory.blocks import Block
from omoide.memory.day_summary import DaySummary, Fact
from omoide.memory.memory_types import told_by
from omoide.vault.day_sections import timeline, told
from omoide.vault.retain_marks import block_id, carried_marks, type_label

OWNED_KEYS = ("date", "tags", "backend", "model")
_KEY_LINE = re.compile(r"^([A-Za-z_][\w-]*)\s*:")


@dataclass(frozen=True)
class VaultWrite:
    """Where a day's digest was written, the line of each memory, and whether bytes changed."""

    path: Path
    lines: dict[str, int]
    changed: bool


def memory_path(vault_dir: Path, day: str) -> Path:
    """Vault root + day -> its daily memory file."""
    return vault_dir / "memory" / f"{day}.md"


def fact_line(f: Fact) -> str:
    """Fact -> its OpenClaw `## Retain` line (`- O(c=0.80) @warelay: ... · direct ^m0123456789`).

    The line says how the fact is known (`omoide.memory.memory_types`: the user's own line
    direct, or heard from whom it names; a model's fact inferred) and ends with a block id,
    so a fact that replaces it can link to it (`omoide.vault.retain_marks`).
    """
    kind = f"O(c={f.confidence:.2f})" if f.kind == "O" else f.kind
    ents = " ".join("@" + e.replace(" ", "_") for e in f.entities)
    head = f"{kind} {ents}".strip()
    told = told_by(f.content) if f.origin == "retain" else None
    known = type_label("direct" if f.origin == "retain" else "inferred", told)
    return f"- {head}: {_one_line(f.content)}{_cite(f.refs)} · {known} ^{block_id(f.memory_id)}"


def _one_line(text: str) -> str:
    """Text -> one line (Markdown list items must not break)."""
    return " ".join(text.split())


def _cite(refs: Sequence[str]) -> str:
    """Refs -> a short trailing citation."""
    if not refs:
        return ""
    shown = ", ".join(f"`{r}`" for r in refs[:2])
    more = f" +{len(refs) - 2}" if len(refs) > 2 else ""
    return f" — from {shown}{more}"


def render_block(
    summary: DaySummary,
    sessions: Sequence[tuple[str, str]],
    digest_id: str,
    blocks: Sequence[Block] = (),
    picture: str | None = None,
) -> tuple[list[str], dict[str, int]]:
    """Summary + (memory_id, session line) pairs (+ the day's blocks, its picture's file name) -> block lines and each memory's 0-based offset."""
    lines = [BEGIN, "## Summary", ""]
    at: dict[str, int] = {digest_id: len(lines)}
    lines += [_one_line(summary.summary), ""]
    shown, offsets = timeline(blocks, summary.tz, picture)
    at.update({mid: len(lines) + off for mid, off in offsets.items()})
    lines += shown
    lines += told(summary.lines)
    if summary.highlights:
        lines += ["### Highlights", ""]
        lines += [f"- {_one_line(h.text)}" for h in summary.highlights]
        lines.append("")
    if summary.time_by_activity:
        lines += ["### Time", ""]
        lines += [f"- {name}: {secs / 60:.0f} min" for name, secs in summary.time_by_activity]
        lines.append("")
    lines += ["## Sessions", ""]
    for memory_id, text in sessions:
        at[memory_id] = len(lines)
        lines.append(f"- {_one_line(text)}")
    if not sessions:
        lines.append("- (no activity sessions)")
    lines += ["", "## Retain", ""]
    for f in summary.facts:
        at[f.memory_id] = len(lines)
        lines.append(fact_line(f))
    if not summary.facts:
        lines.append("- (nothing retained)")
    lines.append(END)
    return lines, at


def split_front_matter(lines: list[str]) -> tuple[list[str], list[str]]:
    """File lines -> (front matter lines without fences, the rest)."""
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() in ("---", "..."):
                return lines[1:i], lines[i + 1 :]
    return [], lines


def without_front_matter(text: str) -> str:
    """Markdown file text -> the same text without its YAML front matter (for displays that show it as text)."""
    lines = text.splitlines()
    body = split_front_matter(lines)[1]
    if len(body) == len(lines):  # no closed front matter: nothing to strip
        return text
    return "\n".join(body).lstrip("\n") + ("\n" if text.endswith("\n") else "")


def merge_front_matter(
    old: list[str], owned: dict[str, object], owned_keys: Sequence[str] = OWNED_KEYS
) -> list[str]:
    """User front matter lines + omoide's keys (+ every key omoide owns on this page) -> front matter with the user's other keys verbatim."""
    blocks: list[tuple[str | None, list[str]]] = []
    for line in old:
        m = _KEY_LINE.match(line)
        if m:
            blocks.append((m.group(1), [line]))
        elif blocks:
            blocks[-1][1].append(line)
        else:
            blocks.append((None, [line]))
    out: list[str] = []
    for key, value in owned.items():
        out += yaml.safe_dump({key: value}, sort_keys=False, allow_unicode=True).splitlines()
    for key, block in blocks:
        if key not in owned_keys:
            out += block
    return out


def front_matter_tags(old: list[str], own: Sequence[str] = ("omoide", "daily")) -> list[str]:
    """User front matter lines (+ omoide's tags for the page) -> their tags plus omoide's, order kept."""
    try:
        meta = yaml.safe_load("\n".join(old)) or {}
    except yaml.YAMLError:
        meta = {}
    user = meta.get("tags") if isinstance(meta, dict) else None
    if isinstance(user, str):
        user = [user]
    tags = [str(t) for t in user] if isinstance(user, list) else []
    return list(dict.fromkeys([*tags, *own]))


def around_block(body: list[str]) -> tuple[list[str], list[str]]:
    """A page's lines after its front matter -> (the user's lines before omoide's block, those after it).

    A page without the block keeps all its lines before where the block goes, a blank line between.
    """
    begin = next((i for i, line in enumerate(body) if is_begin(line)), None)
    if begin is None:
        before = body if body else [""]
        return ([*before, ""] if before[-1].strip() else before), []
    end = next((i for i in range(begin, len(body)) if is_end(body[i])), len(body) - 1)
    return body[:begin], body[end + 1 :]


def write_daily(
    vault_dir: Path,
    summary: DaySummary,
    sessions: Sequence[tuple[str, str]],
    digest_id: str,
    blocks: Sequence[Block] = (),
    picture: str | None = None,
) -> VaultWrite:
    """Day summary + session lines (+ its blocks, the picture's file name beside the page) -> vault/memory/DAY.md (only omoide's parts replaced); lines of each memory."""
    path = memory_path(vault_dir, summary.day)
    old_text = path.read_text(encoding="utf-8") if path.exists() else ""
    front, body = split_front_matter(old_text.splitlines())
    owned = {
        "date": summary.day,
        "tags": front_matter_tags(front),
        "backend": summary.backend,
        "model": summary.model,
    }
    head = ["---", *merge_front_matter(front, owned), "---"]
    block, offsets = render_block(summary, sessions, digest_id, blocks, picture)
    before, after = around_block(body)
    # Marks the reflection put on replaced facts stay until it changes them.
    block = carried_marks(body, block)
    lines = [*head, *before, *block, *after]
    start = len(head) + len(before) + 1  # 1-based line of the block's first line
    text = "\n".join(lines) + "\n"
    changed = text != old_text
    if changed:
        write_text_atomic(text, path)
    return VaultWrite(path, {mid: start + off for mid, off in offsets.items()}, changed)
