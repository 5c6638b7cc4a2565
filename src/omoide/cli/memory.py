"""The memory commands of the omoide CLI: recall and reindex (library calls, no Prefect start-up)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any
from zoneinfo import ZoneInfo

import typer
from rich.console import Console
from rich.markup import escape

from omoide.cli.quick_exit import arm
from omoide.core.days import reference_time
from omoide.core.errors import OmoideError
from omoide.core.kinds import MEMORY_KINDS, MEMORY_TYPES

if TYPE_CHECKING:
    from lancedb.table import Table

    from omoide.core.settings import Settings
    from omoide.embed.base import Embedder

out = Console()


def memories_table(settings: Settings, embedder: Embedder | None = None) -> Table:
    """Settings (+ the embedder in use) -> the memories table, or a clear error before the first run."""
    from omoide.embed import get_embedder
    from omoide.store.memories import open_memories

    if not settings.lancedb_dir.exists():
        raise OmoideError(
            f"no memories yet in {settings.lancedb_dir}: run `omoide run` or `omoide backfill` first"
        )
    emb = embedder or get_embedder(settings.embed, settings.llm.host)
    return open_memories(settings.lancedb_dir, emb.model, emb.dim, create=False)


def recall_command(
    query: Annotated[
        str | None, typer.Argument(help="What to remember, in your own words.")
    ] = None,
    k: Annotated[
        int | None, typer.Option(min=1, help="How many memories (default [recall] k).")
    ] = None,
    since: Annotated[
        str | None, typer.Option(help="Only after: 30d, 12h, 2w, 6m, 1y or YYYY-MM-DD.")
    ] = None,
    until: Annotated[str | None, typer.Option(help="Only before: same forms as --since.")] = None,
    kind: Annotated[
        list[str] | None,
        typer.Option("--kind", help=f"Kinds to keep (repeat): {', '.join(MEMORY_KINDS)}."),
    ] = None,
    entity: Annotated[
        list[str] | None, typer.Option("--entity", help="Entities to match (repeat).")
    ] = None,
    memory_type: Annotated[
        list[str] | None,
        typer.Option(
            "--type",
            help=f"Memory types to keep (repeat): {', '.join(MEMORY_TYPES)}.",
        ),
    ] = None,
    budget: Annotated[int | None, typer.Option(min=1, help="Token budget of the results.")] = None,
    rehearse: Annotated[
        bool, typer.Option(help="Count this recall as a rehearsal of what it returns.")
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
    forgetting: Annotated[
        bool, typer.Option(help="Rank with the forgetting curve: faded memories count less.")
    ] = False,
    around: Annotated[
        str | None,
        typer.Option(help="A memory id: its neighbours (same session, ±7 days, similar) instead."),
    ] = None,
    now_at: Annotated[
        str | None,
        typer.Option(
            "--now",
            help="Recall as of this ISO time (default: now; without an offset, in your timezone): "
            "the reference for time words, --since/--until and decay.",
        ),
    ] = None,
    as_of: Annotated[
        str | None,
        typer.Option(
            "--as-of",
            help="Answer as of this day (YYYY-MM-DD): only what was written by its end, "
            "and the facts that stood then (instead of --now).",
        ),
    ] = None,
) -> None:
    """Recall memories: hybrid search × time decay × importance, with citations."""
    from omoide.cli.recall_route import answered

    arm()  # its one write (the rehearsal) is committed before it prints

    params = {
        "query": query,
        "k": k,
        "since": since,
        "until": until,
        "kind": kind,
        "entity": entity,
        "memory_type": memory_type,
        "budget": budget,
        "rehearse": rehearse,
        "forgetting": forgetting,
        "around": around,
        "now_at": now_at,
        "as_of": as_of,
    }
    # The home's running endpoint answers first (no LanceDB or model to load); else this process.
    found = answered("recall", params)
    if found is None:
        from omoide.core.settings import get_settings

        settings = get_settings()
        found = {"result": recall_items(settings, **params), "timezone": settings.timezone}
    items, timezone = found["result"], found["timezone"]
    if as_json:
        print(json.dumps(items, ensure_ascii=False))
    elif around is not None:
        _show_neighbours(items)
    else:
        _show_recalled(items, timezone)


def recall_items(
    settings: Settings,
    query: str | None = None,
    k: int | None = None,
    since: str | None = None,
    until: str | None = None,
    kind: list[str] | None = None,
    entity: list[str] | None = None,
    memory_type: list[str] | None = None,
    budget: int | None = None,
    rehearse: bool = True,
    forgetting: bool = False,
    around: str | None = None,
    now_at: str | None = None,
    as_of: str | None = None,
) -> list[dict[str, Any]]:
    """Settings + `omoide recall`'s parameters -> what `--json` prints (the memories, or a memory's neighbours)."""
    from omoide.embed import get_embedder, preload

    if as_of is not None and now_at is not None:
        raise OmoideError("give --as-of or --now, not both: --as-of sets the reference time")
    now = reference_time(now_at, settings.timezone)
    embedder = get_embedder(settings.embed, settings.llm.host)
    if around is None:
        preload(embedder)  # while LanceDB is imported below
    from omoide.memory.recall import Asked, recall_asked
    from omoide.store.validity_table import load_validity

    table = memories_table(settings, embedder)
    if around is not None:
        from omoide.memory.associate import around as neighbours

        return [a.to_json() for a in neighbours(table, around, now, k=k or settings.recall.k)]
    if not query:
        raise OmoideError("give a query, or --around MEMORY_ID")
    asked = Asked(query, since, until, kind, entity, k, budget, memory_type, as_of)
    results = recall_asked(
        table,
        embedder,
        asked,
        settings.recall,
        settings.timezone,
        now,
        rehearse,
        forgetting,
        validity=load_validity(settings.lancedb_dir),
    )
    return [r.to_json() for r in results]


def _show_neighbours(items: list[dict[str, Any]]) -> None:
    """`recall --around`'s items -> one line of score, kind, reasons and source each, then the content."""
    for item in items:
        out.print(
            f"[bold]{item['score']:.3f}[/]  {item['kind']}  {escape(', '.join(item['reasons']))}  {escape(item['source'])}",
            highlight=False,
        )
        out.print("       " + escape(" ".join(item["content"].split())[:300]), highlight=False)


