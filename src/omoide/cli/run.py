"""The pipeline commands of the omoide CLI: init, sample, run, backfill, reflect, serve (they start Prefect)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Column, Table

from omoide.cli.runtime import (
    deployment_environment,
    drain_logs,
    flow_modules,
    outcome,
    partial_outcome,
    run_flow,
    writing,
)
from omoide.cli.stop import stop_on_signals
from omoide.core import progress
from omoide.core.days import days_between, parse_day
from omoide.core.errors import NoSourcesError, OmoideError

out = Console()
err = Console(stderr=True)


def init() -> None:
    """Create OMOIDE_HOME with a starter omoide.toml listing the browser profiles found."""
    from omoide.core.settings import get_settings
    from omoide.ingest.discover import browser_profiles, starter_toml

    settings = get_settings()
    for d in (settings.home, settings.lake_dir, settings.quarantine_dir, settings.vault_dir):
        d.mkdir(parents=True, exist_ok=True, mode=0o700)
    toml = settings.home / "omoide.toml"
    if toml.exists():
        out.print(f"{toml} exists; left unchanged.", markup=False, highlight=False)
        return
    profiles = browser_profiles()
    toml.write_text(starter_toml(profiles, _local_timezone()), encoding="utf-8")
    if not profiles:
        out.print(
            f"Wrote {toml}; no browser profile found, so it lists no source yet: add a "
            "[[sources]] table for each of yours (the file shows the kinds), then `omoide doctor`.",
            markup=False,
            highlight=False,
        )
        return
    out.print(
        f"Wrote {toml} with {len(profiles)} browser profile(s). Edit it, then `omoide doctor`.",
        markup=False,
        highlight=False,
    )


def _local_timezone() -> str:
    """This machine's IANA timezone name, or UTC when it cannot be told."""
    link = Path("/etc/localtime")
    if link.is_symlink() and "zoneinfo/" in str(link.resolve()):
        return str(link.resolve()).split("zoneinfo/", 1)[1]
    return "UTC"


def sample(
    days: Annotated[int, typer.Option(min=1, max=366, help="How many days.")] = 7,
    out_dir: Annotated[
        Path, typer.Option("--out", help="Folder to write (becomes an OMOIDE_HOME).")
    ] = Path("sample"),
    end: Annotated[str, typer.Option(help="Last sample day, YYYY-MM-DD.")] = "2026-11-20",
    volume: Annotated[
        float,
        typer.Option(
            min=0.25, max=10, help="Activity per day: 1 ≈ 1,200 events, 3 ≈ 3,400 (a heavy day)."
        ),
    ] = 1.0,
) -> None:
    """Write deterministic sample days in the real source formats, its omoide.toml and its script (sample-script.json)."""
    from omoide.sample import write_sample, write_script

    first, last = write_sample(out_dir, days=days, end=parse_day(end), volume=volume)
    write_script(out_dir, first, last)
    out.print(f"{first} {last}")


def run(
    day: Annotated[
        str | None,
        typer.Option(
            help="Local day YYYY-MM-DD (default: yesterday and every day missed since the "
            "newest completed one, at most `catch_up_days`)."
        ),
    ] = None,
    force: Annotated[bool, typer.Option(help="Ignore cached results and recompute.")] = False,
) -> None:
    """Run the daily flow for one day, or catch up to yesterday."""
    from omoide.core.settings import get_settings

    settings = get_settings()
    the_day = parse_day(day) if day else None
    if not settings.sources:
        raise NoSourcesError(settings.home)
    command = f"omoide run --day {the_day}" if the_day else "omoide run"
    with writing(settings, command):
        daily_module, _, _ = flow_modules(settings.home, "run", start_server=True)
        state = run_flow(daily_module.daily, day=the_day, force=force)
    if the_day is None:
        # Every day run is shown, a failed one with what landed, before the error's one line.
        report, error = partial_outcome(state, "the daily run")
        if report is not None:
            _print_catch_up(report)
    else:
        # A day with a source that failed still shows what landed, that source's row saying why.
        summary, error = partial_outcome(state, f"the daily run for {the_day}")
        if summary is not None:
            _print_day(summary)
    if error is not None:
        raise error


def _print_catch_up(report: dict) -> None:
    """A catch-up's report -> a table per day run on stdout; the days it left to a backfill on stderr."""
    if report["first"]:
        err.print(
            "no day of this home had completed yet: `omoide backfill --all` processes what your "
            "sources hold from before yesterday",
            highlight=False,
            soft_wrap=True,
        )
    gap = report["gap"]
    if gap is not None:
        err.print(
            f"[yellow]not run:[/] {gap['start']} to {gap['end']}, more than `catch_up_days` back: "
            f"fill them with `{gap['command']}`",
            highlight=False,
            soft_wrap=True,
        )
    for day, r in report["days"].items():
        if r["summary"] is not None:
            _print_day(r["summary"])
        else:
            out.print(f"omoide {day}: [red]failed[/]: {escape(r['error'])}", soft_wrap=True)


