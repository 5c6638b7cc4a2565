"""What LanceDB's query plan says about a vector search, for tests of the index's shape."""

from __future__ import annotations

import re

import lancedb


def ivf_partitions(table: lancedb.table.Table) -> int:
    """Memories table -> IVF partitions a vector search ranks (what LanceDB's plan reports)."""
    vector = table.search().limit(1).to_list()[0]["vector"]
    plan = table.search(vector).limit(5).analyze_plan()
    found = re.search(r"partitions_ranked=(\d+)", plan)
    assert found, f"no IVF partition in the plan:\n{plan}"
    return int(found.group(1))
