"""LanceDB folder -> the versions of its tables older than a cut-off deleted, and the bytes that freed.

Every LanceDB write (a merge, a delete, an index update, a compaction) makes a new version
of its table and keeps the old ones, so a year of nightly runs holds gigabytes of files no
current row needs. `Table.optimize(cleanup_older_than=…)` (LanceDB's documented way; the
older `cleanup_old_versions` needs the separate `pylance` package) compacts small
fragments, folds new rows into the indices, and deletes the files only versions older
than the cut-off use. The latest version is never deleted, whatever its age, nor is a file
it still uses. Files a killed write left behind go once they are a week old (LanceDB's
own guard, `delete_unverified=False`): younger ones may belong to a write in progress.

Deleting a version a reader is reading fails that read, so callers keep at least a day
(`keep_versions_days` >= 1): omoide's readers open the tables afresh for each question.
A table with no version older than the cut-off is left alone (not compacted either): the
writers keep the memories table's indices and fragments in shape themselves, and the small
tables' compaction waits for their first old version.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from omoide.core.location import StorePath, files_under, relative_name
from omoide.store.connect import connect_db
from omoide.store.memories import optimize

log = logging.getLogger(__name__)


def prune_versions(db_dir: StorePath, older_than: timedelta) -> int:
    """LanceDB folder (local or object store) + age -> every table's versions older than it deleted; bytes freed."""
    if older_than < timedelta(0):
        raise ValueError(f"older_than must not be negative, got {older_than}")
    if not db_dir.exists():
        return 0
    sizes = _file_sizes(db_dir)
    db = connect_db(db_dir)
    removed = 0
    for name in db.list_tables().tables:
        table = db.open_table(name)
        versions = table.list_versions()
        if not _keeps_older(versions, older_than):
            # Nothing to delete: a compaction alone would give the table a new version (and the
            # memories table a retrained vector index) for nothing, and every cache key that
            # holds its version would miss on the next run.
            continue
        before = {v["version"] for v in versions}
        optimize(table, cleanup_older_than=older_than)
        removed += len(before - {v["version"] for v in table.list_versions()})
    # Bytes of the files the cleanup deleted: the folder's size before and after would
    # count the compaction's new files against it.
    left = _file_sizes(db_dir)
    freed = sum(size for name, size in sizes.items() if name not in left)
    log.info("lancedb: %d old versions pruned, %d bytes freed", removed, freed)
    return freed


def _keeps_older(versions: list[dict[str, Any]], older_than: timedelta) -> bool:
    """A table's versions + age -> whether one is older than that.

    LanceDB gives a version's time without a zone: it counts as old when it is old read as
    local time or as UTC, so a version is never kept past the cut-off by a zone mix-up.
    """
    oldest = min(v["timestamp"] for v in versions)
    if oldest.tzinfo is not None:
        return bool(oldest <= datetime.now(UTC) - older_than)
    latest_now = max(datetime.now(), datetime.now(UTC).replace(tzinfo=None))
    return bool(oldest <= latest_now - older_than)


def _file_sizes(db_dir: StorePath) -> dict[str, int]:
    """LanceDB folder -> {file name inside it: bytes}."""
    return {relative_name(f, db_dir): f.stat().st_size for f in files_under(db_dir)}
