"""A day's screen time cut in five-minute slots -> the runs of slots one activity holds (kind, then topic).

Each slot holds the seconds per category of screen activity (omoide.memory.block_apps) and
per title word (omoide.memory.block_terms). A slot's kind is read from its neighbourhood
(the slot and NEAR_SLOTS on each side), since a stretch of coding is also a browser and a
terminal for a minute at a time: a call in front for MEETING_SHARE of it is a meeting,
otherwise the category with the largest share weighted by WEIGHTS. Runs shorter than
MIN_SLOTS are taken into a neighbour; an idle stretch of GAP_SLOTS or more ends a run. Inside
a browser run, a change of topic that lasts MIN_TOPIC_SLOTS starts a new run (cooking, then
Japanese).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import numpy as np

from omoide.memory.block_apps import CATEGORIES
from omoide.memory.block_terms import ACTIVITIES

SLOT_S = 300.0
IDLE_S = 60.0  # active seconds under which a slot is idle
GAP_SLOTS = 2  # an idle stretch of 10 minutes ends a block
# a run of under 30 minutes is not a block of its own: a news site coming and going does not
# cut an evening in pieces (the figures: docs/sessions.md, "How the blocks are scored")
MIN_SLOTS = 6
CALL_SLOTS = 2  # but a call of 10 minutes is a meeting
NEAR_SLOTS = 3  # a slot's kind is read over it and this many slots on each side (35 minutes)
MEETING_SHARE = 0.45
# How much a second of each category tells of what the stretch is: a browser is open during
# everything, and a chat app in front for a fifth of an hour makes it messages (an hour of
# messages keeps the browser in front most of the time; reading holds almost no chat).
WEIGHTS = np.array([1.0, 1.0, 2.0, 0.8, 0.8, 0.0])  # CATEGORIES order
MIN_TOPIC_SLOTS = 6  # a change of topic inside a browser run lasting 30 minutes starts a block
PRESENT_S = 60.0  # a word on screen this long in a slot is present in it
# a word on screen in over half the day's active slots is its backdrop (the project in every
# editor title, the workspace in every chat title), not what one stretch was about
BACKDROP_IDF = math.log(2)
WORD_TOPIC = "\x00word"  # a run's topic key when a word, not a named activity, leads it
_CAT = {c: i for i, c in enumerate(CATEGORIES)}


@dataclass(frozen=True)
class Slots:
    """A day's slots: seconds per category, active seconds, and seconds per title word and per named activity."""

    cats: np.ndarray  # (n, len(CATEGORIES)) seconds
    active: np.ndarray  # (n,) not-AFK seconds
    words: list[Counter[str]]  # per slot: lower-case word -> seconds
    acts: list[Counter[str]]  # per slot: named activity -> seconds
    titled: np.ndarray  # (n,) seconds of titled screen time