def backfill(
    start: Annotated[str | None, typer.Option(help="First day, YYYY-MM-DD.")] = None,
    end: Annotated[str | None, typer.Option(help="Last day, YYYY-MM-DD (inclusive).")] = None,
    every_day: Annotated[
        bool,
        typer.Option(
            "--all",
            help="Every day from the earliest record any source holds to yesterday.",
        ),
    ] = False,
    force: Annotated[bool, typer.Option(help="Ignore cached results and recompute.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the figures of each day as one JSON object.")
    ] = False,
    dask: Annotated[
        bool | None,
        typer.Option(
            "--dask/--no-dask",
            help="Collect to summarize on a Dask cluster (default: the `dask` setting).",
        ),
    ] = None,
    dask_scheduler: Annotated[
        str | None,
        typer.Option(
            help="A running Dask scheduler, e.g. tcp://10.0.0.5:8786 (implies --dask; "
            "default: the `dask_scheduler` setting, else a local cluster)."
        ),
    ] = None,
) -> None:
    """Run the daily flow for every day from START to END (or --all); a failed day stops nothing."""
    from omoide.core.settings import get_settings

    settings = get_settings()
    if (every_day and (start or end)) or (not every_day and not (start and end)):
        raise OmoideError("give either --start and --end, or --all")
    if not settings.sources:
        raise NoSourcesError(settings.home)
    if every_day:
        from omoide.ingest.span import backfill_range

        first, last, problems = backfill_range(
            settings.sources, settings.timezone, datetime.now(UTC)
        )
        for problem in problems:
            err.print(f"[yellow]left out:[/] {escape(problem)}", highlight=False, soft_wrap=True)
        err.print(f"backfilling every day your sources hold: {first} to {last}")
    else:
        first, last = parse_day(start), parse_day(end)
    n = len(days_between(first, last))
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with writing(settings, f"omoide backfill --start {first} --end {last}"):
        _, backfill_module, _ = flow_modules(settings.home, "backfill", start_server=True)
        with Progress(*columns, console=err, transient=False) as bar:
            job = bar.add_task("backfill", total=n)
            progress.install(lambda label: bar.update(job, advance=1, description=f"done {label}"))
            try:
                state = run_flow(
                    backfill_module.backfill,
                    start=first,
                    end=last,
                    force=force,
                    dask=True if dask_scheduler else dask,
                    dask_scheduler=dask_scheduler,
                )
            finally:
                progress.install(None)
    # Failed days are listed with the rest (and why: the source and its path), then the error.
    results, error = partial_outcome(state, "the backfill")
    if results is None:
        raise error or OmoideError("the backfill returned nothing")
    if as_json:
        print(json.dumps(results))
    else:
        _print_days(results, backfill_module.day_failure)
        settings_vault = settings.vault_dir / "memory"
        out.print(
            f'digests in {settings_vault}; ask with `omoide ask "..."`',
            markup=False,
            highlight=False,
        )
    if error is not None:
        raise error


def _print_days(results: dict, why: Callable[[dict], str]) -> None:
    """Backfill results per day (+ how to tell a failed day's reason) -> a table on stdout."""
    # Folded, not cut short: a failed day's status names the path of the source that failed.
    table = Table(
        "day",
        Column("status", overflow="fold"),
        "events",
        "sessions",
        "memories",
        "facts",
        "quarantined",
    )
    for d, r in results.items():
        if r["ok"]:
            status = "unchanged" if r.get("skipped") else "ok"
        else:
            status = f"[red]failed[/]: {escape(why(r))}"
        table.add_row(
            d,
            status,
            *(
                str(r.get(c, "-"))
                for c in ("events", "sessions", "memories", "facts", "quarantined")
            ),
        )
    out.print(table)


