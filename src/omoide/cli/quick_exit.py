"""A read command's end: once its answer is out, the process ends by `os._exit`, without tearing the interpreter down.

Tearing down an interpreter that imported LanceDB takes 0.15-0.2 s (freeing the classes and
schemas of its modules, one object at a time) after `omoide recall` has printed its answer:
a sixth of a fresh recall, spent on memory the OS takes back at once anyway. A command with
nothing left to finish (its writes committed, no Prefect run to report to a server, no child
process) arms this; the console script's `main` then flushes the log handlers and streams and
ends the process with the command's exit code. Only `main` ends it: the recall endpoint, the
MCP server and tests that call a command in-process are untouched.
"""

from __future__ import annotations

import os
import sys

from omoide.cli.stop import flush_logs

_armed = False


def arm() -> None:
    """() -> this process may end without teardown once its command returns (`end_if_armed`)."""
    global _armed
    _armed = True


def end_if_armed(code: object) -> None:
    """A SystemExit's code -> the process ended with it, output flushed, when armed; else nothing."""
    if not _armed:
        return
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # sys.exit("message"): Python prints it and exits 1
        print(code, file=sys.stderr)
        status = 1
    flush_logs()
    os._exit(status)
