"""The generated fault suite: 300+ corruptions of the five source kinds, none crashing, hanging or losing a row."""

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
    summary = json.loads(out.read_text())["summary"]
    failures = [(f["kind"], f["case"], f["class"], f["detail"]) for f in summary["failures"]]
    assert failures == [], run.stdout[-3000:]
    assert summary["cases"] >= 300
    assert set(summary["by_class"]) <= {"ok", "named"}
    # Every kind is damaged in many ways, and most damage leaves the good records readable.
    assert all(sum(c.values()) >= 40 for c in summary["by_kind"].values())
    assert summary["by_class"]["ok"] > summary["by_class"].get("named", 0)
