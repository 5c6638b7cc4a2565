"""The omoide command: one typer app assembled from the command modules; errors become one clear line."""

from __future__ import annotations

import os
import sys

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape

from omoide.cli import quick_exit, run
from omoide.cli.archive import export_command, import_command
from omoide.cli.ask import ask_command
from omoide.cli.bench import bench_app
from omoide.cli.doctor import doctor_command
from omoide.cli.forget import forget_command
from omoide.cli.memory import mcp_command, recall_command, reindex_command
from omoide.cli.reflect import entity_command, profile_app
from omoide.cli.runtime import current_log
from omoide.cli.server import server
from omoide.cli.service import service_app
from omoide.cli.status import status_command
from omoide.core.errors import OmoideError
from omoide.core.offline import go_offline
from omoide.core.permissions import PRIVATE_UMASK

app = typer.Typer(
    help="omoide: a private, local-first memory built from your own activity traces.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
for command in (run.init, run.sample, run.run, run.backfill, run.reflect, run.serve):
    app.command()(command)
app.command("server")(server)
app.command("doctor")(doctor_command)
app.command("status")(status_command)
app.command("ask")(ask_command)
app.command("recall")(recall_command)
app.command("reindex")(reindex_command)
app.command("mcp")(mcp_command)
app.command("forget")(forget_command)
app.command("export")(export_command)
app.command("import")(import_command)
app.command("entity")(entity_command)
app.add_typer(profile_app, name="profile")
app.add_typer(bench_app, name="bench")
app.add_typer(service_app, name="service")
err = Console(stderr=True)


def main() -> None:
    """Console-script entry: run the app; domain errors become one line and exit code 1."""
    go_offline()
    # Owner-only, whoever writes: omoide's own files, LanceDB's, Prefect's database and the
    # servers and runs it starts (they inherit it). A memory of a person is nobody else's.
    os.umask(PRIVATE_UMASK)
    # LanceDB's own warnings (a k-means with empty clusters on a small index, dozens a year's
    # backfill) go straight to the terminal, where a person can do nothing with them.
    os.environ.setdefault("LANCEDB_LOG", "error")
    try:
        _run()
    except SystemExit as done:  # typer ends every command this way
        quick_exit.end_if_armed(done.code)
        raise


def _run() -> None:
    """() -> the app run; domain errors said in one line, exit code 1."""
    try:
        app()
    except OmoideError as exc:
        one_line = " ".join(str(exc).split())
        log = current_log()
        where = f" (details: {log})" if log is not None else ""
        err.print(f"[red]omoide:[/] {escape(one_line)}{where}", highlight=False, soft_wrap=True)
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
