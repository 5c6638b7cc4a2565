"""A re-run settles in one pass: the second backfill of a 3-day sample (cached, or forced with days side by side) changes no byte."""

from __future__ import annotations

import hashlib
from datetime import date
from pathlib import Path

import pytest

from omoide.sample import write_sample

pytestmark = pytest.mark.usefixtures("prefect_harness")
LAST = date(2026, 11, 20)


def snapshot(home: Path) -> dict[str, str]:
    """Home -> {relative path: blake2b of its bytes} for the vault, the lake and LanceDB."""
    out = {}
    for part in ("vault", "lake", "lancedb"):
        for path in sorted((home / part).rglob("*")):
            if path.is_file():
                digest = hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
                out[path.relative_to(home).as_posix()] = digest
    return out


@pytest.mark.slow
def test_the_second_backfill_changes_no_byte(omoide_home: Path, monkeypatch) -> None:
    from omoide.flows.backfill import backfill

    first, last = write_sample(omoide_home, days=3, end=LAST)
    state = backfill(start=first, end=last, return_state=True)
    assert state.is_completed(), state.message
    before = snapshot(omoide_home)
    assert any(p.startswith("vault/bank/entities/") for p in before)
    assert any(p.startswith("lancedb/memories.lance/") for p in before)
    again = backfill(start=first, end=last, return_state=True)
    assert again.is_completed(), again.message
    after = snapshot(omoide_home)
    changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    assert changed == []
    # Not only because every task was served from cache: recomputing everything settles too,
    # and days worked on side by side store exactly what days one after another stored.
    monkeypatch.setenv("OMOIDE_BACKFILL_WORKERS", "2")
    forced = backfill(start=first, end=last, force=True, return_state=True)
    assert forced.is_completed(), forced.message
    after = snapshot(omoide_home)
    changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    assert changed == []
