"""The shared store's lease, against a real S3 server on loopback: one writing machine at a time."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from omoide.core import store_lease as lease_mod
from omoide.core.location import Remote
from omoide.core.store_lease import (
    LEASE,
    StoreBusyError,
    is_stale,
    read_lease,
    store_lease,
)
from tests.s3_server import BUCKET


@pytest.fixture
def root(s3: dict[str, str]) -> Remote:
    return Remote(f"s3://{BUCKET}/me")


def test_a_local_store_needs_no_lease(tmp_path: Path) -> None:
    with store_lease(tmp_path, "omoide run", timeout_s=0):
        assert not (tmp_path / LEASE).exists()


def test_the_lease_is_held_for_the_block_and_released(root: Remote) -> None:
    with store_lease(root, "omoide backfill", timeout_s=5, settle_s=0.05):
        held = read_lease(root)
        assert held["command"] == "omoide backfill" and held["token"]
    assert read_lease(root) == {}


def test_a_second_machine_waits_then_names_the_holder(root: Remote) -> None:
    seen: list[dict] = []
    with store_lease(root, "omoide backfill", timeout_s=5, settle_s=0.05):
        with pytest.raises(StoreBusyError, match=r"omoide backfill"):
            with store_lease(root, "omoide run", timeout_s=0.5, on_wait=seen.append, settle_s=0.05):
                pytest.fail("two writers held the store at once")
    assert len(seen) == 1 and seen[0]["command"] == "omoide backfill"


def test_a_lease_a_crashed_run_left_is_taken_over(root: Remote) -> None:
    old = {
        "token": "dead",
        "host": "desk",
        "pid": 1,
        "command": "omoide run",
        "renewed_at": "2026-01-01T00:00:00+00:00",
    }
    (root / LEASE).write_bytes(json.dumps(old).encode())
    assert is_stale(old, lease_mod.datetime.now(lease_mod.UTC))
    with store_lease(root, "omoide run", timeout_s=1, settle_s=0.05):
        assert read_lease(root)["token"] != "dead"


def test_writers_racing_for_the_lease_never_overlap(root: Remote) -> None:
    inside, overlaps, done = [0], [0], []
    guard = threading.Lock()

    def writer() -> None:
        with store_lease(root, "omoide run", timeout_s=60, settle_s=0.3):
            with guard:
                inside[0] += 1
                overlaps[0] += inside[0] > 1
            time.sleep(0.2)
            with guard:
                inside[0] -= 1
        done.append(1)

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(done) == 4 and overlaps[0] == 0


def test_the_lease_is_renewed_while_held(root: Remote, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lease_mod, "RENEW_S", 0.2)
    with store_lease(root, "omoide backfill", timeout_s=5, settle_s=0.05):
        first = read_lease(root)["renewed_at"]
        # Renewed every 0.2 s; a loaded machine may delay the renewing thread, so wait for it.
        deadline = time.monotonic() + 20
        while read_lease(root)["renewed_at"] == first and time.monotonic() < deadline:
            time.sleep(0.2)
        assert read_lease(root)["renewed_at"] > first
