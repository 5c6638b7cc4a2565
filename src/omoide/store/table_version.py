"""A LanceDB table's version as a key for what a long-lived reader derives from it."""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
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


# Per thread: table handles whose version a block pinned (`pinned`), by id, with the key asked.
_PINS = threading.local()


def _asked(table: lancedb.table.Table) -> VersionKey:
    """Table -> its version (a round trip to LanceDB), and the inode and mtime of its folder."""
    try:
        folder = os.stat(_uri(table))
    except (OSError, ValueError):
        return table.version, 0, 0
    return table.version, folder.st_ino, folder.st_mtime_ns


def version_key(table: lancedb.table.Table) -> VersionKey:
    """Table -> its version, and the inode and mtime of its folder (0, 0 when not a local folder).

    A table dropped and made again (`omoide reindex`) counts its versions from 1 again, so a
    version number alone could name two different tables; its folder is a new one.
    """
    pins: dict[int, tuple[Any, VersionKey]] = getattr(_PINS, "keys", {})
    pin = pins.get(id(table))
    if pin is not None and pin[0] is table:
        return pin[1]
    return _asked(table)


@contextmanager
def pinned(table: lancedb.table.Table) -> Iterator[None]:
    """Table -> a block in which this thread asks LanceDB for its version once; nothing may write through the handle meanwhile."""
    # A recall asked it five to seven times (its stores check what they hold), each a round
    # trip through LanceDB's event loop thread (~0.5 ms): ~3 ms of a ~30 ms recall at 100k.
    if not hasattr(_PINS, "keys"):
        _PINS.keys = {}
    pins: dict[int, tuple[Any, VersionKey]] = _PINS.keys
    if id(table) in pins:
        yield
        return
    pins[id(table)] = (table, _asked(table))
    try:
        yield
    finally:
        del pins[id(table)]
