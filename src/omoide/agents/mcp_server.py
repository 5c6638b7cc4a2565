"""`omoide mcp`: the memory as MCP tools and resources over stdio, for Claude Desktop, Claude Code or any MCP client.

Built on the official `mcp` SDK (`MCPServer`). The stores are opened once when the server
starts; each tool answers from them. Tools return JSON text, so any client (and any script)
reads the same shape the CLI's `--json` prints, at most ANSWER_CHARS of it a call (the rest on
later pages: `omoide.agents.fit`). A tool's docstring is its description, which an agent reads
to choose it: it says first when to call the tool, then what it returns; each argument is
described in the tool's input schema. The vault's Markdown pages are resources
(`vault://memory/2026-11-20.md`, `vault://bank/profile.md`), listed as they were at start.
"""

from __future__ import annotations

import inspect
import json
import logging
from collections.abc import Callable
from typing import Annotated, Any, TypeVar
from urllib.parse import quote

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.resources import FileResource
from mcp.types import ToolAnnotations
from pydantic import Field

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
from omoide.agents.fit import ANSWER_CHARS, Fit, paged
from omoide.agents.forget_tool import forget_answer
from omoide.core.errors import OmoideError
from omoide.core.settings import Settings
from omoide.memory.recall import Asked

log = logging.getLogger(__name__)
Tool = TypeVar("Tool", bound=Callable[..., Any])

INSTRUCTIONS = (
    "omoide is this person's own memory, built on their machine from their browser history, "
    "window focus, chats and daily notes. Each tool's description says when to call it; `ask` "
    "answers most questions about their days in one cited answer. 'Yesterday' and 'last week' "
    "are relative to `now` (ISO, default the clock) where a tool takes it. An answer is at most "
    f"{ANSWER_CHARS:,} characters: a shortened one says so in `shortened` and names the next `page`. Every "
    "result cites its source (`path#Lnn`): quote it when you answer. `forget` changes nothing "
    "unless confirm is true: ask the person first."
)
# Every tool reads or forgets this machine's own memory: nothing reaches outside it.
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)
# What each tool's answer gives up first when it is longer than the cap (omoide.agents.fit);
# recall and around answer lists, paged as they rank.
FITS = {
    "ask": Fit(("citations",), keep=("kind", "window", "subject")),
    "recent_activity": Fit(("citations", "time_per_activity"), keep=("window",)),
    "recall": Fit(),
    "day": Fit(
        ("sessions", "notes_and_chats", "facts", "digest", "time", "highlights", "summary"),
        keep=("day", "page"),
    ),
    "entity": Fit(
        ("timeline", "related", "was", "key_facts", "facts"),
        keep=("slug", "name"),
        newest_last=("timeline",),
    ),
    "profile": Fit(
        (
            "by_source",
            "current.evidence",
            "current.trait_evidence",
            "profile.key_memories",
            "relationships",
            "profile.core_values",
            "profile.core_interests",
            "profile.dominant_traits",
        )
    ),
    "around": Fit(),
    "forget": Fit(("still_in_your_files", "days", "scan.hits"), keep=("dry_run",)),
}
PageNumber = Annotated[
    int,
    Field(
        ge=1, description="1 for the start; a shortened answer's `shortened.next` names the next"
    ),
]
Now = Annotated[
    str | None,
    Field(
        description="ISO time asked at, e.g. 2026-11-21T10:00 (default: now; without an offset, "
        "the person's timezone): 'yesterday' and 'last week' are relative to it"
    ),
]
Day = Annotated[str | None, Field(description="YYYY-MM-DD")]


def _json(value: Any) -> str:
    """A JSON-ready value -> its JSON text (non-ASCII kept, dates as ISO strings)."""
    return json.dumps(value, ensure_ascii=False, default=str)


def _described(doc: str) -> str:
    """A tool function's docstring -> its description: each paragraph on one line, indents gone."""
    return "\n\n".join(" ".join(par.split()) for par in inspect.cleandoc(doc).split("\n\n"))


