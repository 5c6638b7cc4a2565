"""Commands run as a user runs them on one backfilled sample home: export / import, the chat-JSONL
export, and recall in Japanese and with time words (`--now`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from omoide.memory.chat_window import AFTER, BEFORE
from omoide.memory.overlap import line_key
from omoide.memory.recall import INFERRED
from tests.fakes import run_cli

QUESTIONS = ("which store did we pick for warelay", "Peter", "ryokan in Kyoto")


def _recall(home: Path, question: str) -> list[tuple[str, float]]:
    """Home + question -> the ranked (memory id, score) pairs of `omoide recall --json`."""
    r = run_cli("recall", question, "--json", home=home)
    assert r.returncode == 0, r.stderr[-2000:]
    return [(hit["memory_id"], round(hit["score"], 9)) for hit in json.loads(r.stdout)]


def test_an_exported_home_imported_into_an_empty_one_recalls_the_same(
    sample_two_days: Path, tmp_path: Path
) -> None:
    archive = tmp_path / "memory.zip"
    r = run_cli("export", "--out", str(archive), "--json", home=sample_two_days)
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
        before, after = _recall(sample_two_days, question), _recall(empty, question)
        assert before and [m for m, _ in after] == [m for m, _ in before], question
        # Scores decay with time, and the two recalls ran seconds apart.
        assert [s for _, s in after] == pytest.approx([s for _, s in before], rel=1e-4)
    again = run_cli("import", str(archive), home=empty)
    assert again.returncode == 1 and "import only into an empty home" in again.stderr


def test_chat_jsonl_holds_the_users_own_words_as_the_assistant(
    sample_two_days: Path, tmp_path: Path
) -> None:
    out = tmp_path / "twin.jsonl"
    r = run_cli(
        "export", "--format", "chat-jsonl", "--out", str(out), "--json", home=sample_two_days
    )
    assert r.returncode == 0, r.stderr[-2000:]
    examples = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert len(examples) == json.loads(r.stdout)["examples"] > 1
    chats = pd.concat(
        pd.read_parquet(p) for p in (sample_two_days / "lake/events").rglob("chat.parquet")
    )
    own = "\n".join(chats.loc[chats["actor"] == "Aiko", "text"])
    others = "\n".join(chats.loc[chats["actor"] != "Aiko", "text"])
    replies = 0
    for example in examples:
        roles = [m["role"] for m in example["messages"]]
        assert roles[0] == "system" and roles[-1] == "assistant"
        # Every example has a turn before the person's first words, and the roles alternate.
        assert roles[1:] == ["user", "assistant"] * (len(roles) // 2)
        if example["messages"][1]["content"].startswith("Write your notes for"):
            assert roles == ["system", "user", "assistant"] and example["messages"][2]["content"]
            continue
        turns = example["messages"][1:]
        if turns[0]["content"].startswith("A chat "):  # the user opened the sitting
            turns = turns[1:]
        for message in turns:
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
        home=sample_two_days,
    )
    assert r.returncode == 0 and later.read_text("utf-8") == ""


def _asked(home: Path, question: str, *options: str) -> list[dict]:
    """Home + question (+ options) -> `omoide recall --json --no-rehearse` results."""
    r = run_cli("recall", question, "--json", "--no-rehearse", *options, home=home)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


@pytest.mark.parametrize(
    ("question", "line", "day"),
    [
        ("京都", "京都の旅館を予約した", "2026-11-19"),
        ("京都の旅館", "京都の旅館を予約した", "2026-11-19"),
        ("旅館", "東山の旅館を四月三日から七日まで予約した", "2026-11-19"),
        ("歯医者", "歯医者で検診", "2026-11-19"),
        ("敬語の復習", "敬語の復習を三十分", "2026-11-19"),
        ("親子丼", "夕飯に親子丼を作った", "2026-11-20"),
        ("ピーターの異動", "ピーターがプラットフォームチームに異動した", "2026-11-20"),
    ],
)
def test_japanese_words_find_the_japanese_note(
    sample_two_days: Path, question: str, line: str, day: str
) -> None:
    top = _asked(sample_two_days, question)[0]
    assert line in top["content"] and top["day"] == day and top["kind"] == "note"
    assert top["parts"]["lexical"] == 1.0


def test_your_own_words_come_before_browsing_about_the_same_thing(sample_two_days: Path) -> None:
    """The sample's Kyoto stay: dozens of japan-guide.com sessions say "Kyoto"; the note and the
    retained fact about the booked ryokan do not, but the fact is tagged @Kyoto and restates the note."""
    found = _asked(sample_two_days, "where am I staying in Kyoto", "--now", "2026-11-21T12:00")
    top3 = [(hit["kind"], hit["content"]) for hit in found[:3]]
    assert ("W", "The ryokan in Higashiyama is booked for 3–7 April 2027.") in top3
    assert any(
        kind == "note" and content.endswith("Booked the ryokan in Higashiyama for 3–7 April 2027")
        for kind, content in top3
    ), top3
    assert all(hit["parts"]["authorship"] < 1.0 for hit in found if hit["kind"] == "session")


def test_time_words_rank_the_named_day_first_relative_to_now(sample_two_days: Path) -> None:
    asked = {
        "yesterday": ("ryokan yesterday", "2026-11-20T12:00"),
        "昨日": ("旅館 昨日", "2026-11-20T12:00"),
        "2 days ago": ("ryokan 2 days ago", "2026-11-21T12:00"),
    }
    for phrase, (question, now) in asked.items():
        found = _asked(sample_two_days, question, "--now", now)
        assert found[0]["day"] == "2026-11-19", phrase
        assert found[0]["parts"]["window"] == 1.0, phrase
        for hit in found:  # every result has what scripts read
            assert {"memory_id", "kind", "ts", "day", "source"} <= set(hit)


def test_no_result_list_cites_a_record_twice(sample_two_days: Path) -> None:
    for question in ("Higashiyama ryokan", "Peter flat", "warelay sync bug"):
        found = _asked(sample_two_days, question)
        cited = [ref for hit in found for ref in hit["source_refs"]]
        assert len(cited) == len(set(cited)), question
        sources = [hit["source"] for hit in found]
        assert len(sources) == len(set(sources)), question


def test_no_chat_line_comes_twice_and_no_window_spans_two_sittings(sample_two_days: Path) -> None:
    found = _asked(sample_two_days, "what did I talk about with Peter")
    cited = [ref for hit in found for ref in hit["source_refs"]]
    assert len(cited) == len(set(cited))
    # a neighbour's mark aside ("↑ Peter: …" is Peter's line), no line comes twice
    shown = [line_key(x) for hit in found for x in hit["content"].splitlines()]
    assert len(shown) == len(set(shown))
    chats = pd.concat(
        pd.read_parquet(p) for p in (sample_two_days / "lake/events").rglob("chat.parquet")
    )
    at = {f"{c.actor}: {c.text}": c.ts for c in chats.itertuples(index=False)}
    windows = [hit for hit in found if hit["kind"] == "chat"]
    assert len(windows) >= 3  # Thursday evening's exchange and Friday's two sittings
    for hit in windows:
        # a line is the message as said, with the dates it meant after its time words
        lines = [x.removeprefix(BEFORE).removeprefix(AFTER) for x in hit["content"].splitlines()]
        times = [at[_STATED_DATE.sub("", x)] for x in lines]
        gaps = [(b - a).total_seconds() for a, b in zip(times, times[1:], strict=False)]
        assert all(0 < g <= 300 for g in gaps), hit


def test_recall_shows_and_filters_how_each_memory_is_known(sample_two_days: Path) -> None:
    found = _asked(sample_two_days, "Peter flat sync bug", "--k", "20")
    assert {hit["memory_type"] for hit in found} <= {"direct", "heard", "inferred"}
    for hit in found:
        assert (hit["heard_from"] is not None) == (hit["memory_type"] == "heard"), hit
        if hit["kind"] in ("digest", "session"):
            assert hit["memory_type"] == ("inferred" if hit["kind"] == "digest" else "direct")
    heard = _asked(sample_two_days, "Peter flat sync bug", "--type", "heard")
    assert heard and all(h["memory_type"] == "heard" and h["kind"] == "chat" for h in heard)
    assert all(h["heard_from"] not in ("", None) for h in heard)
    mine = _asked(sample_two_days, "Peter flat sync bug", "--type", "direct", "--type", "inferred")
    assert mine and all(h["memory_type"] != "heard" for h in mine)
    r = run_cli("recall", "Peter", "--type", "rumour", home=sample_two_days)
    assert r.returncode != 0 and "unknown memory type" in r.stderr


_STATED_DATE = re.compile(r" \[\d{4}(?:-\d{2}){0,2}(?:/\d{4}-\d{2}-\d{2})?\]")


def _first(found: list[dict], text: str) -> int:
    """Results + a fact's words -> the rank of the first result holding them."""
    return next(i for i, hit in enumerate(found) if text in hit["content"])


