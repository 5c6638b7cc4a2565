"""LanceDB folder + table names -> each table's current version (None when missing), for cache keys."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from omoide.store.connect import connect_db


def table_versions(db_dir: Path, names: Sequence[str]) -> dict[str, int | None]:
    """LanceDB folder + table names -> {name: version}; every write makes a new version."""
    if not db_dir.exists():
        return dict.fromkeys(names)
    db = connect_db(db_dir)
    out: dict[str, int | None] = {}
    for name in names:
        try:
            out[name] = db.open_table(name).version
        except ValueError:  # LanceDB's "table not found"
            out[name] = None
    return out
