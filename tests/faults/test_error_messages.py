"""Failures as a user sees them: one line naming the file, record or setting at fault, and exit code 1."""

from __future__ import annotations

from pathlib import Path

from tests.fakes import run_cli as omoide


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
