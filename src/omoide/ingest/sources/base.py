"""What every collector returns, and helpers to build it."""

from __future__ import annotations

import errno
import fnmatch
import os
import stat
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from omoide.core import schemas
from omoide.core.errors import SourceError
from omoide.ingest.normalise import CAPS, clean_text
from omoide.ingest.sources.text_files import garbled

GARBLED = "{column} is not text: mostly control or replacement characters"


@dataclass
class Reject:
    """A record a collector could not turn into an event: where it is and why."""

    ref: str
    reason: str
    excerpt: str = ""


@dataclass
class Collected:
    """Collector output: events in the EVENTS schema, rejected records, text made storable."""

    events: pd.DataFrame
    rejects: list[Reject] = field(default_factory=list)
    fixed: dict[str, int] = field(default_factory=dict)  # see omoide.ingest.normalise


def events_frame(
    records: Iterable[Mapping[str, Any]],
    recorded_at: datetime,
    fixed: Counter[str] | None = None,
    rejects: list[Reject] | None = None,
) -> pd.DataFrame:
    """Dict records -> DataFrame conformed to the EVENTS schema (UTC timestamps).

    Text is made storable first (NUL bytes and lone surrogates replaced, huge values cut,
    counted in `fixed`): a lone surrogate from a JSON escape cannot even enter a frame.
    Collectors pass `rejects`: a record with a value that is mostly control or replacement
    characters is set aside there, named by its `source_ref`, instead of stored as garbage.
    """
    fixed = Counter() if fixed is None else fixed
    rows = []
    for record in records:
        row = dict(record)
        for column, cap in CAPS.items():
            if isinstance(row.get(column), str):
                row[column] = clean_text(row[column], cap, fixed)
        bad = next((c for c in CAPS if isinstance(row.get(c), str) and garbled(row[c])), None)
        if bad is not None and rejects is not None:
            rejects.append(Reject(str(row.get("source_ref")), GARBLED.format(column=bad)))
            continue
        rows.append(row)
    df = pd.DataFrame.from_records(rows)
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


def visible_entries(root: Path, pattern: str) -> list[Path]:
    """Folder + glob -> every matching entry (files, folders, links, broken ones too), sorted, skipping hidden folders."""
    # Not Path.rglob: given a name without wildcards it tests it with exists(), which follows
    # links, so a broken or looping link of that name vanished without a word. Walking the
    # folders (links to folders are not entered, as rglob does not) and matching each name
    # lists every entry; the readers then name the ones that are not files.
    found: list[Path] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found += [
            Path(folder, name)
            for name in (*dirs, *files)
            if not name.startswith(".") and fnmatch.fnmatch(name, pattern)
        ]
    return sorted(found)


def visible_files(root: Path, pattern: str) -> list[Path]:
    """Folder + glob -> matching regular files, sorted, skipping hidden folders (.trash, app state)."""
    return [p for p in visible_entries(root, pattern) if not_a_file(p) is None]


def folder_files(
    root: Path, pattern: str | tuple[str, ...], what: str
) -> tuple[list[Path], list[Reject]]:
    """Source folder + glob(s) + what its files are -> the files to read, and a Reject per match that is not one.

    A broken or looping link, a folder or a FIFO where a file is expected is named, never
    skipped; a folder holding no readable file of its kind is a SourceError naming it and
    what was expected (a source pointed at the wrong folder reads nothing every day).
    """
    patterns = (pattern,) if isinstance(pattern, str) else pattern
    files: list[Path] = []
    odd: list[Reject] = []
    for entry in sorted(e for p in patterns for e in visible_entries(root, p)):
        why = not_a_file(entry)
        if why is None:
            files.append(entry)
        else:
            odd.append(Reject(str(entry), f"{what} is {why}"))
    if not files:
        found = "; ".join(f"{Path(r.ref).name}: {r.reason}" for r in odd)
        raise SourceError(
            root,
            f"no {what} ({', '.join(patterns)}) in this folder" + (f" ({found})" if found else ""),
        )
    return files, odd


def subfolders(root: Path, what: str) -> tuple[list[str], list[Reject]]:
    """Folder + what its entries are -> names of its visible subfolders, sorted, and a Reject per entry whose kind cannot be told.

    DirEntry.is_dir() raises on a link that loops (ELOOP) where it returns False for a
    broken one: either way the entry may have been a folder of records, so it is named.
    """
    folders: list[str] = []
    odd: list[Reject] = []
    for name in sorted(os.listdir(root)):
        if name.startswith("."):
            continue
        try:
            mode = (root / name).stat().st_mode
        except OSError:
            odd.append(Reject(str(root / name), f"{what} is {not_a_file(root / name)}"))
            continue
        if stat.S_ISDIR(mode):
            folders.append(name)
    return folders, odd


def not_a_file(path: Path) -> str | None:
    """Path -> why it is not a regular file one can read (a folder, FIFO, broken link), or None."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "a broken link" if path.is_symlink() else "not found"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a link that loops (too many levels of links)"
        return f"not readable: {exc.strerror or exc}"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe), not a file"
    return "not a regular file"


def read_source(path: Path) -> bytes:
    """Source file -> its bytes; SourceError naming the file when it cannot be read.

    Only regular files are opened: reading a FIFO would wait forever for a writer.
    """
    why = not_a_file(path)
    if why is not None:
        raise SourceError(path, why)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise SourceError(path, f"cannot read: {exc.strerror or exc}") from exc


# A time no person could have recorded: before this, or later than a day after `now`.
EARLIEST = datetime(1990, 1, 1, tzinfo=UTC)


def impossible(ts: datetime, now: datetime) -> str | None:
    """Aware time + now -> why no one could have recorded it then, or None when it is possible."""
    if ts < EARLIEST:
        return f"impossible timestamp {ts.isoformat()} (before {EARLIEST.year})"
    if ts > now + timedelta(days=1):
        return f"impossible timestamp {ts.isoformat()} (in the future)"
    return None
