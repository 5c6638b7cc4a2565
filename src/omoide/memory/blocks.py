"""A day's sessions, notes and chats -> the activity blocks a person would name (a meeting, working on a project, planning a trip)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime

import pandas as pd

from omoide.core.days import day_bounds
from omoide.core.ids import stable_id
from omoide.core.kinds import OWN_SPEAKER
from omoide.memory.active_time import active_periods
from omoide.memory.block_build import (
    Screen,
    chat_lines,
    day_slots,
    known_people,
    note_label,
    page_word,
    screen,
    seconds_by,
    timed_notes,
)
from omoide.memory.block_slots import (
    GAP_SLOTS,
    SLOT_S,
    Slots,
    idf,
    kinds,
    runs,
    topic_key,
    topic_runs,
)
from omoide.memory.block_terms import ACTIVITIES, display

# What a block was, from the apps and lines it holds; the day picture and the week picture colour by it.
BLOCK_KINDS = ("meeting", "coding", "reading", "messages", "writing", "browsing", "offline")

# A block's label when no note line names it, by kind ({topic}: what it was about).
KIND_LABELS = {
    "meeting": "meeting",
    "coding": "coding ({topic})",
    "reading": "reading about {topic}",
    "messages": "messages ({topic})",
    "writing": "writing notes ({topic})",
    "browsing": "browsing {topic}",
    "offline": "away",
}
NOTE_NEAR_S = 600.0  # a note line this close to screen time was written in that block
OFFLINE_MAX_S = 3600.0  # an offline block lasts until the next block or line, at most this


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


def day_blocks(
    events: pd.DataFrame,
    sessions: pd.DataFrame,
    day: date,
    tz: str,
    people: Collection[str] = (),
    me: Collection[str] = (OWN_SPEAKER,),
) -> list[Block]:
    """A day's events and sessions (+ the configured people, the user's chat names) -> its blocks in time order (see docs/sessions.md)."""
    start, end = day_bounds(day, tz)
    scr = screen(events, start)
    periods = active_periods(events, start, end)
    slots = day_slots(scr, periods, start, end)
    spelled = display([w for ws in scr.words for w in ws])
    weights = idf(slots)
    spans = [
        (x, y, kind)
        for a, b, kind in runs(kinds(slots))
        for x, y in (topic_runs(slots, a, b, weights) if kind == "browser" else [(a, b)])
    ]
    notes, chats = timed_notes(events, tz), chat_lines(events)
    titles = events.loc[events["event_type"] == "window", "title"]
    persons = known_people(chats, titles, people)
    t0 = scr.t0
    out: list[Block] = []
    for x0, x1, kind in spans:
        lo, hi = x0 * SLOT_S, x1 * SLOT_S
        inside = (scr.hi > lo) & (scr.lo < hi)
        if not inside.any():
            continue
        # Whole milliseconds: the lake stores microseconds and a float's nanoseconds will not cast.
        s = (t0 + pd.Timedelta(seconds=max(lo, float(scr.lo[inside].min())))).round("ms")
        e = (t0 + pd.Timedelta(seconds=min(hi, float(scr.hi[inside].max())))).round("ms")
        out.append(_screen_block(day, kind, s, e, scr, slots, (x0, x1), weights, periods, spelled))
    out = _with_lines(_joined(out, scr), notes, chats, persons, me, sessions, day)
    return sorted(out, key=lambda x: (x.start, x.block_id))


def _screen_block(
    day: date,
    kind: str,
    s: pd.Timestamp,
    e: pd.Timestamp,
    scr: Screen,
    slots: Slots,
    run: tuple[int, int],
    weights: dict[str, float],
    periods: list[tuple[datetime, datetime]],
    spelled: dict[str, str],
) -> Block:
    """A run of slots of one kind and its span -> its block, before notes and chats name it."""
    a, b = run
    acts: Counter[str] = sum(slots.acts[a:b], Counter())
    key = topic_key(slots.words[a:b], acts, float(slots.titled[a:b].sum()), weights)
    topic = None if key is None else key if key in ACTIVITIES else spelled.get(key, key)
    if kind == "browser":
        kind = "reading" if topic and key not in ACTIVITIES else "browsing"
    lo, hi = (s - scr.t0).total_seconds(), (e - scr.t0).total_seconds()
    apps = seconds_by(scr.app[~scr.is_web], scr.lo[~scr.is_web], scr.hi[~scr.is_web], lo, hi)
    sites = seconds_by(scr.site[scr.is_web], scr.lo[scr.is_web], scr.hi[scr.is_web], lo, hi)
    active = sum(
        max(0.0, (min(pe, e) - max(ps, s)).total_seconds())
        for ps, pe in periods
        if pe > s and ps < e
    )
    # what its pages were about beside its topic names it too: "coding (warelay, LanceDB)"
    aside = page_word(scr, lo, hi, key) if kind in ("coding", "reading") and topic else None
    named = f"{topic}, {spelled.get(aside, aside)}" if aside else topic
    label = KIND_LABELS[kind].format(topic=named) if topic else KIND_LABELS[kind].split(" {")[0]
    return Block(
        block_id=stable_id("block", day.isoformat(), s.isoformat(), kind),
        start=s,
        end=e,
        active_s=round(active, 3),
        kind=kind,
        label=label,
        topic=topic,
        apps=apps,
        sites=sites,
        people=(),
        entities=(topic,) if topic and key not in ACTIVITIES else (),
        note=None,
        refs=(),
        session_ids=(),
    )


def _with_lines(
    blocks: list[Block],
    notes: pd.DataFrame,
    chats: pd.DataFrame,
    persons: set[str],
    me: Collection[str],
    sessions: pd.DataFrame,
    day: date,
) -> list[Block]:
    """Screen blocks + the day's timed note lines, chats with people, sessions -> blocks named by their lines, offline blocks added."""
    got: dict[int, list] = {i: [] for i in range(len(blocks))}
    offline: list = []
    for n in notes.itertuples(index=False):
        i = _home(blocks, n.ts)
        (got[i] if i is not None else offline).append(n)
    out = []
    for i, blk in enumerate(blocks):
        lines = got[i]
        talk = chats[(chats["ts"] >= blk.start) & (chats["ts"] < blk.end)]
        mentioned = [str(x) for n in lines for x in (n.entities if n.entities is not None else [])]
        people = tuple(
            dict.fromkeys(
                [p for p in mentioned if p in persons] + talk["partner"].astype(str).tolist()
            )
        )
        note = str(lines[0].text) if lines else None
        if note is None and blk.kind == "messages":
            own = talk[talk["actor"].isin(list(me))]
            note = str(own["text"].iloc[0]) if len(own) else None
        label = note_label(note) if note else blk.label
        if people and not note:
            label = f"{label} with {_names(people)}"
        sess = sessions[(sessions["start"] >= blk.start) & (sessions["start"] < blk.end)]
        if "app" in sess:
            sess = sess[sess["app"] != "chat"]
        refs = [str(n.source_ref) for n in lines] + talk["source_ref"].astype(str).tolist()
        refs += [str(r[0]) for r in sess["source_refs"] if r is not None and len(r)]
        out.append(
            replace(
                blk,
                label=label,
                people=people,
                entities=tuple(dict.fromkeys([*blk.entities, *people, *mentioned])),
                note=note,
                refs=tuple(dict.fromkeys(refs)),
                session_ids=tuple(sess["session_id"].astype(str)),
            )
        )
    return out + _offline(offline, out, persons, day)