def _reply(
    tool: str, answer: Callable[[], Any], page: int, limit: int, again: bool = True
) -> str | list[str]:
    """A tool's name + its answer to compute + the page asked for + the cap -> that page's JSON text (a list answer
    shortened: a second text, the note); omoide's errors told to the agent."""
    try:
        shown = paged(answer(), FITS[tool], page, limit)
    except OmoideError as exc:
        # The SDK shows an agent only "Error executing tool" for other exceptions.
        raise ToolError(str(exc)) from exc
    how = (
        f"call {tool} again with the same arguments and page={shown.number + 1}"
        if again
        else "a confirmed forget is not repeated: its counts are whole, its lists shortened"
    )
    said = shown.note(how)
    if said is None:
        return _json(shown.value)
    if isinstance(shown.value, dict):
        return _json({**shown.value, "shortened": said})
    return [_json(shown.value), _json({"shortened": said})]


def build_server(settings: Settings, limit: int = ANSWER_CHARS) -> MCPServer:
    """Settings (+ the cap on an answer's characters) -> an MCP server with omoide's tools and the vault's pages, its stores opened once."""
    opened = {"memory": OpenMemory.open(settings)}
    server = MCPServer(name="omoide", version=__version__, instructions=INSTRUCTIONS)

    def tool(name: str, annotations: ToolAnnotations = READ_ONLY) -> Callable[[Tool], Tool]:
        """A tool's name (+ its annotations) -> a decorator adding it, its docstring the description an agent reads."""

        def add(fn: Tool) -> Tool:
            # The answer is the JSON text alone: as structured output the SDK would send it a
            # second time, wrapped as one string.
            server.add_tool(
                fn,
                name=name,
                description=_described(fn.__doc__ or ""),
                annotations=annotations,
                structured_output=False,
            )
            return fn

        return add

    @tool("ask")
    def ask_tool(
        question: Annotated[str, Field(description="the question as the person asked it")],
        now: Now = None,
        page: PageNumber = 1,
    ) -> str | list[str]:
        """Call this when the person asks about their own days: what they did in a period, how long they spent on
        something, when they last or first did it, how often or on which days, which of two took more time, a
        morning or an afternoon, what someone said, who someone is, what they promised or decided, or whether
        they did something (English or Japanese).

        Returns one short cited answer in the question's language: kind, window, answer, minutes, when, citations.
        """
        return _reply("ask", lambda: ask_answer(opened["memory"], question, now), page, limit)

    @tool("recent_activity")
    def recent_activity_tool(
        timeframe: Annotated[
            str | None,
            Field(description='"yesterday", "last week", "this month", "in November", "7d", "2w"'),
        ] = "7d",
        since: Day = None,
        until: Day = None,
        now: Now = None,
        page: PageNumber = 1,
    ) -> str | list[str]:
        """Call this when the person wants a recap of a period and where its time went (yesterday, last week,
        this month), or you need that context first.

        Returns the period's window, cited summary, active minutes and time per activity.
        """
        return _reply(
            "recent_activity",
            lambda: recent_answer(opened["memory"], timeframe, since, until, now),
            page,
            limit,
        )

    @tool("recall")
    def recall_tool(
        query: Annotated[str, Field(description="what to look for, in the person's words")],
        since: Annotated[
            str | None, Field(description="30d, 12h, 2w, 6m, 1y (ago) or YYYY-MM-DD")
        ] = None,
        until: Annotated[
            str | None, Field(description="30d, 12h, 2w, 6m, 1y (ago) or YYYY-MM-DD")
        ] = None,
        kinds: Annotated[
            list[str] | None,
            Field(
                description="note, chat, session, digest, and the facts W (world), B (experience), "
                "O (opinion), S (summary)"
            ),
        ] = None,
        entities: Annotated[list[str] | None, Field(description="people, projects, places")] = None,
        k: Annotated[int | None, Field(description="how many memories (default 10)")] = None,
        token_budget: Annotated[
            int | None, Field(description="stop once their texts reach this many tokens")
        ] = None,
        types: Annotated[
            list[str] | None,
            Field(description="direct (lived or written), heard (told by someone), inferred"),
        ] = None,
        as_of: Annotated[
            str | None,
            Field(description="YYYY-MM-DD: what was written by that day's end, the facts then"),
        ] = None,
        page: PageNumber = 1,
    ) -> str | list[str]:
        """Call this when you need the memories themselves about a topic, person or decision (what they read,
        wrote, decided or thought about it), to quote them or when ask's one answer is not enough.

        Returns memories best first: memory_id, kind, ts, content, source citation, entities, score; a W fact a
        later one replaced has valid_to and superseded_by (the standing fact comes first).
        """
        asked = Asked(query, since, until, kinds, entities, k, token_budget, types, as_of)
        return _reply("recall", lambda: recall_answer(opened["memory"], asked), page, limit)

    @tool("day")
    def day_tool(
        date: Annotated[str, Field(description="YYYY-MM-DD, the person's local day")],
        detail: Annotated[
            bool, Field(description="add the day's sessions (what was open, minute by minute)")
        ] = False,
        page: PageNumber = 1,
    ) -> str | list[str]:
        """Call this when the person asks about one date in detail (everything on 20 November).

        Returns that day's summary, highlights, time per activity, facts, notes and chats, cited.
        """
        return _reply("day", lambda: day_answer(opened["memory"], date, detail), page, limit)

    @tool("entity")
    def entity_tool(
        name: Annotated[str, Field(description="as written: @Peter, peter, Kyoto")],
        detail: Annotated[
            bool, Field(description="every memory in the timeline, not only the latest 20")
        ] = False,
        page: PageNumber = 1,
    ) -> str | list[str]:
        """Call this when a person, project or place comes up and you need what the memory holds of it (what
        Peter is to them, what they did together, what changed).

        Returns its summary, relationship, standing and replaced facts, a cited timeline and related entities.
        """
        return _reply("entity", lambda: entity_answer(opened["memory"], name, detail), page, limit)

    @tool("profile")
    def profile_tool(
        detail: Annotated[
            bool, Field(description="add the latest Big Five analysis of each source")
        ] = False,
        page: PageNumber = 1,
    ) -> str | list[str]:
        """Call this when you need to know the person themselves, to fit an answer to them or when they ask what
        you know about them.

        Returns their traits, interests, values, relationships and current Big Five analysis.
        """
        return _reply("profile", lambda: profile_answer(opened["memory"], detail), page, limit)

    @tool("around")
    def around_tool(
        memory_id: Annotated[str, Field(description="from recall, day or entity")],
        k: Annotated[int | None, Field(description="how many neighbours (default 10)")] = None,
        page: PageNumber = 1,
    ) -> str | list[str]:
        """Call this when a memory needs its context: what came before and after it, the same session, similar days.

        Returns its neighbours, best first, each with why it is near.
        """
        return _reply("around", lambda: around_answer(opened["memory"], memory_id, k), page, limit)

    @tool("forget", DESTRUCTIVE)
    def forget_tool(
        day: Day = None,
        since: Day = None,
        until: Day = None,
        source: Annotated[str | None, Field(description="a source's name or kind")] = None,
        domain: Annotated[
            str | None, Field(description="a site with its subdomains, kept out from now on")
        ] = None,
        url: Annotated[str | None, Field(description="a URL prefix")] = None,
        entity: Annotated[str | None, Field(description="a person, project or place")] = None,
        memory_id: Annotated[
            str | None, Field(description="the records a memory was made from")
        ] = None,
        match: Annotated[str | None, Field(description="text in a title, URL or text")] = None,
        confirm: Annotated[
            bool, Field(description="true only once the person has said yes to the dry run")
        ] = False,
        page: PageNumber = 1,
    ) -> str | list[str]:
        """Call this when the person asks to forget, delete or stop keeping something (a day, a site, a person, a
        chat, a phrase); the selectors combine.

        Without confirm=true nothing changes: it answers what would go. Ask the person, then call again with
        confirm=true: the records and everything made from them go for good, and the answer is the receipt.
        """
        if confirm and page != 1:
            raise ToolError("a forget is done once: page is for its dry run")
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
        answer = _reply(
            "forget", lambda: forget_answer(settings, chosen, confirm), page, limit, not confirm
        )
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
