"""A fresh home written by the `omoide` commands is its owner's alone: every folder 0700, every file 0600."""

from __future__ import annotations

import stat
from pathlib import Path

from tests.fakes import OWN_SERVER, run_cli


def _open_to_others(root: Path) -> list[str]:
    """A folder -> what in it (itself included) others can read, write or enter, as `find -perm /077`."""
    paths = [root, *root.rglob("*")]
    return [str(p) for p in paths if not p.is_symlink() and stat.S_IMODE(p.lstat().st_mode) & 0o077]


def test_a_fresh_home_and_its_export_are_the_owners_only(tmp_path: Path) -> None:
    home = tmp_path / "fresh"
    day = "2026-11-20"
    r = run_cli("sample", "--days", "1", "--end", day, "--out", str(home), home=home)
    assert r.returncode == 0, r.stderr[-2000:]
    # On its own short-lived Prefect server, as a first backfill runs: its database is in the home.
    storage = str(home / "prefect" / "storage")
    prefect = {"PREFECT_HOME": str(home / "prefect"), "PREFECT_LOCAL_STORAGE_PATH": storage}
    r = run_cli("backfill", "--start", day, "--end", day, home=home, **prefect, **OWN_SERVER)
    assert r.returncode == 0, r.stderr[-2000:]
    assert (home / "prefect" / "prefect.db").is_file() and any((home / "lancedb").iterdir())
    assert _open_to_others(home) == []
    archive = tmp_path / "memory.zip"
    r = run_cli("export", "--out", str(archive), home=home)
    assert r.returncode == 0, r.stderr[-2000:]
    assert stat.S_IMODE(archive.stat().st_mode) == 0o600
