"""The parquet lake: lake/<stage>/day=YYYY-MM-DD/<part>.parquet, merged by id, atomic; local or in an object store."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import date

import pandas as pd
import pyarrow as pa

from omoide.core import schemas
from omoide.core.ids import stable_id
from omoide.core.location import Remote, StorePath, read_parquet, write_parquet
from omoide.ingest.sources.aw_events import superseded as aw_superseded

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class MergeCounts:
    """What a merge did to one lake partition."""

    added: int
    updated: int
    kept: int
    total: int


def partition(lake_dir: StorePath, stage: str, day: date) -> StorePath:
    """Lake root, stage, day -> the day's partition folder."""
    return lake_dir / stage / f"day={day.isoformat()}"


def part_path(lake_dir: StorePath, stage: str, day: date, part: str) -> StorePath:
    """Lake root, stage, day, part name -> parquet file path."""
    return partition(lake_dir, stage, day) / f"{part}.parquet"


def read_part(path: StorePath, schema: pa.Schema) -> pd.DataFrame:
    """Parquet file -> frame in the schema (empty when the file does not exist)."""
    if not path.exists():
        return schemas.empty(schema)
    return read_parquet(path, schema).to_pandas()


def merge_events(
    lake_dir: StorePath, day: date, source_name: str, new: pd.DataFrame, *, replace: bool = False
) -> MergeCounts:
    """New events of one source and day -> merged into its partition file (new rows win).

    Browsers purge old history, so by default rows already in the lake are kept even when
    the source no longer has them; `replace` is for sources that are the full truth of
    the day when read (a daily note re-read after an edit).
    """
    path = part_path(lake_dir, "events", day, source_name)
    old = _without_superseded(read_part(path, schemas.EVENTS), new)
    new = new.drop_duplicates("event_id", keep="last")
    seen = old["event_id"].isin(new["event_id"])
    updated = int(_changed(old[seen], new).sum()) if seen.any() else 0
    kept_old = old.iloc[0:0] if replace else old[~seen]
    merged = pd.concat([kept_old, new], ignore_index=True) if len(kept_old) else new
    merged = merged.sort_values(["ts", "event_id"], ignore_index=True)
    counts = MergeCounts(
        added=int((~new["event_id"].isin(old["event_id"])).sum()),
        updated=updated,
        kept=len(kept_old),
        total=len(merged),
    )
    unchanged = counts.added == 0 and counts.updated == 0 and len(merged) == len(old)
    if not (unchanged and path.exists()):
        write_parquet(schemas.to_table(merged, schemas.EVENTS), path)
    log.info("lake events %s/%s: %s", day, source_name, counts)
    return counts


def _without_superseded(old: pd.DataFrame, new: pd.DataFrame) -> pd.DataFrame:
    """Stored events -> without the rows that a new row of the same record replaces under a newer id formula.

    A browser visit is one database row (`source_ref` names it); when its id formula
    changes (omoide 0.1 → 0.2 changed it for speed), the same visit must not be kept twice.
    An ActivityWatch event stored under the id that left its content out (before ingest
    version 5) is replaced by the new rows of its bucket and start (aw_events.superseded).
    """
    if old.empty or new.empty:
        return old
    stale_aw = aw_superseded(old, new)
    if stale_aw.any():
        log.info(
            "lake: %d ActivityWatch event(s) stored under an older id replaced", int(stale_aw.sum())
        )
        old = old[~stale_aw]
    visits = new.loc[new["event_type"].astype(str) == "visit", ["source_ref", "event_id"]]
    if visits.empty or old.empty:
        return old
    replaced = old["source_ref"].isin(set(visits["source_ref"].astype(str)))
    stale = (
        replaced
        & (old["event_type"] == "visit")
        & ~old["event_id"].isin(set(visits["event_id"].astype(str)))
    )
    if stale.any():
        log.info("lake: %d visit(s) stored under an older id replaced", int(stale.sum()))
    return old[~stale]


def _changed(old_rows: pd.DataFrame, new: pd.DataFrame) -> pd.Series:
    """Old rows (ids also in new) -> bool per row: does the new version differ in content or ref?"""
    # The ref too: a row stored with an absolute ref (before refs were home-relative,
    # omoide.core.refs) takes the new one when its day is read again.
    cols = [
        "ts",
        "duration_s",
        "title",
        "url",
        "text",
        "app",
        "fact_kind",
        "confidence",
        "source_ref",
    ]
    a = old_rows.set_index("event_id")[cols]
    b = new.set_index("event_id").loc[a.index, cols]
    same = (a == b) | (a.isna() & b.isna())
    return ~same.all(axis=1)


