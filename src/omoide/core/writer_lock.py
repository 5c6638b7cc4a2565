"""OMOIDE_HOME + the command that writes -> an exclusive writer lock, or a one-line error naming the holder.

One writer per home: a scheduled run overlapping a manual one must never double or
corrupt anything, so every writing command and flow holds this lock (filelock's, an OS
lock the kernel drops when the process dies, so a killed run never leaves the home locked).
Readers (recall, entity, profile) never take it. The lock is per process and re-entrant:
the backfill flow holds it and each daily flow inside it takes it again, from any thread.
Who holds it (pid, command, start time) is written beside it, so a writer that gives up
can say whom it waited for.
"""

from __future__ import annotations

import functools
import json
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from omoide.core.errors import OmoideError
from omoide.core.files import private_dir, remove_stale_temps, write_text_atomic
from omoide.core.location import StorePath
from omoide.core.store_lease import store_lease

log = logging.getLogger(__name__)

LOCK_FILE = ".omoide-writer.lock"
HOLDER_FILE = ".omoide-writer.json"


class HomeBusyError(OmoideError):
    """Another process kept the home's writer lock for longer than this one would wait."""


@functools.cache
def _lock(path: str) -> FileLock:
    """Lock file path -> this process's one lock object for it (shared by all threads)."""
    return FileLock(path, thread_local=False)


def holder(home: Path) -> dict[str, Any]:
    """Home -> who holds (or last held) its writer lock: pid, command, started_at; {} if unknown."""
    try:
        data = json.loads((home / HOLDER_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def describe(who: dict[str, Any]) -> str:
    """Holder record -> "pid 4242 (`omoide run`, since 2026-11-20T02:00:03+00:00)"."""
    if not who:
        return "another omoide process"
    return f"pid {who.get('pid', '?')} (`{who.get('command', '?')}`, since {who.get('started_at', '?')})"


@contextmanager
def writer_lock(
    home: Path,
    command: str,
    timeout_s: float,
    on_wait: Callable[[dict[str, Any]], None] | None = None,
    sweep: Sequence[Path] = (),
    store: StorePath | None = None,
) -> Iterator[None]:
    """Home + command + how long to wait -> the home's writer lock held for the block.

    When another process holds it, `on_wait(holder)` is called once and the lock is waited
    for up to `timeout_s`; then HomeBusyError names the holder. Once held, temporary files
    that a killed writer left in the `sweep` folders are removed. A `store` in an object
    store (shared by several machines) is also leased for the block (`store_lease`).
    """
    lock = _lock(str(private_dir(home) / LOCK_FILE))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        who = holder(home)
        log.info(
            "waiting up to %.0f s for the writer lock of %s, held by %s",
            timeout_s,
            home,
            describe(who),
        )
        if on_wait is not None:
            on_wait(who)
        try:
            lock.acquire(timeout=timeout_s)
        except Timeout:
            raise HomeBusyError(
                f"{home} is being written by {describe(holder(home) or who)}; gave up after "
                f"{timeout_s:.0f} s (wait longer with OMOIDE_LOCK_TIMEOUT_S, or run again later)"
            ) from None
    outermost = lock.lock_counter == 1
    try:
        with ExitStack() as held:
            if outermost and store is not None:
                held.enter_context(store_lease(store, command, timeout_s, on_wait))
            held.enter_context(_holding(home, command, outermost, sweep))
            yield
    finally:
        lock.release()


@contextmanager
def _holding(home: Path, command: str, outermost: bool, sweep: Sequence[Path]) -> Iterator[None]:
    """The writer lock just taken -> the holder recorded and leftovers swept while the block runs."""
    try:
        if outermost:
            record = {
                "pid": os.getpid(),
                "command": command,
                "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
            }
            write_text_atomic(json.dumps(record) + "\n", home / HOLDER_FILE)
            removed = remove_stale_temps(sweep)
            if removed:
                log.info("removed %d temporary file(s) a killed run left behind", removed)
        yield
    finally:
        if outermost:
            (home / HOLDER_FILE).unlink(missing_ok=True)
