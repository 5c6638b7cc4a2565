"""Index upkeep task: the memories table's indices caught up with rows written without them (never cached)."""

from __future__ import annotations

from pathlib import Path

from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE

from omoide.store.memories import catch_up_indices


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
