from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest

from omoide.core.files import write_bytes_if_changed
from omoide.profile.bigfive import Analysis, BigFive, offline_big_five
from omoide.profile.history import load_analyses, record_analysis
from omoide.profile.integrated import (
    PROFILE_METHOD,
    ProfileState,
    build_profile,
    current_analysis,
    load_profile,
    needs_rebuild,
    refresh_profile,
    save_profile,
)
from omoide.profile.ipip import quiz_analysis
from omoide.profile.radar import radar_png
from omoide.store.profile_table import open_profile_history
from omoide.vault.evidence import cited_memories
from omoide.vault.profile_page import write_profile_page
from tests.fakes import rows_at

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)


rec = rows_at(NOW)


MEMORIES = pd.DataFrame(
    [
        rec("n-warelay", "Worked on @warelay sync, calm morning", 3, entities=["warelay"]),
        rec("n-lance", "Read the LanceDB docs", 2, entities=["LanceDB", "Peter"]),
        rec("c-peter", "Peter: lunch?\nAiko: thanks, sure", 2, kind="chat", entities=["Peter"]),
        rec("s-gh", "09:00–09:40 github.com (40 min): warelay PRs", 2, kind="session"),
        rec("c-bot", "Aiko: how?\nassistant: so", 2, kind="chat", entities=["assistant"]),
        rec("n-mina", "Coffee with @Mina", 2, entities=["Mina"], importance=0.9),
        rec(
            "b-test",
            "The user wrote tests for warelay",
            1,
            kind="B",
            importance=0.9,
            entities=["warelay"],
        ),
        rec("o-simple", "Simple code beats clever code", 1, kind="O", confidence=0.8),
        rec("d-day", "Digest of the day", 1, kind="digest", importance=1.0),
    ]
)


def analysis(source: str, days_ago: float, value: float, evidence=("n-warelay",)) -> Analysis:
    return Analysis(
        analysis_id=f"{source}-{days_ago}",
        source=source,  # type: ignore[arg-type]
        method="test",
        analyzed_at=NOW - timedelta(days=days_ago),
        scores=BigFive(
            openness=value,
            conscientiousness=0.4,
            extraversion=0.3,
            agreeableness=0.8,
            neuroticism=0.2,
        ),
        confidence=0.6,
        evidence=list(evidence),
    )


def test_profile_history_is_idempotent_and_round_trips(tmp_path: Path):
    table = open_profile_history(tmp_path / "db")
    quiz = quiz_analysis({n: 2 + n % 3 for n in range(1, 51)}, NOW)
    offline = offline_big_five(MEMORIES, NOW, me=["Aiko"])
    assert record_analysis(table, quiz) and record_analysis(table, offline)
    version = table.version
    assert not record_analysis(table, quiz)
    assert not record_analysis(
        table, offline_big_five(MEMORIES, NOW + timedelta(hours=1), ["Aiko"])
    )
    assert table.count_rows() == 2 and table.version == version
    reopened = open_profile_history(tmp_path / "db")
    assert load_analyses(reopened) == sorted([quiz, offline], key=lambda a: a.analysis_id)


def test_current_source_rule():
    offline, llm, quiz = (
        analysis("offline", 0, 0.5),
        analysis("llm", 1, 0.6),
        analysis("quiz", 9, 0.7),
    )
    assert current_analysis([offline, llm, quiz]) is quiz  # a quiz wins even when older
    assert current_analysis([offline, llm, analysis("llm", 2, 0.1)]) is llm  # the latest llm
    assert current_analysis([offline]) is offline
    assert current_analysis([]) is None


