"""The omoide command: thin; calls flows or library functions; errors are one clear line."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from omoide.cli.memory import recall_command, reindex_command
from omoide.cli.reflect import entity_command, profile_app
from omoide.core import progress
from omoide.core.days import days_between, parse_day, yesterday
from omoide.core.errors import OmoideError
from omoide.core.settings import Settings, get_settings

app = typer.Typer(
    help="omoide: a private, local-first memory built from your own activity traces.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
bench_app = typer.Typer(
    help="Benchmarks: PII scoring, throughput, LoCoMo recall, recall latency.", no_args_is_help=True
)
app.add_typer(bench_app, name="bench")
app.command("recall")(recall_command)
app.command("reindex")(reindex_command)
app.command("entity")(entity_command)
app.add_typer(profile_app, name="profile")
out = Console()
err = Console(stderr=True)


def _flows(settings: Settings):  # noqa: ANN202 - returns the flows module
    """Settings -> the flows module, imported only after Prefect's environment is set."""
    from omoide.cli.runtime import apply_prefect_environment

    apply_prefect_environment(settings.home)
    import omoide.flows.backfill as backfill_module
    import omoide.flows.daily as daily_module
    import omoide.flows.reflect as reflect_module

    return daily_module, backfill_module, reflect_module


@app.command()
def init() -> None:
    """Create OMOIDE_HOME with a starter omoide.toml listing the browser profiles found."""
    from omoide.ingest.discover import browser_profiles, starter_toml

    settings = get_settings()
    for d in (settings.home, settings.lake_dir, settings.quarantine_dir, settings.vault_dir):
        d.mkdir(parents=True, exist_ok=True, mode=0o700)
    toml = settings.home / "omoide.toml"
    if toml.exists():
        out.print(f"{toml} exists; left unchanged.")
        return
    profiles = browser_profiles()
    toml.write_text(starter_toml(profiles, _local_timezone()), encoding="utf-8")
    out.print(
        f"Wrote {toml} with {len(profiles)} browser profile(s). Edit it, then `omoide doctor`."
    )


def _local_timezone() -> str:
    """This machine's IANA timezone name, or UTC when it cannot be told."""
    link = Path("/etc/localtime")
    if link.is_symlink() and "zoneinfo/" in str(link.resolve()):
        return str(link.resolve()).split("zoneinfo/", 1)[1]
    return "UTC"


@app.command()
def sample(
    days: Annotated[int, typer.Option(min=1, max=366, help="How many days.")] = 7,
    out_dir: Annotated[
        Path, typer.Option("--out", help="Folder to write (becomes an OMOIDE_HOME).")
    ] = Path("sample"),
    end: Annotated[str, typer.Option(help="Last sample day, YYYY-MM-DD.")] = "2026-11-20",
) -> None:
    """Write a deterministic sample week in the real source formats, plus its omoide.toml."""
    from omoide.sample.generate import write_sample

    first, last = write_sample(out_dir, days=days, end=parse_day(end))
    out.print(f"{first} {last}")


@app.command()
def run(
    day: Annotated[
        str | None, typer.Option(help="Local day YYYY-MM-DD (default: yesterday).")
    ] = None,
    force: Annotated[bool, typer.Option(help="Ignore cached results and recompute.")] = False,
) -> None:
    """Run the daily flow for one day."""
    settings = get_settings()
    the_day = parse_day(day) if day else yesterday(settings.timezone, datetime.now(UTC))
    daily_module, _, _ = _flows(settings)
    state = daily_module.daily(day=the_day, force=force, return_state=True)
    if not state.is_completed():
        raise OmoideError(state.message or f"daily run for {the_day} failed")
    _print_day(state.result())