def test_facts_that_changed_answer_with_what_stands_and_as_of_a_day(sample_two_days: Path) -> None:
    # The sample: Thursday says Mina lives in Hamburg, warelay keeps its vectors in Chroma and
    # Peter is on the payments team; Friday says each changed.
    found = _asked(sample_two_days, "where does Mina live", "--k", "10")
    berlin, hamburg = _first(found, "moved to Berlin"), _first(found, "lives in Hamburg")
    assert berlin < hamburg
    assert found[hamburg]["superseded_by"] == found[berlin]["memory_id"]
    assert found[hamburg]["valid_to"] == found[berlin]["valid_from"]
    assert found[berlin]["superseded_by"] is None and found[berlin]["memory_type"] == "direct"
    store = _asked(
        sample_two_days, "which store does warelay keep its vectors in", "--type", "direct"
    )
    assert _first(store, "from Chroma to LanceDB") < _first(store, "vectors in Chroma")
    assert all(hit["memory_type"] == "direct" for hit in store)
    weighed = _asked(sample_two_days, "warelay vectors store decision", "--k", "25")
    authorship = {
        (h["memory_type"], h["kind"] == "session"): h["parts"]["authorship"] for h in weighed
    }
    assert authorship[("inferred", False)] == INFERRED and authorship[("direct", False)] == 1.0
    then = _asked(sample_two_days, "where does Mina live", "--as-of", "2026-11-19")
    assert not any("Berlin" in hit["content"] for hit in then)
    assert all(hit["day"] <= "2026-11-19" for hit in then)
    hamburg_then = then[_first(then, "lives in Hamburg")]
    assert hamburg_then["superseded_by"] is None and hamburg_then["valid_to"] is None
    r = run_cli(
        "recall", "Mina", "--as-of", "2026-11-19", "--now", "2026-11-21", home=sample_two_days
    )
    assert r.returncode != 0 and "not both" in r.stderr


