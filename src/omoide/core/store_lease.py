"""An object store shared by two machines + the command that writes -> a lease object held for the block.

The home's writer lock is an OS file lock: it keeps two writers of one machine apart, but a
laptop and a desktop writing one `s3://` store never see each other's lock. A day's memories
are replaced by delete-then-add, so two machines writing the same day at once could leave it
twice. The lease is an object beside the lake (`writer-lease.json`: host, pid, command, a
random token, when it was last renewed) that every writing command of every machine takes
before it writes.

Object stores have no "create if absent" that pyarrow exposes, so the lease is taken by
write-then-verify: write our token, wait `SETTLE_S`, read it back; a machine that wrote in
between sees the other token and backs off (S3 reads are strongly consistent after a write).
Two machines could both win only if one took longer than `SETTLE_S` between reading the
lease as free and writing its own; the wait is many times a request's round trip. A holder
renews the lease every `RENEW_S`; a lease not renewed for `STALE_S` (by the waiter's clock:
machines are expected to keep time with NTP) belongs to a crashed run and is taken over.
A local store needs none of this: the writer lock covers it.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from omoide.core.errors import OmoideError
from omoide.core.location import Remote, StorePath

log = logging.getLogger(__name__)

LEASE = "writer-lease.json"
SETTLE_S = 2.0
RENEW_S = 60.0
STALE_S = 300.0
POLL_S = 5.0


class StoreBusyError(OmoideError):
    """Another machine kept the shared store's lease for longer than this one would wait."""


def read_lease(root: Remote) -> dict[str, Any]:
    """Store root -> the lease record it holds ({} when none or unreadable)."""
    lease = root / LEASE
    if not lease.exists():
        return {}
    try:
        data = json.loads(lease.read_bytes())
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def is_stale(record: dict[str, Any], now: datetime, stale_s: float = STALE_S) -> bool:
    """Lease record + now -> whether its holder stopped renewing it (or it cannot be read)."""
    try:
        renewed = datetime.fromisoformat(str(record["renewed_at"]))
    except (KeyError, ValueError):
        return True
    return now - renewed > timedelta(seconds=stale_s)


def describe_lease(record: dict[str, Any]) -> str:
    """Lease record -> "host desk, pid 4242 (`omoide backfill`, renewed 2026-…)"."""
    return (
        f"host {record.get('host', '?')}, pid {record.get('pid', '?')} "
        f"(`{record.get('command', '?')}`, renewed {record.get('renewed_at', '?')})"
    )


@contextmanager
def store_lease(
    root: StorePath,
    command: str,
    timeout_s: float,
    on_wait: Callable[[dict[str, Any]], None] | None = None,
    settle_s: float = SETTLE_S,
) -> Iterator[None]:
    """Store root + command + how long to wait -> the store's lease held (and renewed) for the block.

    A local root needs no lease and the block runs at once. Otherwise `on_wait(holder)` is
    called once when another machine holds it, and StoreBusyError names the holder after
    `timeout_s`.
    """
    if not isinstance(root, Remote):
        yield
        return
    token = uuid.uuid4().hex
    mine = {"token": token, "host": socket.gethostname(), "pid": os.getpid(), "command": command}
    deadline = time.monotonic() + timeout_s
    told = False
    while True:
        held = read_lease(root)
        if held and held.get("token") != token and not is_stale(held, datetime.now(UTC)):
            if not told and on_wait is not None:
                on_wait(held)
            told = True
            if time.monotonic() >= deadline:
                raise StoreBusyError(
                    f"{root} is being written by {describe_lease(held)}; gave up after "
                    f"{timeout_s:.0f} s (wait longer with OMOIDE_LOCK_TIMEOUT_S, or run again later)"
                )
            time.sleep(min(POLL_S, max(0.0, deadline - time.monotonic())))
            continue
        _put(root, mine)
        time.sleep(settle_s)
        if read_lease(root).get("token") == token:
            break
        log.info("another machine took the lease of %s at the same moment; waiting", root)
    stop = threading.Event()
    renewer = threading.Thread(target=_renew, args=(root, mine, stop), daemon=True)
    renewer.start()
    try:
        yield
    finally:
        stop.set()
        renewer.join()
        if read_lease(root).get("token") == token:
            (root / LEASE).unlink(missing_ok=True)


def _put(root: Remote, record: dict[str, Any]) -> None:
    """Lease record -> written to the store, stamped with now."""
    stamped = {**record, "renewed_at": datetime.now(UTC).isoformat(timespec="milliseconds")}
    (root / LEASE).write_bytes(json.dumps(stamped).encode("utf-8"))


def _renew(root: Remote, record: dict[str, Any], stop: threading.Event) -> None:
    """Held lease -> renewed every RENEW_S until stop is set (a lost lease is logged, not stolen back)."""
    while not stop.wait(RENEW_S):
        try:
            if read_lease(root).get("token") != record["token"]:
                log.error("the lease of %s was taken over while this run wrote", root)
                return
            _put(root, record)
        except OmoideError as exc:  # the store unreachable for a moment: try again next round
            log.warning("could not renew the lease of %s: %s", root, exc)