def spread(lo: np.ndarray, hi: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Intervals in seconds from the day's start + slot count -> (interval index, slot, seconds) of every overlap."""
    lo, hi = np.clip(lo, 0, n * SLOT_S), np.clip(hi, 0, n * SLOT_S)
    first = np.floor(lo / SLOT_S).astype(int)
    span = np.ceil(hi / SLOT_S).astype(int) - first
    idx, slot, sec = [], [], []
    for k in range(int(span.max(initial=0))):
        s = first + k
        a, b = np.maximum(lo, s * SLOT_S), np.minimum(hi, (s + 1) * SLOT_S)
        keep = (b > a) & (s < n)
        idx.append(np.nonzero(keep)[0])
        slot.append(s[keep])
        sec.append((b - a)[keep])
    if not idx:
        return np.array([], int), np.array([], int), np.array([])
    return np.concatenate(idx), np.concatenate(slot), np.concatenate(sec)


def kinds(slots: Slots) -> list[str | None]:
    """Slots -> each slot's kind from its neighbourhood's weighted shares, None when idle."""
    share, call = _shares(slots.cats, NEAR_SLOTS), _shares(slots.cats, 1)[:, _CAT["meeting"]]
    score = share * WEIGHTS
    out: list[str | None] = []
    for i in range(len(share)):
        if slots.active[i] < IDLE_S:
            out.append(None)
        elif call[i] >= MEETING_SHARE:
            out.append("meeting")
        else:
            out.append(CATEGORIES[int(np.argmax(score[i]))])
    return out


def _shares(cats: np.ndarray, near: int) -> np.ndarray:
    """Seconds per slot and category + a reach in slots -> each slot's shares over it and `near` slots each side."""
    n = len(cats)
    out = np.zeros_like(cats)
    for k in range(-near, near + 1):
        out[max(0, k) : n + min(0, k)] += cats[max(0, -k) : n - max(0, k)]
    total = out.sum(axis=1, keepdims=True)
    return np.divide(out, total, out=np.zeros_like(out), where=total > 0)


def runs(labels: list[str | None], min_slots: int = MIN_SLOTS) -> list[tuple[int, int, str]]:
    """Per-slot labels (None idle) -> [(first slot, end slot, label)], runs under min_slots absorbed, short idle bridged."""
    segs = _runs(labels)
    while True:
        short = [
            i
            for i, (a, b, lab) in enumerate(segs)
            if lab is not None and b - a < (CALL_SLOTS if lab == "meeting" else min_slots)
        ]
        if not short:
            break
        i = min(short, key=lambda k: (segs[k][1] - segs[k][0], k))
        a, b, _ = segs[i]
        left = segs[i - 1] if i and segs[i - 1][2] is not None else None
        right = segs[i + 1] if i + 1 < len(segs) and segs[i + 1][2] is not None else None
        # a call's edges are sharp: a short run joins the other neighbour, or the longer one
        if left and right and "meeting" in (left[2], right[2]) and left[2] != right[2]:
            into = right if left[2] == "meeting" else left
        else:
            into = (
                left if left and (not right or left[1] - left[0] >= right[1] - right[0]) else right
            )
        segs[i] = (a, b, into[2] if into else None)
        segs = _merged(segs)
    # idle gaps shorter than GAP_SLOTS between two runs of one label are bridged
    out: list[tuple[int, int, str | None]] = []
    for seg in segs:
        if (
            len(out) >= 2
            and out[-1][2] is None
            and out[-1][1] - out[-1][0] < GAP_SLOTS
            and out[-2][2] == seg[2]
        ):
            out.pop()
            a = out.pop()[0]
            out.append((a, seg[1], seg[2]))
        else:
            out.append(seg)
    return [(a, b, lab) for a, b, lab in out if lab is not None]


def _runs(labels: list[str | None]) -> list[tuple[int, int, str | None]]:
    """Per-slot labels -> maximal runs of one label."""
    out: list[tuple[int, int, str | None]] = []
    for i, lab in enumerate(labels):
        if out and out[-1][2] == lab:
            out[-1] = (out[-1][0], i + 1, lab)
        else:
            out.append((i, i + 1, lab))
    return out


def _merged(segs: list[tuple[int, int, str | None]]) -> list[tuple[int, int, str | None]]:
    """Runs -> neighbours of one label joined."""
    out: list[tuple[int, int, str | None]] = []
    for a, b, lab in segs:
        if out and out[-1][2] == lab:
            out[-1] = (out[-1][0], b, lab)
        else:
            out.append((a, b, lab))
    return out


def idf(slots: Slots) -> dict[str, float]:
    """Slots -> each word's inverse document frequency over the day's active slots."""
    df: Counter[str] = Counter()
    n = 0
    for w, a in zip(slots.words, slots.active, strict=True):
        if w or a >= IDLE_S:
            n += 1
            df.update(w.keys())
    return {w: math.log((n + 1) / (d + 1)) for w, d in df.items()}


def topic_key(
    slot_words: list[Counter[str]], acts: Counter[str], titled: float, weights: dict[str, float]
) -> str | None:
    """Seconds per word in each slot, per named activity, titled seconds, idf -> the topic key: a named activity holding half the time, else the most telling word."""
    if acts and titled:
        act, sec = acts.most_common(1)[0]
        if sec / titled >= 0.5:
            return act
    # the slots a word is on screen in, not its seconds: a word all through the stretch names
    # it, not one long page; rarity counts at its square root, since the day's main topic is
    # on screen for half the day and still names its stretch
    score: Counter[str] = Counter()
    for words in slot_words:
        for w, sec in words.items():
            rarity = weights.get(w, 0.0)
            if rarity >= BACKDROP_IDF:
                score[w] += min(1.0, sec / PRESENT_S) * math.sqrt(rarity)
    scored = [(v, w) for w, v in score.items()]
    best = max(scored, default=(0.0, None))
    return best[1] if best[0] > 0 else None


def topic_runs(slots: Slots, a: int, b: int, weights: dict[str, float]) -> list[tuple[int, int]]:
    """Slots, one kind's run [a, b), idf -> the run cut where its topic changes for MIN_SLOTS or more."""
    keys: list[str | None] = []
    for i in range(a, b):
        lo, hi = max(a, i - 2), min(b, i + 3)
        acts: Counter[str] = sum((slots.acts[j] for j in range(lo, hi)), Counter())
        key = topic_key(slots.words[lo:hi], acts, float(slots.titled[lo:hi].sum()), weights)
        # only a named activity's start or end cuts a run: words flicker between pages of one topic
        keys.append(key if key in ACTIVITIES else WORD_TOPIC if key else None)
    # a slot without a topic belongs to the one before it (the first ones to the first topic)
    first = next((k for k in keys if k is not None), None)
    keys = [
        first if k is None and all(x is None for x in keys[: i + 1]) else k
        for i, k in enumerate(keys)
    ]
    for i in range(1, len(keys)):
        keys[i] = keys[i] if keys[i] is not None else keys[i - 1]
    return [(a + x, a + y) for x, y, _ in runs(keys, MIN_TOPIC_SLOTS)] or [(a, b)]