def read_events(lake_dir: StorePath, day: date) -> pd.DataFrame:
    """Lake -> all sanitized events of a day, across sources, time-ordered."""
    files = sorted(partition(lake_dir, "events", day).glob("*.parquet"))
    if not files:
        return schemas.empty(schemas.EVENTS)
    frames = [read_part(f, schemas.EVENTS) for f in files]
    return pd.concat(frames, ignore_index=True).sort_values(["ts", "event_id"], ignore_index=True)


def write_sessions(lake_dir: StorePath, day: date, sessions: pd.DataFrame) -> StorePath:
    """Sessions of a day -> lake/sessions/day=D/sessions.parquet (derived: replaced whole)."""
    path = part_path(lake_dir, "sessions", day, "sessions")
    return _write_derived(path, sessions, schemas.SESSIONS, "session_id")


def _write_derived(path: StorePath, frame: pd.DataFrame, schema: pa.Schema, key: str) -> StorePath:
    """A derived partition's new rows -> written, unless they equal what is stored.

    A row that is the same as the stored one but for `recorded_at` keeps the stored time
    (omoide recorded it then), so recomputing an unchanged day writes no byte.
    """
    new = schemas.to_table(frame, schema)
    if path.exists():
        old = read_parquet(path, schema)
        new = _keep_recorded_at(new, old, key, schema)
        if new.equals(old):
            return path
    return write_parquet(new, path)


def _keep_recorded_at(new: pa.Table, old: pa.Table, key: str, schema: pa.Schema) -> pa.Table:
    """New rows + stored rows -> new rows, unchanged ones with their stored `recorded_at`."""
    stored = {row[key]: row for row in old.to_pylist()}
    rows = new.to_pylist()
    for row in rows:
        before = stored.get(row[key])
        if before is not None and {**before, "recorded_at": None} == {**row, "recorded_at": None}:
            row["recorded_at"] = before["recorded_at"]
    return pa.Table.from_pylist(rows, schema=schema)


def read_sessions(lake_dir: StorePath, day: date) -> pd.DataFrame:
    """Lake -> the sessions of a day."""
    return read_part(part_path(lake_dir, "sessions", day, "sessions"), schemas.SESSIONS)


def partition_digest(lake_dir: StorePath, stage: str, day: date) -> str:
    """Partition -> a digest of its files' names, sizes and mtimes, or contents in an object store ('' when empty)."""
    folder = partition(lake_dir, stage, day)
    if isinstance(folder, Remote):
        # An object's time has whole seconds: a rewrite within one second could look unchanged.
        found = [
            (p.name, hashlib.blake2b(p.read_bytes()).hexdigest()) for p in folder.glob("*.parquet")
        ]
        return stable_id(*found) if found else ""
    if not folder.exists():
        return ""
    stats = [
        (p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(folder.glob("*.parquet"))
    ]
    return stable_id(*stats) if stats else ""


def write_facts(lake_dir: StorePath, day: date, facts: pd.DataFrame) -> StorePath:
    """Memory rows of a day -> lake/facts/day=D/facts.parquet (derived: replaced whole)."""
    path = part_path(lake_dir, "facts", day, "facts")
    return _write_derived(path, schemas.typed_by_backend(facts), schemas.FACTS, "memory_id")


def read_facts(lake_dir: StorePath, day: date) -> pd.DataFrame:
    """Lake -> the memory rows summarize wrote for a day."""
    return schemas.typed_by_backend(
        read_part(part_path(lake_dir, "facts", day, "facts"), schemas.FACTS)
    )


def write_blocks(lake_dir: StorePath, day: date, blocks: pd.DataFrame) -> StorePath:
    """Activity blocks of a day -> lake/blocks/day=D/blocks.parquet (derived: replaced whole)."""
    path = part_path(lake_dir, "blocks", day, "blocks")
    return _write_derived(path, blocks, schemas.BLOCKS, "block_id")


def read_blocks(lake_dir: StorePath, day: date) -> pd.DataFrame:
    """Lake + day -> its activity blocks (empty BLOCKS frame if none), in time order."""
    path = part_path(lake_dir, "blocks", day, "blocks")
    if not path.exists():
        return schemas.empty(schemas.BLOCKS)
    return read_part(path, schemas.BLOCKS).sort_values(["start", "block_id"], ignore_index=True)


def stage_days(lake_dir: StorePath, stage: str) -> list[date]:
    """Lake root + stage -> the days that have a partition, in order."""
    root = lake_dir / stage
    if not root.exists():
        return []
    return sorted(
        date.fromisoformat(p.name.removeprefix("day="))
        for p in root.glob("day=*")
        if p.is_dir() and any(p.glob("*.parquet"))
    )
