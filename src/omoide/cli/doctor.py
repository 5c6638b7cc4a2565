"""`omoide doctor`: settings -> a table of checks (configuration, sources readable, backends answering)."""

from __future__ import annotations

import os
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from omoide.core.days import day_bounds, yesterday
from omoide.core.errors import NoSourcesError, OmoideError

if TYPE_CHECKING:
    from omoide.core.settings import Settings, SourceConfig
    from omoide.ingest.span import Span

Check = tuple[str, bool | None, str]
out = Console()


def checks(settings: Settings, now: datetime | None = None) -> list[Check]:
    """Settings -> (name, ok / None for not applicable, detail) rows."""
    from omoide.core.config_file import unknown_env
    from omoide.core.settings import Settings

    now = now or datetime.now(UTC)
    rows: list[Check] = [
        ("home", settings.home.exists(), str(settings.home)),
        ("timezone", True, settings.timezone),
        (
            "sources",
            bool(settings.sources),
            f"{len(settings.sources)} configured"
            if settings.sources
            else str(NoSourcesError(settings.home)),
        ),
    ]
    stray = unknown_env(os.environ, Settings)
    if stray:
        # Left alone, not refused: the environment is shared with other tools and scripts.
        rows.append(("environment", None, "not settings, ignored: " + ", ".join(stray)))
    day = yesterday(settings.timezone, now)
    spans: list[Span] = []
    for source in settings.sources:
        check, span = _source_check(source, day, settings.timezone, now)
        rows.append(check)
        spans += [span] if span is not None else []
    if spans:
        first, last = min(s.first for s in spans), max(s.last for s in spans)
        days = (min(last, day) - first).days + 1
        rows.append(
            (
                "history",
                True,
                f"your sources hold {first} to {last}; browsers purge old history (Chrome "
                f"after about 90 days): save all {days} days with `omoide backfill --all`",
            )
        )
    rows += [_private_check(settings.home)]
    rows += [_storage_check(settings), _llm_check(settings), _embed_check(settings)]
    return rows


def _private_check(home: Path) -> Check:
    """OMOIDE_HOME -> whether other accounts of this machine can reach anything in it."""
    from omoide.core.permissions import exposed

    found = exposed(home)
    if not found.count:
        return ("private", True, "only you can read the home")
    first = ", ".join(str(p) for p in found.first)
    more = f" and {found.count - len(found.first)} more" if found.count > len(found.first) else ""
    return (
        "private",
        False,
        f"others on this machine can read {found.count} folder(s) and file(s) of the home: "
        f"{first}{more}; `omoide doctor --fix` makes them yours only",
    )


def _storage_check(settings: Settings) -> Check:
    """storage_uri -> where the lake and LanceDB live, and whether an object store answers."""
    from omoide.core.location import Remote
    from omoide.core.store_lease import describe_lease, read_lease

    root = settings.storage_root
    if not isinstance(root, Remote):
        return ("storage", True, f"lake and LanceDB in {root}")
    try:
        found = root.exists()
        held = read_lease(root)
    except OmoideError as exc:
        return ("storage", False, str(exc))
    detail = f"{root} answers" + ("" if found else " (empty: the first run fills it)")
    if held:
        detail += f"; being written by {describe_lease(held)}"
    return ("storage", True, detail)


def _llm_check(settings: Settings) -> Check:
    """[llm] -> which backend summaries will use, and whether Ollama answers with the model."""
    from omoide.llm.ollama import OllamaLLM
    from omoide.llm.retry import has_model

    llm = settings.llm
    label = f"llm ({llm.backend})"
    if llm.backend == "none":
        return (label, None, "embedded extractive digest (no model)")
    try:
        names = OllamaLLM(llm.host, llm.model, timeout_s=2.0, retries=0).ping(timeout_s=2.0)
    except OmoideError as exc:
        ok = None if llm.backend == "auto" else False
        return (
            label,
            ok,
            f"{exc}; " + ("the embedded digest will be used" if ok is None else "runs will fail"),
        )
    if not has_model(names, llm.model):
        ok = None if llm.backend == "auto" else False
        return (
            label,
            ok,
            f"{llm.host} answers but has no {llm.model!r} (`ollama pull {llm.model}`)",
        )
    return (label, True, f"ollama:{llm.model} at {llm.host}")


def _embed_check(settings: Settings) -> Check:
    """[embed] -> does the embedding model load and embed, and does LanceDB hold its vectors?"""
    from omoide.embed import get_embedder
    from omoide.store.memories import count, open_memories

    label = f"embeddings ({settings.embed.backend})"
    try:
        emb = get_embedder(settings.embed, settings.llm.host)
        emb.embed(["omoide doctor"])
        detail = f"{emb.model}, {emb.dim} dimensions"
        if settings.lancedb_dir.exists():
            table = open_memories(settings.lancedb_dir, emb.model, emb.dim, create=False)
            detail += f"; {count(table)} memories in {settings.lancedb_dir}"
    except OmoideError as exc:
        return (label, False, str(exc))
    return (label, True, detail)


def _source_check(
    source: SourceConfig, day: date, tz: str, now: datetime
) -> tuple[Check, Span | None]:
    """One source -> can it be read, how many events yesterday has, and which days it holds."""
    # Imported here: reading a source needs pandas, which `omoide --help` should not pay for.
    from omoide.ingest.fingerprint import input_files
    from omoide.ingest.sources import collect
    from omoide.ingest.span import record_span

    label = f"source {source.name} ({source.kind})"
    if source.url is not None:
        return _http_check(label, source.url.rstrip("/") + "/api/0/info"), None
    if source.path is None or not source.path.exists():
        return (label, False, f"not found: {source.path}"), None
    try:
        span = record_span(source, tz, now)
        if not input_files(source, day) and source.kind == "notes":
            got = None
        else:
            start, end = day_bounds(day, tz)
            got = collect(source, start, end, now)
    except OmoideError as exc:
        return (label, False, str(exc)), None
    held = f"; records from {span.first} to {span.last}" if span else "; no records yet"
    if got is None:
        return (label, True, f"{source.path} (no note for {day}){held}"), span
    detail = f"{source.path}: {len(got.events)} events on {day}, {len(got.rejects)} rejected"
    return (label, True, detail + held), span


def _http_check(label: str, url: str, optional: bool = False) -> Check:
    """URL -> whether it answers within 2 s (only loopback or configured hosts are asked)."""
    import httpx

    try:
        httpx.get(url, timeout=2.0).raise_for_status()
    except httpx.HTTPError as exc:
        return (label, None if optional else False, f"{url}: not reachable ({type(exc).__name__})")
    return (label, True, f"{url}: reachable")


def doctor_command(
    fix: Annotated[
        bool,
        typer.Option(
            "--fix", help="First make every folder and file of the home readable by you alone."
        ),
    ] = False,
) -> None:
    """Show the configuration, which sources are found and readable, which backends answer."""
    from omoide.core.permissions import tighten
    from omoide.core.settings import get_settings

    settings = get_settings()
    if fix:
        changed = tighten(settings.home)
        out.print(f"{changed} folder(s) and file(s) of {settings.home} made yours only.")
    table = Table("check", "status", "detail", title=f"omoide doctor — home {settings.home}")
    ok_all = True
    for name, ok, detail in checks(settings):
        ok_all &= ok is not False
        status = {True: "[green]ok[/]", False: "[red]problem[/]", None: "[yellow]n/a[/]"}[ok]
        table.add_row(escape(name), status, escape(detail))
    out.print(table)
    if not ok_all:
        raise typer.Exit(1)