def test_the_vault_and_entity_pages_keep_what_was_true(sample_two_days: Path) -> None:
    thursday = (sample_two_days / "vault/memory/2026-11-19.md").read_text("utf-8")
    hamburg = next(ln for ln in thursday.splitlines() if "Mina lives in Hamburg." in ln)
    assert " · direct · superseded 2026-11-20 by [[2026-11-20#^m" in hamburg
    target = hamburg.split("#^")[1].split("]]")[0]
    friday = (sample_two_days / "vault/memory/2026-11-20.md").read_text("utf-8")
    berlin = next(ln for ln in friday.splitlines() if ln.endswith(f"^{target}"))
    assert "Mina moved to Berlin last weekend." in berlin and "superseded" not in berlin
    page = (sample_two_days / "vault/bank/entities/mina.md").read_text("utf-8")
    facts, was = page.split("## Facts")[1].split("### Was")
    assert "Mina moved to Berlin last weekend." in facts and "Hamburg" not in facts
    assert "→ “Mina moved to Berlin last weekend.” (20 November 2026)" in was
    assert "Mina lives in Hamburg." in was.split("## Timeline")[0]
    r = run_cli("entity", "@Mina", "--json", home=sample_two_days)
    report = json.loads(r.stdout)
    assert [f["quote"] for f in report["facts"]] == ["Mina moved to Berlin last weekend."]
    assert [(w["quote"], w["until"]) for w in report["was"]] == [
        ("Mina lives in Hamburg.", "2026-11-20")
    ]
    r = run_cli("recall", "Peter team", "--json", "--no-rehearse", home=sample_two_days)
    peter = json.loads(r.stdout)
    assert _first(peter, "platform team") < _first(peter, "payments team")


def test_the_profile_is_the_persons_and_every_place_shows_one_bond(sample_two_days: Path) -> None:
    """No bot, place or project among the relationships, no search engine or code host among the
    interests, and Peter's bond the same in `entity`, `profile`, both pages and the MCP tools."""
    from tests.unit.agents.test_mcp import text_of, with_client

    r = run_cli("profile", "--json", home=sample_two_days)
    assert r.returncode == 0, r.stderr[-2000:]
    report = json.loads(r.stdout)
    assert [x["name"] for x in report["relationships"]] == ["Peter", "Mina"]
    interests = {w["name"].casefold() for w in report["profile"]["core_interests"]}
    assert interests and not interests & {"duckduckgo.com", "github.com", "google.com"}
    assert not interests & {"assistant", "peter", "mina"}
    peter = report["relationships"][0]
    bond, kind = peter["bond_strength"], peter["relationship_type"]
    shown = f"bond {bond:.2f}"
    r = run_cli("entity", "Peter", "--json", home=sample_two_days)
    assert json.loads(r.stdout)["relationship"]["bond_strength"] == bond
    for name in ("assistant", "Kyoto", "warelay"):
        r = run_cli("entity", name, "--json", home=sample_two_days)
        assert r.returncode == 0 and json.loads(r.stdout)["relationship"] is None, name
    said = " ".join(run_cli("entity", "Peter", home=sample_two_days).stdout.split())
    assert f"Relationship: {kind} ({shown}," in said
    listed = " ".join(run_cli("profile", home=sample_two_days).stdout.split())
    assert f"Peter: {kind} ({shown}," in listed and "assistant:" not in listed
    page = (sample_two_days / "vault/bank/entities/peter.md").read_text("utf-8")
    assert f"Relationship: {kind} ({shown}," in page
    profile_page = (sample_two_days / "vault/bank/profile.md").read_text("utf-8")
    assert f"- [[peter|Peter]]: {kind} ({shown}," in profile_page

    async def ask(client):  # type: ignore[no-untyped-def]
        entity = await client.call_tool("entity", {"name": "@Peter"})
        profile = await client.call_tool("profile", {})
        return json.loads(text_of(entity)), json.loads(text_of(profile))

    entity, profile = with_client(sample_two_days, ask)
    assert entity["relationship"]["bond_strength"] == bond
    assert profile["relationships"][0]["bond_strength"] == bond