def _print_day(summary: dict) -> None:
    """Daily summary -> a table on stdout."""
    table = Table(
        "source",
        Column("status", overflow="fold"),
        "events",
        "added",
        "quarantined",
        "redactions",
        title=f"omoide {summary['day']}",
    )
    for name, r in summary["sources"].items():
        red = ", ".join(f"{k}={v}" for k, v in sorted(r["redactions"].items()) if v) or "-"
        status = "cached" if r.get("cached") else "collected"
        table.add_row(name, status, str(r["events"]), str(r["added"]), str(r["quarantined"]), red)
    for name, why in summary.get("failed_sources", {}).items():
        table.add_row(name, f"[red]failed[/]: {escape(why)}", "-", "-", "-", "-")
    out.print(table)
    s = summary["sessions"]
    out.print(f"{s['sessions']} sessions from {s['events']} activity events ({s['compression']}×)")
    d, m = summary["digest"], summary["memories"]
    out.print(
        f"digest by {d['produced_by']} → {d['vault']} ({d['facts']} facts, {d['llm_calls']} LLM calls); "
        f"{m['memories']} memories in LanceDB ({m['embedded']} embedded now)"
    )


def reflect(
    end: Annotated[
        str | None, typer.Option(help="Last day of the window (default: today).")
    ] = None,
    days: Annotated[int, typer.Option(min=1, help="Days in the window.")] = 7,
) -> None:
    """Run the weekly reflection now: opinions, links, a fresh Big Five analysis, the profile."""
    from omoide.core.settings import get_settings

    settings = get_settings()
    with writing(settings, "omoide reflect"):
        _, _, reflect_module = flow_modules(settings.home, "reflect", start_server=True)
        state = run_flow(
            reflect_module.reflect_flow, end=parse_day(end) if end else None, days=days
        )
    r = outcome(state, "the reflection")
    out.print(
        f"{r['entities']} entities, {r['opinions']} opinions ({len(r['opinion_changes'])} moves), "
        f"{r['links_written']} daily files relinked, analyses added: "
        f"{', '.join(r['analyses_added']) or 'none'}; profile at {settings.vault_dir / 'bank'}"
    )


def serve() -> None:
    """Serve the daily (02:00 local) and backfill deployments from this process (Ctrl-C stops)."""
    from omoide.core.settings import get_settings

    settings = get_settings()
    if not settings.sources:
        err.print(
            f"[yellow]omoide:[/] {escape(str(NoSourcesError(settings.home)))}; the daily runs "
            "fail until then",
            highlight=False,
            soft_wrap=True,
        )
    # Served runs start as subprocesses of this one with its environment and Prefect settings:
    # forced before Prefect is imported, so they share this home's Prefect home and cache even
    # when the shell named another PREFECT_HOME.
    os.environ.update(deployment_environment(settings.home))
    daily_module, backfill_module, reflect_module = flow_modules(settings.home, "serve")
    from prefect import serve as prefect_serve

    where = os.environ.get("PREFECT_API_URL")
    if not where:
        # Prefect runs its scheduler (and its late-run marking) only in a long-lived server:
        # measured, a serve on its ephemeral one had no scheduled run after two minutes.
        err.print(
            "[yellow]omoide:[/] no `omoide server` runs for this home, so nothing runs on "
            "schedule: Prefect's short-lived server creates no scheduled runs. Start `omoide "
            "server` first.",
            highlight=False,
            soft_wrap=True,
        )
        where = "an ephemeral server"
    out.print(
        f"Serving daily at 02:00 and reflect on Sundays at 03:00 ({settings.timezone}), and backfill, "
        f"on {where}.",
        highlight=False,
    )
    served = deployments(daily_module, backfill_module, settings.timezone, reflect_module)
    with stop_on_signals("serve", code=0, drain=drain_logs) as stopper:
        # Not paused on the way out: pausing asks the server once per deployment, and when the
        # server is already gone (a service manager stops both) each call retried for 70 s.
        # The schedules stay with the server, whose runs wait as late until serve is back.
        prefect_serve(*served, pause_on_shutdown=False)
        if stopper is not None:
            # prefect.serve returns only once stopped: end now, the served runs with it.
            stopper.end()


def deployments(daily_module, backfill_module, timezone: str, reflect_module) -> list:  # noqa: ANN001
    """Flow modules + timezone -> the runner deployments `serve` runs (daily, backfill, weekly reflect)."""
    from prefect.schedules import Cron

    # No job variables: Prefect takes them only with a work pool. Served runs inherit this
    # process's environment instead (see `serve`). One run of each schedule at a time, as in
    # prefect.yaml: after nights switched off, their late runs all start at once, and those
    # waiting on the writer lock behind a long catch-up would give up after lock_timeout_s.
    return [
        daily_module.daily.to_deployment(
            name="daily", schedule=Cron("0 2 * * *", timezone=timezone), concurrency_limit=1
        ),
        backfill_module.backfill.to_deployment(name="backfill"),
        reflect_module.reflect_flow.to_deployment(
            name="reflect", schedule=Cron("0 3 * * 0", timezone=timezone), concurrency_limit=1
        ),
    ]
