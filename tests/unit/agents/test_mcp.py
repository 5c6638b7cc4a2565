"""`omoide mcp` driven by the official SDK's client over stdio, on a backfilled sample home."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from omoide.bench.cli_latency import loaded_modules
from tests.fakes import CLI, cli_env

TOOLS = {"ask", "recent_activity", "recall", "day", "entity", "profile", "around", "forget"}


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


def test_an_agent_lists_the_tools_and_pages_and_calls_each_tool(sample_two_days: Path) -> None:
    async def ask(client: Client) -> dict[str, Any]:
        listed = (await client.list_tools()).tools
        tools = {t.name for t in listed}
        marks = {t.name: t.annotations for t in listed}
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
        return {"tools": tools, "marks": marks, "pages": pages, "page": page, "bad": bad, **answers}

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
    # A day is its summary and highlights, cited, in at most 16,000 characters; sessions on request.
    day = got["day"]
    assert day["day"] == hits[0]["day"] and day["summary"] and day["highlights"] and day["digest"]
    assert got["day_chars"] <= 16_000 and "sessions" not in day
    assert all(
        "#L" in r["source"] for r in day["facts"] + day["notes_and_chats"] + day["highlights"]
    )
    assert (
        got["detail"]["sessions"] and len(json.dumps(got["detail"], ensure_ascii=False)) <= 16_000
    )
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
