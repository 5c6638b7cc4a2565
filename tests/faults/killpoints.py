"""Run the omoide command and SIGKILL it at a chosen point: the n-th file write, LanceDB commit, or a time.

    python -m tests.faults.killpoints POINT N -- omoide-args...

POINT is one of:
- `text`: the N-th atomic file write (vault pages, daily files, caches), after the temporary
  file is written and before it replaces the target;
- `parquet`: the N-th lake or quarantine parquet write, at the same moment;
- `optimize`: N milliseconds into the first LanceDB `optimize()` (index and compaction work);
- `merge`: N milliseconds into the first LanceDB `merge_insert` commit;
- `time`: N milliseconds after the command starts.
The process is killed with SIGKILL, as an out-of-memory killer or a power cut would: no
cleanup, no `finally`, no atexit.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _later(ms: int) -> None:
    """-> the process killed `ms` milliseconds from now, whatever it is doing."""
    timer = threading.Timer(ms / 1000, _die)
    timer.daemon = True
    timer.start()


def arm(point: str, n: int) -> None:
    """Kill point + number -> the hook installed before omoide runs."""
    from omoide.core import files

    if point in ("text", "parquet"):
        name = "write_bytes_atomic" if point == "text" else "write_parquet_atomic"
        original = getattr(files, name)
        calls = [0]

        def write(data: Any, path: Path) -> Path:
            calls[0] += 1
            if calls[0] < n:
                return original(data, path)
            with files.replacing(path) as tmp:  # the temporary file exists, the target not yet
                if point == "text":
                    Path(tmp).write_bytes(data)
                _die()
            return path  # pragma: no cover

        setattr(files, name, write)
    elif point in ("optimize", "merge"):
        import lancedb.merge
        import lancedb.table

        owner, name = (
            (lancedb.table.LanceTable, "optimize")
            if point == "optimize"
            else (lancedb.merge.LanceMergeInsertBuilder, "execute")
        )
        original = getattr(owner, name)

        def during(self: Any, *args: Any, **kwargs: Any) -> Any:
            _later(n)
            return original(self, *args, **kwargs)

        setattr(owner, name, during)
    elif point == "time":
        _later(n)
    else:
        raise SystemExit(f"unknown kill point {point!r}")


def main() -> None:
    """Command line -> the omoide command run with its kill point armed."""
    point, n, sep, *args = sys.argv[1:]
    assert sep == "--", "usage: killpoints POINT N -- omoide-args"
    started = time.monotonic()
    arm(point, int(n))
    sys.argv = ["omoide", *args]
    from omoide.cli.app import main as omoide

    try:
        omoide()
    finally:
        sys.stderr.write(f"killpoints: finished after {time.monotonic() - started:.1f} s\n")


if __name__ == "__main__":
    main()
