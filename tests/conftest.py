"""Test setup: Prefect and omoide point at temp dirs; telemetry off; one Prefect harness per session."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from omoide.core.offline import go_offline

# Before anything imports Prefect: its home, database and results live in a temp dir.
_PREFECT_HOME = Path(tempfile.mkdtemp(prefix="omoide-test-prefect-"))
# Removed when this process ends (~20 MB a worker, which every run of the suite left in /tmp).
atexit.register(shutil.rmtree, _PREFECT_HOME, ignore_errors=True)
os.environ["PREFECT_HOME"] = str(_PREFECT_HOME)
os.environ["PREFECT_LOCAL_STORAGE_PATH"] = str(_PREFECT_HOME / "storage")
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "INFO")
go_offline()  # every dependency's telemetry off, as wherever omoide starts

# The real HTTP test servers (Ollama, aw-server, a long-lived Prefect server) and a refused port,
# registered once for every test.
from tests.aw_server import aw_server  # noqa: E402, F401
from tests.ollama_server import fake_ollama, refused_host  # noqa: E402, F401
from tests.prefect_server import prefect_api  # noqa: E402, F401

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


@pytest.fixture(scope="session", autouse=True)
def worker_prefect_server() -> Iterator[None]:
    """The worker's shared Prefect server (tests.fakes.flow_env), if a command started it, stopped at the end."""
    from tests.prefect_server import WORKER_SERVER

    WORKER_SERVER.prefect_home = _PREFECT_HOME
    yield
    WORKER_SERVER.stop()


@pytest.fixture(scope="session")
def prefect_harness():
    """A real, temporary Prefect API for flow tests (started once per session)."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """A fresh S3 server on loopback; its AWS_* variables, also set in this process."""
    from tests.s3_server import s3_server

    with s3_server() as env:
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        yield env


@pytest.fixture(scope="session")
def eval_dir() -> Path:
    """Path of ../shared/eval (third-party evaluation data, read by path only)."""
    if not EVAL.exists():
        pytest.skip(f"evaluation data not found at {EVAL}")
    return EVAL


@pytest.fixture
def home_with_memories(omoide_home: Path) -> Path:
    """A home whose lake holds three memories of 2026-11-20, embedded by `omoide reindex`."""
    from omoide.core import schemas
    from omoide.store.lake import write_facts
    from tests.fakes import memory_row, memory_rows, run_cli

    now = datetime(2026, 11, 21, 8, tzinfo=UTC)
    rows = [
        ("m1", "O", ["warelay"], "Lance is the right store for warelay.", 0.8, "L18"),
        ("m2", "W", ["Peter"], "Peter moved to the platform team.", 1.0, "L17"),
        ("m3", "note", [], "Baked sourdough with more water this time.", 1.0, "L5"),
    ]
    facts = memory_rows(
        *(
            memory_row(
                mid,
                text,
                kind=kind,
                now=now,
                day="2026-11-20",
                entities=ents,
                confidence=conf,
                importance=0.9,
                backend="user",
                source=f"notes/2026-11-20.md#{line}",
                source_refs=[f"notes/2026-11-20.md#{line}"],
            )
            for mid, kind, ents, text, conf, line in rows
        )
    )
    write_facts(omoide_home / "lake", date(2026, 11, 20), schemas.conform(facts, schemas.FACTS))
    r = run_cli("reindex", home=omoide_home)
    assert r.returncode == 0, r.stderr
    assert "Re-embedded 3 memories of 1 day(s) with all-MiniLM-L6-v2-int8" in r.stdout
    return omoide_home


@pytest.fixture(scope="session")
def sample_two_days(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample's last two days, backfilled by the `omoide` command once per worker (read, never forgotten)."""
    from tests.fakes import backfilled_sample

    return backfilled_sample(tmp_path_factory.mktemp("sample") / "home", days=2)


# Modules that share `sample_two_days`: one group, so one worker builds it once.
SAMPLE_HOME_MODULES = (
    "tests/unit/agents/test_mcp.py",
    "tests/flows/test_commands_on_sample.py",
    "tests/flows/test_home_moves.py",
    "tests/unit/memory/test_active_time.py",
    "tests/unit/cli/test_status.py",
)
# The longest modules, longest first (seconds on a quiet 2-core run of 2026-11-26). xdist hands
# out groups in collection order, so these start first and the short tests fill in around
# them; collected in folder order, the backfill bench and forget started late and made the
# suite's tail.
LONGEST_FIRST = (
    "tests/faults/test_kill_trials.py",  # 351
    "tests/flows/test_forget.py",  # 344 with its fixture
    "tests/unit/bench/test_bench_backfill.py",  # 231
    "tests/flows/test_object_storage.py",  # 231
    "tests/faults/test_fault_suite.py",  # 198, on two processes
    "tests/faults/test_no_network.py",  # 138
    "tests/flows/test_daily.py",  # about 250 over many tests
    "tests/flows/test_commands_on_sample.py",  # the sample-home group, about 200
    "tests/faults/test_busy_and_concurrent.py",  # about 130
    "tests/flows/test_deployments.py",  # 102
    "tests/flows/test_service_run.py",  # 91, a fresh Prefect server's first start
    "tests/flows/test_backfill_dask.py",  # 99
    "tests/flows/test_settle.py",  # 95 with its fixture
)


# First: xdist's own hook of the same name turns the group markers into node ids, so they
# must be set by then; run after it, every group was silently ignored.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Collected tests -> the longest modules first, and an xdist group each: one per module, the modules sharing the sample home as one.

    A module's shared fixtures (a backfilled sample, a loaded model) are then built once, on
    one worker. The end-to-end tests (kill trials, fault suite, no-network traces, the
    Prefect-server tests) stay in their own modules' groups and run side by side: held to one
    worker they made the suite's tail (20m16s against 20m06s with no groups at all).
    """
    rank = {module: i for i, module in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        group = "sample-home" if module in SAMPLE_HOME_MODULES else module
        item.add_marker(pytest.mark.xdist_group(group))
