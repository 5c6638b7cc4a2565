"""`omoide backfill --dask` on a local Dask cluster gives the same lake, vault and LanceDB rows as without it."""

from __future__ import annotations

import json
from pathlib import Path

import lancedb
import numpy as np
import pandas as pd
import pytest

from omoide.sample import write_sample
from tests.fakes import run_cli

# When a row was written differs between two runs; what was written must not.
RUN_TIMES = ("recorded_at", "quarantined_at", "computed_at", "stated_at", "analyzed_at")


def _backfilled(home: Path, *options: str) -> dict:
    first, last = write_sample(home, days=2)
    # Each run with results of its own, as two homes have: no task cache shared (the runs
    # share the worker's Prefect server, which keeps no results).
    storage = home.parent / f"prefect-storage-{len(options)}"
    r = run_cli(
        *("backfill", "--start", str(first), "--end", str(last), "--json", *options),
        home=home,
        timeout=900,
        PREFECT_LOCAL_STORAGE_PATH=str(storage),
    )
    assert r.returncode == 0, r.stderr[-3000:]
    # Every figure of a day but the seconds its model took, which no two runs share.
    return {
        day: {k: v for k, v in figures.items() if k != "embed_s"}
        for day, figures in json.loads(r.stdout).items()
    }


def _lake(home: Path, table: str) -> pd.DataFrame:
    parts = sorted((home / "lake" / table).glob("day=*/*.parquet"))
    frame = pd.concat(
        [pd.read_parquet(p).assign(part=p.relative_to(home).as_posix()) for p in parts]
    )
    frame = frame.drop(columns=[c for c in RUN_TIMES if c in frame.columns])
    return frame.sort_values(list(frame.columns[:2]) + ["part"]).reset_index(drop=True)


def _memories(home: Path) -> pd.DataFrame:
    rows = lancedb.connect(home / "lancedb").open_table("memories").to_pandas()
    rows = rows.drop(columns=[c for c in (*RUN_TIMES, "last_recalled_at") if c in rows.columns])
    return rows.sort_values("memory_id").reset_index(drop=True)


@pytest.mark.slow
def test_a_backfill_on_dask_writes_what_a_sequential_one_writes(tmp_path: Path) -> None:
    # Both at the same path, one after the other: citations hold the home's absolute path.
    plain = _backfilled(tmp_path / "home")
    (tmp_path / "home").rename(tmp_path / "plain")
    dask = _backfilled(tmp_path / "home", "--dask")
    (tmp_path / "home").rename(tmp_path / "dask")
    assert dask == plain
    for table in ("events", "sessions", "facts"):
        a, b = _lake(tmp_path / "plain", table), _lake(tmp_path / "dask", table)
        pd.testing.assert_frame_equal(a, b, check_like=True, obj=table)
    a, b = _memories(tmp_path / "plain"), _memories(tmp_path / "dask")
    vectors = np.stack(a.pop("vector").to_list()), np.stack(b.pop("vector").to_list())
    pd.testing.assert_frame_equal(a, b, check_like=True, obj="memories")
    assert np.array_equal(*vectors)  # embeddings bit for bit
    for digest in sorted((tmp_path / "plain" / "vault" / "memory").glob("*.md")):
        twin = tmp_path / "dask" / "vault" / "memory" / digest.name
        assert twin.read_text("utf-8") == digest.read_text("utf-8"), digest.name
    log = next((tmp_path / "dask" / "logs").glob("*backfill*.log")).read_text("utf-8")
    assert "LocalCluster" in log and "Task run 'stage-day-" in log