def test_needs_rebuild_only_on_its_triggers():
    built = ProfileState(
        built_at=NOW,
        n_memories=100,
        latest_analysis_at=NOW - timedelta(days=1),
        method=PROFILE_METHOD,
    )
    seen = built.latest_analysis_at
    assert needs_rebuild(None, 0, None, NOW)
    # A cache built by an older rule (or before rules were versioned) is rebuilt at once.
    assert needs_rebuild(built.model_copy(update={"method": "1"}), 100, seen, NOW)
    old_cache = built.model_dump(mode="json")
    del old_cache["method"]
    assert needs_rebuild(ProfileState.model_validate(old_cache), 100, seen, NOW)
    assert not needs_rebuild(built, 109, seen, NOW + timedelta(days=6, hours=23))
    assert needs_rebuild(built, 110, seen, NOW)  # ≥ 10 new memories
    assert needs_rebuild(built, 100, NOW, NOW)  # a new analysis
    assert needs_rebuild(built, 100, seen, NOW + timedelta(days=7))  # a week old
    first = ProfileState(built_at=NOW, n_memories=5, method=PROFILE_METHOD)
    assert not needs_rebuild(first, 5, None, NOW + timedelta(days=1))
    assert needs_rebuild(first, 5, NOW, NOW + timedelta(days=1))  # the first analysis ever


def test_refresh_reuses_the_cache_until_a_trigger_fires():
    analyses = [analysis("offline", 1, 0.5)]
    profile, rebuilt = refresh_profile(None, MEMORIES, analyses, NOW)
    assert rebuilt
    same, rebuilt = refresh_profile(profile, MEMORIES, analyses, NOW + timedelta(days=2))
    assert not rebuilt and same is profile
    more = pd.concat([MEMORIES, pd.DataFrame([rec(f"x{i}", "more") for i in range(10)])])
    fresh, rebuilt = refresh_profile(profile, more, analyses, NOW + timedelta(days=2))
    assert rebuilt and fresh.state.n_memories == len(more)
    newer = [*analyses, analysis("llm", 0, 0.9)]
    fresh, rebuilt = refresh_profile(profile, MEMORIES, newer, NOW + timedelta(hours=1))
    assert rebuilt and fresh.current_source == "llm"
    _, rebuilt = refresh_profile(profile, MEMORIES, analyses, NOW + timedelta(days=7))
    assert rebuilt


def test_build_profile_parts():
    profile = build_profile(MEMORIES, [analysis("llm", 1, 0.9)], NOW, me=["Aiko"], people=["Mina"])
    assert [t.name for t in profile.dominant_traits] == [
        "openness",
        "agreeableness",
        "conscientiousness",
    ]
    interests = [i.name for i in profile.core_interests]
    # People (chat speakers, names given) and assistants are not interests; warelay recurs on
    # two days; github.com is a code host, whose session here names no project.
    assert interests == ["warelay", "LanceDB"]
    assert profile.core_interests[0].evidence == ["b-test", "n-warelay"]
    assert "Mina" in [i.name for i in build_profile(MEMORIES, [], NOW).core_interests]
    assert {v.name for v in profile.core_values} >= {"quality", "simplicity"}
    assert profile.core_values[0].evidence == ["b-test"]
    assert profile.key_memories[0] == "b-test"
    assert not {"s-gh", "d-day"} & set(profile.key_memories)
    assert 0.0 <= profile.data_quality <= 1.0
    assert profile.current_analysis_id == "llm-1"


def test_profile_state_round_trips(tmp_path: Path):
    profile = build_profile(MEMORIES, [], NOW)
    path = tmp_path / "profile.json"
    assert save_profile(path, profile) and not save_profile(path, profile)
    assert load_profile(path) == profile
    assert load_profile(tmp_path / "missing.json") is None


