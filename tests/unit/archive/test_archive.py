"""Export and import of a home at the library level: real LanceDB, real zip files, fake embedders."""

from __future__ import annotations

import hashlib
import json
import zipfile
from datetime import UTC, date, datetime
from pathlib import Path

import lancedb
import numpy as np
import pyarrow as pa
import pytest

from omoide.archive.export import export_home
from omoide.archive.restore import ArchiveError, import_home, read_manifest
from omoide.archive.rows import json_lines, rows_table
from omoide.core import schemas
from omoide.core.errors import OmoideError
from omoide.core.settings import get_settings
from omoide.ingest.tombstones import SALT, TOMBSTONES
from omoide.store.day_marks import completed, mark_completed
from omoide.store.lake import write_facts
from omoide.store.memories import open_memories, upsert_memories
from omoide.store.opinions_table import open_opinions
from tests.fakes import FakeEmbedder, memory_row, memory_rows

NOW = datetime(2026, 11, 21, 8, tzinfo=UTC)
DAY = "2026-11-20"
TEXTS = {
    "m1": "Lance is the right store for warelay.",
    "m2": "Peter moved to the platform team.",
    "m3": "Baked sourdough with more water this time.",
}


def _opinion(origin: str, vector: list[float]) -> dict[str, object]:
    """Origin memory + its vector -> one OPINIONS row with a one-entry history."""
    return {
        "opinion_id": "o1",
        "statement": TEXTS[origin],
        "entities": ["warelay"],
        "confidence": 0.8,
        "stated_at": NOW,
        "origin_id": origin,
        "last_updated": NOW,
        "supporting_ids": [origin],
        "contradicting_ids": [],
        "history": [
            {
                "at": NOW,
                "memory_id": origin,
                "delta": 0.0,
                "confidence_after": 0.8,
                "reason": "stated",
            }
        ],
        "vector": vector,
    }


def _home(home: Path, embedder: FakeEmbedder) -> Path:
    """Home -> three memories (lake and LanceDB), an opinion, a vault page and tombstones in it."""
    facts = memory_rows(*(memory_row(m, t, now=NOW, day=DAY) for m, t in TEXTS.items()))
    write_facts(home / "lake", date(2026, 11, 20), schemas.conform(facts, schemas.FACTS))
    table = open_memories(home / "lancedb", embedder.model, embedder.dim)
    upsert_memories(table, facts, embedder, NOW)
    origin = table.search().where("memory_id = 'm1'").to_list()[0]["vector"]
    open_opinions(home / "lancedb").add(
        pa.Table.from_pylist([_opinion("m1", list(origin))], schema=schemas.OPINIONS)
    )
    (home / "vault" / "memory").mkdir(parents=True)
    (home / "vault" / "memory" / f"{DAY}.md").write_text("# 2026-11-20\n\n- Lance\n", "utf-8")
    (home / "state").mkdir()
    (home / "state" / SALT).write_bytes(b"\x01" * 32)
    (home / "state" / TOMBSTONES).write_text('{"kind": "domain", "hash": "ab"}\n', "utf-8")
    part = home / "lake" / "facts" / f"day={DAY}" / "facts.parquet"
    mark_completed(home / "state" / "days", date(2026, 11, 20), "k", [str(part)], {}, home)
    (home / "cache" / "plan").mkdir(parents=True)
    (home / "cache" / "plan" / "source-1.json").write_text('{"days": {}}', "utf-8")
    (home / "omoide.toml").write_text('timezone = "Europe/Berlin"\n', "utf-8")
    return home


def _rows(db_dir: Path, name: str) -> list[dict[str, object]]:
    """LanceDB folder + table -> its rows sorted by their first column."""
    rows = lancedb.connect(db_dir).open_table(name).to_arrow().to_pylist()
    return sorted(rows, key=lambda r: str(next(iter(r.values()))))


def test_rows_come_back_exactly_vectors_and_nested_timestamps_too() -> None:
    rng = np.random.default_rng(7)
    vector = rng.standard_normal(16).astype(np.float32)
    rows = pa.Table.from_pylist([_opinion("m1", vector.tolist())], schema=schemas.OPINIONS)
    back = rows_table(json_lines(rows), schemas.OPINIONS)
    assert back.equals(rows)
    assert np.array_equal(np.asarray(back["vector"][0].as_py(), dtype=np.float32), vector)
    with pytest.raises(ValueError, match="unknown column"):
        rows_table(['{"opinion_id": "o", "colour": 1}\n'], schemas.OPINIONS)


