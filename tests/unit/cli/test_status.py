"""`omoide status`, run as a user runs it: on a backfilled sample home with no Prefect server
(runs read from the logs, next run unknown), and against a real long-lived Prefect server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pandas as pd
import pytest

from omoide.core.settings import SourceConfig
from omoide.store.home_status import silence_warning
from tests.fakes import run_cli
from tests.prefect_server import clean_env

KEYS = {"last_run", "next_run", "missing_days", "sources", "home_bytes"}
NOW = "2026-11-23T09:00"  # the sample ends on 2026-11-20: the 21st and 22nd were never run


def _status(home: Path, *args: str, **env: str) -> dict:
    """Home (+ arguments, variables) -> `omoide status --json --now NOW` parsed."""
    r = run_cli("status", "--json", "--now", NOW, *args, home=home, **env)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def _disk_bytes(home: Path) -> int:
    return sum(
        (Path(folder) / f).lstat().st_size for folder, _, files in os.walk(home) for f in files
    )


def test_status_json_tells_missing_days_each_sources_newest_record_and_the_size(
    sample_two_days: Path,
) -> None:
    report = _status(sample_two_days, PREFECT_API_URL="")
    assert KEYS <= set(report)
    assert report["missing_days"] == ["2026-11-21", "2026-11-22"]
    assert report["newest_completed_day"] == "2026-11-20"
    # The newest record of each source, as the lake holds it.
    events = pd.concat(
        pd.read_parquet(p) for p in (sample_two_days / "lake" / "events").glob("day=*/*.parquet")
    )
    newest = events.groupby("source_name")["ts"].max()
    assert [s["name"] for s in report["sources"]] == [
        "chrome",
        "firefox",
        "activitywatch",
        "notes",
        "chat",
    ]
    for s in report["sources"]:
        assert datetime.fromisoformat(s["newest"]) == newest[s["name"]].floor("s").to_pydatetime()
    assert [s["name"] for s in report["sources"] if s["live"]] == ["chrome", "firefox"]
    # Every source wrote on the last day run: none is quiet.
    assert report["warnings"] == []
    sizes = report["sizes"]
    assert report["home_bytes"] == sizes["total"] == _disk_bytes(sample_two_days)
    assert min(sizes["lake"], sizes["vault"], sizes["prefect"]) > 0
    assert 0 < sizes["lancedb_current"] <= sizes["lancedb"]
    # No server: the backfill that made the home, from its log; the next run is unknown.
    assert report["prefect_api"] is None and report["next_run"] is None
    last = report["last_run"]
    assert last["via"] == "omoide backfill" and last["outcome"] == "Completed"
    assert last["run"] == "backfill-2026-11-19-2026-11-20"
    assert report["last_error"] is None
    assert "installed" in report["service"] or "error" in report["service"]


def test_status_says_it_in_words(sample_two_days: Path) -> None:
    r = run_cli("status", "--now", NOW, home=sample_two_days, PREFECT_API_URL="", COLUMNS="200")
    assert r.returncode == 0, r.stderr[-2000:]
    text = " ".join(r.stdout.split())
    assert "missing 2 of the last 14 days: 2026-11-21, 2026-11-22" in text
    assert "`omoide run` catches them up" in text
    assert "next run unknown (no Prefect server answers" in text
    assert "omoide backfill backfill-2026-11-19-2026-11-20 Completed" in text
    assert "chrome chrome (live) 2026-11-20" in text


def test_a_live_source_quiet_for_more_than_a_day_is_named(tmp_path: Path) -> None:
    chrome = SourceConfig(kind="chrome", path=tmp_path / "History", name="chrome")
    notes = SourceConfig(kind="notes", path=tmp_path / "notes", name="notes")
    aw_live = SourceConfig(kind="activitywatch", url="http://127.0.0.1:5600", name="aw")
    aw_export = SourceConfig(kind="activitywatch", path=tmp_path / "aw.json", name="aw-file")
    horizon = datetime(2026, 11, 25, 23, tzinfo=UTC)
    quiet = horizon - timedelta(days=3, hours=1)
    warning = silence_warning(chrome, quiet, horizon, "Europe/Berlin")
    assert warning is not None
    assert warning.startswith("chrome: nothing new for 3.0 days, newest 2026-11-22 23:00")
    assert str(tmp_path / "History") in warning
    assert "is ActivityWatch running?" in (silence_warning(aw_live, quiet, horizon, "UTC") or "")
    assert silence_warning(aw_live, None, horizon, "UTC") == (
        "aw: nothing from it in the lake yet (http://127.0.0.1:5600)"
    )
    # Within a day, a source that is no live one, or a home never run: nothing to say.
    assert silence_warning(chrome, horizon - timedelta(hours=20), horizon, "UTC") is None
    assert silence_warning(notes, quiet, horizon, "UTC") is None
    assert silence_warning(aw_export, quiet, horizon, "UTC") is None
    assert silence_warning(chrome, None, None, "UTC") is None


# The home's daily deployment, scheduled at 02:00 Berlin time, and one flow run by hand.
PROBE = """
from prefect import flow
from prefect.schedules import Cron
from omoide.flows.daily import daily

@flow(name="status-probe", flow_run_name="status-probe-run")
def probe() -> int:
    return 1

daily.to_deployment(name="daily", schedule=Cron("0 2 * * *", timezone="Europe/Berlin")).apply()
assert probe(return_state=True).is_completed()
"""


@pytest.mark.prefect_server
def test_status_reads_the_last_and_next_runs_from_the_homes_prefect_server(
    prefect_api: str, omoide_home: Path
) -> None:
    # In a process of its own: a flow run in this one would leave Prefect's events worker bound
    # to this module's server, and the test harness's later runs sending to it once it is gone.
    subprocess.run(
        [sys.executable, "-c", PROBE],
        env=clean_env(PREFECT_API_URL=prefect_api, OMOIDE_HOME=str(omoide_home)),
        check=True,
        timeout=300,
    )
    # The server's scheduler makes the deployment's runs within seconds of its creation.
    deadline = time.monotonic() + 120
    while (report := _status(omoide_home, PREFECT_API_URL=prefect_api))["next_run"] is None:
        assert time.monotonic() < deadline, "no scheduled run appeared"
        time.sleep(2)
    assert report["prefect_api"] == prefect_api
    nxt = report["next_run"]
    assert nxt["deployment"] == "daily/daily" and not nxt["late"]
    at = datetime.fromisoformat(nxt["at"]).astimezone(ZoneInfo("Europe/Berlin"))
    assert (at.hour, at.minute) == (2, 0) and at > datetime.now(UTC)
    [run] = [r for r in report["runs"] if r["run"] == "status-probe-run"]
    assert run["via"] == "status-probe flow by hand (an omoide command)"
    assert run["outcome"] == "Completed"
    assert report["last_run"]["run"] == "status-probe-run"
