"""A day's sessions, notes and chats -> the activity blocks a person would name (a meeting, working on a project, planning a trip)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from omoide.core.ids import stable_id

# What a block was, from the apps and lines it holds; the day picture and the week picture colour by it.
BLOCK_KINDS = ("meeting", "coding", "reading", "messages", "writing", "browsing", "offline")


@dataclass(frozen=True)
class Block:
    """One stretch of a day: its span (UTC), active seconds, kind, what it was about, where and with whom, and what it rests on."""

    block_id: str
    start: pd.Timestamp
    end: pd.Timestamp
    active_s: float  # the time-spent arithmetic (omoide.memory.active_time) over the block's span
    kind: str  # one of BLOCK_KINDS
    label: (
        str  # what it was about: "demo of the sync fix with Mina", "working on warelay (LanceDB)"
    )
    topic: (
        str | None
    )  # the entity or subject it was about ("LanceDB", "Kyoto"), None when nothing stands out
    apps: tuple[str, ...]  # by time spent, most first
    sites: tuple[str, ...]  # domains by time spent
    people: tuple[str, ...]
    entities: tuple[str, ...]
    note: str | None  # the note line (or own chat line) written during it, the person's own words
    refs: tuple[str, ...]  # the records it rests on (session, note and chat refs)
    session_ids: tuple[str, ...]


def block_memory_id(block: Block) -> str:
    """A block -> the memory id of its row in lake/facts (and its line on the day page)."""
    return stable_id("memory", "block", block.block_id)