@app.command()
def backfill(
    start: Annotated[str, typer.Option(help="First day, YYYY-MM-DD.")],
    end: Annotated[str, typer.Option(help="Last day, YYYY-MM-DD (inclusive).")],
    force: Annotated[bool, typer.Option(help="Ignore cached results and recompute.")] = False,
) -> None:
    """Run the daily flow for every day from START to END; a failed day stops nothing."""
    settings = get_settings()
    first, last = parse_day(start), parse_day(end)
    n = len(days_between(first, last))
    _, backfill_module, _ = _flows(settings)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err, transient=False) as bar:
        job = bar.add_task("backfill", total=n)
        progress.install(lambda label: bar.update(job, advance=1, description=f"done {label}"))
        try:
            state = backfill_module.backfill(start=first, end=last, force=force, return_state=True)
        finally:
            progress.install(None)
    results = state.result(raise_on_failure=False) if state.is_completed() else None
    if results is None:
        raise OmoideError(state.message or "backfill failed")
    table = Table("day", "status", "events", "sessions", "memories", "facts", "quarantined")
    for d, r in results.items():
        table.add_row(
            d,
            "ok",
            *(str(r[c]) for c in ("events", "sessions", "memories", "facts", "quarantined")),
        )
    out.print(table)
    settings_vault = settings.vault_dir / "memory"
    out.print(f'digests in {settings_vault}; ask with `omoide recall "..."`')


