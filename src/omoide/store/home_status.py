"""A home at a glance, from what omoide itself records: the days without a mark, each source's
newest record (and which live source has gone quiet), the size of each part on disk, each
command's last run and the newest error in the logs. `omoide status` adds what Prefect's server
knows when one runs; nothing here asks Prefect or a source.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pyarrow.compute as pc

from omoide.core.days import day_bounds, yesterday, zone
from omoide.core.location import Remote, StorePath, read_parquet, size_under
from omoide.core.run_logs import last_error, logged_runs
from omoide.core.settings import Settings, SourceConfig
from omoide.store.connect import connect_db
from omoide.store.day_marks import marked_days, missing_days
from omoide.store.lake import partition, stage_days

# Sources written to as the person works: nothing new from them for a day means something
# stopped (the browser was replaced, ActivityWatch is not running). Notes, chats and exports
# are quiet at times by nature.
LIVE_KINDS = ("chrome", "firefox", "safari")
SILENT_AFTER = timedelta(days=1)


def home_status(settings: Settings, now: datetime) -> dict[str, Any]:
    """Settings + now -> the home's status as plain JSON values (times ISO, local offset)."""
    marked = marked_days(settings.day_marks_dir)
    last = yesterday(settings.timezone, now)
    newest = newest_records(settings.lake_dir, [s.name for s in settings.sources])
    horizon = processed_until(marked, stage_days(settings.lake_dir, "events"), settings, now)
    sources = [
        {
            "name": s.name,
            "kind": s.kind,
            "live": is_live(s),
            "newest": _iso(newest[s.name]),
        }
        for s in settings.sources
    ]
    warnings = [
        silence_warning(s, newest[s.name], horizon, settings.timezone) for s in settings.sources
    ]
    error = last_error(settings.home / "logs")
    sizes = home_sizes(settings)
    return {
        "home": str(settings.home),
        "runs": [
            {
                "via": f"omoide {r.command}",
                "run": r.run,
                "started": _iso(r.started),
                "ended": _iso(r.ended),
                "outcome": r.outcome,
                "message": r.message,
            }
            for r in logged_runs(settings.home / "logs")
        ],
        "catch_up_days": settings.catch_up_days,
        "newest_completed_day": marked[-1].isoformat() if marked else None,
        "missing_days": [d.isoformat() for d in missing_days(marked, last, settings.catch_up_days)],
        "sources": sources,
        "warnings": [w for w in warnings if w is not None],
        "sizes": sizes,
        "home_bytes": sizes["total"],
        "last_error": None
        if error is None
        else {"at": _iso(error.at), "line": error.line, "log": str(error.log)},
    }


def newest_records(lake_dir: StorePath, names: Sequence[str]) -> dict[str, datetime | None]:
    """Lake + source names -> each source's newest event time; only the newest partitions that hold one are read."""
    newest: dict[str, datetime | None] = dict.fromkeys(names)
    wanted = set(names)
    for day in reversed(stage_days(lake_dir, "events")):
        if not wanted:
            break
        folder = partition(lake_dir, "events", day)
        for path in folder.glob("*.parquet"):
            name = path.name.removesuffix(".parquet")
            if name not in wanted:
                continue
            ts = pc.max(read_parquet(path).column("ts")).as_py()
            if ts is not None:
                newest[name] = ts
                wanted.discard(name)
    return newest


def processed_until(
    marked: Sequence[date], lake_days: Sequence[date], settings: Settings, now: datetime
) -> datetime | None:
    """Marked days + days with events + settings + now -> the end of the newest local day a run went through (not after now)."""
    days = [*marked[-1:], *lake_days[-1:]]
    if not days:
        return None
    return min(day_bounds(max(days), settings.timezone)[1], now)


def is_live(source: SourceConfig) -> bool:
    """A source -> whether it is written to as the person works (a browser, an aw-server read live)."""
    return source.kind in LIVE_KINDS or (source.kind == "activitywatch" and source.url is not None)


def silence_warning(
    source: SourceConfig, newest: datetime | None, horizon: datetime | None, tz: str
) -> str | None:
    """A source + its newest record + the end of the newest day run + timezone -> a warning when a live source has been silent for more than SILENT_AFTER, else None."""
    if not is_live(source) or horizon is None:
        return None
    if newest is None:
        return f"{source.name}: nothing from it in the lake yet ({_where(source)})"
    quiet = horizon - newest
    if quiet <= SILENT_AFTER:
        return None
    days = quiet / timedelta(days=1)
    hint = "is ActivityWatch running?" if source.kind == "activitywatch" else "still your browser?"
    return (
        f"{source.name}: nothing new for {days:.1f} days, newest {newest.astimezone(zone(tz)):%Y-%m-%d %H:%M} "
        f"({hint} {_where(source)})"
    )


def home_sizes(settings: Settings) -> dict[str, int]:
    """Settings -> bytes on disk of the lake, LanceDB (and its current version's data), the vault, Prefect, the rest of the home, and their total."""
    parts: dict[str, StorePath] = {
        "lake": settings.lake_dir,
        "lancedb": settings.lancedb_dir,
        "vault": settings.vault_dir or settings.home / "vault",
        "prefect": settings.prefect_home,
    }
    sizes = dict.fromkeys([*parts, "other"], 0)
    home = settings.home
    inside = {k: p for k, p in parts.items() if isinstance(p, Path) and p.is_relative_to(home)}
    for folder, _, files in os.walk(home):
        here = Path(folder)
        part = next((k for k, p in inside.items() if here.is_relative_to(p)), "other")
        for f in files:
            try:
                sizes[part] += (here / f).lstat().st_size
            except OSError:  # gone since it was listed (a temp file of a running write)
                continue
    for k, p in parts.items():
        if k not in inside:  # elsewhere on disk, or in an object store
            sizes[k] = size_under(p) if isinstance(p, Remote) or p.exists() else 0
    sizes["total"] = sum(sizes.values())
    sizes["lancedb_current"] = lancedb_current_bytes(settings.lancedb_dir)
    return sizes


def lancedb_current_bytes(db_dir: StorePath) -> int:
    """LanceDB folder -> the bytes of its tables' data as of their latest version (the rest of the folder: old versions, indices, manifests)."""
    if isinstance(db_dir, Path) and not db_dir.exists():
        return 0
    db = connect_db(db_dir)
    return sum(int(db.open_table(n).stats()["total_bytes"]) for n in db.list_tables().tables)


def _where(source: SourceConfig) -> str:
    """A source -> where it is read from."""
    return str(source.url or source.path)


def _iso(when: datetime | None) -> str | None:
    """An aware time or None -> ISO 8601 to the second, or None."""
    return None if when is None else when.isoformat(timespec="seconds")
