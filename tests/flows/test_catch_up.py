"""Catch-up, as a laptop that slept through two nights meets it: one `omoide run` without a day
does every day after the newest completed one, up to yesterday."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from omoide.core.days import yesterday
from omoide.sample import write_sample
from omoide.store.day_marks import marked_days
from omoide.store.lake import stage_days
from tests.fakes import run_cli

TIMEZONE = "Europe/Berlin"  # the sample's


def test_one_run_without_a_day_does_the_two_days_never_run(omoide_home: Path) -> None:
    last = yesterday(TIMEZONE, datetime.now(UTC))
    first, _ = write_sample(omoide_home, days=3, end=last, volume=0.25)
    missed = [first + timedelta(days=1), last]
    r = run_cli("backfill", "--start", str(first), "--end", str(first), home=omoide_home)
    assert r.returncode == 0, r.stderr[-2000:]
    assert marked_days(omoide_home / "state" / "days") == [first]

    r = run_cli("run", home=omoide_home, COLUMNS="200", timeout=600)
    if yesterday(TIMEZONE, datetime.now(UTC)) != last:
        pytest.skip("the local day changed while the test ran")
    assert r.returncode == 0, r.stderr[-2000:]
    # Both days, oldest first, each with its own table.
    shown = [r.stdout.index(f"omoide {d}") for d in missed]
    assert shown == sorted(shown)
    assert "not run:" not in r.stderr and "backfill --all" not in r.stderr
    assert marked_days(omoide_home / "state" / "days") == [first, *missed]
    for stage in ("events", "sessions", "facts"):
        assert stage_days(omoide_home / "lake", stage) == [first, *missed]
    for day in missed:
        parts = {p.stem for p in (omoide_home / "lake/events" / f"day={day}").glob("*.parquet")}
        assert parts == {"chrome", "firefox", "activitywatch", "notes", "chat"}
        assert (omoide_home / "vault" / "memory" / f"{day}.md").is_file()

    # The catch-up is the run named after the days it did; each day is a daily run of its own.
    log = max((omoide_home / "logs").glob("*-run-*.log")).read_text(encoding="utf-8")
    name = f"catch-up-{missed[0]}-{missed[1]}"
    assert f"Flow run '{name}' - Finished in state Completed()" in log
    for day in missed:
        assert f"Flow run 'daily-{day}' - Finished in state Completed()" in log

    # A day done by the daily flow is marked as a backfill marks it: the next backfill skips it.
    r = run_cli("backfill", "--start", str(first), "--end", str(last), "--json", home=omoide_home)
    assert r.returncode == 0, r.stderr[-2000:]
    assert all(day.get("skipped") for day in json.loads(r.stdout).values()), r.stdout