def _show_recalled(items: list[dict[str, Any]], timezone: str) -> None:
    """Recalled items + the timezone -> each as score, local time, kind, type and source, then the content."""
    zone = ZoneInfo(timezone)
    for item in items:
        when = datetime.fromisoformat(item["ts"]).astimezone(zone).strftime("%Y-%m-%d %H:%M")
        out.print(
            f"[bold]{item['score']:.3f}[/]  {when}  [cyan]{item['kind']}[/]  "
            f"{_typed(item['memory_type'], item['heard_from'])}  {escape(item['source'])}",
            highlight=False,
        )
        out.print("       " + escape(" ".join(item["content"].split())[:300]), highlight=False)
        if item["superseded_by"]:
            until = datetime.fromisoformat(item["valid_to"]).astimezone(zone).date()
            out.print(f"       (superseded {until} by {item['superseded_by']})", highlight=False)
    if not items:
        out.print("nothing recalled")


def _typed(memory_type: str, heard_from: str | None) -> str:
    """A result's type (+ who told it) -> how the listing shows it: direct, heard from Peter, inferred."""
    return escape(f"heard from {heard_from}" if heard_from else memory_type)


def reindex_command() -> None:
    """Drop the LanceDB memories and rebuild them from lake/facts with the configured embedder."""
    from omoide.cli.runtime import writing
    from omoide.core.settings import get_settings
    from omoide.memory.reindex import reindex

    settings = get_settings()
    with writing(settings, "omoide reindex"):
        stats = reindex(settings, datetime.now(UTC))
    out.print(
        f"Re-embedded {stats['memories']} memories of {stats['days']} day(s) with {stats['embed_model']}."
    )


def mcp_command() -> None:
    """Answer agents over MCP (stdio): recall, day, entity, profile, around, and the vault's pages."""
    from omoide.agents.mcp_server import serve_stdio
    from omoide.core.settings import get_settings

    serve_stdio(get_settings())
