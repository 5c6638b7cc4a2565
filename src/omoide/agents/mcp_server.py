"""`omoide mcp`: the memory as MCP tools and resources over stdio, for Claude Desktop, Claude Code or any MCP client.

Built on the official `mcp` SDK (`MCPServer`). The stores are opened once when the server
starts; each tool answers from them. Tools return JSON text, so any client (and any script)
reads the same shape the CLI's `--json` prints. The vault's Markdown pages are resources
(`vault://memory/2026-11-20.md`, `vault://bank/profile.md`), listed as they were at start.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.resources import FileResource

from omoide import __version__
from omoide.agents.answers import (
    OpenMemory,
    around_answer,
    day_answer,
    entity_answer,
    profile_answer,
    recall_answer,
    vault_pages,
)
from omoide.core.errors import OmoideError
from omoide.core.settings import Settings
from omoide.memory.recall import Asked

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "omoide is this person's own memory, built on their machine from their browser history, "
    "window focus, chats and daily notes. Ask `recall` what they did, decided or thought about "
    "something and when; `day` for one day; `entity` for a person, project or place; `profile` "
    "for who they are; `around` for what surrounds a memory. Every result cites its source "
    "(`path#Lnn`): quote it when you answer."
)


def _json(answer: Callable[[], Any]) -> str:
    """An answer to compute -> its JSON text (non-ASCII kept, dates as ISO strings); omoide's errors told to the agent."""
    try:
        value = answer()
    except OmoideError as exc:
        # The SDK shows an agent only "Error executing tool" for other exceptions.
        raise ToolError(str(exc)) from exc
    return json.dumps(value, ensure_ascii=False, default=str)


def build_server(settings: Settings) -> MCPServer:
    """Settings -> an MCP server with omoide's tools and the vault's pages, its stores opened once."""
    memory = OpenMemory.open(settings)
    server = MCPServer(name="omoide", version=__version__, instructions=INSTRUCTIONS)

    @server.tool(name="recall")
    def recall_tool(
        query: str,
        since: str | None = None,
        until: str | None = None,
        kinds: list[str] | None = None,
        entities: list[str] | None = None,
        k: int | None = None,
        token_budget: int | None = None,
    ) -> str:
        """Search the memory: hybrid full-text and semantic search x time decay x importance.

        since/until: 30d, 12h, 2w, 6m, 1y (ago) or YYYY-MM-DD. kinds: note, chat, session,
        digest, and the retained facts W (world), B (experience), O (opinion), S (summary).
        Returns a JSON list of memories (memory_id, kind, ts, content, source citation,
        entities, score and its parts), best first.
        """
        asked = Asked(query, since, until, kinds, entities, k, token_budget)
        return _json(lambda: recall_answer(memory, asked))

    @server.tool(name="day")
    def day_tool(date: str) -> str:
        """One local day (YYYY-MM-DD): its digest, retained facts, sessions, notes and chats, with citations (JSON)."""
        return _json(lambda: day_answer(memory, date))

    @server.tool(name="entity")
    def entity_tool(name: str) -> str:
        """A person, project or place as written (@Peter, peter): summary, relationship, timeline with citations, related entities (JSON)."""
        return _json(lambda: entity_answer(memory, name))

    @server.tool(name="profile")
    def profile_tool() -> str:
        """The person's integrated profile: traits, interests, values, relationships and Big Five analyses (JSON)."""
        return _json(lambda: profile_answer(memory))

    @server.tool(name="around")
    def around_tool(memory_id: str, k: int | None = None) -> str:
        """What surrounds a memory (by its memory_id): same session, nearby days, similar content, with reasons (JSON)."""
        return _json(lambda: around_answer(memory, memory_id, k))

    vault = settings.vault_dir
    for page in vault_pages(vault):
        rel = page.relative_to(vault).as_posix()
        server.add_resource(
            FileResource(
                uri=f"vault://{quote(rel)}",
                name=rel,
                description=f"vault page {rel}",
                mime_type="text/markdown",
                path=page.resolve(),
            )
        )
    log.info("omoide MCP server ready on %s", settings.home)
    return server


def serve_stdio(settings: Settings) -> None:
    """Settings -> the MCP server answering on stdin/stdout until the client closes it."""
    build_server(settings).run("stdio")
