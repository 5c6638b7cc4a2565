"""A day's events -> its slots (omoide.memory.block_slots) and the pieces a block is told by: screen time, notes, chat."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

import numpy as np
import pandas as pd

from omoide.core.kinds import ASSISTANT_CHAT_KINDS, is_bot
from omoide.ingest.sessionize import domains
from omoide.memory.active_time import ANY_BROWSER
from omoide.memory.block_apps import CATEGORIES, categories
from omoide.memory.block_slots import SLOT_S, Slots, spread
from omoide.memory.block_terms import activity_of, site_words, title_words

LABEL_WORDS = 12  # a note line longer than this names its block by its first words


@dataclass(frozen=True)
class Screen:
    """A day's focused-window and web events as seconds from the day's start, with what each is."""

    lo: np.ndarray
    hi: np.ndarray
    app: np.ndarray
    site: np.ndarray  # web events' hosts, None for windows
    is_web: np.ndarray
    words: list[list[str]]  # title words as written, per window event
    site_names: list[list[str]]  # site name parts, per web event
    t0: pd.Timestamp  # the day's start


def screen(events: pd.DataFrame, start: datetime) -> Screen:
    """Events + the day's start -> its window and web events with a duration, in seconds from the start."""
    keep = events["event_type"].isin(("window", "web")) & (events["duration_s"].fillna(0) > 0)
    ev = events[keep]
    lo = (ev["ts"] - pd.Timestamp(start)).dt.total_seconds().to_numpy()
    hi = lo + ev["duration_s"].to_numpy(dtype=float)
    is_web = (ev["event_type"] == "web").to_numpy()
    site = domains(ev["url"].where(ev["event_type"] == "web"))
    # a web event's page title is the browser window's too: its words are counted once, from
    # the window; its site's name tells only of a named activity (a recipe site is cooking)
    words = [
        [] if w else title_words(t)
        for w, t in zip(is_web.tolist(), ev["title"].tolist(), strict=True)
    ]
    sites = [
        site_words(s) if w else [] for s, w in zip(site.tolist(), is_web.tolist(), strict=True)
    ]
    apps = ev["app"].fillna("").astype(str).to_numpy()
    return Screen(lo, hi, apps, site.to_numpy(), is_web, words, sites, pd.Timestamp(start))


def day_slots(
    scr: Screen, periods: list[tuple[datetime, datetime]], start: datetime, end: datetime
) -> Slots:
    """A day's screen pieces, not-AFK periods and bounds -> the day's slots."""
    n = int(np.ceil((pd.Timestamp(end) - pd.Timestamp(start)).total_seconds() / SLOT_S))
    cats = np.zeros((n, len(CATEGORIES)))
    cat = categories(pd.Series(scr.app), pd.Series([""] * len(scr.app)), pd.Series(scr.site))
    idx, slot, sec = spread(scr.lo, scr.hi, n)
    code = np.array([CATEGORIES.index(c) for c in cat], dtype=int)
    win = ~scr.is_web[idx]
    np.add.at(cats, (slot[win], code[idx][win]), sec[win])
    # a browser tab on a chat or call site moves that time from the browser to its category
    web = scr.is_web[idx] & (code[idx] != CATEGORIES.index("browser"))
    np.add.at(cats, (slot[web], code[idx][web]), sec[web])
    np.subtract.at(cats, (slot[web], CATEGORIES.index("browser")), sec[web])
    cats = np.clip(cats, 0, None)
    a_lo = np.array([(s - start).total_seconds() for s, _ in periods])
    a_hi = np.array([(e - start).total_seconds() for _, e in periods])
    active = np.zeros(n)
    _, aslot, asec = spread(a_lo, a_hi, n)
    np.add.at(active, aslot, asec)
    words = [Counter[str]() for _ in range(n)]
    acts = [Counter[str]() for _ in range(n)]
    titled = np.zeros(n)
    lower = [[w.lower() for w in ws] for ws in scr.words]
    act = [activity_of(ws + ss) for ws, ss in zip(lower, scr.site_names, strict=True)]
    for i, s, x in zip(idx.tolist(), slot.tolist(), sec.tolist(), strict=True):
        if lower[i]:
            words[s].update(dict.fromkeys(lower[i], x))
            if not scr.is_web[i]:
                titled[s] += x
        if act[i]:
            acts[s][act[i]] += x
    return Slots(cats, active, words, acts, titled)


