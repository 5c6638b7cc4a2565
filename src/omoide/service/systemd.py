"""A ServiceSpec -> the systemd user unit (Linux) that starts omoide at login and restarts it on failure."""

from __future__ import annotations

import re

from omoide.service.spec import ServiceSpec

_NEEDS_QUOTES = re.compile(r"[\s\"'\\;]")


def systemd_unit(spec: ServiceSpec) -> str:
    """Spec -> the text of `omoide.service`, a user unit wanted by default.target (the login session)."""
    environment = [f"Environment={_quoted(f'{k}={v}')}" for k, v in sorted(spec.env.items())]
    lines = [
        f"# Written by `omoide service install` for OMOIDE_HOME={spec.home}",
        "# (`omoide service uninstall` removes it). Output: journalctl --user -u omoide;",
        "# Prefect's logs: one file per command under OMOIDE_HOME/logs.",
        "[Unit]",
        "Description=omoide: the Prefect server and the daily schedule that keep a memory",
        # Never give up restarting: a schedule that stopped trying misses days unnoticed.
        "StartLimitIntervalSec=0",
        "",
        "[Service]",
        "Type=simple",
        f"ExecStart={' '.join(_word(a) for a in spec.arguments())}",
        f"WorkingDirectory={_specifiers(spec.home)}",
        *environment,
        "Restart=on-failure",
        "RestartSec=15",
        "KillSignal=SIGTERM",
        # `omoide service run` stops the scheduler, then the server (which allows its own 30 s).
        "TimeoutStopSec=60",
        "",
        "[Install]",
        "WantedBy=default.target",
    ]
    return "\n".join(lines) + "\n"


def _specifiers(text: str) -> str:
    """Text -> the same with `%` doubled, so systemd reads no specifier in it."""
    return text.replace("%", "%%")


def _quoted(text: str) -> str:
    """Text -> one double-quoted systemd value (backslashes and quotes escaped, `%` doubled)."""
    escaped = _specifiers(text).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def _word(text: str) -> str:
    """A command-line argument -> one ExecStart word (`$` doubled: ExecStart expands variables)."""
    text = text.replace("$", "$$")
    return _quoted(text) if _NEEDS_QUOTES.search(text) else _specifiers(text)
