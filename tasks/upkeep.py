"""LanceDB upkeep tasks: indices caught up with rows written without them; old versions pruned (never cached)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from omoide.core.location import StorePath
from omoide.store.memories import catch_up_indices
from omoide.store.prune import prune_versions


@task(
    name="index-upkeep",
    task_run_name="index-upkeep",
    cache_policy=NO_CACHE,
    persist_result=False,
    retries=1,
    retry_delay_seconds=10,
)
def index_upkeep(db_dir: Path) -> bool:
    """LanceDB folder -> whether the memories table's indices had rows to catch up (and now have none)."""
    behind = catch_up_indices(db_dir)
    if behind:
        get_run_logger().info("memories: indices caught up and fragments compacted")
    return behind


@task(
    name="prune-versions",
    task_run_name="prune-versions",
    cache_policy=NO_CACHE,
    persist_result=False,
    retries=1,
    retry_delay_seconds=10,
)
def prune_old_versions(db_dir: StorePath, keep_days: int) -> int:
    """LanceDB folder + days to keep -> every table's older versions deleted; bytes freed."""
    freed = prune_versions(db_dir, timedelta(days=keep_days))
    get_run_logger().info(
        "lancedb: versions older than %d days pruned, %.1f MB freed", keep_days, freed / 1e6
    )
    return freed
