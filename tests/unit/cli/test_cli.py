"""The omoide command, run as a user runs it (a subprocess of the installed entry point)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from tests.conftest import EVAL
from tests.fakes import run_cli

omoide = run_cli


def test_sample_writes_sources_and_prints_first_and_last_day(tmp_path: Path, omoide_home: Path):
    out = tmp_path / "demo"
    r = omoide("sample", "--days", "7", "--out", str(out), home=omoide_home)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["2026-11-14", "2026-11-20"]
    config = tomllib.loads((out / "omoide.toml").read_text())
    assert {s["kind"] for s in config["sources"]} == {
        "chrome",
        "firefox",
        "activitywatch",
        "notes",
        "chat",
    }
    assert config["timezone"] == "Europe/Berlin"


def test_doctor_reports_sources(tmp_path: Path, omoide_home: Path):
    from omoide.sample import write_sample

    write_sample(omoide_home, days=1)
    r = omoide("doctor", home=omoide_home, COLUMNS="400")
    assert "source chrome (chrome)" in r.stdout and "timezone" in r.stdout
    # Each source's days, and the command that saves them before the browser purges them.
    assert r.stdout.count("records from 2026-11-") >= 4
    assert "your sources hold 2026-11-" in r.stdout and "omoide backfill --all" in r.stdout
    (omoide_home / "omoide.toml").write_text(
        '[[sources]]\nkind = "chrome"\npath = "nope/History"\n'
    )
    r = omoide("doctor", home=omoide_home)
    assert r.returncode == 1 and "not found" in r.stdout


def test_init_writes_a_starter_config(omoide_home: Path):
    r = omoide("init", home=omoide_home)
    assert r.returncode == 0, r.stderr
    config = tomllib.loads((omoide_home / "omoide.toml").read_text())
    assert "timezone" in config
    # This machine has no browser: the message says what to add, brackets and all.
    if not config.get("sources"):
        assert "add a [[sources]] table" in " ".join(r.stdout.split())
    assert (omoide_home / "lake").is_dir() and (omoide_home / "quarantine").is_dir()


@pytest.mark.skipif(not (EVAL / "pii" / "pii_dev.jsonl").exists(), reason="eval data absent")
def test_bench_pii_prints_the_documented_json(omoide_home: Path):
    r = omoide(
        "bench", "pii", "--data", str(EVAL / "pii" / "pii_dev.jsonl"), "--json", home=omoide_home
    )
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    assert set(result["recall"]) == {
        "EMAIL_ADDRESS",
        "CREDIT_CARD",
        "PHONE_NUMBER",
        "IP_ADDRESS",
        "URL_SECRET",
    }
    assert result["cases"] == 492 and 0 <= result["precision"] <= 1


def test_bench_throughput_prints_the_documented_json(omoide_home: Path):
    r = omoide("bench", "throughput", "--events", "5000", "--json", home=omoide_home)
    assert r.returncode == 0, r.stderr
    result = json.loads(r.stdout)
    for key in ("events_per_s", "reference_events_per_s", "ratio_vs_reference", "regex_scan_ratio"):
        assert result[key] > 0
    assert result["events"] == 5000 and result["sessions"] > 0


@pytest.mark.parametrize("args", [(), ("--start", "2026-11-18"), ("--all", "--end", "2026-11-20")])
def test_backfill_needs_a_range_or_all(omoide_home: Path, args: tuple[str, ...]):
    r = omoide("backfill", *args, home=omoide_home)
    assert r.returncode == 1
    assert "give either --start and --end, or --all" in r.stderr


def test_backfill_all_runs_from_the_earliest_record_to_yesterday(omoide_home: Path):
    from datetime import UTC, datetime

    from omoide.core.days import yesterday
    from omoide.sample import write_sample

    last = yesterday("Europe/Berlin", datetime.now(UTC))
    write_sample(omoide_home, days=1, end=last)
    r = omoide("backfill", "--all", home=omoide_home, COLUMNS="200")
    assert r.returncode == 0, r.stderr
    assert f"backfilling every day your sources hold: {last} to {last}" in r.stderr
    assert f"│ {last} │ ok" in r.stdout


def test_doctor_names_what_others_can_read_and_fix_makes_it_yours(omoide_home: Path):
    from omoide.sample import write_sample

    write_sample(omoide_home, days=1)  # by this test process, whose umask leaves files 0644
    readable = omoide_home / "omoide.toml"
    readable.chmod(0o644)
    r = omoide("doctor", home=omoide_home, COLUMNS="400")
    assert r.returncode == 1 and "others on this machine can read" in r.stdout
    assert str(readable) in r.stdout or str(omoide_home) in r.stdout
    r = omoide("doctor", "--fix", home=omoide_home, COLUMNS="400")
    assert "made yours only" in r.stdout and "only you can read the home" in r.stdout
    assert readable.stat().st_mode & 0o077 == 0
    assert all(p.lstat().st_mode & 0o077 == 0 for p in omoide_home.rglob("*"))
