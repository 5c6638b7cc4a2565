"""Failures as a user sees them: one line naming the file, record or setting at fault, and exit code 1."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import date
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.fakes import run_cli as omoide

DAY = "2026-11-20"
# Every command that reads the settings, as a script would call it.
COMMANDS = [
    ("doctor",),
    ("init",),
    ("run", "--day", DAY),
    ("backfill", "--start", DAY, "--end", DAY),
    ("recall", "anything"),
    ("forget", "--day", DAY, "--yes"),
    ("entity", "Peter"),
    ("reflect",),
]


def _assert_one_clear_line(r: subprocess.CompletedProcess[str], *names: str) -> None:
    """A finished command -> it failed with at most two lines on stderr naming each of `names`, no traceback."""
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert 1 <= len(lines) <= 2, r.stderr
    assert "Traceback" not in r.stderr + r.stdout
    for name in names:
        assert name in r.stderr, (name, r.stderr)


def test_errors_are_one_line(omoide_home: Path):
    r = omoide("run", "--day", "20/11/2026", home=omoide_home)
    assert r.returncode == 1
    assert r.stderr.strip().splitlines() == ["omoide: not a day (YYYY-MM-DD): '20/11/2026'"]
    (omoide_home / "omoide.toml").write_text('timezone = "Mars/Base"\n')
    r = omoide("doctor", home=omoide_home)
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1
    assert "invalid configuration" in r.stderr and "timezone: unknown timezone" in r.stderr
    assert "Traceback" not in r.stderr


def test_recall_errors_are_one_line(omoide_home: Path, home_with_memories: Path):
    r = omoide("recall", "anything", "--kind", "X", home=home_with_memories)
    assert r.returncode == 1 and "unknown kind" in r.stderr and "Traceback" not in r.stderr
    r = omoide("recall", "anything", "--since", "yesterdayish", home=home_with_memories)
    assert r.returncode == 1 and "not a time" in r.stderr


def test_a_misspelt_key_is_named_with_the_closest_one(omoide_home: Path):
    toml = omoide_home / "omoide.toml"
    toml.write_text('timezon = "Europe/Berlin"\n')
    r = omoide("doctor", home=omoide_home)
    _assert_one_clear_line(r, "'timezon'", "'timezone'", str(toml))
    assert r.stderr.strip() == (
        f"omoide: unknown setting 'timezon' in {toml} (did you mean 'timezone'?)"
    )


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_toml_syntax_error_is_one_line_naming_file_and_line_on_every_command(
    omoide_home: Path, command: tuple[str, ...]
):
    toml = omoide_home / "omoide.toml"
    toml.write_text('timezone = "Europe/Berlin"\nuser_name = "Aiko\n[[sources]]\nkind = "notes"\n')
    r = omoide(*command, home=omoide_home)
    _assert_one_clear_line(r, str(toml), "line 2, column 18")


def test_help_does_not_read_a_broken_toml(omoide_home: Path):
    (omoide_home / "omoide.toml").write_text('timezone = "Europe/Berlin\n')
    r = omoide("--help", home=omoide_home)
    assert r.returncode == 0 and "Usage" in r.stdout and r.stderr == ""


@pytest.mark.parametrize(
    "command", [("backfill", "--start", DAY, "--end", DAY), ("run", "--day", DAY)]
)
def test_a_home_without_sources_refuses_to_collect_and_says_how_to_add_one(
    omoide_home: Path, command: tuple[str, ...]
):
    r = omoide(*command, home=omoide_home)
    _assert_one_clear_line(r, "no sources configured", "`omoide init`", "[[sources]]")
    (omoide_home / "omoide.toml").write_text('timezone = "Europe/Berlin"\n')
    r = omoide(*command, home=omoide_home)
    _assert_one_clear_line(r, f"no sources configured in {omoide_home / 'omoide.toml'}")
    assert not (omoide_home / "lake").exists()  # nothing "backfilled"


def test_doctor_calls_a_home_without_sources_a_problem(omoide_home: Path):
    r = omoide("doctor", home=omoide_home, COLUMNS="400")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    (row,) = [line for line in r.stdout.splitlines() if "│ sources" in line]
    assert "problem" in row and "no sources configured" in row and "omoide init" in row


def test_commands_that_do_not_collect_work_without_sources(home_with_memories: Path):
    r = omoide("recall", "warelay", "--no-rehearse", home=home_with_memories)
    assert r.returncode == 0, r.stderr
    assert "Lance is the right store for warelay." in r.stdout
    r = omoide("entity", "Peter", home=home_with_memories)
    assert "no sources" not in r.stderr


@pytest.mark.usefixtures("prefect_harness")
def test_the_flows_refuse_a_home_without_sources_unless_remaking_forgotten_days(
    omoide_home: Path,
):
    from omoide.flows.backfill import backfill
    from omoide.flows.daily import daily

    day = date.fromisoformat(DAY)
    for state in (
        daily(day=day, return_state=True),
        backfill(start=day, end=day, return_state=True),
    ):
        assert state.is_failed() and "no sources configured" in state.message
    # A forget re-makes the days it touched from what the lake still holds: no source needed.
    remade = backfill(start=day, end=day, only=[day], force=True, return_state=True)
    assert remade.is_completed(), remade.message


def test_a_source_that_cannot_be_read_is_named_and_the_others_land(omoide_home: Path):
    shutil.copytree(FIXTURES / "notes" / "vault" / "journal", omoide_home / "journal")
    missing = omoide_home / "sources" / "firefox" / "places.sqlite"
    (omoide_home / "omoide.toml").write_text(
        'timezone = "Europe/Berlin"\n'
        '[[sources]]\nkind = "notes"\npath = "journal"\n'
        '[[sources]]\nkind = "firefox"\npath = "sources/firefox/places.sqlite"\n'
    )
    r = omoide("run", "--day", DAY, home=omoide_home, COLUMNS="400")
    _assert_one_clear_line(r, f"firefox: {missing}: not found")
    assert r.stderr.startswith(f"omoide: 1 of 2 sources failed for {DAY}: firefox: {missing}")
    # The results table: the collected source, and the failed one's row saying why.
    assert "│ notes " in r.stdout and "collected" in r.stdout
    (row,) = [line for line in r.stdout.splitlines() if "│ firefox" in line]
    assert f"failed: {missing}: not found" in row
    events = omoide_home / "lake" / "events" / f"day={DAY}"
    assert (events / "notes.parquet").exists() and not (events / "firefox.parquet").exists()

    r = omoide("backfill", "--start", DAY, "--end", DAY, home=omoide_home, COLUMNS="400")
    _assert_one_clear_line(r, f"1 of 1 days failed: {DAY} (firefox: {missing}: not found)")
    (row,) = [line for line in r.stdout.splitlines() if f"│ {DAY}" in line]
    assert f"failed: firefox: {missing}: not found" in row
    r = omoide("backfill", "--start", DAY, "--end", DAY, "--json", home=omoide_home)
    assert r.returncode == 1
    result = json.loads(r.stdout)[DAY]
    assert result["ok"] is False and "not found" in result["error"]
    assert result["failed_sources"] == {"firefox": f"{missing}: not found"}
    assert result["events"] > 0  # the notes landed
