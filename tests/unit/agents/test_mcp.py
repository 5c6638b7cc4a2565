"""`omoide mcp` driven by the official SDK's client, over stdio and in-process, on a backfilled sample home."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.server.mcpserver import MCPServer

from omoide.agents.fit import ANSWER_CHARS
from omoide.agents.mcp_server import build_server
from omoide.bench.cli_latency import loaded_modules
from omoide.core.settings import get_settings
from tests.fakes import CLI, cli_env, run_cli

TOOLS = {"ask", "recent_activity", "recall", "day", "entity", "profile", "around", "forget"}
ASK_KEYS = {"kind", "window", "answer", "minutes", "when", "citations", "subject", "basis"}
SMALL = 4_000  # a cap the two-day sample's entity, profile and recall answers do not fit in
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def with_client(home: Path, body: Callable[[Client], Awaitable[Any]]) -> Any:
    """Home + what to ask -> the answer of a real MCP client session with `omoide mcp` over stdio."""
    server = StdioServerParameters(command=CLI[0], args=[*CLI[1:], "mcp"], env=cli_env(home))

    async def session() -> Any:
        async with Client(server, read_timeout_seconds=120) as client:
            return await body(client)

    return asyncio.run(session())


def text_of(result: Any) -> str:
    """A tool call's result -> its one text content."""
    (content,) = result.content
    return content.text


@pytest.fixture(scope="module")
def servers(sample_two_days: Path) -> dict[str, MCPServer]:
    """The sample home's MCP server as `omoide mcp` builds it, and one with a cap of SMALL characters."""
    settings = get_settings(home=sample_two_days)
    return {"whole": build_server(settings), "small": build_server(settings, limit=SMALL)}


def calls(server: MCPServer, *asked: tuple[str, dict[str, Any]]) -> list[Any]:
    """An in-process server + (tool, arguments) pairs -> each call's result, in one client session."""

    async def session() -> list[Any]:
        async with Client(server) as client:
            return [await client.call_tool(name, args) for name, args in asked]

    return asyncio.run(session())


def answers(server: MCPServer, *asked: tuple[str, dict[str, Any]]) -> list[Any]:
    """An in-process server + (tool, arguments) pairs -> each answer's JSON (a result's first text)."""
    return [json.loads(r.content[0].text) for r in calls(server, *asked)]


def every_page(server: MCPServer, tool: str, args: dict[str, Any]) -> list[Any]:
    """A server + a call -> the answer's pages, each with its note, as the agent is told to ask for them."""
    (first,) = calls(server, (tool, args))
    texts = [json.loads(c.text) for c in first.content]
    note = texts[0].get("shortened") if isinstance(texts[0], dict) else texts[-1]["shortened"]
    rest = calls(server, *[(tool, {**args, "page": n}) for n in range(2, note["pages"] + 1)])
    return [[json.loads(c.text) for c in r.content] for r in [first, *rest]]


