"""The `omoide status` command: whether the memory keeps itself — the service, the last and next
runs, the days not done, each source's newest record, the home's size, the last error.

Everything but the runs comes from what omoide records (omoide.store.home_status). The runs
come from Prefect's API when a server answers — `PREFECT_API_URL`, or the one `omoide server`
runs for this home — and from the logs folder otherwise; status never starts a server, so
without one the next run is unknown. `omoide doctor` checks the configuration; this does not.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from omoide.cli.runtime import is_healthy, running_server
from omoide.core.days import reference_time, zone
from omoide.core.errors import OmoideError
from omoide.core.server_auth import auth_string

if TYPE_CHECKING:
    import httpx

out = Console()
FINAL_OR_RUNNING = ["COMPLETED", "FAILED", "CRASHED", "CANCELLED", "RUNNING"]
API_TIMEOUT_S = 5.0


def status_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    now_at: Annotated[
        str | None,
        typer.Option(
            "--now",
            help="As of this ISO time (default: now; without an offset, in your timezone): "
            "which days count as missing and how long a source has been quiet.",
        ),
    ] = None,
) -> None:
    """Show whether the memory keeps itself: service, last and next run, missing days, sources, size, last error."""
    import httpx

    from omoide.core.settings import get_settings
    from omoide.store.home_status import home_status

    settings = get_settings()
    now = reference_time(now_at, settings.timezone)
    report = home_status(settings, now)
    api = prefect_api(settings.home)
    report["prefect_api"] = api
    report["next_run"] = None
    if api is not None:
        try:
            report["runs"], report["next_run"] = prefect_runs(api, api_auth(settings.home))
        except (httpx.HTTPError, KeyError, TypeError, ValueError) as exc:
            # The server answered its health check but not this: the logs still tell the runs.
            report["prefect_error"] = f"{api}: {exc}"
    report["last_run"] = max(report["runs"], key=_when, default=None)
    report["service"] = service(settings.home)
    if as_json:
        print(json.dumps(report, ensure_ascii=False))
        return
    _print(report, settings.timezone)


def prefect_api(home: Path) -> str | None:
    """OMOIDE_HOME -> the URL of a Prefect API that answers now (PREFECT_API_URL, else the home's `omoide server`), or None."""
    import httpx

    given = os.environ.get("PREFECT_API_URL")
    if given:
        url = given.rstrip("/")
        # Only a server on this machine is asked: status sends nothing beyond loopback.
        loopback = httpx.URL(url).host in ("127.0.0.1", "localhost", "::1")
        return url if loopback and is_healthy(url) else None
    return running_server(home)


def api_auth(home: Path) -> tuple[str, str]:
    """OMOIDE_HOME -> the user and password its Prefect server asks for (PREFECT_API_AUTH_STRING first)."""
    user, _, password = (os.environ.get("PREFECT_API_AUTH_STRING") or auth_string(home)).partition(
        ":"
    )
    return user, password


def prefect_runs(
    api: str, auth: tuple[str, str]
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """A Prefect API URL + its login -> the newest top-level run of each deployment (and of each flow run by hand), and the next scheduled run."""
    import httpx

    with httpx.Client(base_url=api, timeout=API_TIMEOUT_S, trust_env=False, auth=auth) as client:
        done = _post(
            client,
            "/flow_runs/filter",
            {
                "flow_runs": {
                    "parent_task_run_id": {"is_null_": True},
                    "state": {"type": {"any_": FINAL_OR_RUNNING}},
                },
                "sort": "EXPECTED_START_TIME_DESC",
                "limit": 200,
            },
        )
        scheduled = _post(
            client,
            "/flow_runs/filter",
            {
                "flow_runs": {
                    "deployment_id": {"is_null_": False},
                    "state": {"type": {"any_": ["SCHEDULED"]}},
                },
                "sort": "NEXT_SCHEDULED_START_TIME_ASC",
                "limit": 1,
            },
        )
        flows = _names(client, "/flows/filter", "flows", {r["flow_id"] for r in done + scheduled})
        deployments = _names(
            client,
            "/deployments/filter",
            "deployments",
            {r["deployment_id"] for r in done + scheduled if r["deployment_id"]},
        )
    newest: dict[str, dict[str, Any]] = {}
    for r in done:  # newest first
        flow = flows.get(r["flow_id"], "?")
        via = (
            f"deployment {flow}/{deployments.get(r['deployment_id'], '?')}"
            if r["deployment_id"]
            else f"{flow} flow by hand (an omoide command)"
        )
        state = r.get("state") or {}
        newest.setdefault(
            via,
            {
                "via": via,
                "run": r["name"],
                "started": r.get("start_time"),
                "ended": r.get("end_time"),
                "outcome": state.get("name") or state.get("type", "?"),
                "message": " ".join((state.get("message") or "").split())[:300],
            },
        )
    upcoming = None
    if scheduled:
        r = scheduled[0]
        upcoming = {
            "deployment": f"{flows.get(r['flow_id'], '?')}/{deployments.get(r['deployment_id'], '?')}",
            "at": r.get("next_scheduled_start_time") or r.get("expected_start_time"),
            "late": (r.get("state") or {}).get("name") == "Late",
        }
    return list(newest.values()), upcoming


def _post(client: httpx.Client, path: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    """API client + endpoint + filter -> the rows it answers."""
    response = client.post(path, json=body)
    response.raise_for_status()
    return list(response.json())


def _names(client: httpx.Client, path: str, key: str, ids: set[str]) -> dict[str, str]:
    """API client + a filter endpoint + object ids -> {id: name}."""
    if not ids:
        return {}
    rows = _post(client, path, {key: {"id": {"any_": sorted(ids)}}})
    return {r["id"]: r["name"] for r in rows}


def service(home: Path) -> dict[str, Any]:
    """OMOIDE_HOME -> the login service's state (omoide.service.service_state), or {"error": why} when it cannot be read."""
    from omoide.service import service_state

    try:
        return service_state(home)
    except (OmoideError, OSError, ValueError) as exc:  # an unknown platform, a tool that broke
        return {"error": str(exc)}


def _when(run: dict[str, Any]) -> datetime:
    """A run -> the time it ended (or started; a run with neither sorts first)."""
    iso = run.get("ended") or run.get("started")
    return datetime.fromisoformat(iso) if iso else datetime.min.replace(tzinfo=UTC)


def _print(report: dict[str, Any], tz: str) -> None:
    """Status report + timezone -> the human view on stdout."""
    out.print(f"[bold]omoide status[/] — {escape(report['home'])}", highlight=False)
    out.print(f"service     {escape(_service_line(report['service']))}", highlight=False)
    api = report["prefect_api"]
    if "prefect_error" in report:
        where = f"[yellow]{escape(report['prefect_error'])}[/]: runs read from the logs"
    else:
        where = escape(api) if api else "no server answers: runs read from the logs"
    out.print(f"prefect     {where}", highlight=False, soft_wrap=True)
    runs = Table("last run of", "run", "outcome", "ended", box=None, pad_edge=False)
    for r in report["runs"]:
        colour = "green" if r["outcome"] == "Completed" else "red"
        outcome = f"[{colour}]{escape(r['outcome'])}[/]"
        if r["message"] and r["outcome"] != "Completed":
            outcome += f": {escape(r['message'])}"
        ended = r.get("ended") or r.get("started")
        runs.add_row(escape(r["via"]), escape(r["run"] or "-"), outcome, _local(ended, tz))
    if report["runs"]:
        out.print(runs)
    else:
        out.print("runs        none recorded yet")
    nxt = report["next_run"]
    if nxt is None:
        why = "no Prefect server answers" if api is None else "nothing scheduled"
        out.print(f"next run    unknown ({why}; `omoide server` runs the schedules)")
    else:
        late = " [yellow](late: it starts as soon as a runner polls)[/]" if nxt["late"] else ""
        out.print(f"next run    {escape(nxt['deployment'])} at {_local(nxt['at'], tz)}{late}")
    out.print(f"missing     {_missing_line(report)}", highlight=False, soft_wrap=True)
    sources = Table("source", "kind", "newest record", box=None, pad_edge=False)
    for s in report["sources"]:
        sources.add_row(
            escape(s["name"]), s["kind"] + (" (live)" if s["live"] else ""), _local(s["newest"], tz)
        )
    if report["sources"]:
        out.print(sources)
    else:
        out.print("sources     none configured (`omoide init`, then `omoide doctor`)")
    for w in report["warnings"]:
        out.print(f"[yellow]warning:[/] {escape(w)}", highlight=False, soft_wrap=True)
    z = report["sizes"]
    out.print(
        f"size        {_mb(z['total'])}: lake {_mb(z['lake'])}, LanceDB {_mb(z['lancedb'])} "
        f"(its latest version's data {_mb(z['lancedb_current'])}; the rest old versions, indices, "
        f"manifests), vault {_mb(z['vault'])}, Prefect {_mb(z['prefect'])}, other {_mb(z['other'])}",
        highlight=False,
        soft_wrap=True,
    )
    error = report["last_error"]
    if error is not None:
        out.print(
            f"last error  {_local(error['at'], tz)} {escape(error['line'])} (log: {escape(error['log'])})",
            highlight=False,
            soft_wrap=True,
        )


def _missing_line(report: dict[str, Any]) -> str:
    """Status report -> the days not done, and the command that does them."""
    newest, missing, window = (
        report["newest_completed_day"],
        report["missing_days"],
        report["catch_up_days"],
    )
    if newest is None:
        return (
            "[yellow]no day has completed yet[/]: `omoide backfill --all` processes what your "
            "sources hold, then the schedule keeps it"
        )
    if not missing:
        return f"none of the last {window} days"
    # The catch-up does the days after the newest completed one; a failed day before it
    # needs a backfill (which skips the days done).
    fix = (
        "`omoide run` catches them up"
        if missing[0] > newest
        else f"`omoide backfill --start {missing[0]} --end {missing[-1]}` fills them"
    )
    return f"[yellow]{len(missing)} of the last {window} days[/]: {', '.join(missing)} — {fix}"


def _service_line(svc: dict[str, Any]) -> str:
    """The service's state -> one line: installed where and for which home, enabled, running."""
    if "error" in svc:
        return f"unknown ({svc['error']})"
    if not svc["installed"]:
        return "not installed (`omoide service install` starts omoide at login)"
    which = "this home" if svc["this_home"] else f"another home, {svc['home']}"
    return (
        f"installed for {which} ({', '.join(svc['unit_paths'])}); enabled: {_yes(svc['enabled'])}, "
        f"running: {_yes(svc['running'])}"
    )


def _yes(value: bool | str) -> str:
    """True, False or "unknown" -> yes, no or unknown."""
    return {True: "yes", False: "no"}.get(value, str(value))  # type: ignore[call-overload]


def _local(iso: str | None, tz: str) -> str:
    """An ISO time or None -> 'YYYY-MM-DD HH:MM' in the person's timezone, or '-'."""
    if not iso:
        return "-"
    return f"{datetime.fromisoformat(iso).astimezone(zone(tz)):%Y-%m-%d %H:%M}"


def _mb(n: int) -> str:
    """Bytes -> megabytes, one decimal."""
    return f"{n / 1e6:.1f} MB"