def _print_day(summary: dict) -> None:
    """Daily summary -> a table on stdout."""
    table = Table(
        "source",
        "status",
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
    out.print(table)
    s = summary["sessions"]
    out.print(f"{s['sessions']} sessions from {s['events']} activity events ({s['compression']}×)")
    d, m = summary["digest"], summary["memories"]
    out.print(
        f"digest by {d['produced_by']} → {d['vault']} ({d['facts']} facts, {d['llm_calls']} LLM calls); "
        f"{m['memories']} memories in LanceDB ({m['embedded']} embedded now)"
    )


@app.command()
def reflect(
    end: Annotated[
        str | None, typer.Option(help="Last day of the window (default: today).")
    ] = None,
    days: Annotated[int, typer.Option(min=1, help="Days in the window.")] = 7,
) -> None:
    """Run the weekly reflection now: opinions, links, a fresh Big Five analysis, the profile."""
    settings = get_settings()
    _, _, reflect_module = _flows(settings)
    state = reflect_module.reflect_flow(
        end=parse_day(end) if end else None, days=days, return_state=True
    )
    if not state.is_completed():
        raise OmoideError(state.message or "reflect failed")
    r = state.result()
    out.print(
        f"{r['entities']} entities, {r['opinions']} opinions ({len(r['opinion_changes'])} moves), "
        f"{r['links_written']} daily files relinked, analyses added: "
        f"{', '.join(r['analyses_added']) or 'none'}; profile at {settings.vault_dir / 'bank'}"
    )


@app.command()
def serve() -> None:
    """Serve the daily (02:00 local) and backfill deployments from this process (Ctrl-C stops)."""
    settings = get_settings()
    daily_module, backfill_module, reflect_module = _flows(settings)
    from prefect import serve as prefect_serve

    out.print(
        f"Serving daily at 02:00 and reflect on Sundays at 03:00 ({settings.timezone}), and backfill; "
        "open the UI with `prefect server start`."
    )
    prefect_serve(*deployments(daily_module, backfill_module, settings.timezone, reflect_module))


def deployments(daily_module, backfill_module, timezone: str, reflect_module) -> list:  # noqa: ANN001
    """Flow modules + timezone -> the runner deployments `serve` runs (daily, backfill, weekly reflect)."""
    from prefect.schedules import Cron

    return [
        daily_module.daily.to_deployment(
            name="daily", schedule=Cron("0 2 * * *", timezone=timezone)
        ),
        backfill_module.backfill.to_deployment(name="backfill"),
        reflect_module.reflect_flow.to_deployment(
            name="reflect", schedule=Cron("0 3 * * 0", timezone=timezone)
        ),
    ]


@app.command()
def doctor() -> None:
    """Show the configuration, which sources are found and readable, which backends answer."""
    from omoide.cli.doctor import checks

    settings = get_settings()
    table = Table("check", "status", "detail", title=f"omoide doctor — home {settings.home}")
    ok_all = True
    for name, ok, detail in checks(settings):
        ok_all &= ok is not False
        status = {True: "[green]ok[/]", False: "[red]problem[/]", None: "[yellow]n/a[/]"}[ok]
        table.add_row(name, status, detail)
    out.print(table)
    if not ok_all:
        raise typer.Exit(1)


@bench_app.command("pii")
def bench_pii(
    data: Annotated[
        Path, typer.Option(exists=True, dir_okay=False, help="JSONL in the pii_dev format.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Score the sanitizer's PII detection: recall per type and overall precision."""
    from omoide.bench.pii import score

    result = score(data)
    if as_json:
        print(json.dumps(result))
        return
    table = Table("type", "recall")
    for t, r in result["recall"].items():
        table.add_row(t, "n/a" if r is None else f"{r:.3f}")
    out.print(table)
    out.print(f"precision {result['precision']:.3f} over {result['cases']} cases")


@bench_app.command("throughput")
def bench_throughput(
    events: Annotated[int, typer.Option(min=1000, help="Synthetic events to generate.")] = 100_000,
    repeats: Annotated[int, typer.Option(min=1, help="Rounds; the fastest counts.")] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Time collect→sanitize→sessionize against a row-by-row reference and a bare regex scan."""
    from omoide.bench.throughput import run_benchmark

    result = run_benchmark(events, repeats=repeats)
    if as_json:
        print(json.dumps(result))
        return
    table = Table("figure", "value")
    for k, v in result.items():
        table.add_row(k, f"{v:,.2f}" if isinstance(v, float) else str(v))
    out.print(table)


@bench_app.command("locomo")
def bench_locomo(
    data: Annotated[
        Path, typer.Option(exists=True, dir_okay=False, help="JSON in the LoCoMo format.")
    ],
    k: Annotated[str, typer.Option(help="Comma-separated cut-offs.")] = "5,10,25",
    decay_lambda: Annotated[
        float | None,
        typer.Option(
            help="Time decay λ while recalling (default: [recall] decay_lambda; 0 = none)."
        ),
    ] = None,
    limit: Annotated[
        int | None, typer.Option(min=1, help="Only the first N conversations.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Ingest each LoCoMo conversation through the pipeline's stages and score recall@k."""
    from omoide.bench.locomo import run_locomo

    ks = [int(x) for x in k.split(",") if x.strip()]
    lam = get_settings().recall.decay_lambda if decay_lambda is None else decay_lambda
    result = run_locomo(data, ks, decay_lambda=lam, limit=limit)
    if as_json:
        print(json.dumps(result))
        return
    cats = list(next(iter(result["recall_at"].values())))
    table = Table("k", *cats, "mean words")
    for kk, row in result["recall_at"].items():
        table.add_row(kk, *(f"{row[c]:.1f}" for c in cats), str(result["mean_words"][kk]))
    out.print(table)
    out.print(f"{result['questions']} questions; embeddings {result['embed_model']}")


@bench_app.command("recall")
def bench_recall(
    sizes: Annotated[str, typer.Option(help="Comma-separated table sizes.")] = "10000,100000",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Recall latency p50/p95 against a bare vector query on the same table; ingest rate."""
    from omoide.bench.recall import run_benchmark as run_recall_benchmark

    result = run_recall_benchmark([int(x) for x in sizes.split(",") if x.strip()])
    if as_json:
        print(json.dumps(result))
        return
    out.print_json(json.dumps(result))


def main() -> None:
    """Console-script entry: run the app; domain errors become one line and exit code 1."""
    try:
        app()
    except OmoideError as exc:
        err.print(f"[red]omoide:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
        sys.exit(1)
    except ValidationError as exc:
        from omoide.core.settings import home_from_env

        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        msg = first["msg"].removeprefix("Value error, ")
        toml = home_from_env() / "omoide.toml"
        err.print(
            f"[red]omoide:[/] invalid configuration ({toml} or OMOIDE_* variables): {where}: {msg}",
            highlight=False,
            soft_wrap=True,
        )
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
