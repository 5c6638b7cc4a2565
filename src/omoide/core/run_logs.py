"""The logs folder -> each command's last flow run and its outcome, and the newest error's one line.

Every command that starts Prefect writes one file under OMOIDE_HOME/logs/, named
`YYYYmmdd-HHMMSS-<command>-<pid>.log` (`omoide.cli.runtime.new_log`), in Prefect's format
(`YYYY-MM-DD HH:MM:SS.mmm | LEVEL | Flow run 'name' - message`, local time; logs written
before the date was added give the time of day only). A flow run's last line says
how it ended (`Finished in state Completed()`); the outermost run of a command ends last, so a
file's last such line is the command's outcome (for `omoide serve`, that of its latest
scheduled run). This is what `omoide status` reads when no Prefect server answers.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path

_NAME = re.compile(r"^(?P<at>\d{8}-\d{6})-(?P<command>.+)-(?P<pid>\d+)\.log$")
_LINE = re.compile(
    r"^(?:(?P<date>\d{4}-\d\d-\d\d) )?(?P<clock>\d\d:\d\d:\d\d)\.\d+ \| (?P<level>[A-Z]+)\s*\| "
    r"(?P<rest>.*)$"
)
_FINISHED = re.compile(
    r"^Flow run '(?P<run>[^']*)' - Finished in state (?P<state>\w+)\((?P<message>.*)\)$"
)
_EXCEPTION_PREFIX = re.compile(r"^(Flow|Task) run encountered an exception:? ")
LINE_CHARS = 300  # an error's one line is cut there: a path and a reason fit
# Only a log's end is read: `omoide serve` writes one log for as long as it runs (about
# 200 lines a night), and what status asks is near its end.
TAIL_BYTES = 2_000_000


@dataclass(frozen=True)
class LoggedRun:
    """A command's log: which command, when it started, its last finished flow run and how it ended."""

    command: str
    log: Path
    started: datetime
    run: str | None  # None: no flow run finished in it
    ended: datetime | None
    outcome: str  # Completed, Failed, Crashed, Cancelled…; "running" or "unfinished" without one
    message: str


@dataclass(frozen=True)
class LoggedError:
    """The newest error a log holds: when, its one line, the log file."""

    at: datetime
    line: str
    log: Path


def logged_runs(logs_dir: Path) -> list[LoggedRun]:
    """Logs folder -> the newest log of each command (but `server`, which runs no flow) as a LoggedRun, newest first."""
    runs: dict[str, LoggedRun] = {}
    for path, started, command, pid in reversed(_logs(logs_dir)):
        if command == "server" or command in runs:
            continue
        finished = [(at, m) for at, _, rest in _lines(path) if (m := _FINISHED.match(rest))]
        if not finished:
            # A run in progress, or a command stopped before its flow ended (killed, refused).
            outcome = "running" if _alive(pid) else "unfinished"
            runs[command] = LoggedRun(command, path, started, None, None, outcome, "")
            continue
        at, m = finished[-1]
        message = _one_line(m["message"].strip("'\""))
        runs[command] = LoggedRun(command, path, started, m["run"], at, m["state"], message)
    return list(runs.values())


def last_error(logs_dir: Path) -> LoggedError | None:
    """Logs folder -> the newest log's error that ended a flow run (else its last ERROR line), or None when no log holds one."""
    for path, _, _, _ in reversed(_logs(logs_dir)):
        failed = None
        error = None
        for at, level, rest in _lines(path):
            m = _FINISHED.match(rest)
            if m and m["state"] not in ("Completed", "Cached", "Cancelled"):
                failed = LoggedError(at, _one_line(m["message"].strip("'\"")), path)
            elif level in ("ERROR", "CRITICAL"):
                error = LoggedError(at, _one_line(rest), path)
        if failed is not None or error is not None:
            return failed or error
    return None


def _logs(logs_dir: Path) -> list[tuple[Path, datetime, str, int]]:
    """Logs folder -> (file, start time, command, pid) of each command log, oldest first."""
    if not logs_dir.is_dir():
        return []
    found = []
    for path in logs_dir.glob("*.log"):
        m = _NAME.match(path.name)
        if m is None:
            continue
        try:
            started = datetime.strptime(m["at"], "%Y%m%d-%H%M%S").astimezone()
        except ValueError:
            continue
        found.append((path, started, m["command"], int(m["pid"])))
    return sorted(found, key=lambda f: (f[1], f[0].name))


def _lines(path: Path) -> list[tuple[datetime, str, str]]:
    """A log file -> (time, level, rest) of each line of its tail that has a time, in order.

    A line without a date (an older log) is dated counting back from the file's last write,
    a day earlier each time the clock runs forward going up the file.
    """
    try:
        with path.open("rb") as f:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - TAIL_BYTES))
            text = f.read().decode("utf-8", errors="replace")
            written = datetime.fromtimestamp(os.fstat(f.fileno()).st_mtime)
    except OSError:
        return []
    out = []
    day, later = written.date(), written.time()
    for line in reversed(text.splitlines()):
        m = _LINE.match(line)
        if m is None:
            continue
        clock = time.fromisoformat(m["clock"])
        if m["date"]:
            day = date.fromisoformat(m["date"])
        elif clock > later:
            day -= timedelta(days=1)
        later = clock
        out.append((datetime.combine(day, clock).astimezone(), m["level"], m["rest"]))
    return out[::-1]


def _one_line(text: str) -> str:
    """A logged message -> one line without Prefect's exception preamble, at most LINE_CHARS characters."""
    text = _EXCEPTION_PREFIX.sub("", " ".join(text.split()))
    return text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"


def _alive(pid: int) -> bool:
    """Process id -> whether such a process exists (a log without an end may be a run in progress)."""
    if pid <= 0 or os.name == "nt":
        # On Windows signal 0 is CTRL_C_EVENT: probing would interrupt the very run it asks about.
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
