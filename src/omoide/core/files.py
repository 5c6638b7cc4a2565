"""Text, bytes or an Arrow table + a path -> the file written atomically and privately (or left alone when unchanged)."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow as pa

# What tempfile.mkstemp(prefix=".<name>.", suffix=".tmp") names a temporary file.
_TEMP = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")


def private_dir(path: Path) -> Path:
    """Path -> the directory, created with owner-only permissions if missing."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def is_temp(path: Path) -> bool:
    """Path -> True when it is named like omoide's own temporary file (`.<name>.<random>.tmp`)."""
    return _TEMP.fullmatch(path.name) is not None


def remove_stale_temps(folders: Iterable[Path]) -> int:
    """Folders omoide writes -> temporary files a killed write left behind removed; how many.

    A process killed between writing a temporary file and moving it into place leaves
    `.<name>.<random>.tmp` beside the target. Only omoide's own pattern is matched, in the
    folders it owns; call it while holding the writer lock, so no write is in flight.
    """
    removed = 0
    for folder in folders:
        if not folder.is_dir():
            continue
        for leftover in folder.rglob(".*.tmp"):
            if is_temp(leftover) and leftover.is_file():
                leftover.unlink(missing_ok=True)
                removed += 1
    return removed


@contextmanager
def replacing(path: Path) -> Iterator[str]:
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
    import pyarrow.parquet as pq  # here: the quick commands that write text never load Arrow

    with replacing(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")
    return path


def write_bytes_atomic(data: bytes, path: Path) -> Path:
    """Bytes -> file at path, via a temp file + os.replace."""
    with replacing(path) as tmp:
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
