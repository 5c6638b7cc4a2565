"""A day's blocks and lines -> the day page's `### Timeline` (its picture, then its blocks) and `### Written, decided and told` sections.

Each block's line is `omoide.memory.day_story.block_text`; a line of what was written,
decided or told is the record's own words, one line, cut to whole words, and cites it:

    - 08:30 Demo of the sync fix to the team with @Mina — from `sources/notes/…#L9`
    - 15:30 Decision: warelay moves its vectors to LanceDB — from `…`
    - 16:55 Peter: Platform team starts Monday. Drinks tonight? — from `…`
    - 16:57 you to Peter: Can't, cooking oyakodon. — from `…`

A day of many messages keeps every note line and decision and the first MAX_MESSAGES
messages, saying how many more there were (the session list and the records hold them all).
"""

from __future__ import annotations

from collections.abc import Sequence

from omoide.core.kinds import BOT_SPEAKERS
from omoide.memory.blocks import Block, block_memory_id
from omoide.memory.chat_window import cut
from omoide.memory.day_story import block_text
from omoide.memory.day_summary import DayLine

TIMELINE = "### Timeline"
TOLD = "### Written, decided and told"
LINE_WORDS = 40
MAX_MESSAGES = 16


def _one_line(text: str) -> str:
    """Text -> one line (Markdown list items must not break)."""
    return " ".join(text.split())


def timeline(
    blocks: Sequence[Block], tz: str, picture: str | None
) -> tuple[list[str], dict[str, int]]:
    """Blocks + zone + the picture's file name (or None) -> the section's lines and each block memory's offset in them."""
    if not blocks and not picture:
        return [], {}
    lines = [TIMELINE, ""]
    if picture:
        lines += [f"![[{picture}]]", ""]
    at: dict[str, int] = {}
    for b in sorted(blocks, key=lambda x: (x.start, x.block_id)):
        at[block_memory_id(b)] = len(lines)
        lines.append(f"- {_one_line(block_text(b, tz))}")
    if blocks:
        lines.append("")
    return lines, at


def told_line(line: DayLine) -> str:
    """A DayLine -> its page line, cited ("- 16:55 Peter: … — from `ref`")."""
    text = cut(_one_line(line.text), LINE_WORDS)
    if line.kind == "decided" and not text.casefold().startswith("decision"):
        text = f"Decided: {text}"
    if line.kind == "told":
        text = f"{line.who}: {text}"
    elif line.kind == "said" and line.who.casefold() in BOT_SPEAKERS:
        text = f"you asked the assistant: {text}"
    elif line.kind == "said":
        text = f"you to {line.who}: {text}" if line.who else f"you: {text}"
    when = f"{line.at} " if line.at else ""
    cite = f" — from `{line.refs[0]}`" if line.refs else ""
    return f"- {when}{text}{cite}"


def told(lines: Sequence[DayLine]) -> list[str]:
    """The day's lines -> the section's lines (empty when nothing was written or told)."""
    if not lines:
        return []
    messages = [i for i, x in enumerate(lines) if x.kind in ("said", "told")]
    dropped = set(messages[MAX_MESSAGES:])
    out = [TOLD, ""]
    out += [told_line(x) for i, x in enumerate(lines) if i not in dropped]
    if dropped:
        out.append(f"- (+{len(dropped)} more messages)")
    return [*out, ""]