def _home(blocks: list[Block], ts: pd.Timestamp) -> int | None:
    """Blocks + a note line's time -> the block it was written in (or just before it began), None if none."""
    near = pd.Timedelta(seconds=NOTE_NEAR_S)
    for i, b in enumerate(blocks):
        if b.start <= ts < b.end:
            return i
    for i, b in enumerate(blocks):
        if b.start - near <= ts < b.start:
            return i
    return None


def _joined(blocks: list[Block], scr: Screen) -> list[Block]:
    """Screen blocks in order -> neighbours about one topic joined (reading the docs, then coding with them); its kind the one with more time."""
    out: list[Block] = []
    gap = pd.Timedelta(seconds=GAP_SLOTS * SLOT_S)
    for b in sorted(blocks, key=lambda x: x.start):
        prev = out[-1] if out else None
        if (
            prev is None
            or prev.topic is None
            or prev.topic != b.topic
            or "meeting" in (prev.kind, b.kind)
            or b.start - prev.end >= gap
        ):
            out.append(b)
            continue
        lo, hi = (prev.start - scr.t0).total_seconds(), (b.end - scr.t0).total_seconds()
        web = scr.is_web
        out[-1] = replace(
            prev,
            end=b.end,
            active_s=prev.active_s + b.active_s,
            kind=prev.kind if prev.active_s >= b.active_s else b.kind,
            label=prev.label if prev.active_s >= b.active_s else b.label,
            apps=seconds_by(scr.app[~web], scr.lo[~web], scr.hi[~web], lo, hi),
            sites=seconds_by(scr.site[web], scr.lo[web], scr.hi[web], lo, hi),
        )
    return out


def _offline(lines: list, blocks: list[Block], persons: set[str], day: date) -> list[Block]:
    """Timed note lines no screen time was near + the screen blocks -> one offline block each, until the next block or line."""
    out = []
    starts = sorted([b.start for b in blocks] + [n.ts for n in lines])
    for n in lines:
        later = [t for t in starts if t > n.ts]
        end = min([n.ts + pd.Timedelta(seconds=OFFLINE_MAX_S), *later[:1]])
        mentioned = [str(x) for x in (n.entities if n.entities is not None else [])]
        people = tuple(p for p in mentioned if p in persons)
        out.append(
            Block(
                block_id=stable_id("block", day.isoformat(), n.ts.isoformat(), "offline"),
                start=n.ts,
                end=end,
                active_s=0.0,
                kind="offline",
                label=note_label(n.text),
                topic=None,
                apps=(),
                sites=(),
                people=people,
                entities=tuple(dict.fromkeys(mentioned)),
                note=str(n.text),
                refs=(str(n.source_ref),),
                session_ids=(),
            )
        )
    return out


def _names(people: Sequence[str]) -> str:
    """Names -> 'A', 'A and B', 'A, B and C'."""
    return people[0] if len(people) == 1 else f"{', '.join(people[:-1])} and {people[-1]}"
