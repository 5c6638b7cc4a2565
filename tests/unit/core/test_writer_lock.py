"""The writer lock: re-entrant in one process, and it clears what a killed writer left behind."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from omoide.core.files import write_text_atomic
from omoide.core.writer_lock import HOLDER_FILE, writer_lock


def test_taking_the_lock_removes_only_omoides_own_leftover_temp_files(tmp_path: Path) -> None:
    lake = tmp_path / "lake" / "events"
    lake.mkdir(parents=True)
    # What a write killed between "temp file written" and "moved into place" leaves.
    fd, leftover = tempfile.mkstemp(dir=lake, prefix=".day.parquet.", suffix=".tmp")
    os.write(fd, b"half a parquet file")
    os.close(fd)
    theirs = lake / ".editor-swap.tmp"  # not omoide's pattern: left alone
    theirs.write_text("keep")
    kept = lake / "day.parquet"
    kept.write_bytes(b"data")

    with writer_lock(tmp_path, "test", 1.0, sweep=[tmp_path / "lake", tmp_path / "missing"]):
        assert not Path(leftover).exists()
        assert theirs.exists() and kept.read_bytes() == b"data"
        assert (tmp_path / HOLDER_FILE).exists()


def test_lock_is_reentrant_and_an_atomic_write_leaves_no_temp_file(tmp_path: Path) -> None:
    with writer_lock(tmp_path, "outer", 1.0), writer_lock(tmp_path, "inner", 1.0):
        write_text_atomic("x\n", tmp_path / "vault" / "page.md")
    assert [p.name for p in (tmp_path / "vault").iterdir()] == ["page.md"]
