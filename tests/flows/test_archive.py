"""`omoide export` / `omoide import` and the chat-JSONL export, run as a user runs them, on a backfilled sample day."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from omoide.sample import write_sample
from tests.fakes import run_cli

QUESTIONS = ("which store did we pick for warelay", "Peter", "ryokan in Kyoto")


@pytest.fixture(scope="module")
def sample_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home with one sample day backfilled by the `omoide` command."""
    home = tmp_path_factory.mktemp("archive") / "home"
    first, last = write_sample(home, days=1)
    r = run_cli("backfill", "--start", str(first), "--end", str(last), home=home, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    return home


def _recall(home: Path, question: str) -> list[tuple[str, float]]:
    """Home + question -> the ranked (memory id, score) pairs of `omoide recall --json`."""
    r = run_cli("recall", question, "--json", home=home)
    assert r.returncode == 0, r.stderr[-2000:]
    return [(hit["memory_id"], round(hit["score"], 9)) for hit in json.loads(r.stdout)]


def test_an_exported_home_imported_into_an_empty_one_recalls_the_same(
    sample_home: Path, tmp_path: Path
) -> None:
    archive = tmp_path / "memory.zip"
    r = run_cli("export", "--out", str(archive), "--json", home=sample_home)
    assert r.returncode == 0, r.stderr[-2000:]
    written = json.loads(r.stdout)
    assert written["counts"]["memories"] > 100 and written["embed_model"]
    empty = tmp_path / "empty"
    r = run_cli("import", str(archive), "--json", home=empty)
    assert r.returncode == 0, r.stderr[-2000:]
    restored = json.loads(r.stdout)
    assert restored["config_restored"] and not restored["counts"]["re-embedded"]
    assert restored["counts"]["memories"] == written["counts"]["memories"]
    # Recall counts what it returns, so each home is asked each question once.
    for question in QUESTIONS:
        before, after = _recall(sample_home, question), _recall(empty, question)
        assert before and [m for m, _ in after] == [m for m, _ in before], question
        # Scores decay with time, and the two recalls ran seconds apart.
        assert [s for _, s in after] == pytest.approx([s for _, s in before], rel=1e-4)
    again = run_cli("import", str(archive), home=empty)
    assert again.returncode == 1 and "import only into an empty home" in again.stderr


def test_chat_jsonl_holds_the_users_own_words_as_the_assistant(
    sample_home: Path, tmp_path: Path
) -> None:
    out = tmp_path / "twin.jsonl"
    r = run_cli("export", "--format", "chat-jsonl", "--out", str(out), "--json", home=sample_home)
    assert r.returncode == 0, r.stderr[-2000:]
    examples = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert len(examples) == json.loads(r.stdout)["examples"] > 1
    chats = pd.concat(
        pd.read_parquet(p) for p in (sample_home / "lake/events").rglob("chat.parquet")
    )
    own = "\n".join(chats.loc[chats["actor"] == "Aiko", "text"])
    others = "\n".join(chats.loc[chats["actor"] != "Aiko", "text"])
    replies = 0
    for example in examples:
        roles = [m["role"] for m in example["messages"]]
        assert roles[0] == "system" and roles[-1] == "assistant"
        assert set(roles[1:]) <= {"user", "assistant"}
        if example["messages"][1]["content"].startswith("Write your notes for"):
            assert roles == ["system", "user", "assistant"] and example["messages"][2]["content"]
            continue
        for message in example["messages"][1:]:
            said = own if message["role"] == "assistant" else others
            assert all(line in said for line in message["content"].split("\n")), message
            replies += message["role"] == "assistant"
    assert replies
    later = tmp_path / "later.jsonl"
    r = run_cli(
        "export",
        "--format",
        "chat-jsonl",
        "--out",
        str(later),
        "--since",
        "2030-01-01",
        home=sample_home,
    )
    assert r.returncode == 0 and later.read_text("utf-8") == ""
