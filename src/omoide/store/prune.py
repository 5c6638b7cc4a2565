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
"""

from __future__ import annotations

import logging
from datetime import timedelta

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
        before = {v["version"] for v in table.list_versions()}
        optimize(table, cleanup_older_than=older_than)
        removed += len(before - {v["version"] for v in table.list_versions()})
    # Bytes of the files the cleanup deleted: the folder's size before and after would
    # count the compaction's new files against it.
    left = _file_sizes(db_dir)
    freed = sum(size for name, size in sizes.items() if name not in left)
    log.info("lancedb: %d old versions pruned, %d bytes freed", removed, freed)
    return freed


def _file_sizes(db_dir: StorePath) -> dict[str, int]:
    """LanceDB folder -> {file name inside it: bytes}."""
    return {relative_name(f, db_dir): f.stat().st_size for f in files_under(db_dir)}
