"""A window of hours -> the activity blocks that overlap it ("what was I doing at 10", "this afternoon"), each cited by its line on the day page."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

import pandas as pd

from omoide.answer.cite import Citation
from omoide.answer.language import Lang
from omoide.core.kinds import BLOCK_KIND
from omoide.core.location import StorePath
from omoide.memory.block_rows import blocks_of
from omoide.memory.blocks import Block, block_memory_id
from omoide.memory.day_story import block_about
from omoide.store.lake import read_blocks, read_facts

BLOCKS_SHOWN = 4
# A block's kind as an answer names it, where its own name would not read.
KIND_EN = {"offline": "away from the computer"}
KIND_JA = {
    "meeting": "会議",
    "coding": "コーディング",
    "reading": "調べもの",
    "messages": "メッセージ",
    "writing": "メモ",
    "browsing": "ブラウジング",
    "offline": "パソコンから離れて",
}


def blocks_in(
    lake_dir: StorePath, days: Sequence[date], start: datetime, end: datetime
) -> list[tuple[Block, str]]:
    """Lake + days + a UTC window -> the blocks overlapping it, longest overlap first, with the ref of their day-page line."""
    found: list[tuple[float, Block, str]] = []
    lo, hi = pd.Timestamp(start), pd.Timestamp(end)
    for day in days:
        blocks = blocks_of(read_blocks(lake_dir, day))
        if not blocks:
            continue
        facts = read_facts(lake_dir, day)
        facts = facts[facts["kind"] == BLOCK_KIND]
        cite = dict(zip(facts["memory_id"], facts["source"], strict=True))
        for b in blocks:
            # An instant's block (a timed note line) counts as six minutes, as its picture draws it.
            b_end = max(b.end, b.start + pd.Timedelta(minutes=6))
            over = (min(b_end, hi) - max(b.start, lo)).total_seconds()
            if over > 0:
                found.append((over, b, str(cite.get(block_memory_id(b), ""))))
    found.sort(key=lambda x: (-x[0], x[1].start))
    picked = sorted(found[:BLOCKS_SHOWN], key=lambda x: x[1].start)
    return [(b, ref) for _, b, ref in picked]


def blocks_sentence(
    picked: Sequence[tuple[Block, str]], tz: str, lang: Lang
) -> tuple[str, list[Citation]]:
    """Blocks with their line refs + zone + language -> 'Doing: 09:30–10:30 demo with Mina (meeting); …', and their citations."""
    if not picked:
        return "", []
    items, cites = [], []
    for b, ref in picked:
        span = f"{b.start.tz_convert(tz):%H:%M}–{b.end.tz_convert(tz):%H:%M}"
        kind = KIND_JA.get(b.kind, b.kind) if lang == "ja" else KIND_EN.get(b.kind, b.kind)
        items.append(
            f"{span} {block_about(b)}（{kind}）"
            if lang == "ja"
            else f"{span} {block_about(b)} ({kind})"
        )
        if ref:
            cites.append(Citation(ref, b.start.tz_convert(tz).date().isoformat()))
    if lang == "ja":
        return "していたこと：" + "、".join(items) + "。", cites
    return "Doing: " + "; ".join(items) + ".", cites
