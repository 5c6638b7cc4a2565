"""The generated fault suite: 300+ corruptions of the five source kinds, none crashing, hanging, losing a row or storing garbage."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_every_generated_corruption_is_kept_quarantined_or_named(tmp_path: Path) -> None:
    out = tmp_path / "faults.json"
    run = subprocess.run(
        [sys.executable, "-m", "tests.faults.fault_suite", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1500,
    )
    report = json.loads(out.read_text())
    summary = report["summary"]
    failures = [(f["kind"], f["case"], f["class"], f["detail"]) for f in summary["failures"]]
    assert failures == [], run.stdout[-3000:]
    assert summary["cases"] >= 300
    assert set(summary["by_class"]) <= {"ok", "named", "all_rejected"}
    # A day whose every record was quarantined fails loudly, naming the file (issue 31).
    loud = {(r["kind"], r["case"]) for r in report["results"] if r["class"] == "all_rejected"}
    assert {("notes", "sqlite-file"), ("chat", "all-nul")} <= loud
    # Every kind is damaged in many ways, and most damage leaves the good records readable.
    assert all(sum(c.values()) >= 40 for c in summary["by_kind"].values())
    assert summary["by_class"]["ok"] > summary["by_class"].get("named", 0)
    # The inputs issue 26 found read as nothing or as garbage are all in the suite (and pass).
    ran = {(r["kind"], r["case"]) for r in report["results"]}
    assert {
        ("notes", "path:dangling-symlink"),
        ("notes", "path:symlink-loop"),
        ("notes", "utf16"),
        ("notes", "utf32"),
        ("notes", "all-nul"),
        ("notes", "sqlite-file"),
        ("chat", "folder:empty"),
        ("activitywatch", "folder:empty"),
        ("activitywatch", "naive-coinciding"),
        ("activitywatch", "one-byte:title-quote"),
        ("activitywatch", "event:title=surrogate"),
    } <= ran
