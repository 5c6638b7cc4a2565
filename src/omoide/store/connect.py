"""A LanceDB folder, local or in an object store -> a connection to it."""

from __future__ import annotations

import lancedb

from omoide.core.location import StorePath, lancedb_options


def connect_db(db_dir: StorePath) -> lancedb.DBConnection:
    """LanceDB folder (a Path or an object-store Remote) -> its connection."""
    return lancedb.connect(str(db_dir), storage_options=lancedb_options(db_dir) or None)