def page_word(scr: Screen, lo: float, hi: float, skip: str | None) -> str | None:
    """Screen pieces + a span (seconds from the day's start) + the block's topic key -> the word in most of its browser pages' titles, None if none.

    What a block's pages are about, beside its topic: coding on the project in every editor
    title while reading LanceDB's docs, or a page's own word ("merge") on a site's pages all
    titled by its name.
    """
    # the word in the most of its pages' titles (a site's name is in all of them), then by time
    pages: dict[str, set[str]] = {}
    sec_by: Counter[str] = Counter()
    for a, b, app, ws in zip(scr.lo, scr.hi, scr.app, scr.words, strict=True):
        sec = min(b, hi) - max(a, lo)
        if sec > 0 and ws and str(app).lower() in ANY_BROWSER:
            title = " ".join(ws)
            for w in {w.lower() for w in ws} - {skip}:
                pages.setdefault(w, set()).add(title)
                sec_by[w] += sec
    return max(pages, key=lambda w: (len(pages[w]), sec_by[w], w), default=None)


def timed_notes(events: pd.DataFrame, tz: str) -> pd.DataFrame:
    """Events -> the note lines written at a time of day (a `- 09:30 …` line): ts, text, entities, source_ref."""
    notes = events[events["event_type"] == "note"]
    local = notes["ts"].dt.tz_convert(tz)
    timed = (local.dt.hour != 0) | (local.dt.minute != 0)
    return notes[timed].sort_values("ts")[["ts", "text", "entities", "source_ref"]]


def chat_lines(events: pd.DataFrame) -> pd.DataFrame:
    """Events -> chat messages with a person (not with an assistant or a bot): ts, partner, actor, text, source_ref."""
    chat = events[events["event_type"] == "chat"]
    human = ~chat["source"].isin(ASSISTANT_CHAT_KINDS) & ~chat["title"].map(is_bot)
    out = chat[human].rename(columns={"title": "partner"})
    return out.sort_values("ts")[["ts", "partner", "actor", "text", "source_ref"]]


def known_people(chats: pd.DataFrame, titles: pd.Series, given: Collection[str]) -> set[str]:
    """The day's chats, window titles and the configured people -> the names that are people.

    A chat partner is a person; so is the first name of a direct-message title ("Mina
    Kobayashi (DM) - …"), the way Slack and Teams title a conversation with one person.
    """
    found = set(given) | set(chats["partner"].dropna().astype(str))
    dm = (
        titles.dropna()
        .astype(str)
        .str.extract(r"^([^\W\d_][\w'-]*)[^()]*\((?:DM|direct message)\)")[0]
    )
    return found | set(dm.dropna())


def note_label(text: object) -> str:
    """A note line -> a block's label: its words without @ marks, cut at a word to LABEL_WORDS."""
    words = str(text or "").replace("@", "").split()
    cut = " ".join(words[:LABEL_WORDS])
    return cut.rstrip(",;:") + ("…" if len(words) > LABEL_WORDS else "")


def seconds_by(
    keys: np.ndarray, lo: np.ndarray, hi: np.ndarray, a: float, b: float
) -> tuple[str, ...]:
    """Keys of intervals + a span -> the keys by seconds inside the span, most first."""
    sec = np.clip(np.minimum(hi, b) - np.maximum(lo, a), 0, None)
    tally: Counter[str] = Counter()
    for k, s in zip(keys.tolist(), sec.tolist(), strict=True):
        if s > 0 and isinstance(k, str) and k:
            tally[k] += s
    return tuple(k for k, _ in tally.most_common())
