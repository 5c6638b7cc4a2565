"""`OMOIDE_STORAGE_URI=s3://…`: backfill, recall and forget against a real S3 server on loopback; nothing of the store local."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from omoide.core.location import Remote
from omoide.core.store_lease import store_lease
from omoide.sample import write_sample
from omoide.store.connect import connect_db
from tests.fakes import run_cli
from tests.faults.test_no_network import offending, strace
from tests.s3_server import BUCKET, keys

URI = f"s3://{BUCKET}/people/me"


def _nothing_local(home: Path) -> None:
    assert not (home / "lake").exists() and not (home / "lancedb").exists()
    assert not list(home.rglob("*.parquet")) and not list(home.rglob("*.lance"))


def _omoide(
    home: Path, env: dict[str, str], *args: str, trace: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """`omoide ARGS` as a fresh home runs it (its own Prefect), strace watching when `trace` is given."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "OMOIDE_"))}
    return subprocess.run(
        [
            *(strace(trace) if trace is not None else []),
            *(sys.executable, "-c", "from omoide.cli.app import main; main()", *args),
        ],
        env={**clean, **env, "OMOIDE_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.mark.slow
def test_backfill_recall_and_forget_run_against_object_storage(
    tmp_path: Path, s3: dict[str, str]
) -> None:
    """Also: no region lookup, no instance-metadata call — the store's only peer is the endpoint."""
    home = tmp_path / "home"
    # One day (Thursday: the Kyoto note and W facts) runs every stage in the least time.
    first, last = write_sample(home, days=1, end=date(2026, 11, 19))
    env = {**s3, "OMOIDE_STORAGE_URI": URI}
    days = ("--start", str(first), "--end", str(last))
    trace = tmp_path / "trace" if shutil.which("strace") else None
    r = _omoide(home, env, "backfill", *days, trace=trace)
    assert r.returncode == 0, r.stderr[-3000:]
    if trace is not None:  # strace is installed (CI has it)
        text = trace.read_text(errors="replace")
        assert f"htons({s3['AWS_ENDPOINT_URL'].rsplit(':', 1)[1]})" in text  # the store's traffic
        assert offending(text) == []
    _nothing_local(home)
    stored = keys(s3, "people/me/")
    assert any(k.startswith(f"people/me/lake/events/day={first}/") for k in stored)
    assert any(k.startswith(f"people/me/lake/facts/day={last}/") for k in stored)
    assert any(k.startswith("people/me/lancedb/memories.lance/") for k in stored)
    assert (home / "vault" / "memory" / f"{first}.md").exists()  # the vault stays local

    memories = connect_db(Remote(URI) / "lancedb").open_table("memories")
    rows = memories.count_rows()
    again = _omoide(home, env, "backfill", *days)
    assert again.returncode == 0, again.stderr[-3000:]
    assert memories.count_rows() == rows  # idempotent: no doubles
    assert set(keys(s3, "people/me/lake/")) == {k for k in stored if "/lake/" in k}

    found = _omoide(home, env, "recall", "booked ryokan Higashiyama", "--json")
    assert found.returncode == 0, found.stderr[-3000:]
    results = json.loads(found.stdout)
    assert any("ryokan" in x["content"].lower() for x in results[:3])
    assert all({"memory_id", "kind", "ts", "day", "source"} <= set(x) for x in results)
    assert len({x["memory_id"] for x in results}) == len(results)

    gone = _omoide(home, env, "forget", "--match", "Higashiyama", "--yes", "--json")
    assert gone.returncode == 0, gone.stderr[-3000:]
    receipt = json.loads(gone.stdout)
    assert receipt["removed"]["lancedb memories"] > 0
    assert receipt["scan"]["hits"] == []  # the scan read every object under the store too
    after = _omoide(home, env, "recall", "booked ryokan Higashiyama", "--json")
    assert all("higashiyama" not in x["content"].lower() for x in json.loads(after.stdout))
    _nothing_local(home)


def test_a_second_machine_writing_the_store_is_waited_for(
    tmp_path: Path, s3: dict[str, str]
) -> None:
    """The desktop holds the shared store's lease: the laptop's backfill waits, then names it."""
    home = tmp_path / "home"
    first, _ = write_sample(home, days=1)
    env = {**s3, "OMOIDE_STORAGE_URI": URI, "OMOIDE_LOCK_TIMEOUT_S": "3"}
    with store_lease(Remote(URI), "omoide backfill", timeout_s=5, settle_s=0.05):
        r = run_cli("backfill", "--start", str(first), "--end", str(first), home=home, **env)
    assert r.returncode != 0
    assert f"host {socket.gethostname()}" in r.stderr and "omoide backfill" in r.stderr
    assert keys(s3, "people/me/lake/") == []  # it wrote nothing while waiting
