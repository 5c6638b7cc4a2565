"""The profile's evidence speaks of its trait: a labelled list of texts, each with the trait it is about (or none), and the chooser keeps only own words on the trait.

The texts are made up (not the sample's); window titles and calendar or CI pages are labelled
as no evidence of anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import pandas as pd
import pytest

from omoide.profile.bigfive import TRAITS, offline_big_five
from omoide.profile.integrated import build_profile, key_memories, value_cues
from omoide.profile.trait_evidence import about_trait, looks_like_title, on_trait, trait_evidence
from omoide.vault.profile_page import signal_text
from tests.fakes import rows_at

NOW = datetime(2026, 6, 30, 12, tzinfo=UTC)
rec = rows_at(NOW)

# (kind, text, the trait it is evidence of, or None: evidence of no trait)
LABELLED: list[tuple[str, str, str | None]] = [
    ("note", "Reading a novel about Lagos, learned a lot", "openness"),
    ("B", "I studied Portuguese for an hour.", "openness"),
    ("note", "日本語の記事を三つ読んだ", "openness"),
    ("B", "I planned the week and finished the report on time.", "conscientiousness"),
    ("note", "Prepared the checklist for the release", "conscientiousness"),
    ("B", "I had dinner with friends at the harbour.", "extraversion"),
    ("note", "Met Sam and talked for hours", "extraversion"),
    ("chat", "Thanks so much, happy to help with the move", "agreeableness"),
    ("B", "I helped my neighbour carry the sofa.", "agreeableness"),
    ("note", "Worried about the launch, slept badly", "neuroticism"),
    ("note", "Felt calm and rested after the weekend", "neuroticism"),
    ("note", "He is exhausted after the launch", None),  # someone else's feeling
    ("session", "07:12–07:13 duolingo.com (1 min): Duolingo - Learn a language", None),
    ("session", "10:19–10:20 calendar.google.com (1 min): Google Calendar - Week of June 8", None),
    ("session", "11:15–11:18 ci.example.dev (3 min): app.tar.gz — CI artifacts", None),
    ("note", "Google Calendar - Week of June 8 - Chrome", None),  # a pasted title
    ("W", "Sam works on the payments team.", None),  # a fact about someone else
    ("note", "Deployed build 412 to staging", None),  # work, no trait cue
]


@dataclass(frozen=True)
class _Text:
    memory_id: str
    kind: str
    text: str
    importance: float = 0.5


def _texts() -> list[_Text]:
    return [_Text(f"t{i}", kind, text) for i, (kind, text, _) in enumerate(LABELLED)]


@pytest.mark.parametrize("trait", TRAITS)
def test_the_chooser_keeps_only_own_words_on_the_trait(trait: str) -> None:
    chosen = set(trait_evidence(_texts(), trait))
    wanted = {f"t{i}" for i, (_, _, about) in enumerate(LABELLED) if about == trait}
    assert chosen == wanted
    # A stored or LLM analysis's citations are filtered by the same rule.
    every = [f"t{i}" for i in range(len(LABELLED))]
    assert set(on_trait(every, _texts(), trait)) == wanted


def test_titles_are_told_and_never_speak_of_a_trait() -> None:
    for kind, text, about in LABELLED:
        if kind == "session" or "Calendar" in text:
            assert looks_like_title(text) and about is None
            assert not any(about_trait(text, t) for t in TRAITS)
    assert not looks_like_title("Ran along the river - easy pace")


@pytest.mark.parametrize(
    ("text", "health"),
    [
        ("I ran 5 km in the park at lunch.", True),
        ("I ran 10 km along the river.", True),
        ("Went for a run before work.", True),
        ("I slept nine hours.", True),
        ("I ran a Redis spike with 1M keys.", False),
        ("I ran the tests on CI.", False),
        ("Postgres is out of the running.", False),
    ],
)
def test_running_is_health_only_as_exercise(text: str, health: bool) -> None:
    assert value_cues("health", text) is health


def _frame() -> pd.DataFrame:
    rows = [
        rec(f"t{i}", text, day=f"2026-06-{i + 1:02d}", kind=kind, importance=0.6)
        for i, (kind, text, _) in enumerate(LABELLED)
    ]
    rows += [
        rec("w1", "Sam works on the payments team.", day="2026-06-20", kind="W", importance=0.9),
        rec("w2", "Sam moved to the platform team.", day="2026-06-25", kind="W", importance=0.9),
    ]
    return pd.DataFrame(rows)


def test_the_offline_estimate_and_the_profile_cite_no_title_and_no_replaced_fact() -> None:
    frame = _frame()
    analysis = offline_big_five(frame, NOW, me=["Me"], tz="UTC")
    sessions = set(frame.loc[frame["kind"] == "session", "memory_id"])
    assert not sessions & set(analysis.evidence)
    labels = {f"t{i}": about for i, (_, _, about) in enumerate(LABELLED)}
    for trait, ids in analysis.trait_evidence.items():
        assert all(labels[i] == trait for i in ids), (trait, ids)
    profile = build_profile(frame, [analysis], NOW, me=["Me"], replaced={"w1"})
    for w in profile.dominant_traits:
        assert all(labels[i] == w.name for i in w.evidence)
    assert "w1" not in profile.key_memories and "w2" in profile.key_memories
    assert "w1" in key_memories(frame, NOW, k=50)  # only the replacement hides it


def test_a_signal_with_no_spread_is_explained_and_a_missing_one_left_out() -> None:
    shown = signal_text({"active_days": 3, "start_hour_sd": 0.0, "coverage": None})
    assert "coverage" not in shown and "active_days 3" in shown
    assert "start_hour_sd 0 (every active day started at the same hour" in shown
    assert signal_text({"start_hour_sd": 1.5}) == "start_hour_sd 1.5"
