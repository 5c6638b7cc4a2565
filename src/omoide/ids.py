"""Deterministic ids and content fingerprints."""

from __future__ import annotations

import hashlib
from pathlib import Path


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
