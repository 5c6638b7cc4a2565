"""`OMOIDE_STORAGE_URI=s3://…`: backfill, recall and forget against a real S3 server on loopback; nothing of the store local."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from omoide.core.location import Remote
from omoide.core.store_lease import store_lease
from omoide.sample import write_sample
from omoide.store.connect import connect_db
from tests.fakes import run_cli
from tests.faults.test_no_network import offending
from tests.s3_server import BUCKET, keys

URI = f"s3://{BUCKET}/people/me"


def _nothing_local(home: Path) -> None:
    assert not (home / "lake").exists() and not (home / "lancedb").exists()
    assert not list(home.rglob("*.parquet")) and not list(home.rglob("*.lance"))


@pytest.mark.slow
def test_backfill_recall_and_forget_run_against_object_storage(
    tmp_path: Path, s3: dict[str, str]
) -> None:
    home = tmp_path / "home"
    first, last = write_sample(home, days=2)
    env = {**s3, "OMOIDE_STORAGE_URI": URI}
    days = ("--start", str(first), "--end", str(last), "--json")
    r = run_cli("backfill", *days, home=home, timeout=900, **env)
    assert r.returncode == 0, r.stderr[-3000:]
    _nothing_local(home)
    stored = keys(s3, "people/me/")
    assert any(k.startswith(f"people/me/lake/events/day={first}/") for k in stored)
    assert any(k.startswith(f"people/me/lake/facts/day={last}/") for k in stored)
    assert any(k.startswith("people/me/lancedb/memories.lance/") for k in stored)
    assert (home / "vault" / "memory" / f"{first}.md").exists()  # the vault stays local

    memories = connect_db(Remote(URI) / "lancedb").open_table("memories")
    rows = memories.count_rows()
    again = run_cli("backfill", *days, home=home, timeout=900, **env)
    assert again.returncode == 0, again.stderr[-3000:]
    assert memories.count_rows() == rows  # idempotent: no doubles
    assert set(keys(s3, "people/me/lake/")) == {k for k in stored if "/lake/" in k}

    found = run_cli("recall", "booked ryokan Higashiyama", "--json", home=home, **env)
    assert found.returncode == 0, found.stderr[-3000:]
    results = json.loads(found.stdout)
    assert any("ryokan" in x["content"].lower() for x in results[:3])
    assert all({"memory_id", "kind", "ts", "day", "source"} <= set(x) for x in results)
    assert len({x["memory_id"] for x in results}) == len(results)

    gone = run_cli("forget", "--match", "Higashiyama", "--yes", "--json", home=home, **env)
    assert gone.returncode == 0, gone.stderr[-3000:]
    receipt = json.loads(gone.stdout)
    assert receipt["removed"]["lancedb memories"] > 0
    assert receipt["scan"]["hits"] == []  # the scan read every object under the store too
    after = run_cli("recall", "booked ryokan Higashiyama", "--json", home=home, **env)
    assert all("higashiyama" not in x["content"].lower() for x in json.loads(after.stdout))
    _nothing_local(home)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_object_storage_reaches_only_the_configured_endpoint(
    tmp_path: Path, s3: dict[str, str]
) -> None:
    """No region lookup, no instance-metadata call: the store's only peer is the endpoint given."""
    home = tmp_path / "home"
    first, _ = write_sample(home, days=1)
    trace = tmp_path / "trace"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "OMOIDE_"))}
    env |= {**s3, "OMOIDE_HOME": str(home), "OMOIDE_STORAGE_URI": URI}
    run = subprocess.run(
        [
            *("strace", "-f", "-qq", "-e", "trace=connect,sendto,sendmsg,sendmmsg"),
            *("-o", str(trace), sys.executable, "-c"),
            "from omoide.cli.app import main; main()",
            *("backfill", "--start", str(first), "--end", str(first)),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    text = trace.read_text(errors="replace")
    port = s3["AWS_ENDPOINT_URL"].rsplit(":", 1)[1]
    assert f"htons({port})" in text  # the trace saw the store's traffic
    assert offending(text) == []
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
