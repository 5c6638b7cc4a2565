"""Memories + Big Five analyses -> the integrated profile (aigpt's "Layer 3.5"), cached and rebuilt on triggers.

The integrated profile condenses memories and Big Five analyses into what a reader (or an
assistant) needs first: dominant traits, core interests, core values, key memories and how
much evidence there is. Like aigpt's `UserProfile` it is cached and rebuilt only when it may
have changed: ≥ 10 new memories, a new analysis, 7 days since the last build, or a cache
built by an older rule (PROFILE_METHOD).

Core interests are topics (omoide.profile.topics): the entities memories name and the web
places sessions were spent on, less what is no topic: people, conversations, bots, the user,
tools used to get somewhere (search engines, sign-in pages, shorteners) and code hosts (the
projects their titles name count instead).

Which Big Five analysis is *current*: the latest questionnaire if there is one, else the
latest LLM analysis, else the latest offline estimate. The page shows every source apart,
with its own evidence; sources are never averaged.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from datetime import datetime, timedelta
from pathlib import Path

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from omoide.core.files import write_text_if_changed
from omoide.profile.bigfive import TRAITS, Analysis, is_topic, not_topics, own_texts
from omoide.profile.topics import row_topics
from omoide.profile.trait_evidence import on_trait

REBUILD_NEW_MEMORIES = 10
# Bump when what a build computes changes, so a cached profile is rebuilt at the next run.
PROFILE_METHOD = "3"  # 3: traits and values rest on own words about them; no replaced fact is key
REBUILD_AFTER = timedelta(days=7)
CURRENT_ORDER = ("quiz", "llm", "offline")
KEY_KINDS_EXCLUDED = ("session", "digest")  # activity lines and day summaries are not "key"
DECAY_LAMBDA = 0.05  # the recall default: strength by age when no `strength` column is given
SHOWN_EVIDENCE = 5  # evidence ids kept per trait, interest and value (the page shows them all)
SEEN_WEIGHT = 0.5  # a browsed domain's weight relative to a topic a memory names

# Core values: cue words looked up in the user's B (experience) and O (opinion) facts. A fact
# counts towards a value when it contains one of its cues, weighted importance × confidence.
VALUES: dict[str, frozenset[str]] = {
    name: frozenset(cues.split())
    for name, cues in {
        "quality": "quality correct careful thorough test tests tested review reliable robust",
        "simplicity": "simple simpler simplicity minimal clean lean",
        "privacy": "privacy private local offline encrypt encrypted",
        "learning": "learn learned learning read reading study studied curious explore",
        "health": "sleep slept walk walked walking gym yoga health healthy jog jogging swim swam"
        " workout exercise exercised stretching",
        "connection": "friend friends family together team dinner visit call",
        "craft": "build built design ship shipped craft write wrote",
        "efficiency": "fast faster efficient speed quick automate automated",
        "creativity": "idea ideas create creative art music draw imagine",
    }.items()
}


# Running is health only as exercise: "ran 5 km", "went for a run", "running on the canal";
# not "ran a LanceDB spike", "ran the tests" or "out of the running".
_HEALTH_RUN = re.compile(
    r"\b[Rr]an\s+(?:\d+(?:[.,]\d+)?\s*(?:km|k|mi|miles?|kilometres?|kilometers?)\b|a\s+(?:marathon"
    r"|half|race|\d+\s*k)\b|(?:in|on|along|around|through)\s+(?:the\s+)?(?!tests?\b|ci\b)[A-Z])"
    r"|\b[Ww]ent\s+(?:for\s+a\s+)?(?:run|jog)\b|\b(?:my|a|morning|evening|long|easy)\s+run\b"
    r"|(?<!the\s)\b[Rr]unning\s+(?:\d|in\b|on\b|along\b|around\b|club\b|shoes\b)"
    r"|ジョギング|ランニング|走った|走る",
)


def value_cues(value: str, text: str) -> bool:
    """A value's name + a B/O fact's text -> does the text speak of that value?"""
    words = set(re.findall(r"[a-z]+", text.lower()))
    if words & VALUES.get(value, frozenset()):
        return True
    return value == "health" and _HEALTH_RUN.search(text) is not None


class ProfileState(BaseModel):
    """What the last build saw: when it ran, how many memories, the newest analysis time."""

    model_config = ConfigDict(frozen=True)

    built_at: datetime
    n_memories: int
    latest_analysis_at: datetime | None = None
    method: str = "1"  # PROFILE_METHOD of the build; caches from before it had none


class Weighted(BaseModel):
    """A named interest, value or trait with its weight and the memory ids it rests on."""

    name: str
    weight: float
    evidence: list[str] = Field(default_factory=list)


class IntegratedProfile(BaseModel):
    """The cached summary of who the user is, built from memories and analyses."""

    state: ProfileState
    current_source: str | None = None
    current_analysis_id: str | None = None
    dominant_traits: list[Weighted] = Field(default_factory=list)
    core_interests: list[Weighted] = Field(default_factory=list)
    core_values: list[Weighted] = Field(default_factory=list)
    key_memories: list[str] = Field(default_factory=list)
    data_quality: float = Field(ge=0.0, le=1.0)
    quality_basis: dict[str, float] = Field(default_factory=dict)


def latest_by_source(analyses: Sequence[Analysis]) -> dict[str, Analysis]:
    """Analyses -> {source: its latest analysis}, in CURRENT_ORDER."""
    out: dict[str, Analysis] = {}
    for source in CURRENT_ORDER:
        mine = [a for a in analyses if a.source == source]
        if mine:
            out[source] = max(mine, key=lambda a: (a.analyzed_at, a.analysis_id))
    return out


def current_analysis(analyses: Sequence[Analysis]) -> Analysis | None:
    """Analyses -> the current one: latest quiz, else latest LLM, else latest offline."""
    return next(iter(latest_by_source(analyses).values()), None)


def needs_rebuild(
    last: ProfileState | None,
    n_memories: int,
    latest_analysis_at: datetime | None,
    now: datetime,
) -> bool:
    """Last build + memory count + newest analysis time + now -> must the profile be rebuilt?"""
    if last is None or last.method != PROFILE_METHOD:
        return True
    if n_memories - last.n_memories >= REBUILD_NEW_MEMORIES:
        return True
    if latest_analysis_at is not None and (
        last.latest_analysis_at is None or latest_analysis_at > last.latest_analysis_at
    ):
        return True
    return now - last.built_at >= REBUILD_AFTER


def _ranked(weights: dict[str, float], ids: dict[str, list[tuple[float, str]]], k: int):
    """Weights and (weight, id) lists per key -> top-k Weighted, heaviest first, ties by name."""
    top = sorted(weights, key=lambda n: (-weights[n], n))[:k]
    return [
        Weighted(
            name=n,
            weight=round(weights[n], 4),
            evidence=[i for _, i in sorted(ids[n], key=lambda p: (-p[0], p[1]))[:SHOWN_EVIDENCE]],
        )
        for n in top
        if weights[n] > 0
    ]


def core_interests(memories: pd.DataFrame, exclude: set[str], k: int = 5) -> list[Weighted]:
    """Memory rows -> top-k topics, each weighted by the days it comes up on (see below).

    A topic earns, per day, the largest importance × confidence among that day's memories
    naming it, so a topic that recurs across days outranks one that fills a single day; a
    browsed web domain counts half (seen, not named by the user or a fact).
    """
    best: dict[tuple[str, str], float] = {}
    ids: dict[str, list[tuple[float, str]]] = {}
    shown: dict[str, str] = {}
    for row in memories[memories["kind"] != "digest"].itertuples(index=False):
        w = float(row.importance) * float(row.confidence)
        named = set(row.entities) if row.entities is not None else set()
        for topic in row_topics(row.kind, row.entities, str(row.content)):
            key = topic.casefold()
            if not is_topic(topic, exclude):
                continue
            weight = w if topic in named else SEEN_WEIGHT * w
            shown.setdefault(key, topic)
            best[key, row.day] = max(best.get((key, row.day), 0.0), weight)
            ids.setdefault(key, []).append((weight, row.memory_id))
    weights: dict[str, float] = {}
    for (key, _day), weight in best.items():
        weights[key] = weights.get(key, 0.0) + weight
    ranked = _ranked(weights, ids, k)
    return [r.model_copy(update={"name": shown[r.name]}) for r in ranked]


def core_values(memories: pd.DataFrame, k: int = 5) -> list[Weighted]:
    """Memory rows -> top-k values whose cue words appear in B/O facts, weighted importance × confidence."""
    weights: dict[str, float] = {}
    ids: dict[str, list[tuple[float, str]]] = {}
    for row in memories[memories["kind"].isin(["B", "O"])].itertuples(index=False):
        w = float(row.importance) * float(row.confidence)
        for value in VALUES:
            if value_cues(value, str(row.content)):
                weights[value] = weights.get(value, 0.0) + w
                ids.setdefault(value, []).append((w, row.memory_id))
    return _ranked(weights, ids, k)


def key_memories(
    memories: pd.DataFrame, now: datetime, k: int = 10, replaced: Collection[str] = ()
) -> list[str]:
    """Memory rows (+ ids of facts a later one replaced) -> top-k ids by importance × confidence × strength (age decay if no column), none replaced."""
    rows = memories[~memories["kind"].isin(KEY_KINDS_EXCLUDED)]
    # "Peter works on the payments team" once he moved to the platform team is history.
    rows = rows[~rows["memory_id"].isin(set(replaced))]
    if rows.empty:
        return []
    if "strength" in rows.columns:
        strength = rows["strength"].astype(float)
    else:
        age = (pd.Timestamp(now) - pd.to_datetime(rows["ts"], utc=True)).dt.total_seconds()
        strength = 1.0 / (1.0 + DECAY_LAMBDA * (age / 86400.0).clip(lower=0.0))
    score = rows["importance"].astype(float) * rows["confidence"].astype(float) * strength
    ranked = rows.assign(_score=score).sort_values(["_score", "memory_id"], ascending=[False, True])
    return ranked["memory_id"].head(k).tolist()


def build_profile(
    memories: pd.DataFrame,
    analyses: Sequence[Analysis],
    now: datetime,
    me: Iterable[str] = (),
    people: Iterable[str] = (),
    replaced: Collection[str] = (),
) -> IntegratedProfile:
    """Memory rows + analyses + now (+ the user's names, people, ids of replaced facts) -> a freshly built integrated profile."""
    me = list(me)
    current = current_analysis(analyses)
    own = own_texts(memories, me)
    traits: list[Weighted] = []
    if current is not None:
        scores = current.scores.as_dict()
        top = sorted(TRAITS, key=lambda t: (-scores[t], TRAITS.index(t)))[:3]
        evidence = current.evidence
        # Whatever analysis is current (one stored before this rule too), a trait shows only
        # own words about it: never a window title or another trait's text.
        traits = [
            Weighted(
                name=t,
                weight=scores[t],
                evidence=on_trait(current.trait_evidence.get(t, evidence), own, t),
            )
            for t in top
        ]
    # People (chat speakers, the user, names the caller knows) are relationships, not topics.
    excluded = not_topics(memories, me, list(people))
    days = memories["day"].nunique() if len(memories) else 0
    basis = {
        "own_texts": float(len(own)),
        "days": float(days),
        "volume": round(min(1.0, len(own) / 100), 4),
        "span": round(min(1.0, days / 30), 4),
        "analysis_confidence": current.confidence if current else 0.0,
    }
    quality = 0.4 * basis["volume"] + 0.2 * basis["span"] + 0.4 * basis["analysis_confidence"]
    return IntegratedProfile(
        state=ProfileState(
            built_at=now,
            n_memories=len(memories),
            latest_analysis_at=max((a.analyzed_at for a in analyses), default=None),
            method=PROFILE_METHOD,
        ),
        current_source=current.source if current else None,
        current_analysis_id=current.analysis_id if current else None,
        dominant_traits=traits,
        core_interests=core_interests(memories, excluded),
        core_values=core_values(memories),
        key_memories=key_memories(memories, now, replaced=replaced),
        data_quality=round(min(1.0, quality), 4),
        quality_basis=basis,
    )


def refresh_profile(
    last: IntegratedProfile | None,
    memories: pd.DataFrame,
    analyses: Sequence[Analysis],
    now: datetime,
    me: Iterable[str] = (),
    people: Iterable[str] = (),
    replaced: Collection[str] = (),
) -> tuple[IntegratedProfile, bool]:
    """Cached profile + inputs (+ ids of replaced facts) -> (profile, rebuilt?): rebuilt only when a trigger fired."""
    latest = max((a.analyzed_at for a in analyses), default=None)
    if last is not None and not needs_rebuild(last.state, len(memories), latest, now):
        return last, False
    return build_profile(memories, analyses, now, me, people, replaced), True


def load_profile(path: Path) -> IntegratedProfile | None:
    """JSON file -> the cached profile, or None when there is none yet."""
    if not path.exists():
        return None
    return IntegratedProfile.model_validate_json(path.read_text(encoding="utf-8"))


def save_profile(path: Path, profile: IntegratedProfile) -> bool:
    """Profile -> JSON file, written only when its content changed; changed?"""
    return write_text_if_changed(profile.model_dump_json(indent=2) + "\n", path)


def profile_deltas(before: IntegratedProfile | None, after: IntegratedProfile) -> list[str]:
    """Two integrated profiles -> readable lines of what changed (traits, interests, quality)."""
    if before is None:
        return ["first profile built"]
    out = []
    for name in ("dominant_traits", "core_interests", "core_values"):
        old = [w.name for w in getattr(before, name)]
        new = [w.name for w in getattr(after, name)]
        if old != new:
            out.append(
                f"{name.replace('_', ' ')}: {', '.join(old) or '-'} → {', '.join(new) or '-'}"
            )
    if before.data_quality != after.data_quality:
        out.append(f"data quality {before.data_quality:.2f} → {after.data_quality:.2f}")
    return out
