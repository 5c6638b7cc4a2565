"""A home that moves (issue 52): exported and imported into another folder, it answers the same
questions with the same citations, each found in the new home, no byte of it names the old
home, and `omoide status` there sees the days done."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import lancedb
import pyarrow.parquet as pq

from omoide.core.refs import resolve_ref
from omoide.store.memories import rebuild_text_index
from tests.fakes import run_cli

NOW = "2026-11-21T10:00"
QUESTIONS = (
    "what did I do yesterday",
    "how long was I in zoom on Friday",
    "when did I last talk to Peter",
    "which store did we pick for warelay",
    "what did Peter say about the ryokan",
    "who is Mina",
)


def _ask(home: Path, question: str) -> dict:
    """Home + question -> `omoide ask --json`'s object."""
    r = run_cli("ask", question, "--now", NOW, "--json", home=home)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def _status(home: Path) -> dict:
    """Home -> `omoide status --json`'s object."""
    r = run_cli("status", "--now", NOW, "--json", home=home)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def _naming(home: Path, old: list[bytes]) -> list[str]:
    """A home + spellings of another home's path -> its files holding one, bytes or decoded rows."""
    found = []
    for path in sorted(p for p in home.rglob("*") if p.is_file()):
        if any(o in path.read_bytes() for o in old):
            found.append(str(path))
        elif path.suffix == ".parquet":
            # Compressed pages could hide a path from the byte scan: the rows are read too.
            rows = json.dumps(pq.read_table(path).to_pylist(), default=str).encode()
            if any(o in rows for o in old):
                found.append(f"{path} (rows)")
    db = lancedb.connect(home / "lancedb")
    for name in db.list_tables().tables:
        rows = db.open_table(name).to_arrow()
        rows = rows.drop_columns([c for c in rows.schema.names if c == "vector"])
        if any(o in json.dumps(rows.to_pylist(), default=str).encode() for o in old):
            found.append(f"lancedb table {name}")
    return found


def _lake(home: Path) -> dict[str, list[tuple[str, str]]]:
    """A home -> each lake events file's (event id, ref) pairs, sorted."""
    found = {}
    for path in sorted((home / "lake" / "events").rglob("*.parquet")):
        rows = pq.read_table(path, columns=["event_id", "source_ref"]).to_pydict()
        found[str(path.relative_to(home))] = sorted(
            zip(rows["event_id"], rows["source_ref"], strict=True)
        )
    return found


def test_a_home_moved_by_export_and_import_answers_and_cites_the_same_from_its_new_place(
    sample_two_days: Path, tmp_path: Path
) -> None:
    # The recalls of earlier tests rehearsed memories, and LanceDB folds a full-text index
    # forward keeping the terms of the rows they replaced, which shifts BM25's weights; an
    # imported home builds its index anew. Rebuilt here, the two homes rank alike.
    rebuild_text_index(lancedb.connect(sample_two_days / "lancedb").open_table("memories"))
    archive = tmp_path / "memory.zip"
    r = run_cli("export", "--out", str(archive), "--json", home=sample_two_days)
    assert r.returncode == 0, r.stderr[-2000:]
    counts = json.loads(r.stdout)["counts"]
    assert counts["marks files"] == 2 and counts["plan files"] >= 1
    moved = tmp_path / "elsewhere" / "memory"
    r = run_cli("import", str(archive), "--json", home=moved)
    assert r.returncode == 0, r.stderr[-2000:]
    # The person's own files move with them; an archive never holds them.
    shutil.copytree(sample_two_days / "sources", moved / "sources")

    cited = 0
    for question in QUESTIONS:
        before, after = _ask(sample_two_days, question), _ask(moved, question)
        assert after["answer"] == before["answer"], question
        assert after["citations"] == before["citations"], question
        for citation in after["citations"]:
            path = resolve_ref(citation["source"], moved)
            assert path is not None and path.is_file(), (question, citation)
            inside = path.resolve().is_relative_to(moved.resolve())
            assert inside or path.is_relative_to(Path.home()), (question, citation)
            cited += 1
    assert cited >= len(QUESTIONS)

    old = sorted({str(sample_two_days).encode(), str(sample_two_days.resolve()).encode()})
    assert _naming(moved, old) == []

    before, after = _status(sample_two_days), _status(moved)
    assert after["newest_completed_day"] == before["newest_completed_day"] == "2026-11-20"
    assert after["missing_days"] == before["missing_days"]
    r = run_cli("status", "--now", NOW, home=moved)
    assert r.returncode == 0 and "no day has completed yet" not in r.stdout, r.stdout

    # Read again in its new place, the sources add no row and change none: ids come from the
    # records, not from where their files are.
    lake = _lake(moved)
    r = run_cli("backfill", "--start", "2026-11-19", "--end", "2026-11-20", home=moved, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    assert _lake(moved) == lake
    assert _naming(moved, old) == []
