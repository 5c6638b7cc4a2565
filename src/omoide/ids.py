"""Deterministic ids and content fingerprints."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pandas as pd


def stable_id(*parts: object) -> str:
    """Parts -> 32-hex id; the same parts always give the same id."""
    h = hashlib.blake2b(digest_size=16)
    for p in parts:
        h.update(str(p).encode("utf-8", "surrogatepass"))
        h.update(b"\x1f")
    return h.hexdigest()


def file_digest(path: Path) -> str:
    """File -> blake2b hex digest of its bytes (streamed)."""
    h = hashlib.blake2b(digest_size=16)
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def stable_ids(*columns: pd.Series) -> list[str]:
    """Aligned columns of id parts -> one stable_id per row (same ids, joined column-wise)."""
    sep = "\x1f"
    joined = columns[0].astype(str) + sep
    for col in columns[1:]:
        joined = joined + col.astype(str) + sep
    # One hash call per row over the pre-joined bytes: blake2b of a concatenation equals
    # the streamed updates stable_id makes, so both functions give identical ids.
    return [
        hashlib.blake2b(s.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
        for s in joined.tolist()
    ]
