"""What every collector returns, and helpers to build it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd

from omoide import schemas
from omoide.errors import SourceError


@dataclass
class Reject:
    """A record a collector could not turn into an event: where it is and why."""

    ref: str
    reason: str
    excerpt: str = ""


@dataclass
class Collected:
    """Collector output: events in the EVENTS schema plus rejected records."""

    events: pd.DataFrame
    rejects: list[Reject] = field(default_factory=list)


def events_frame(records: Iterable[Mapping[str, Any]], recorded_at: datetime) -> pd.DataFrame:
    """Dict records -> DataFrame conformed to the EVENTS schema (UTC timestamps)."""
    df = pd.DataFrame.from_records(list(records))
    if df.empty:
        return schemas.empty(schemas.EVENTS)
    df["recorded_at"] = pd.Timestamp(recorded_at).tz_convert("UTC")
    df["ts"] = pd.to_datetime(df["ts"], utc=True)
    df["duration_s"] = df.get("duration_s", 0.0)
    df["duration_s"] = df["duration_s"].fillna(0.0).astype("float64")
    if "entities" not in df.columns:
        df["entities"] = [[] for _ in range(len(df))]
    return schemas.conform(df, schemas.EVENTS)


def visible_files(root: Path, pattern: str) -> list[Path]:
    """Folder + glob -> matching files, sorted, skipping hidden folders (.trash, app state)."""
    return sorted(
        p
        for p in root.rglob(pattern)
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)
    )


def read_source(path: Path) -> bytes:
    """Source file -> its bytes; SourceError naming the file when it cannot be read."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise SourceError(path, f"cannot read: {exc.strerror or exc}") from exc