def test_a_home_comes_back_whole_in_an_empty_home(tmp_path: Path) -> None:
    embedder = FakeEmbedder(dim=16)
    source = _home(tmp_path / "a", embedder)
    archive = tmp_path / "a.zip"
    manifest = export_home(get_settings(home=source), archive)
    assert manifest["embed_model"] == "fake-16" and manifest["counts"]["memories"] == 3
    target = tmp_path / "b"
    settings = get_settings(home=target)
    with zipfile.ZipFile(archive) as zf:
        counts = import_home(
            settings, zf, read_manifest(zf, archive), archive, FakeEmbedder(dim=16)
        )
    assert counts["memories"] == 3 and not counts["re-embedded"] and counts["opinions"] == 1
    for name in ("memories", "opinions"):
        assert _rows(target / "lancedb", name) == _rows(source / "lancedb", name)
    parts = ("lake/facts/day=2026-11-20/facts.parquet", f"vault/memory/{DAY}.md")
    parts += (f"state/days/{DAY}.json", "cache/plan/source-1.json")
    for part in parts:
        assert (target / part).read_bytes() == (source / part).read_bytes()
    # The day is done in its new place: status and the next run's catch-up see it.
    assert counts["marks files"] == 1 and counts["plan files"] == 1
    assert completed(target / "state" / "days", date(2026, 11, 20), "k", target) == {}
    for part in (SALT, TOMBSTONES):  # the same salt: the tombstones still match what they hid
        assert (target / "state" / part).read_bytes() == (source / "state" / part).read_bytes()
    assert counts["tombstones"] == 1
    assert not any(p.name.startswith(".import-") for p in target.iterdir())
    with zipfile.ZipFile(archive) as zf, pytest.raises(OmoideError, match="not empty"):
        import_home(settings, zf, read_manifest(zf, archive), archive, FakeEmbedder(dim=16))


def test_another_model_re_embeds_every_memory_and_the_opinion_follows_its_origin(
    tmp_path: Path,
) -> None:
    source = _home(tmp_path / "a", FakeEmbedder(dim=16))
    archive = tmp_path / "a.zip"
    export_home(get_settings(home=source), archive)
    other = FakeEmbedder(dim=8, model="other-8")
    target = tmp_path / "b"
    with zipfile.ZipFile(archive) as zf:
        counts = import_home(
            get_settings(home=target), zf, read_manifest(zf, archive), archive, other
        )
    assert counts["re-embedded"] and sorted(other.calls[0]) == sorted(TEXTS.values())
    table = open_memories(target / "lancedb", "other-8", 8, create=False)
    rows = {r["memory_id"]: r for r in table.to_arrow().to_pylist()}
    assert {r["embed_model"] for r in rows.values()} == {"other-8"}
    expected = other.embed([TEXTS["m1"]])[0]
    assert np.allclose(rows["m1"]["vector"], expected, atol=1e-6)
    (opinion,) = _rows(target / "lancedb", "opinions")
    assert np.allclose(opinion["vector"], expected, atol=1e-6)
    # The re-embedded table takes the usual writes: the same rows again change nothing.
    again = upsert_memories(table, table.to_pandas()[schemas.FACTS.names], other, NOW)
    assert again.embedded == 0 and again.updated == 0


def test_a_damaged_or_foreign_archive_is_refused_and_the_home_stays_empty(tmp_path: Path) -> None:
    source = _home(tmp_path / "a", FakeEmbedder(dim=16))
    archive = tmp_path / "a.zip"
    export_home(get_settings(home=source), archive)
    tampered = tmp_path / "tampered.zip"
    with zipfile.ZipFile(archive) as zf, zipfile.ZipFile(tampered, "w") as out:
        for item in zf.infolist():
            data = zf.read(item)
            if item.filename == "tables/memories.jsonl":
                data = data.replace(b"sourdough", b"rye bread")
            out.writestr(item, data)
    target = tmp_path / "b"
    with (
        zipfile.ZipFile(tampered) as zf,
        pytest.raises(ArchiveError, match="memories.jsonl is damaged"),
    ):
        import_home(
            get_settings(home=target),
            zf,
            read_manifest(zf, tampered),
            tampered,
            FakeEmbedder(dim=16),
        )
    assert not [p for p in target.rglob("*") if p.is_file()]
    foreign = tmp_path / "foreign.zip"
    with zipfile.ZipFile(foreign, "w") as zf:
        zf.writestr("manifest.json", json.dumps({"format": "something-else"}))
    with (
        zipfile.ZipFile(foreign) as zf,
        pytest.raises(ArchiveError, match="expected 'omoide-export'"),
    ):
        read_manifest(zf, foreign)


def test_an_archive_from_before_memory_types_is_typed_by_backend(tmp_path: Path) -> None:
    embedder = FakeEmbedder(dim=16)
    archive, old = tmp_path / "new.zip", tmp_path / "old.zip"
    export_home(get_settings(home=_home(tmp_path / "a", embedder)), archive)
    with zipfile.ZipFile(archive) as src, zipfile.ZipFile(old, "w") as dst:
        manifest = json.loads(src.read("manifest.json"))
        manifest["version"] = 1  # written before the day marks travelled too
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "tables/memories.jsonl":
                rows = [json.loads(line) for line in data.decode().splitlines()]
                data = "".join(
                    json.dumps(
                        {k: v for k, v in r.items() if k not in ("memory_type", "heard_from")}
                    )
                    + "\n"
                    for r in rows
                ).encode()
                manifest["files"][item.filename] = hashlib.sha256(data).hexdigest()
            if item.filename != "manifest.json":
                dst.writestr(item.filename, data)
        dst.writestr("manifest.json", json.dumps(manifest))
    target = tmp_path / "b"
    with zipfile.ZipFile(old) as zf:
        counts = import_home(get_settings(home=target), zf, read_manifest(zf, old), old, embedder)
    assert counts["memories"] == 3
    assert {r["memory_type"] for r in _rows(target / "lancedb", "memories")} == {"direct"}
