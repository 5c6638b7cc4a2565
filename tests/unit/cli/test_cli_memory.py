"""`omoide recall`, `reindex` and `bench locomo`, run as a user runs them."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import lancedb
import pytest

from omoide.bench.locomo import evidence_ids, normalise_dia, parse_session_time
from tests.conftest import FIXTURES
from tests.fakes import run_cli as omoide


def test_recall_json_has_the_documented_fields(home_with_memories: Path):
    r = omoide(
        "recall",
        "which database did we pick for warelay",
        "--k",
        "2",
        "--json",
        home=home_with_memories,
    )
    assert r.returncode == 0, r.stderr
    items = json.loads(r.stdout)
    assert 1 <= len(items) <= 2
    top = items[0]
    assert {"memory_id", "kind", "ts", "entities", "content", "source", "score"} <= set(top)
    assert top["memory_id"] == "m1" and top["source"] == "notes/2026-11-20.md#L18"
    assert datetime.fromisoformat(top["ts"]) == datetime(2026, 11, 20, 9, tzinfo=UTC)


def test_recall_filters_and_rehearsal_from_the_command_line(home_with_memories: Path):
    r = omoide(
        "recall",
        "team",
        "--kind",
        "W",
        "--entity",
        "peter",
        "--json",
        "--no-rehearse",
        home=home_with_memories,
    )
    assert r.returncode == 0, r.stderr
    assert [i["memory_id"] for i in json.loads(r.stdout)] == ["m2"]
    table = lancedb.connect(home_with_memories / "lancedb").open_table("memories")
    assert table.to_pandas().set_index("memory_id").loc["m2", "recall_count"] == 0
    assert (
        omoide("recall", "team", "--kind", "W", "--json", home=home_with_memories).returncode == 0
    )
    table = lancedb.connect(home_with_memories / "lancedb").open_table("memories")
    assert table.to_pandas().set_index("memory_id").loc["m2", "recall_count"] == 1


def test_recall_before_any_run_says_what_to_do(tmp_path: Path):
    r = omoide("recall", "anything", home=tmp_path / "empty")
    assert r.returncode == 1 and "omoide backfill" in r.stderr and "Traceback" not in r.stderr


def test_bench_locomo_prints_the_documented_json(omoide_home: Path):
    r = omoide(
        "bench",
        "locomo",
        "--data",
        str(FIXTURES / "locomo_tiny.json"),
        "--k",
        "1,5",
        "--json",
        home=omoide_home,
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["questions"] == 4
    assert set(out["recall_at"]) == {"1", "5"}
    assert {"overall", "single-hop", "multi-hop", "temporal", "adversarial"} <= set(
        out["recall_at"]["5"]
    )
    assert out["recall_at"]["5"]["single-hop"] == 100.0  # "pottery class ... Mashiko" is found
    assert out["recall_at"]["5"]["adversarial"] == 100.0  # no evidence counts 1.0
    assert out["mean_words"]["5"] > out["mean_words"]["1"] > 0


def test_locomo_evidence_and_dates_are_normalised():
    assert evidence_ids(["D8:6; D9:17", "D:11:26", "D30:05"]) == {
        "D8:6",
        "D9:17",
        "D11:26",
        "D30:5",
    }
    assert normalise_dia("nonsense") is None
    assert parse_session_time("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def test_profile_quiz_entity_and_around_from_the_command_line(home_with_memories: Path):
    quiz = omoide("profile", "quiz", home=home_with_memories, input="4\n" * 50)
    assert quiz.returncode == 0, quiz.stderr
    assert "Saved" in quiz.stdout
    r = omoide("profile", "--json", home=home_with_memories)
    assert r.returncode == 0, r.stderr
    current = json.loads(r.stdout)["current"]
    assert current["source"] == "quiz"
    # all answers 4 on the IPIP-50 key (hand-worked in tests/unit/reflect/test_ipip.py)
    assert current["scores"]["openness"] == pytest.approx(0.60)
    assert (home_with_memories / "vault" / "bank" / "profile.md").exists()
    # Read by a person: key memories as day, short quote and the line they came from.
    r = omoide("profile", home=home_with_memories)
    assert r.returncode == 0, r.stderr
    shown = r.stdout.split("key memories:\n", 1)[1].splitlines()
    assert "2026-11-20  “Peter moved to the platform team.”" in [ln.strip() for ln in shown]
    assert "notes/2026-11-20.md#L17" in [ln.strip() for ln in shown]

    r = omoide("entity", "@peter", "--json", home=home_with_memories)
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert (
        report["name"] == "Peter" and report["timeline"][0]["source"] == "notes/2026-11-20.md#L17"
    )
    assert report["timeline"][0]["quote"] == "Peter moved to the platform team."
    r = omoide("entity", "@peter", home=home_with_memories)
    assert r.returncode == 0, r.stderr
    lines = [ln.strip() for ln in r.stdout.splitlines()]
    assert "2026-11-20  W       “Peter moved to the platform team.”" in lines
    assert "notes/2026-11-20.md#L17" in lines and "m2" not in r.stdout

    r = omoide("recall", "--around", "m2", "--json", home=home_with_memories)
    assert r.returncode == 0, r.stderr
    assert all("reasons" in item for item in json.loads(r.stdout))
