"""A LanceDB table's version as a key for what a long-lived reader derives from it."""

from __future__ import annotations

import os

import lancedb

VersionKey = tuple[int, int, int]


def version_key(table: lancedb.table.Table) -> VersionKey:
    """Table -> its version, and the inode and mtime of its folder (0, 0 when not a local folder).

    A table dropped and made again (`omoide reindex`) counts its versions from 1 again, so a
    version number alone could name two different tables; its folder is a new one.
    """
    try:
        folder = os.stat(table.uri)
    except (OSError, ValueError):
        return table.version, 0, 0
    return table.version, folder.st_ino, folder.st_mtime_ns
