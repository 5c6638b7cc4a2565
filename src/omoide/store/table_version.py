"""A LanceDB table's version as a key for what a long-lived reader derives from it."""

from __future__ import annotations

import os
import threading
import weakref
from typing import Any

import lancedb

VersionKey = tuple[int, int, int]

# A handle's folder never changes, and asking LanceDB for it is a round trip through its
# event loop thread (~0.5 ms on two busy cores, twice or three times per recall).
_URIS: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
_URIS_LOCK = threading.Lock()


def _uri(table: lancedb.table.Table) -> str:
    """Table handle -> its folder's URI, asked of LanceDB once per handle."""
    with _URIS_LOCK:
        known = _URIS.get(table)
    if known is None:
        known = table.uri
        with _URIS_LOCK:
            _URIS[table] = known
    return known


def version_key(table: lancedb.table.Table) -> VersionKey:
    """Table -> its version, and the inode and mtime of its folder (0, 0 when not a local folder).

    A table dropped and made again (`omoide reindex`) counts its versions from 1 again, so a
    version number alone could name two different tables; its folder is a new one.
    """
    try:
        folder = os.stat(_uri(table))
    except (OSError, ValueError):
        return table.version, 0, 0
    return table.version, folder.st_ino, folder.st_mtime_ns
