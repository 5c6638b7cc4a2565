"""Quarantine: rejected records with the reason, never their raw content."""

from __future__ import annotations

import logging
from datetime import date
from pathlib import Path

import pandas as pd

from omoide.core import schemas
from omoide.core.files import write_parquet_atomic
from omoide.store.lake import read_part

log = logging.getLogger(__name__)


def quarantine(
    q_dir: Path, stage: str, day: date, source_name: str, rejects: pd.DataFrame, now: pd.Timestamp
) -> Path | None:
    """Rejected rows (ref, reason) -> merged into quarantine/<stage>/day=D/<source>.parquet."""
    if rejects.empty:
        return None
    path = q_dir / stage / f"day={day.isoformat()}" / f"{source_name}.parquet"
    new = rejects.assign(stage=stage, source_name=source_name, quarantined_at=now)
    old = read_part(path, schemas.QUARANTINE)
    merged = pd.concat([old, schemas.conform(new, schemas.QUARANTINE)], ignore_index=True)
    # A re-run rejects the same records again: keep the first sighting only.
    merged = merged.drop_duplicates(["ref", "reason"], keep="first", ignore_index=True)
    write_parquet_atomic(schemas.to_table(merged, schemas.QUARANTINE), path)
    log.warning("quarantined %d %s rows from %s for %s", len(rejects), stage, source_name, day)
    return path


def read_quarantine(q_dir: Path) -> pd.DataFrame:
    """Quarantine folder -> every quarantined row."""
    files = sorted(q_dir.rglob("*.parquet"))
    if not files:
        return schemas.empty(schemas.QUARANTINE)
    return pd.concat([read_part(f, schemas.QUARANTINE) for f in files], ignore_index=True)
