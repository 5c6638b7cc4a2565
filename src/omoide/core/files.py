"""Text, bytes or an Arrow table + a path -> the file written atomically and privately (or left alone when unchanged)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq


def private_dir(path: Path) -> Path:
    """Path -> the directory, created with owner-only permissions if missing."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


@contextmanager
def _replacing(path: Path) -> Iterator[str]:
    """Target path -> a temp file name beside it (private folder), moved onto the path when the block succeeds."""
    private_dir(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def write_parquet_atomic(table: pa.Table, path: Path) -> Path:
    """Arrow table -> parquet at path, via a temp file + os.replace (never half-written)."""
    with _replacing(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")
    return path


def write_bytes_atomic(data: bytes, path: Path) -> Path:
    """Bytes -> file at path, via a temp file + os.replace."""
    with _replacing(path) as tmp:
        Path(tmp).write_bytes(data)
    return path


def write_text_atomic(text: str, path: Path) -> Path:
    """Text -> file at path (UTF-8), via a temp file + os.replace."""
    return write_bytes_atomic(text.encode("utf-8"), path)


def write_bytes_if_changed(data: bytes, path: Path) -> bool:
    """Bytes + path -> written (atomically) only when the file differs; whether it was."""
    if path.exists() and path.read_bytes() == data:
        return False
    write_bytes_atomic(data, path)
    return True


def write_text_if_changed(text: str, path: Path) -> bool:
    """Text + path -> written (atomically) only when the file's text differs; whether it was."""
    return write_bytes_if_changed(text.encode("utf-8"), path)