def test_an_agent_lists_the_tools_and_pages_and_calls_each_tool(sample_two_days: Path) -> None:
    async def ask(client: Client) -> dict[str, Any]:
        listed = (await client.list_tools()).tools
        tools = {t.name for t in listed}
        marks = {t.name: t.annotations for t in listed}
        said = {t.name: (t.description, t.input_schema["properties"]) for t in listed}
        pages = [str(r.uri) for r in (await client.list_resources()).resources]
        found = await client.call_tool("recall", {"query": "LanceDB decision", "k": 5})
        hits = json.loads(text_of(found))
        answers = {"recall": hits}
        day = await client.call_tool("day", {"date": hits[0]["day"]})
        answers["day_chars"] = len(text_of(day))
        answers["day"] = json.loads(text_of(day))
        answers["detail"] = json.loads(
            text_of(await client.call_tool("day", {"date": hits[0]["day"], "detail": True}))
        )
        now = {"now": "2026-11-21T10:00"}
        answers["ask"] = json.loads(
            text_of(
                await client.call_tool("ask", {"question": "when did I last talk to Peter", **now})
            )
        )
        answers["recent"] = json.loads(
            text_of(
                await client.call_tool(
                    "recent_activity", {"since": "2026-11-19", "until": "2026-11-20"}
                )
            )
        )
        answers["entity"] = json.loads(
            text_of(await client.call_tool("entity", {"name": "@Peter"}))
        )
        answers["profile"] = json.loads(text_of(await client.call_tool("profile", {})))
        near = await client.call_tool("around", {"memory_id": hits[0]["memory_id"], "k": 3})
        answers["around"] = json.loads(text_of(near))
        page = await client.read_resource(next(u for u in pages if u.endswith(".md")))
        bad = await client.call_tool("day", {"date": "last tuesday"})
        then = await client.call_tool("recall", {"query": "Mina lives", "as_of": "2026-11-19"})
        answers["as_of"] = json.loads(text_of(then))
        return {
            "tools": tools,
            "marks": marks,
            "said": said,
            "pages": pages,
            "page": page,
            "bad": bad,
            **answers,
        }

    got = with_client(sample_two_days, ask)
    assert TOOLS <= got["tools"]
    assert any(u.startswith("vault://memory/") for u in got["pages"])
    assert any(u == "vault://bank/profile.md" for u in got["pages"])
    assert got["page"].contents[0].text.startswith("---")
    hits = got["recall"]
    assert 0 < len(hits) <= 5
    for hit in hits:
        assert {"memory_id", "kind", "ts", "content", "source"} <= set(hit)
    assert any("LanceDB" in h["content"] for h in hits)
    # Every tool says what it does to the memory; none reaches outside this machine.
    assert all(
        m.read_only_hint and not m.open_world_hint for n, m in got["marks"].items() if n != "forget"
    )
    assert got["marks"]["forget"].destructive_hint and not got["marks"]["forget"].open_world_hint
    # Each description says first, in one sentence, when to call the tool, then what it returns;
    # each argument is described in the input schema, not in the description.
    for name, (description, arguments) in got["said"].items():
        when, then = description.split("\n\n", 1)
        assert when.startswith("Call this when ") and when.count(". ") == 0, name
        assert then.startswith(("Returns ", "Without confirm")) and len(description) <= 500, name
        assert all(a.get("description") for a in arguments.values()), name
    # A day is its summary and highlights, cited, in at most 16,000 characters; sessions on request.
    day = got["day"]
    assert day["day"] == hits[0]["day"] and day["summary"] and day["highlights"] and day["digest"]
    assert got["day_chars"] <= 16_000 and "sessions" not in day
    assert all(
        "#L" in r["source"] for r in day["facts"] + day["notes_and_chats"] + day["highlights"]
    )
    # With its sessions the Friday is longer than that: the first page, and how to ask for the next.
    assert (
        got["detail"]["sessions"] and len(json.dumps(got["detail"], ensure_ascii=False)) <= 16_000
    )
    shortened = got["detail"]["shortened"]
    assert shortened["page"] == 1 and shortened["pages"] > 1 and shortened["left_out"]["sessions"]
    assert shortened["next"] == "call day again with the same arguments and page=2"
    assert got["ask"]["kind"] == "when" and got["ask"]["when"] == "2026-11-20T22:10:24+01:00"
    # The citation is the line of the home's own chat file that holds Peter's last message.
    chat = (sample_two_days / "sources/chat/chat.jsonl").read_text(encoding="utf-8").splitlines()
    (line,) = [n for n, text in enumerate(chat, 1) if '"2026-11-20T22:10:24+01:00"' in text]
    assert got["ask"]["citations"] == [
        {"source": f"sources/chat/chat.jsonl#L{line}", "day": "2026-11-20"}
    ]
    recent = got["recent"]
    assert recent["window"] == {"since": "2026-11-19", "until": "2026-11-20"}
    assert recent["summary"] and recent["citations"] and recent["time_per_activity"]
    assert 0 < sum(a["minutes"] for a in recent["time_per_activity"]) <= recent["active_minutes"]
    assert got["entity"]["name"].startswith("Peter") and got["entity"]["timeline"]
    assert {"profile", "relationships", "current"} <= set(got["profile"])
    assert got["around"] and all(a["memory_id"] != hits[0]["memory_id"] for a in got["around"])
    # A bad argument is the tool's error, told to the agent; the server stays up.
    assert got["bad"].is_error and "YYYY-MM-DD" in text_of(got["bad"])
    # As of Thursday, Mina still lived in Hamburg and nothing of Friday was written yet.
    assert all(h["day"] <= "2026-11-19" for h in got["as_of"])
    hamburg = next(h for h in got["as_of"] if "Hamburg" in h["content"])
    assert hamburg["superseded_by"] is None and hamburg["valid_from"]


def test_agent_questions_and_an_unconfirmed_forget_write_nothing(sample_two_days: Path) -> None:
    def files() -> dict[Path, int]:
        return {p: p.stat().st_mtime_ns for p in sample_two_days.rglob("*") if p.is_file()}

    before = files()

    async def ask(client: Client) -> tuple[str, str]:
        found = text_of(await client.call_tool("recall", {"query": "ryokan in Kyoto"}))
        plan = text_of(await client.call_tool("forget", {"domain": "japan-guide.com"}))
        return found, plan

    found, plan = with_client(sample_two_days, ask)
    assert json.loads(found)
    preview = json.loads(plan)
    assert preview["dry_run"] and preview["records"] > 0 and preview["days"]
    # No rehearsal counts, no new table version, no tombstone: a dry run changes nothing.
    assert files() == before


