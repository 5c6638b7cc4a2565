"""The receipt's proof: every file under a home searched for the forgotten strings, raw and decoded.

A raw byte search alone would prove little: parquet pages are compressed, and JSON or URLs
escape text. So each file is searched as bytes (any case; UTF-8, JSON-escaped and
URL-quoted forms), parquet files also column by column once decoded, and SQLite databases
(Prefect's) as raw pages, free pages included: what a deleted row leaves behind counts too.
Every needle is looked for in one pass per file (see `omoide.forget.matcher`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from omoide.core.location import Remote, StorePath
from omoide.forget.matcher import Matcher, Needle


@dataclass(frozen=True)
class Hit:
    """One file still holding a forgotten string: where, and which needle (by its index)."""

    path: StorePath
    needle: int
    decoded: bool  # found only once the file was decoded (parquet)


def files_under(home: Path, exclude: Sequence[Path]) -> Iterable[Path]:
    """Home + paths to leave out (the person's own sources) -> every other file under it."""
    skip = [p.resolve() for p in exclude]
    for path in sorted(home.rglob("*")):
        if not path.is_file() or path.is_symlink():
            continue
        resolved = path.resolve()
        if any(resolved == s or s in resolved.parents for s in skip):
            continue
        yield path


def _parquet_hits(source: Path | bytes, matcher: Matcher) -> set[int]:
    """Parquet file (or its bytes) + matcher -> indexes of the needles found in any decoded string column."""
    try:
        table = pq.read_table(pa.BufferReader(source) if isinstance(source, bytes) else source)
    except (OSError, pa.ArrowException):
        return set()
    return matcher.in_table(table)


def _file_hits(path: StorePath, data: bytes, matcher: Matcher) -> list[Hit]:
    """A file's path and bytes + matcher -> its hits, raw and (parquet) decoded."""
    found = matcher.in_bytes(data)
    hits = [Hit(path, i, False) for i in sorted(found)]
    if path.name.endswith(".parquet"):
        hits += [Hit(path, i, True) for i in sorted(_parquet_hits(data, matcher) - found)]
    return hits


def scan_home(home: Path, needles: Sequence[Needle], exclude: Sequence[Path] = ()) -> list[Hit]:
    """Home + needles + paths left out -> every file still holding one (raw or decoded); [] proves the forget."""
    matcher = Matcher(needles)
    if not matcher:
        return []
    hits: list[Hit] = []
    for path in files_under(home, exclude):
        try:
            data = path.read_bytes()
        except OSError:
            continue
        hits += _file_hits(path, data, matcher)
    hits += _lance_hits(home, matcher, exclude)
    return hits


def _lance_hits(home: Path, matcher: Matcher, exclude: Sequence[Path]) -> list[Hit]:
    """Home -> needles found in the decoded rows of every Lance dataset under it (its latest version)."""
    import lancedb  # here: only the scan and the stores below it open LanceDB

    hits = []
    for folder in sorted(home.rglob("*.lance")):
        if not folder.is_dir() or any(
            folder.resolve().is_relative_to(p.resolve()) for p in exclude
        ):
            continue
        try:
            db = lancedb.connect(folder.parent)
            table = db.open_table(folder.name.removesuffix(".lance")).to_arrow()
        except (OSError, ValueError, RuntimeError):
            continue
        hits += [Hit(folder, i, True) for i in sorted(matcher.in_table(table))]
    return hits


def scan_store(root: Remote, needles: Sequence[Needle]) -> list[Hit]:
    """An object-store root + needles -> every object under it still holding one (raw or decoded)."""
    matcher = Matcher(needles)
    if not matcher:
        return []
    from omoide.store.connect import connect_db  # here: only this scan opens LanceDB remotely

    hits: list[Hit] = []
    for obj in root.files():
        hits += _file_hits(obj, obj.read_bytes(), matcher)
    db_dir = root / "lancedb"
    if db_dir.exists():
        db = connect_db(db_dir)
        for name in db.list_tables().tables:
            table = db.open_table(name).to_arrow()
            hits += [
                Hit(db_dir / f"{name}.lance", i, True) for i in sorted(matcher.in_table(table))
            ]
    return hits
