"""The sample's script + the blocks omoide made of its days -> how well the blocks agree with the planned activities.

A block and a planned activity of the same day match when they overlap for at least
MIN_OVERLAP of the shorter of the two and the block's words agree with the activity: its
label, topic or note names the activity's topic (TOPIC_WORDS), or, for the generic topic
`work`, its kind is the one the mode means (MODE_KINDS). Matching is one to one, the largest
overlaps first. An offline block (a timed note line with no screen time around it) is
matched against the script's timed events and note lines instead: it is right when one of
them was written at a time inside it (a note line says when the thing happened). Precision
is the matched share of blocks, recall the matched share of activities.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo

import pandas as pd

MIN_OVERLAP = 0.5
# A plan's topic -> the words a block about it is named by (lower-case, found as substrings).
TOPIC_WORDS: dict[str, tuple[str, ...]] = {
    "lancedb": ("lancedb", "lance"),
    "kyoto": ("kyoto", "ryokan"),
    "cooking": ("cooking", "cooked", "recipe", "oyakodon", "dashi", "tamagoyaki", "onigiri"),
    "prefect": ("prefect",),
    "python": ("python", "sqlite", "zoneinfo", "pandas"),
    "japanese": ("japanese", "日本語", "jisho", "wanikani"),
    "running": ("running", "ran ", "run ", "strava", "komoot"),
    "news": ("news",),
}
MODE_KINDS = {"meeting": "meeting", "deep": "coding", "research": "reading", "comms": "messages"}
GENERIC_TOPIC = "work"


def _utc(day: str, hhmm: str, tz: str) -> pd.Timestamp:
    """Local day + 'HH:MM[:SS]' + zone -> the UTC instant."""
    t = time.fromisoformat(hhmm)
    local = datetime.combine(date.fromisoformat(day), t, tzinfo=ZoneInfo(tz))
    return pd.Timestamp(local).tz_convert("UTC")


def agrees(block: dict[str, Any], activity: dict[str, Any]) -> bool:
    """A block (kind, label, topic, note) + a planned activity -> do its words or kind name the activity?"""
    topic = activity["topic"]
    if topic == GENERIC_TOPIC:
        return block.get("kind") == MODE_KINDS.get(activity["mode"])
    text = " ".join(str(block.get(k) or "") for k in ("label", "topic", "note")).lower() + " "
    return any(w in text for w in TOPIC_WORDS.get(topic, (topic,)))


def _timed(script: dict[str, Any]) -> dict[str, list[pd.Timestamp]]:
    """Script -> per day, the times of its timed events and timed note lines (UTC)."""
    tz = script["sample"]["timezone"]
    out: dict[str, list[pd.Timestamp]] = defaultdict(list)
    for e in script.get("events", []):
        if e.get("time"):
            out[e["day"]].append(_utc(e["day"], e["time"], tz))
    for d in script.get("days", []):
        for line in d.get("note", []):
            if line.get("time"):
                out[d["day"]].append(_utc(d["day"], line["time"], tz))
    return out


def block_scores(script: dict[str, Any], blocks: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Script + blocks per day (dicts with start, end as UTC instants, kind, label, topic, note) -> precision, recall and per-kind detail."""
    tz = script["sample"]["timezone"]
    plans: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for a in script["activities"]:
        if a["day"] in blocks:
            plans[a["day"]].append(a)
    timed = _timed(script)
    n_blocks = hits = found = n_acts = 0
    by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for day, day_blocks in blocks.items():
        acts = plans.get(day, [])
        n_acts += len(acts)
        spans = [(_utc(day, a["start"], tz), _end(day, a, tz)) for a in acts]
        pairs = []
        for i, b in enumerate(day_blocks):
            bs, be = pd.Timestamp(b["start"]), pd.Timestamp(b["end"])
            for j, (s, e) in enumerate(spans):
                over = (min(be, e) - max(bs, s)).total_seconds()
                short = min((be - bs).total_seconds(), (e - s).total_seconds())
                if short > 0 and over >= MIN_OVERLAP * short and agrees(b, acts[j]):
                    pairs.append((over, i, j))
        used_b: set[int] = set()
        used_a: set[int] = set()
        for _, i, j in sorted(pairs, reverse=True):
            if i not in used_b and j not in used_a:
                used_b.add(i)
                used_a.add(j)
        for i, b in enumerate(day_blocks):
            if b.get("kind") == "offline" and i not in used_b:
                bs, be = pd.Timestamp(b["start"]), pd.Timestamp(b["end"])
                if any(bs <= t < be for t in timed.get(day, [])):
                    used_b.add(i)
            by_kind[str(b.get("kind"))][0] += 1
            by_kind[str(b.get("kind"))][1] += i in used_b
        n_blocks += len(day_blocks)
        hits += len(used_b)
        found += len(used_a)
    return {
        "block_precision": round(hits / n_blocks, 3) if n_blocks else 0.0,
        "block_recall": round(found / n_acts, 3) if n_acts else 0.0,
        "blocks": n_blocks,
        "activities": n_acts,
        "by_kind": {k: {"blocks": n, "right": r} for k, (n, r) in sorted(by_kind.items())},
    }


def _end(day: str, activity: dict[str, Any], tz: str) -> pd.Timestamp:
    """A planned activity -> its UTC end (an end at or before its start is past midnight)."""
    s, e = _utc(day, activity["start"], tz), _utc(day, activity["end"], tz)
    return e if e > s else e + pd.Timedelta(days=1)