def test_the_server_loads_neither_prefect_nor_gx(sample_two_days: Path) -> None:
    # Run to the end of its input (none): what it loaded to start answering.
    loaded = set(loaded_modules(sample_two_days, "mcp"))
    assert "lancedb" in loaded and not loaded & {"prefect", "great_expectations"}


def test_ask_answers_every_kind_as_of_now_in_the_questions_language(
    servers: dict[str, MCPServer], sample_two_days: Path
) -> None:
    saturday, sunday_after = "2026-11-21T10:00", "2026-11-29T10:00"
    asked = [
        ("what did I do yesterday", saturday),
        ("what did I do yesterday", "2026-11-20T10:00"),
        ("how long on github.com on Friday", saturday),
        ("how many times did I talk to Peter this week", saturday),
        ("how many times did I talk to Peter this week", sunday_after),
        ("which days did I cook oyakodon", saturday),
        ("did I spend more time on github.com or youtube.com yesterday", saturday),
        ("what did I do on the afternoon of 20 November", saturday),
        ("what did Peter say about the ryokan", saturday),
        ("who is Mina", saturday),
        ("what did I promise", saturday),
        ("金曜日にgithub.comに何時間使った？", saturday),
        ("11月20日の午後は何をしていた？", saturday),
        ("ミナって誰", saturday),
        ("何を約束した？", saturday),
    ]
    got = answers(servers["whole"], *[("ask", {"question": q, "now": n}) for q, n in asked])
    by = {(q, n): a for (q, n), a in zip(asked, got, strict=True)}
    for answer in got:
        assert set(answer) == ASK_KEYS and all(
            set(c) == {"source", "day"} for c in answer["citations"]
        )

    def of(question: str, now: str = saturday) -> dict[str, Any]:
        return by[(question, now)]

    # "Yesterday" is the day before the `now` asked at.
    assert of("what did I do yesterday")["kind"] == "overview"
    assert of("what did I do yesterday")["window"] == {"since": "2026-11-20", "until": "2026-11-20"}
    earlier = of("what did I do yesterday", "2026-11-20T10:00")
    assert earlier["window"] == {"since": "2026-11-19", "until": "2026-11-19"}
    assert earlier["answer"].startswith("Thursday")
    spent = of("how long on github.com on Friday")
    assert spent["kind"] == "time_spent" and spent["minutes"] > 0
    talks = of("how many times did I talk to Peter this week")
    assert talks["kind"] == "count" and talks["answer"].startswith("3 times")
    later = of("how many times did I talk to Peter this week", sunday_after)
    assert later["window"] == {"since": "2026-11-23", "until": "2026-11-29"}
    assert not later["citations"] and "Nothing was recorded" in later["answer"]
    assert of("which days did I cook oyakodon")["kind"] == "which_days"
    assert [c["day"] for c in of("which days did I cook oyakodon")["citations"]] == ["2026-11-20"]
    compared = of("did I spend more time on github.com or youtube.com yesterday")
    assert compared["kind"] == "compare" and compared["answer"].startswith(
        "More time on github.com"
    )
    assert of("what did I do on the afternoon of 20 November")["kind"] == "part_of_day"
    said = of("what did Peter say about the ryokan")
    assert said["kind"] == "said_by" and "ryokan" in said["answer"] and said["citations"]
    assert of("who is Mina")["kind"] == "who" and "colleague" in of("who is Mina")["answer"]
    assert of("what did I promise")["kind"] == "commitments"
    # A Japanese question is answered in Japanese, its figures the same.
    ja = of("金曜日にgithub.comに何時間使った？")
    assert ja["kind"] == "time_spent" and ja["minutes"] == spent["minutes"]
    assert "2026年11月20日（金）" in ja["answer"] and "約46分" in ja["answer"]
    afternoon = of("11月20日の午後は何をしていた？")
    assert afternoon["kind"] == "part_of_day"
    assert afternoon["answer"].startswith("2026年11月20日（金）12:00〜18:00")
    assert of("ミナって誰")["kind"] == "who" and of("ミナって誰")["answer"].startswith("ミナ：")
    promised = of("何を約束した？")
    assert promised["kind"] == "commitments" and JAPANESE.search(promised["answer"])
    # The same JSON as `omoide ask --json --now` prints.
    for question in ("how long on github.com on Friday", "ミナって誰"):
        r = run_cli("ask", question, "--json", "--now", saturday, home=sample_two_days)
        assert r.returncode == 0, r.stderr[-2000:]
        assert json.loads(r.stdout) == of(question)


