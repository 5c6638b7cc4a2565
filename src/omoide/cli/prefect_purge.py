"""Forget in Prefect's own database: artifacts and flow runs quoting forgotten strings deleted, the file vacuumed.

Only the CLI talks to Prefect's API (the library never imports Prefect). Prefect's event
stream keeps a copy of every artifact in the event's payload and has no API to delete one,
so in the home's own SQLite database those events are deleted directly. Deleting rows leaves
their bytes in SQLite's free pages and write-ahead log: the file is checkpointed and vacuumed.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from omoide.forget.matcher import Matcher

PAGE = 200


def _quotes(value: object, matcher: Matcher) -> bool:
    """Any JSON-able value + matcher -> True when its text holds a needle."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return bool(matcher.in_text(text))


def _quoting(
    read: Callable[..., list[Any]], fields: Callable[[Any], list[object]], matcher: Matcher
) -> list[Any]:
    """A paged Prefect read + what of each object to search + matcher -> ids of the objects quoting a needle."""
    found, offset = [], 0
    while page := read(limit=PAGE, offset=offset):
        found += [o.id for o in page if _quotes(fields(o), matcher)]
        offset += len(page)
    return found


def purge_prefect(matcher: Matcher) -> dict[str, int]:
    """Matcher -> Prefect artifacts and flow runs (with their task runs and logs) quoting a needle deleted; counts."""
    from prefect.client.orchestration import get_client

    counts = {"prefect artifacts": 0, "prefect flow runs": 0}
    if not matcher:
        return counts
    with get_client(sync_client=True) as client:
        artifacts = _quoting(client.read_artifacts, lambda a: [a.data, a.description], matcher)
        for artifact_id in artifacts:
            client.delete_artifact(artifact_id)
        runs = _quoting(client.read_flow_runs, lambda r: [r.parameters, r.name], matcher)
        for run_id in runs:
            client.delete_flow_run(run_id)
    counts.update({"prefect artifacts": len(artifacts), "prefect flow runs": len(runs)})
    return counts


def scrub_prefect_db(
    prefect_home: Path, matcher: Matcher, quiet_s: float = 3.0, limit_s: float = 60.0
) -> tuple[int, bool]:
    """Prefect's home + matcher -> events quoting a needle deleted, the database vacuumed; (events, vacuumed).

    Prefect's server writes events in batches, seconds after they happened (later on a busy
    machine), and an artifact's events carry its data. So quoting events are deleted until
    no new event has been written for `quiet_s` (at most `limit_s`), then the file is vacuumed.
    """
    url = os.environ.get("PREFECT_API_DATABASE_CONNECTION_URL", "")
    if url and not url.startswith("sqlite"):
        return 0, False  # a server database elsewhere is not this home's file to edit
    path = Path(url.split("///", 1)[1]) if url else prefect_home / "prefect.db"
    if not path.exists() or not matcher:
        return 0, False
    con = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=60)
    con.create_function(
        "quotes",
        1,
        lambda text: text is not None and bool(matcher.in_bytes(str(text).encode("utf-8"))),
        deterministic=True,
    )
    deleted, started = 0, time.monotonic()
    last_change, last_mark = started, _newest_event(con)
    try:
        while True:
            deleted += _delete_quoting_events(con)
            now, mark = time.monotonic(), _newest_event(con)
            if mark != last_mark:
                last_change, last_mark = now, mark
            if now - last_change >= quiet_s or now - started >= limit_s:
                break
            time.sleep(0.5)
        return deleted, _vacuum(con)
    finally:
        con.close()


def _newest_event(con: sqlite3.Connection) -> object:
    """Connection -> a mark that changes whenever an event is written (None when unreadable)."""
    try:
        return con.execute("SELECT max(rowid), count(*) FROM events").fetchone()
    except sqlite3.OperationalError:
        return None


def _delete_quoting_events(con: sqlite3.Connection) -> int:
    """Connection (with the `quotes` function) -> events quoting a needle deleted; how many (0 when busy)."""
    try:
        with con:
            ids = [r[0] for r in con.execute("SELECT id FROM events WHERE quotes(payload)")]
            for i in range(0, len(ids), 500):
                chunk = ids[i : i + 500]
                marks = ",".join("?" * len(chunk))
                con.execute(f"DELETE FROM event_resources WHERE event_id IN ({marks})", chunk)
                con.execute(f"DELETE FROM events WHERE id IN ({marks})", chunk)
        return len(ids)
    except sqlite3.OperationalError:
        return 0


def _vacuum(con: sqlite3.Connection, tries: int = 5) -> bool:
    """Open SQLite connection -> the file checkpointed and vacuumed; False when another writer kept it busy throughout."""
    for attempt in range(tries):
        try:
            con.execute("VACUUM")
            # The old pages also sit in the write-ahead log until a checkpoint empties it;
            # a reader holding an old snapshot makes it report busy instead of raising.
            busy, _, _ = con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if not busy:
                return True
        except sqlite3.OperationalError:
            pass
        # The Prefect server's own writes (a run's last states, its services) pass.
        time.sleep(2 * (attempt + 1))
    return False
