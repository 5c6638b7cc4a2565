"""Repair task: LanceDB tables -> the duplicate keys a race left behind removed (checked every run, never cached)."""

from __future__ import annotations

from pathlib import Path

from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from omoide.store.repair import repair_tables


@task(name="repair", task_run_name="repair-lancedb", cache_policy=NO_CACHE, persist_result=False)
def repair_lancedb(db_dir: Path) -> dict[str, int]:
    """LanceDB folder -> rows removed per table (0 everywhere on a healthy home)."""
    removed = repair_tables(db_dir)
    if any(removed.values()):
        get_run_logger().warning("repaired duplicate keys left by a race: %s", removed)
    return removed
