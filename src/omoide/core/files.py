"""Atomic, private file writes."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq


def private_dir(path: Path) -> Path:
    """Path -> the directory, created with owner-only permissions if missing."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def write_parquet_atomic(table: pa.Table, path: Path) -> Path:
    """Arrow table -> parquet at path, via a temp file + os.replace (never half-written)."""
    private_dir(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def write_text_atomic(text: str, path: Path) -> Path:
    """Text -> file at path, via a temp file + os.replace."""
    private_dir(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path
