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
from mcp.types import ToolAnnotations

from omoide import __version__
from omoide.agents.answers import (
    OpenMemory,
    around_answer,
    ask_answer,
    day_answer,
    entity_answer,
    profile_answer,
    recall_answer,
    recent_answer,
    vault_pages,
)
from omoide.agents.forget_tool import forget_answer
from omoide.core.errors import OmoideError
from omoide.core.settings import Settings
from omoide.memory.recall import Asked

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "omoide is this person's own memory, built on their machine from their browser history, "
    "window focus, chats and daily notes. `ask` answers a question in one cited answer (what "
    "they did yesterday or last week, how long on something, when they last did something, or a "
    "fact); `recent_activity` summarises a period with time per activity; `recall` searches "
    "what they did, decided or thought about something; `day` for one day; `entity` for a "
    "person, project or place; `profile` for who they are; `around` for what surrounds a "
    "memory; `forget` takes something back (a dry run unless confirm is true: ask the person "
    "first). Every result cites its source (`path#Lnn`): quote it when you answer."
)
# Every tool reads or forgets this machine's own memory: nothing reaches outside it.
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)


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
    opened = {"memory": OpenMemory.open(settings)}
    server = MCPServer(name="omoide", version=__version__, instructions=INSTRUCTIONS)

    @server.tool(name="recall", annotations=READ_ONLY)
    def recall_tool(
        query: str,
        since: str | None = None,
        until: str | None = None,
        kinds: list[str] | None = None,
        entities: list[str] | None = None,
        k: int | None = None,
        token_budget: int | None = None,
        types: list[str] | None = None,
        as_of: str | None = None,
    ) -> str:
        """Search the memory: hybrid full-text and semantic search x time decay x importance.

        since/until: 30d, 12h, 2w, 6m, 1y (ago) or YYYY-MM-DD. kinds: note, chat, session,
        digest, and the retained facts W (world), B (experience), O (opinion), S (summary).
        types: direct (lived or written by the person), heard (told by someone: heard_from),
        inferred (derived by a rule or a model). as_of: YYYY-MM-DD, answer with what was
        written by that day's end and the facts that stood then. Returns a JSON list of
        memories (memory_id, kind, memory_type, heard_from, ts, content, source citation,
        entities, score and its parts; for W facts valid_from, and valid_to/superseded_by
        when a later fact replaced it: the fact standing comes first), best first.
        """
        asked = Asked(query, since, until, kinds, entities, k, token_budget, types, as_of)
        return _json(lambda: recall_answer(opened["memory"], asked))

    @server.tool(name="ask", annotations=READ_ONLY)
    def ask_tool(question: str, now: str | None = None) -> str:
        """Answer one question about the person's own days, cited (English or Japanese).

        Sorted by what it asks: an overview of a period ("what did I do yesterday / last
        week"), time spent ("how long on github.com on Friday"), when ("when did I last talk
        to Peter"), or a lookup (anything else). now: ISO time the question is asked at
        (default: now). Returns JSON: kind, window {since, until}, answer, minutes,
        when, citations [{source, day}].
        """
        return _json(lambda: ask_answer(opened["memory"], question, now))

    @server.tool(name="recent_activity", annotations=READ_ONLY)
    def recent_activity_tool(
        timeframe: str | None = "7d", since: str | None = None, until: str | None = None
    ) -> str:
        """What the person did over a period: its summary, time per activity and citations.

        timeframe: "yesterday", "last week", "this month", "in November", "7d", "2w"; or
        since/until as YYYY-MM-DD. Returns JSON: window, summary, citations [{source, day}],
        active_minutes, time_per_activity [{activity, minutes}].
        """
        return _json(lambda: recent_answer(opened["memory"], timeframe, since, until))

    @server.tool(name="day", annotations=READ_ONLY)
    def day_tool(date: str, detail: bool = False) -> str:
        """One local day (YYYY-MM-DD): its summary, highlights, time per activity, retained facts, notes and chats, with citations (JSON, at most 16,000 characters).

        detail=true adds the day's sessions (what was open, minute by minute), as many as fit.
        """
        return _json(lambda: day_answer(opened["memory"], date, detail))

    @server.tool(name="entity", annotations=READ_ONLY)
    def entity_tool(name: str) -> str:
        """A person, project or place as written (@Peter, peter): summary, relationship, timeline with citations, related entities (JSON)."""
        return _json(lambda: entity_answer(opened["memory"], name))

    @server.tool(name="profile", annotations=READ_ONLY)
    def profile_tool() -> str:
        """The person's integrated profile: traits, interests, values, relationships and Big Five analyses (JSON)."""
        return _json(lambda: profile_answer(opened["memory"]))

    @server.tool(name="around", annotations=READ_ONLY)
    def around_tool(memory_id: str, k: int | None = None) -> str:
        """What surrounds a memory (by its memory_id): same session, nearby days, similar content, with reasons (JSON)."""
        return _json(lambda: around_answer(opened["memory"], memory_id, k))

    @server.tool(name="forget", annotations=DESTRUCTIVE)
    def forget_tool(
        day: str | None = None,
        since: str | None = None,
        until: str | None = None,
        source: str | None = None,
        domain: str | None = None,
        url: str | None = None,
        entity: str | None = None,
        memory_id: str | None = None,
        match: str | None = None,
        confirm: bool = False,
    ) -> str:
        """Take records back for good, and everything made from them (selectors combine).

        day/since/until: YYYY-MM-DD. source: a source's name or kind. domain: with its
        subdomains, kept out from now on. url: a URL prefix. entity: a person, project or place.
        memory_id: the records a memory was made from. match: text in a title, URL or text.
        Without confirm=true nothing changes: the answer says what would go. Confirmed, the
        answer is the receipt: counts removed per store and a scan of every file (0 hits).
        Ask the person before confirming.
        """
        chosen = dict(
            day=day,
            since=since,
            until=until,
            source=source,
            domain=domain,
            url=url,
            entity=entity,
            memory=memory_id,
            match=match,
        )
        answer = _json(lambda: forget_answer(settings, chosen, confirm))
        if confirm:
            # The forget rewrote the tables and removed their old versions: open them again.
            opened["memory"] = OpenMemory.open(settings)
        return answer

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
