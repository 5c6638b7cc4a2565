"""A command's end without tearing the interpreter down: once it is done, the process ends by `os._exit`.

Tearing down an interpreter frees every class and schema of every module it imported, one
object at a time, for memory the OS takes back at once anyway: 0.15-0.2 s after `omoide
recall` has printed its answer (LanceDB), about a second after a flow command (Prefect, Great
Expectations, pandas and LanceDB; a sixth of a backfill that finds nothing to do). Two ways:

- `arm()`: a read command with nothing left to finish (its writes committed, no Prefect run,
  no child process). The console script's `main` flushes the log handlers and streams and
  ends the process with the command's exit code as soon as the command returns.
- `arm_after_cleanup()`: a flow command. Its exit goes on as usual (threads joined, then the
  exit handlers registered after this call: the early Prefect server stopped, LanceDB's
  runtime shut down, child processes reaped); the last of them flushes and ends the process.

Only `main` ends it (it records the exit code): the recall endpoint, the MCP server and
tests that call a command in-process are untouched.
"""

from __future__ import annotations

import atexit
import os
import sys

from omoide.cli.stop import flush_logs

_armed = False
_cleanup_armed = False
_status: list[int] = []  # the exit code `main` saw, for the exit handler of a flow command


def arm() -> None:
    """() -> this process may end without teardown once its command returns (`end_if_armed`)."""
    global _armed
    _armed = True


def arm_after_cleanup() -> None:
    """() -> once the command returns and the exit handlers registered from now on have run, the process ends without teardown."""
    global _cleanup_armed
    if not _cleanup_armed:
        # Exit handlers run last-registered first: this one runs after every later one.
        atexit.register(_end_after_cleanup)
        _cleanup_armed = True


def end_if_armed(code: object) -> None:
    """A SystemExit's code -> the process ended with it, output flushed, when armed; else the code kept for the exit handler."""
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # sys.exit("message"): Python prints it and exits 1
        status = 1
    _status[:] = [status]
    if not _armed:
        return
    if not isinstance(code, int | None):
        print(code, file=sys.stderr)
    flush_logs()
    os._exit(status)


def _end_after_cleanup() -> None:
    """-> the process ended with the code `main` saw, output flushed; nothing when `main` did not run the command."""
    if not _status:
        return
    flush_logs()
    os._exit(_status[0])
