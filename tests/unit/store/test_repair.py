"""Duplicate keys a race left in a LanceDB table are removed in one commit, first row kept."""

from __future__ import annotations

from pathlib import Path

import lancedb
import pyarrow as pa

from omoide.store.repair import drop_duplicate_keys, repair_tables


def test_duplicates_are_removed_keeping_the_first_row(tmp_path: Path) -> None:
    db = lancedb.connect(tmp_path)
    rows = pa.table({"memory_id": ["a", "b", "a", "c", "a"], "v": [1, 2, 3, 4, 5]})
    table = db.create_table("memories", rows)
    assert drop_duplicate_keys(table, "memory_id") == 2
    assert sorted(map(tuple, (r.values() for r in table.to_arrow().to_pylist()))) == [
        ("a", 1),
        ("b", 2),
        ("c", 4),
    ]
    version = table.version
    assert drop_duplicate_keys(table, "memory_id") == 0 and table.version == version


def test_repair_tables_checks_every_table_present(tmp_path: Path) -> None:
    assert repair_tables(tmp_path / "nothing") == {}
    db = lancedb.connect(tmp_path)
    db.create_table("entities", pa.table({"slug": ["peter", "peter"], "n": [1, 1]}))
    assert repair_tables(tmp_path) == {"entities": 1}