def test_recent_activity_is_relative_to_the_now_asked_at(servers: dict[str, MCPServer]) -> None:
    asked = [
        ("recent_activity", {"timeframe": "yesterday", "now": "2026-11-21T10:00"}),
        ("recent_activity", {"timeframe": "yesterday", "now": "2026-11-20T10:00"}),
        ("recent_activity", {"timeframe": "last week", "now": "2026-11-25T10:00"}),
        ("recent_activity", {"now": "2026-11-21T10:00"}),
    ]
    friday, thursday, week, seven = answers(servers["whole"], *asked)
    assert friday["window"] == {"since": "2026-11-20", "until": "2026-11-20"}
    assert thursday["window"] == {"since": "2026-11-19", "until": "2026-11-19"}
    assert friday["summary"].startswith("Friday") and thursday["summary"].startswith("Thursday")
    assert friday["active_minutes"] > 0 and thursday["active_minutes"] > 0
    assert week["window"] == {"since": "2026-11-16", "until": "2026-11-22"}
    total = week["active_minutes"]
    assert total == pytest.approx(friday["active_minutes"] + thursday["active_minutes"], abs=0.2)
    assert seven["window"] == {"since": "2026-11-15", "until": "2026-11-21"}


def test_a_day_past_the_cap_is_pages_of_at_most_16000_characters(
    servers: dict[str, MCPServer],
) -> None:
    pages = [
        p for (p,) in every_page(servers["whole"], "day", {"date": "2026-11-20", "detail": True})
    ]
    assert len(pages) > 1
    assert all(len(json.dumps(p, ensure_ascii=False)) <= ANSWER_CHARS for p in pages)
    first = pages[0]
    assert first["summary"] and first["highlights"] and first["notes_and_chats"]
    assert all(p["day"] == "2026-11-20" and "summary" not in p for p in pages[1:])
    # Every session is on one page: those the first page left out are on the others.
    sessions = [s["memory_id"] for p in pages for s in p.get("sessions", [])]
    left = first["shortened"]["left_out"]["sessions"]
    assert len(sessions) == len(set(sessions)) == len(first["sessions"]) + left


def test_entity_profile_and_recall_past_the_cap_are_pages_that_together_are_the_answer(
    servers: dict[str, MCPServer],
) -> None:
    whole = answers(
        servers["whole"],
        ("entity", {"name": "Peter"}),
        ("entity", {"name": "Peter", "detail": True}),
        ("profile", {}),
        ("profile", {"detail": True}),
        ("recall", {"query": "Peter", "k": 10}),
    )
    entity, every, profile, detailed, hits = whole
    # Within the cap the answer is whole and says nothing of pages.
    for answer in whole:
        assert len(json.dumps(answer, ensure_ascii=False)) <= ANSWER_CHARS
    assert "shortened" not in entity and "shortened" not in profile
    # Peter's 14 memories are within the latest 20 the timeline shows; detail shows every one.
    assert len(entity["timeline"]) <= 20 and len(every["timeline"]) == every["n_memories"]
    assert "by_source" not in profile and detailed["by_source"]
    (past,) = calls(servers["whole"], ("entity", {"name": "Peter", "page": 2}))
    assert past.is_error and "1 page(s)" in past.content[0].text

    pages = every_page(servers["small"], "entity", {"name": "Peter", "detail": True})
    assert len(pages) > 1
    assert all(len(c) == 1 and len(json.dumps(c[0], ensure_ascii=False)) <= SMALL for c in pages)
    first = pages[0][0]
    # The first page is the entity's own shape, its newest memories first given.
    assert first["summary"] == every["summary"] and first["relationship"] == every["relationship"]
    assert first["timeline"][-1] == every["timeline"][-1]
    timeline = sorted((t for (p,) in pages for t in p.get("timeline", [])), key=lambda t: t["ts"])
    assert timeline == sorted(every["timeline"], key=lambda t: t["ts"])
    assert all(p["name"] == "Peter" for (p,) in pages)

    parts = every_page(servers["small"], "profile", {"detail": True})
    assert len(parts) > 1 and all(len(json.dumps(p, ensure_ascii=False)) <= SMALL for (p,) in parts)
    assert [r for (p,) in parts for r in p.get("relationships", [])] == detailed["relationships"]
    assert {k for (p,) in parts for k in p.get("by_source", {})} == set(detailed["by_source"])

    # A list is paged as it ranks; the note is a second text beside it.
    ranked = every_page(servers["small"], "recall", {"query": "Peter", "k": 10})
    assert all(len(page) == 2 and "shortened" in page[1] for page in ranked)
    assert [h["memory_id"] for page in ranked for h in page[0]] == [h["memory_id"] for h in hits]
