"""Ingest task: a day's sources collected, sanitized and merged into the lake.

It is the cache unit of the daily flow: its key is the content hash of every source's
records of that day (omoide.ingest.fingerprint.day_fingerprint), so an unchanged day does no
work and new data invalidates only the days it falls on, while the raw data in between never
leaves memory (DESIGN: the collect→sanitize edge is not persisted or cached). The sources of a
day are gated together (one validation per edge); a source that cannot be read, fails a
critical check, or whose records of the day all ended in quarantine (omoide.ingest.verdict)
is reported and the others still land.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

import pandas as pd
from prefect import get_run_logger, task
from prefect.context import TaskRunContext

from omoide import __version__, quality
from omoide.core.errors import DataQualityError
from omoide.core.ids import stable_id
from omoide.core.settings import SourceConfig
from omoide.ingest.fingerprint import day_fingerprint
from omoide.ingest.tombstones import forgotten_rows, load_tombstones, tombstones_digest
from omoide.ingest.verdict import all_rejected
from omoide.store.lake import merge_events, part_path
from omoide.store.quarantine import quarantine
from omoide.tasks.collect import collect_raw
from omoide.tasks.sanitize import sanitize_day

# Bump when collect/sanitize logic changes, so cached days are recomputed. 5: ActivityWatch
# ids say what the event is (old rows replaced: aw_events.superseded), naive AW times local,
# text files decoded by their BOM, binary files and garbled text refused. 6: a source whose
# records of the day were all rejected fails for the day (omoide.ingest.verdict). 7: refs
# relative to the home; chat exports' media markers, date order and times in more locales;
# wrong-typed SQLite and JSON values rejected by row.
INGEST_VERSION = f"{__version__}-7"
# Sources that are the whole truth of their day when read: an edited note replaces itself.
_SNAPSHOT_KINDS = {"notes"}


def ingest_cache_key(context: TaskRunContext, parameters: dict[str, Any]) -> str | None:
    """Task parameters -> key from the day's records of every source, day and policy (None: never cache)."""
    sources: list[SourceConfig] = parameters["sources"]
    day, tz, now = parameters["day"], parameters["tz"], parameters["now"]
    prints = [day_fingerprint(s, day, tz, now) for s in sources]
    if any(fp is None for fp in prints):
        return None
    return stable_id(
        "ingest",
        INGEST_VERSION,
        *(s.model_dump_json() for s in sources),
        parameters["day"],
        parameters["tz"],
        sorted(parameters["excluded_domains"]),
        str(parameters["lake_dir"]),
        tombstones_digest(parameters["state_dir"]),
        *prints,
    )


@task(
    name="ingest",
    task_run_name="ingest-{day}",
    cache_key_fn=ingest_cache_key,
    persist_result=True,
    result_serializer="json",
)
def ingest_day(
    sources: list[SourceConfig],
    day: date,
    tz: str,
    excluded_domains: list[str],
    lake_dir: Path,
    quarantine_dir: Path,
    state_dir: Path,
    now: datetime,
    home: Path,
) -> dict[str, Any]:
    """Sources + day -> their sanitized events, less what was forgotten, merged into the lake; counts and path per source, failures."""
    failures: dict[str, str] = {}
    futures = {s.name: collect_raw.submit(source=s, day=day, tz=tz, now=now) for s in sources}
    raw = {}
    for name, future in futures.items():
        collected = future.result(raise_on_failure=False)
        if isinstance(collected, BaseException):
            failures[name] = str(collected)
        else:
            raw[name] = collected
    checked = sanitize_day(raw, day, tz, excluded_domains, home)
    tombs = load_tombstones(state_dir)
    by_name = {s.name: s for s in sources}
    results: dict[str, Any] = {}
    log = get_run_logger()
    for name, clean in checked.items():
        try:
            for check in clean.checks:
                quality.raise_for_failures(check)
        except DataQualityError as exc:
            failures[name] = str(exc)
            continue
        rejected = all_rejected(by_name[name], day, tz, now, raw[name], clean.rejects, home)
        if rejected is not None:
            quarantine(quarantine_dir, "collect", day, name, clean.rejects, pd.Timestamp(now))
            failures[name] = rejected
            continue
        # What the person took back stays out, though the source still holds it.
        gone = forgotten_rows(clean.events, tombs)
        events = clean.events.loc[~gone]
        merged = merge_events(
            lake_dir, day, name, events, replace=by_name[name].kind in _SNAPSHOT_KINDS
        )
        quarantine(quarantine_dir, "collect", day, name, clean.rejects, pd.Timestamp(now))
        log.info("%s %s: lake %s", name, day, merged)
        results[name] = {
            "source": name,
            "path": str(part_path(lake_dir, "events", day, name)),
            "events": len(events),
            "forgotten": int(gone.sum()),
            "added": merged.added,
            "updated": merged.updated,
            "total": merged.total,
            "quarantined": len(clean.rejects),
            "redactions": clean.redactions,
        }
    return {"sources": results, "failures": failures}
