"""`omoide forget`: take records back from every store, leave a tombstone, re-make the touched days, prove it."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from omoide.core.days import parse_day
from omoide.core.errors import OmoideError

out = Console()
err = Console(stderr=True)


class ForgetUnproven(OmoideError):
    """The receipt's scan still found a forgotten string somewhere under the home."""


def forget_command(
    day: Annotated[str | None, typer.Option(help="One local day, YYYY-MM-DD.")] = None,
    since: Annotated[str | None, typer.Option(help="From this day on, YYYY-MM-DD.")] = None,
    until: Annotated[str | None, typer.Option(help="Up to this day, YYYY-MM-DD.")] = None,
    source: Annotated[str | None, typer.Option(help="A configured source's name or kind.")] = None,
    domain: Annotated[
        str | None, typer.Option(help="A domain and its subdomains (stays excluded).")
    ] = None,
    url: Annotated[
        str | None, typer.Option(help="URLs starting with this prefix (stays excluded).")
    ] = None,
    entity: Annotated[
        str | None, typer.Option(help="A person, project or place: records by, with or about it.")
    ] = None,
    memory: Annotated[
        str | None, typer.Option(help="A memory id: the records it was made from.")
    ] = None,
    match: Annotated[
        str | None, typer.Option(help="Records whose title, URL or text contains this (any case).")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show what would go; change nothing.")
    ] = False,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask before forgetting.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the preview or receipt as one JSON object.")
    ] = False,
) -> None:
    """Forget records and everything made from them; a tombstone keeps them out; a byte scan proves it."""
    from omoide.core.settings import get_settings
    from omoide.forget.cascade import preview
    from omoide.forget.select import Selector

    if day and (since or until):
        raise OmoideError("give either --day, or --since/--until")
    selector = Selector(
        since=parse_day(day or since) if (day or since) else None,
        until=parse_day(day or until) if (day or until) else None,
        source=source,
        domain=domain,
        url=url,
        entity=entity,
        memory=memory,
        match=match,
    )
    settings = get_settings()
    _, plan = preview(settings, selector)
    if dry_run:
        _show({"dry_run": True, **plan}, as_json)
        return
    if not yes:
        _show({"dry_run": True, **plan}, False)
        typer.confirm("Forget all of this for good?", abort=True)
    receipt = {**_forget(settings, selector), "still_in_your_files": plan["still_in_your_files"]}
    _show(receipt, as_json)
    if receipt["scan"]["hits"]:
        raise ForgetUnproven(
            f"the scan still found forgotten text in {len(receipt['scan']['hits'])} file(s): "
            + ", ".join(receipt["scan"]["hits"][:5])
        )


def _forget(settings: Any, selector: Any) -> dict[str, Any]:
    """Settings + selector -> the whole forget, under the writer lock; the receipt."""
    from omoide.cli.prefect_purge import purge_prefect, scrub_prefect_db
    from omoide.cli.runtime import flow_modules, outcome, quiesce, run_flow, writing
    from omoide.core.refs import to_ref
    from omoide.forget.cascade import compact, days_to_remake, receipt_scan, settle, take_back
    from omoide.forget.select import select_records

    # The command line names no forgotten text: it is what Prefect and the logs keep.
    with writing(settings, "omoide forget"):
        selection = select_records(settings.lake_dir, selector)
        days = days_to_remake(settings, selection)
        counts = take_back(settings, selector, selection)
        remade: list[str] = []
        if days:
            _, backfill_module, _ = flow_modules(settings.home, "forget", start_server=True)
            state = run_flow(
                backfill_module.backfill,
                start=min(days),
                end=max(days),
                force=True,
                only=days,
            )
            remade = sorted(outcome(state, "re-making the touched days"))
        else:
            flow_modules(settings.home, "forget")
        counts |= purge_prefect(selection.matcher)
        # This process's Prefect server writes the events it buffered as it stops (on a busy
        # machine, seconds after the runs): stopped now, its writes all land before the scrub.
        quiesce()
        for key, n in settle(settings, selection).items():
            counts[key] += n
        counts |= compact(settings)
        counts["prefect events"], vacuumed = scrub_prefect_db(
            settings.prefect_home, selection.matcher
        )
        hits = receipt_scan(settings, selection)
    return {
        "records": len(selection.events),
        "days_remade": remade,
        "removed": counts,
        "prefect_db_vacuumed": vacuumed,
        "scan": {
            "strings": len(selection.needles),
            "hits": sorted({to_ref(str(h.path), settings.home) for h in hits}),
        },
    }


def _show(report: dict[str, Any], as_json: bool) -> None:
    """Preview or receipt -> printed as JSON or as a short table."""
    if as_json:
        print(json.dumps(report, ensure_ascii=False))
        return
    if report.get("dry_run"):
        out.print(
            f"would forget {report['records']} record(s) on {len(report['days'])} day(s) "
            f"and {report['memory_rows']} memory row(s) made from them"
        )
        for name, n in report["by_source"].items():
            out.print(f"  {escape(name)}: {n}")
        for where in report["still_in_your_files"]:
            out.print(f"  your own file still says it: {escape(where)} (omoide never edits it)")
        return
    table = Table("store", "removed", title="omoide forget — receipt")
    for store, n in report["removed"].items():
        table.add_row(store, str(n))
    out.print(table)
    scan = report["scan"]
    verdict = "0 hits" if not scan["hits"] else f"[red]{len(scan['hits'])} file(s) still hold it[/]"
    out.print(
        f"byte scan of every file under the home (your own sources excepted) for "
        f"{scan['strings']} forgotten string(s): {verdict}"
    )
    for where in report["still_in_your_files"]:
        out.print(f"your own file still says it: {escape(where)} (omoide never edits it)")