def test_profile_page_links_every_statement_to_evidence(tmp_path: Path):
    vault = tmp_path / "vault"
    quiz = quiz_analysis({n: 4 for n in range(1, 51)}, NOW)
    analyses = [
        analysis("llm", 3, 0.5, evidence=("n-lance",)),
        analysis("llm", 1, 0.7, evidence=("n-warelay", "b-test")),
        offline_big_five(MEMORIES, NOW, me=["Aiko"]),
        quiz,
    ]
    profile = build_profile(MEMORIES, analyses, NOW, me=["Aiko"])
    cites = cited_memories(MEMORIES, home=tmp_path)
    assert write_profile_page(vault, analyses, profile, cites) == (True, True)
    text = (vault / "bank" / "profile.md").read_text()
    assert "Current: **quiz**" in text and "![Big Five radar](profile-radar.png)" in text
    assert "### Questionnaire (IPIP-50) — current" in text
    assert "### Offline estimate (low confidence)" in text
    statements = [ln for ln in text.splitlines() if re.match(r"- [A-Za-z].* \d\.\d\d", ln)]
    assert statements and all("rests on" in ln or "from the" in ln for ln in statements)
    by_id = MEMORIES.set_index("memory_id")
    for mid in ("n-warelay", "b-test", "n-lance"):
        # Day, quote and a link from vault/bank/ to the cited line; the id only in a comment.
        day, content = by_id.loc[mid, "day"], by_id.loc[mid, "content"]
        link = f"[memory/{day}.md, line {len(mid)}](../memory/{day}.md#L{len(mid)})"
        assert f"{day} “{content}” — {link} <!-- memory:{mid} -->" in text
        assert f"`{mid}`" not in text
    assert f"<!-- analysis:{quiz.analysis_id} -->" in text
    assert f"`{quiz.analysis_id}`" not in text
    assert "change O +0.20" in text  # llm 0.5 -> 0.7 in the history
    png = vault / "bank" / "profile-radar.png"
    before = (
        png.read_bytes(),
        png.stat().st_mtime_ns,
        (vault / "bank" / "profile.md").stat().st_mtime_ns,
    )
    assert write_profile_page(vault, analyses, profile, cites) == (False, False)
    after = (
        png.read_bytes(),
        png.stat().st_mtime_ns,
        (vault / "bank" / "profile.md").stat().st_mtime_ns,
    )
    assert after == before


def test_radar_png_is_deterministic_and_written_once(tmp_path: Path):
    series = {
        "quiz": BigFive(
            openness=0.7,
            conscientiousness=0.6,
            extraversion=0.3,
            agreeableness=0.8,
            neuroticism=0.4,
        ).as_dict()
    }
    data = radar_png(series, "quiz")
    assert data.startswith(b"\x89PNG") and data == radar_png(series, "quiz")
    assert b"Matplotlib" not in data  # no version stamp in the metadata
    path = tmp_path / "r.png"
    assert write_bytes_if_changed(data, path)
    mtime = path.stat().st_mtime_ns
    assert not write_bytes_if_changed(radar_png(series, "quiz"), path)
    assert path.stat().st_mtime_ns == mtime
    changed = radar_png({"quiz": {**series["quiz"], "openness": 0.2}}, "quiz")
    assert write_bytes_if_changed(changed, path)


@pytest.mark.parametrize("empty", [True])
def test_build_profile_on_no_memories(empty):
    frame = MEMORIES.iloc[0:0]
    profile = build_profile(frame, [], NOW)
    assert (
        profile.key_memories == [] and profile.core_interests == [] and profile.data_quality == 0.0
    )


def test_an_analysis_cites_only_memories_that_exist_after_a_day_is_made_again(
    tmp_path: Path,
) -> None:
    from omoide.store.profile_table import drop_missing_evidence
    from tests.fakes import FakeEmbedder, memory_row, stored_memories

    db = tmp_path / "db"
    rows = [memory_row(m, "kept", now=NOW) for m in ("m1", "m2")]
    stored_memories(db, FakeEmbedder(), NOW, *rows)
    table = open_profile_history(db)
    record_analysis(table, analysis("offline", 0, 0.5, evidence=["m1", "m2", "gone"]))
    # A re-made day's rows came back under new ids: the analysis keeps its scores, cites what is.
    assert drop_missing_evidence(db) == 1
    (kept,) = load_analyses(open_profile_history(db))
    assert kept.evidence == ["m1", "m2"] and kept.scores.openness == 0.5
    assert drop_missing_evidence(db) == 0
