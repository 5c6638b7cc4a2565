"""Test setup: Prefect and omoide point at temp dirs; telemetry off; one Prefect harness per session."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

# Before anything imports Prefect: its home, database and results live in a temp dir.
_PREFECT_HOME = Path(tempfile.mkdtemp(prefix="omoide-test-prefect-"))
os.environ["PREFECT_HOME"] = str(_PREFECT_HOME)
os.environ["PREFECT_LOCAL_STORAGE_PATH"] = str(_PREFECT_HOME / "storage")
os.environ["PREFECT_SERVER_ANALYTICS_ENABLED"] = "false"
os.environ["DO_NOT_TRACK"] = "1"
os.environ["GX_ANALYTICS_ENABLED"] = "false"
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "INFO")

EVAL = Path(__file__).resolve().parents[2] / "shared" / "eval"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(autouse=True)
def omoide_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own OMOIDE_HOME; no test reads the developer's configuration."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("OMOIDE_HOME", str(home))
    for var in list(os.environ):
        if var.startswith("OMOIDE_") and var != "OMOIDE_HOME":
            monkeypatch.delenv(var)
    return home


@pytest.fixture(scope="session")
def prefect_harness():
    """A real, temporary Prefect API for flow tests (started once per session)."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield


@pytest.fixture(scope="session")
def eval_dir() -> Path:
    """Path of ../shared/eval (third-party evaluation data, read by path only)."""
    if not EVAL.exists():
        pytest.skip(f"evaluation data not found at {EVAL}")
    return EVAL
