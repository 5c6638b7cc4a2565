"""The receipt's proof: every file under a home searched for the forgotten strings, raw and decoded.

A raw byte search alone would prove little: parquet pages are compressed, and JSON or URLs
escape text. So each file is searched as bytes (any case; UTF-8, JSON-escaped and
URL-quoted forms), parquet files also column by column once decoded, and SQLite databases
(Prefect's) as raw pages, free pages included: what a deleted row leaves behind counts too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, quote_plus

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from omoide.core.location import Remote, StorePath
from omoide.forget.select import Needle


@dataclass(frozen=True)
class Hit:
    """One file still holding a forgotten string: where, and which needle (by its index)."""

    path: StorePath
    needle: int
    decoded: bool  # found only once the file was decoded (parquet)


def _forms(text: str) -> set[bytes]:
    """Needle text -> the byte forms it can take on disk, lower-cased."""
    low = text.lower()
    forms = {
        low.encode("utf-8"),
        json.dumps(low)[1:-1].encode("ascii"),
        quote(low, safe="").lower().encode("ascii"),
        quote_plus(low, safe="").lower().encode("ascii"),
        quote(low, safe="/:").lower().encode("ascii"),
    }
    return {f for f in forms if f}


def byte_pattern(needle: Needle) -> re.Pattern[bytes]:
    """Needle -> one bytes pattern over its forms (whole word when the needle asks)."""
    alts = b"|".join(re.escape(f) for f in sorted(_forms(needle.text), key=len, reverse=True))
    if needle.word:
        return re.compile(rb"(?<![a-z0-9_])(?:" + alts + rb")(?![a-z0-9_])")
    return re.compile(alts)


def text_pattern(needle: Needle) -> re.Pattern[str]:
    """Needle -> a case-insensitive pattern over decoded text."""
    # RE2 (Arrow's regex engine) has no look-behind: \b marks the whole word.
    body = re.escape(needle.text)
    return re.compile(rf"\b{body}\b" if needle.word else body, re.IGNORECASE)


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


def _parquet_hits(source: Path | bytes, patterns: Sequence[re.Pattern[str]]) -> set[int]:
    """Parquet file (or its bytes) + text patterns -> indexes of the needles found in any decoded string column."""
    try:
        table = pq.read_table(pa.BufferReader(source) if isinstance(source, bytes) else source)
    except (OSError, pa.ArrowException):
        return set()
    return table_hits(table, patterns)


def table_hits(table: pa.Table, patterns: Sequence[re.Pattern[str]]) -> set[int]:
    """Arrow table + text patterns -> indexes of the needles found in any string column (lists too)."""
    found: set[int] = set()
    for column in table.columns:
        data = column
        while pa.types.is_list(data.type) or pa.types.is_large_list(data.type):
            data = pc.list_flatten(data)
        if not (pa.types.is_string(data.type) or pa.types.is_large_string(data.type)):
            continue
        for i, pattern in enumerate(patterns):
            if i in found:
                continue
            matched = pc.match_substring_regex(data, pattern.pattern, ignore_case=True)
            if pc.any(matched).as_py():
                found.add(i)
    return found


def scan_home(home: Path, needles: Sequence[Needle], exclude: Sequence[Path] = ()) -> list[Hit]:
    """Home + needles + paths left out -> every file still holding one (raw or decoded); [] proves the forget."""
    if not needles:
        return []
    raw = [byte_pattern(n) for n in needles]
    text = [text_pattern(n) for n in needles]
    hits: list[Hit] = []
    for path in files_under(home, exclude):
        try:
            data = path.read_bytes().lower()
        except OSError:
            continue
        found = {i for i, p in enumerate(raw) if p.search(data)}
        hits += [Hit(path, i, False) for i in sorted(found)]
        if path.suffix == ".parquet":
            hits += [Hit(path, i, True) for i in sorted(_parquet_hits(path, text) - found)]
    hits += _lance_hits(home, text, exclude)
    return hits


def _lance_hits(
    home: Path, patterns: Sequence[re.Pattern[str]], exclude: Sequence[Path]
) -> list[Hit]:
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
        hits += [Hit(folder, i, True) for i in sorted(table_hits(table, patterns))]
    return hits


def scan_store(root: Remote, needles: Sequence[Needle]) -> list[Hit]:
    """An object-store root + needles -> every object under it still holding one (raw or decoded)."""
    if not needles:
        return []
    from omoide.store.connect import connect_db  # here: only this scan opens LanceDB remotely

    raw = [byte_pattern(n) for n in needles]
    text = [text_pattern(n) for n in needles]
    hits: list[Hit] = []
    for obj in root.files():
        data = obj.read_bytes()
        found = {i for i, p in enumerate(raw) if p.search(data.lower())}
        hits += [Hit(obj, i, False) for i in sorted(found)]
        if obj.name.endswith(".parquet"):
            hits += [Hit(obj, i, True) for i in sorted(_parquet_hits(data, text) - found)]
    db_dir = root / "lancedb"
    if db_dir.exists():
        db = connect_db(db_dir)
        for name in db.list_tables().tables:
            table = db.open_table(name).to_arrow()
            hits += [
                Hit(db_dir / f"{name}.lance", i, True) for i in sorted(table_hits(table, text))
            ]
    return hits
