"""The `omoide service` commands: install, uninstall and status of the per-user service that keeps
omoide running from login, and `run`, what that service runs."""

from __future__ import annotations

import getpass
import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from omoide.cli.runtime import deployment_environment
from omoide.cli.service_run import service_run
from omoide.core.errors import OmoideError
from omoide.core.files import private_dir, write_bytes_atomic
from omoide.service import (
    DEFAULT_PORT,
    ServiceSpec,
    check_available,
    disable,
    enable,
    omoide_executable,
    reload,
    service_state,
    this_platform,
    unit_bytes,
    unit_path,
    unit_text,
)

out = Console()
err = Console(stderr=True)
service_app = typer.Typer(
    help="The per-user service that starts omoide at login: the home's Prefect server and the "
    "daily schedule (systemd user unit, launchd agent, Task Scheduler task).",
    no_args_is_help=True,
)


class Platform(StrEnum):
    """The platforms a service file can be written for."""

    linux = "linux"
    macos = "macos"
    windows = "windows"


PlatformOption = Annotated[
    Platform | None,
    typer.Option(
        help="linux (systemd), macos (launchd) or windows (Task Scheduler); default: this machine's.",
        show_default=False,
    ),
]
UnitDirOption = Annotated[
    Path | None,
    typer.Option(
        "--unit-dir",
        file_okay=False,
        help="Use this folder for the service file instead of the platform's own, and enable nothing.",
    ),
]
_ENABLES = {
    "linux": "systemctl --user daemon-reload, enable and restart omoide.service",
    "macos": "launchctl bootstrap gui/<uid> (io.omoide.service)",
    "windows": "schtasks /Create /TN omoide /XML …, then /Run",
}


@service_app.command("install")
def install(
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the service file instead of writing it.")
    ] = False,
    platform: PlatformOption = None,
    unit_dir: UnitDirOption = None,
    port: Annotated[
        int,
        typer.Option(min=1, max=65535, help="Loopback port of the home's Prefect server and UI."),
    ] = DEFAULT_PORT,
) -> None:
    """Write the per-user service for OMOIDE_HOME and enable it: it starts now and at every login."""
    from omoide.core.settings import get_settings, home_from_env

    platform = _platform(platform)
    home = home_from_env()
    spec = ServiceSpec(
        omoide=str(omoide_executable()),
        home=str(home),
        port=port,
        env=deployment_environment(home) if platform != "windows" else {},
        user=_windows_user() if platform == "windows" else "",
    )
    path = unit_path(platform, unit_dir)
    if dry_run:
        _warn_without_toml(home)
        what = "write" if unit_dir is not None else f"write, then {_ENABLES[platform]}"
        # The header goes to stderr: stdout stays one file a parser can read as it is.
        err.print(f"# would {what}: {escape(str(path))}", highlight=False, soft_wrap=True)
        sys.stdout.write(unit_text(platform, spec))
        return
    if unit_dir is not None:
        _warn_without_toml(home)
        write_bytes_atomic(unit_bytes(platform, spec), path)
        out.print(f"Wrote {escape(str(path))} (nothing enabled).", highlight=False, soft_wrap=True)
        return
    _refuse_other_platform(platform, "install")
    if not (home / "omoide.toml").is_file():
        raise OmoideError(
            f"{home} has no omoide.toml: run `omoide init` first (and `omoide doctor`), "
            "then install the service"
        )
    get_settings()  # a broken omoide.toml is refused now, not at every start of the service
    check_available(platform)
    private_dir(home / "logs")  # launchd opens its output file there before omoide starts
    write_bytes_atomic(unit_bytes(platform, spec), path)
    try:
        enable(platform, path)
    except OmoideError as exc:
        raise OmoideError(f"wrote {path}, but {exc}") from exc
    out.print(
        f"Installed {escape(str(path))}: `omoide service run` keeps {escape(str(home))} (the "
        f"Prefect server on http://127.0.0.1:{port}, the daily 02:00 and weekly runs) from now "
        "and at every login. Check with `omoide service status`.",
        highlight=False,
        soft_wrap=True,
    )


@service_app.command("uninstall")
def uninstall(platform: PlatformOption = None, unit_dir: UnitDirOption = None) -> None:
    """Stop and disable the per-user service and remove its file (nothing to remove is fine)."""
    platform = _platform(platform)
    path = unit_path(platform, unit_dir)
    problems: list[str] = []
    if unit_dir is None:
        _refuse_other_platform(platform, "uninstall")
        problems = disable(platform)
    existed = path.exists()
    path.unlink(missing_ok=True)
    if unit_dir is None:
        reload(platform)
    said = f"Removed {path}" if existed else f"No service file at {path}"
    out.print(f"{escape(said)}.", highlight=False, soft_wrap=True)
    if problems:
        raise OmoideError("the service manager did not confirm every step: " + "; ".join(problems))


@service_app.command("status")
def status(
    platform: PlatformOption = None,
    unit_dir: UnitDirOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Say whether the per-user service is installed (and for which home), enabled and running."""
    from omoide.core.settings import home_from_env

    home = home_from_env()
    state = service_state(home, _platform(platform), unit_dir)
    if as_json:
        print(json.dumps(state))
        return
    path = state["unit_paths"][0]
    if state["installed"]:
        served = state["home"] or "an unknown home"
        whose = "this home" if state["this_home"] else f"{served}, not this home ({home})"
        out.print(
            f"installed: yes, {escape(path)}, for {escape(whose)}", highlight=False, soft_wrap=True
        )
    else:
        out.print(f"installed: no ({escape(path)} is absent)", highlight=False, soft_wrap=True)
    out.print(f"enabled: {_word(state['enabled'])}", highlight=False)
    out.print(f"running: {_word(state['running'])}", highlight=False)


service_app.command("run")(service_run)


def _word(value: Any) -> str:
    """True, False or "unknown" -> yes, no or unknown."""
    return "yes" if value is True else "no" if value is False else "unknown"


def _refuse_other_platform(platform: str, verb: str) -> None:
    """Platform -> returns when it is this machine's; OmoideError saying what to add otherwise."""
    here = this_platform()
    if platform != here:
        raise OmoideError(
            f"cannot {verb} a {platform} service on this {here} machine: add "
            + ("--dry-run or --unit-dir DIR" if verb == "install" else "--unit-dir DIR")
        )


def _warn_without_toml(home: Path) -> None:
    """OMOIDE_HOME -> a warning on stderr when it has no omoide.toml (the service would keep nothing)."""
    if not (home / "omoide.toml").is_file():
        err.print(
            f"[yellow]omoide:[/] {escape(str(home))} has no omoide.toml yet: run `omoide init` "
            "before installing this service",
            highlight=False,
            soft_wrap=True,
        )


def _windows_user() -> str:
    """-> the account whose logon starts the task, DOMAIN\\user when Windows names a domain."""
    domain = os.environ.get("USERDOMAIN", "")
    user = os.environ.get("USERNAME") or getpass.getuser()
    return f"{domain}\\{user}" if domain else user


def _platform(chosen: Platform | None) -> str:
    """--platform -> its name, or this machine's when none was given."""
    return chosen.value if chosen is not None else this_platform()
