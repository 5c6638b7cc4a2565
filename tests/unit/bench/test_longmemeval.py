"""`bench longmemeval`: each question's haystack ingested as its own home, recall scored by session and turn, against BM25."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from omoide.bench import longmemeval
from omoide.bench.longmemeval import (
    code_hash,
    parse_date,
    question,
    run_longmemeval,
    scored,
    session_of,
    within_words,
)
from tests.fakes import run_cli as omoide


def _q(
    qid: str, kind: str, text: str, sessions: dict[str, tuple[str, list[Any]]], answer: list[str]
):
    """Question id, type, text + {session id: (date, turns)} + answer sessions -> a LongMemEval record."""
    return {
        "question_id": qid,
        "question_type": kind,
        "question": text,
        "question_date": "2023/05/20 (Sat) 09:00",
        "answer": "-",
        "answer_session_ids": answer,
        "haystack_session_ids": list(sessions),
        "haystack_dates": [d for d, _ in sessions.values()],
        "haystack_sessions": [turns for _, turns in sessions.values()],
    }


def _t(role: str, text: str, answer: bool = False) -> dict[str, Any]:
    """Role + text (+ has_answer) -> a LongMemEval turn."""
    return {"role": role, "content": text, **({"has_answer": True} if answer else {})}


SOUP = [
    _t("user", "Can you suggest a simple recipe for miso soup?"),
    _t("assistant", "Dissolve miso paste in warm dashi, then add tofu and wakame seaweed."),
]
CAT = [
    _t("user", "My cat keeps scratching the new sofa, what can I do?"),
    _t("assistant", "Put a scratching post next to the sofa and reward the cat for using it."),
]
DATA = [
    _q(
        "q-pottery",
        "single-session-user",
        "Where is my pottery class?",
        {
            "s-pottery": (
                "2023/05/01 (Mon) 10:00",
                [
                    _t("user", "I booked a pottery class in Mashiko for Saturday.", answer=True),
                    _t("assistant", "Lovely, enjoy shaping your first bowl!"),
                ],
            ),
            "s-soup": ("2023/05/03 (Wed) 18:30", SOUP),
            "s-cat": ("2023/05/05 (Fri) 20:15", CAT),
        },
        ["s-pottery"],
    ),
    _q(
        "q-marathons",
        "multi-session",
        "Which marathons did I sign up for?",
        {
            "s-osaka": (
                "2023/04/02 (Sun) 08:00",
                [
                    _t("user", "I signed up for the Osaka marathon in October.", answer=True),
                    _t("assistant", "Great, start with three easy runs a week."),
                ],
            ),
            "s-soup": ("2023/04/10 (Mon) 19:00", SOUP),
            "s-tokyo": (
                "2023/05/11 (Thu) 07:30",
                [
                    _t("user", "I also registered for the Tokyo marathon next March.", answer=True),
                    _t("assistant", "Two marathons! Plan a rest month between them."),
                ],
            ),
            "s-cat": ("2023/05/12 (Fri) 21:00", CAT),
        },
        ["s-osaka", "s-tokyo"],
    ),
    _q(
        "q-tofu",
        "single-session-assistant",
        "What did you tell me to add to the miso soup?",
        {"s-soup": ("2023/05/02 (Tue) 12:00", SOUP), "s-cat": ("2023/05/04 (Thu) 12:00", CAT)},
        ["s-soup"],  # no turn marked has_answer: left out of turn recall
    ),
]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Any]]:
    """-> the data file, a cache folder and the result of a first (cold) run over it."""
    folder = tmp_path_factory.mktemp("lme")
    data = folder / "lme.json"
    data.write_text(json.dumps(DATA), encoding="utf-8")
    cache = folder / "cache"
    return data, cache, run_longmemeval(data, cache_dir=cache)


def test_the_haystack_becomes_dated_chat_lines_with_turn_keys():
    q = question(DATA[1])
    assert [x["conversation"] for x in q.conv.lines[:2]] == ["s-osaka", "s-osaka"]
    assert [x["speaker"] for x in q.conv.lines[:2]] == ["user", "assistant"]
    assert q.conv.lines[1]["ts"] == "2023-04-02T08:00:30+00:00"  # turns 30 s apart
    assert q.conv.dia_ids[:3] == ["s-osaka#0", "s-osaka#1", "s-soup#0"]
    assert q.turns == {"s-osaka#0", "s-tokyo#0"} and q.sessions == {"s-osaka", "s-tokyo"}
    assert q.now == datetime(2023, 5, 20, 9, tzinfo=UTC) == parse_date("2023/05/20 (Sat) 09:00")
    assert session_of("answer_3bf5b73b_1#12") == "answer_3bf5b73b_1"


def test_session_and_turn_recall_are_counted_per_cut_off():
    q = question(DATA[1])
    hits = [{"s-osaka#0", "s-osaka#1"}, {"s-cat#0"}, {"s-tokyo#1"}]
    got = scored(hits, [10, 20, 30], q, [1, 2, 3])
    assert got["any"] == {1: 1.0, 2: 1.0, 3: 1.0}
    assert got["all"] == {1: 0.0, 2: 0.0, 3: 1.0}  # s-tokyo first seen at 3 (through another turn)
    assert got["turn"] == {1: 0.5, 2: 0.5, 3: 0.5}  # s-tokyo#0 itself is never covered
    assert got["words"] == {1: 10.0, 2: 30.0, 3: 60.0}
    assert scored(hits, [1, 1, 1], question(DATA[2]), [1])["turn"] == {1: None}


def test_bm25_at_the_same_words_takes_the_leading_turns_that_fit():
    words = {"a": 40, "b": 50, "c": 10}
    assert within_words(["a", "b", "c"], words, 95) == ["a", "b"]
    assert within_words(["b", "a"], words, 20) == ["b"]  # at least one


def test_a_run_scores_omoide_and_bm25_and_keeps_the_documented_keys(built):
    _, cache, result = built
    assert result["questions"] == 3 and result["turn_questions"] == 2
    assert set(result["session_recall_any"]) == {"1", "5", "10"}
    assert set(result["turn_recall"]) == set(result["words"]) == {"5", "10"}
    pottery = result["by_type"]["single-session-user"]
    assert pottery["session_recall_any"]["1"] == 100.0  # the class's turn comes first
    assert pottery["turn_recall"]["5"] == 100.0 and pottery["questions"] == 1
    marathons = result["by_type"]["multi-session"]
    assert marathons["session_recall_all"]["10"] == 100.0  # both answer sessions in the top 10
    assert result["by_type"]["single-session-assistant"]["turn_recall"] == {"5": None, "10": None}
    assert 0 < result["words"]["5"] <= result["words"]["10"]
    bm25 = result["bm25_turns"]
    assert bm25["by_type"]["single-session-user"]["session_recall_any"]["1"] == 100.0
    assert set(bm25) >= {"session_recall_any", "session_recall_all", "turn_recall", "words"}
    same = result["bm25_turns_same_words"]
    assert same["words"] <= result["words"]["10"] and same["turns"] >= 1
    assert result["built"] == 3 and result["reused"] == 0
    assert result["cache_dir"] == str(cache.resolve())
    assert {p.name for p in cache.iterdir()} == {"q-pottery", "q-marathons", "q-tofu"}


def test_a_second_run_reopens_the_cached_homes(built, monkeypatch: pytest.MonkeyPatch):
    data, cache, first = built

    def no_ingest(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a cached home was ingested again")

    monkeypatch.setattr(longmemeval, "ingest", no_ingest)
    again = run_longmemeval(data, cache_dir=cache)
    assert again["built"] == 0 and again["reused"] == 3
    for key in ("session_recall_any", "session_recall_all", "turn_recall", "words", "by_type"):
        assert again[key] == first[key]
    assert again["bm25_turns"] == first["bm25_turns"]
    # A moved session is a new key and its home is built again; a later question date is not.
    monkeypatch.undo()
    moved = ["2023/04/03 (Mon) 08:00", *DATA[1]["haystack_dates"][1:]]
    changed = [
        dict(DATA[0], question_date="2023/05/21 (Sun) 09:00"),
        dict(DATA[1], haystack_dates=moved),
    ]
    data.with_name("changed.json").write_text(json.dumps(changed), encoding="utf-8")
    third = run_longmemeval(data.with_name("changed.json"), cache_dir=cache)
    assert third["built"] == 1 and third["reused"] == 1


def test_changed_building_code_rebuilds_and_recall_code_does_not_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    assert code_hash() == code_hash() != code_hash("omoide.memory.recall")
    assert len(code_hash("omoide.no_such_module")) == 64  # nothing found, still a key
    data = tmp_path / "one.json"
    data.write_text(json.dumps(DATA[2:]), encoding="utf-8")
    assert run_longmemeval(data, cache_dir=tmp_path / "cache")["built"] == 1
    monkeypatch.setattr(longmemeval, "code_hash", lambda: "other code")
    assert run_longmemeval(data, cache_dir=tmp_path / "cache")["built"] == 1


def test_bench_longmemeval_prints_one_json_object(built, omoide_home: Path):
    data, cache, first = built
    r = omoide(
        "bench",
        "longmemeval",
        "--data",
        str(data),
        "--cache-dir",
        str(cache),
        "--limit",
        "1",
        "--json",
        home=omoide_home,
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["questions"] == 1 and out["reused"] == 1  # its home is never changed above
    assert {"session_recall_any", "session_recall_all", "turn_recall", "by_type"} <= set(out)
    assert {"words", "bm25_turns", "bm25_turns_same_words", "embed_model", "seconds"} <= set(out)
    assert out["by_type"]["single-session-user"] == first["by_type"]["single-session-user"]


def test_bench_longmemeval_shows_a_table_without_json(built):
    from typer.testing import CliRunner

    from omoide.cli.bench import bench_app

    data, cache, _ = built
    args = ["longmemeval", "--data", str(data), "--cache-dir", str(cache), "--limit", "1"]
    r = CliRunner().invoke(bench_app, args)
    assert r.exit_code == 0, r.output
    assert "session_recall_any@1" in r.output and "BM25 at omoide's words" in r.output
