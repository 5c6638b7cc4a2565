"""Deterministic ids: the same parts always give the same 32-hex id."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

# Separates the parts of an id; row_ids hashes with the same one.
SEP = "\x1f"


def stable_id(*parts: object) -> str:
    """Parts -> 32-hex id; the same parts always give the same id."""
    h = hashlib.blake2b(digest_size=16)
    for p in parts:
        h.update(str(p).encode("utf-8", "surrogatepass"))
        h.update(SEP.encode())
    return h.hexdigest()


def stable_ids(*columns: pd.Series) -> list[str]:
    """Aligned columns of id parts -> one stable_id per row (same ids, joined column-wise)."""
    joined = columns[0].astype(str) + SEP
    for col in columns[1:]:
        joined = joined + col.astype(str) + SEP
    # One hash call per row over the pre-joined bytes: blake2b of a concatenation equals
    # the streamed updates stable_id makes, so both functions give identical ids.
    return [
        hashlib.blake2b(s.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
        for s in joined.tolist()
    ]
