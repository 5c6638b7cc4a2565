"""Old LanceDB versions pruned: on a real LanceDB in a temp folder (and in a real S3 server on loopback)."""

from __future__ import annotations

import warnings
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from lancedb.query import MatchQuery

from omoide.core.location import Remote, size_under
from omoide.forget.purge import compact_tables
from omoide.store import memories
from omoide.store.connect import connect_db
from omoide.store.memories import open_memories, replace_day, upsert_memories
from omoide.store.prune import prune_versions
from tests.fakes import FakeEmbedder, memory_rows, rows_at
from tests.lance_plan import ivf_partitions
from tests.s3_server import BUCKET

NOW = datetime(2026, 11, 21, 6, tzinfo=UTC)
rec = rows_at(NOW)


def _history(db_dir: Path | Remote) -> None:
    """LanceDB folder -> a memories table and a second table, each written several times (a version each)."""
    emb = FakeEmbedder()
    table = open_memories(db_dir, emb.model, emb.dim)
    upsert_memories(
        table, memory_rows(rec("m1", "Ran 10k along the river", day="2026-11-19")), emb, NOW
    )
    for n, words in enumerate(("Lunch with Bob", "Lunch with Bob and Mina", "Dinner with Mina")):
        rows = memory_rows(rec(f"d{n}", words, day="2026-11-20"))
        replace_day(table, "2026-11-20", rows, emb, NOW)
    other = connect_db(db_dir).create_table("entities", data=[{"slug": "bob", "mentions": 1}])
    other.update(where="slug = 'bob'", values={"mentions": 2})
    other.add([{"slug": "mina", "mentions": 1}])


def _contents(db_dir: Path | Remote) -> dict[str, list[dict]]:
    """LanceDB folder -> every table's rows (vectors left out), sorted, opened afresh."""
    db = connect_db(db_dir)
    out = {}
    for name in db.list_tables().tables:
        rows = (
            db.open_table(name)
            .to_arrow()
            .drop_columns([c for c in ("vector",) if name == "memories"])
        )
        out[name] = sorted(rows.to_pylist(), key=lambda r: str(sorted(r.items())))
    return out


def _versions(db_dir: Path | Remote) -> dict[str, int]:
    """LanceDB folder -> how many versions each table keeps."""
    db = connect_db(db_dir)
    return {n: len(db.open_table(n).list_versions()) for n in db.list_tables().tables}


def _rows_at(table, version: int) -> int:  # noqa: ANN001
    """A LanceDB table + one of its versions -> how many rows that version holds, read in full."""
    table.checkout(version)
    return table.to_arrow().num_rows


def _prune_all(db_dir: Path | Remote) -> int:
    """LanceDB folder -> every version but the latest pruned (LanceDB warns about readers: none here)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return prune_versions(db_dir, timedelta(0))


def test_versions_younger_than_the_cut_off_stay(tmp_path: Path) -> None:
    db_dir = tmp_path / "lancedb"
    _history(db_dir)
    rows, versions = _contents(db_dir), _versions(db_dir)
    assert min(versions.values()) > 1
    table = connect_db(db_dir).open_table("memories")
    old = {v["version"]: _rows_at(table, v["version"]) for v in table.list_versions()}
    latest = {n: connect_db(db_dir).open_table(n).version for n in versions}
    assert prune_versions(db_dir, timedelta(days=7)) == 0
    # Every version stays and none is added (nothing compacted: cache keys hold the
    # versions); the rows are the same.
    assert _versions(db_dir) == versions
    assert {n: connect_db(db_dir).open_table(n).version for n in versions} == latest
    assert _contents(db_dir) == rows
    # Each old version still reads whole.
    assert {version: _rows_at(table, version) for version in old} == old


def test_versions_older_than_the_cut_off_go_and_the_rows_stay(tmp_path: Path) -> None:
    db_dir = tmp_path / "lancedb"
    _history(db_dir)
    rows, size = _contents(db_dir), size_under(db_dir)
    freed = _prune_all(db_dir)
    assert freed > 0
    assert size_under(db_dir) < size
    assert _versions(db_dir) == {"memories": 1, "entities": 1}
    assert _contents(db_dir) == rows
    # A reader opened afterwards searches both indices of what is left.
    table = connect_db(db_dir).open_table("memories")
    hits = table.search(MatchQuery("dinner", "content"), query_type="fts").limit(5).to_list()
    assert [h["memory_id"] for h in hits] == ["d2"]
    emb = FakeEmbedder()
    near = table.search(emb.embed(["Ran 10k along the river"])[0]).limit(1).to_list()
    assert near[0]["memory_id"] == "m1"
    # Nothing old is left to prune.
    assert _prune_all(db_dir) == 0


def test_a_missing_folder_frees_nothing_and_a_negative_age_is_refused(tmp_path: Path) -> None:
    assert prune_versions(tmp_path / "none", timedelta(days=7)) == 0
    with pytest.raises(ValueError, match="negative"):
        prune_versions(tmp_path / "none", timedelta(days=-1))


def test_versions_in_an_object_store_are_pruned(s3: dict[str, str]) -> None:
    db_dir = Remote(f"s3://{BUCKET}/me/lancedb")
    _history(db_dir)
    rows = _contents(db_dir)
    assert prune_versions(db_dir, timedelta(days=7)) == 0
    assert _prune_all(db_dir) > 0
    assert _versions(db_dir) == {"memories": 1, "entities": 1}
    assert _contents(db_dir) == rows


@pytest.mark.parametrize("upkeep", [_prune_all, compact_tables], ids=["prune", "forget"])
def test_the_vector_index_keeps_its_partitions_through_a_prune_or_a_forget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, upkeep
) -> None:
    # Both end in an optimize(), which joins the IVF partitions (24 become 1 here).
    monkeypatch.setattr(memories, "ANN_MIN_ROWS", 300)
    db_dir = tmp_path / "lancedb"
    emb = FakeEmbedder()
    table = open_memories(db_dir, emb.model, emb.dim)
    upsert_memories(table, memory_rows(*(rec(f"n{i}", f"note {i}") for i in range(576))), emb, NOW)
    assert ivf_partitions(table) == 24
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        upkeep(db_dir)
    table = connect_db(db_dir).open_table("memories")
    assert ivf_partitions(table) == 24
    assert [i.name for i in table.list_indices() if "vector" in i.columns] == ["vector_ivf_sq_n576"]
