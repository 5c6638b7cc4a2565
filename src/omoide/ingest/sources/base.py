"""What every collector returns, and helpers to build it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from omoide.core import schemas
from omoide.core.errors import SourceError


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


def categorical(codes: np.ndarray, values: pa.Array) -> pd.Categorical:
    """Codes (-1 for null) into distinct strings -> a pandas categorical column over them."""
    # Browser columns repeat a few thousand pages a million times: a categorical column
    # lets later stages work once per distinct value (see sanitize, sessionize).
    return pd.Categorical.from_codes(codes, categories=pd.Index(values.to_pandas()))


def constant(value: str, n: int) -> pd.Categorical:
    """String + length -> a categorical column holding it n times (one string, not n)."""
    return pd.Categorical.from_codes(
        np.zeros(n, np.int8), categories=pd.Index([value], dtype="str")
    )


def empty_lists(n: int) -> pd.Series:
    """Length -> n empty list<string> values, Arrow-backed (no n Python lists)."""
    empty = pa.ListArray.from_arrays(np.zeros(n + 1, np.int32), pa.array([], pa.string()))
    return pd.Series(empty, dtype=pd.ArrowDtype(empty.type))


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
