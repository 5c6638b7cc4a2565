"""The query commands start quickly: neither Prefect nor Great Expectations is ever imported by them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from omoide.bench.cli_latency import loaded_modules, run_benchmark
from tests.fakes import cli_env, run_cli

NEVER = {"prefect", "great_expectations"}
# The `omoide` command with an exit hook standing for the interpreter's teardown.
WITH_TEARDOWN = (
    "import atexit; atexit.register(print, 'torn down'); from omoide.cli.app import main; main()"
)


def test_help_loads_no_prefect_no_gx_and_no_data_libraries(omoide_home: Path) -> None:
    assert set(loaded_modules(omoide_home, "--help")) == set()


def test_recall_entity_profile_doctor_load_neither_prefect_nor_gx(
    home_with_memories: Path,
) -> None:
    recalled = run_cli("recall", "sourdough", "--json", home=home_with_memories)
    assert recalled.returncode == 0, recalled.stderr
    assert any("sourdough" in m["content"] for m in json.loads(recalled.stdout))

    for args in (
        ("recall", "sourdough", "--json"),
        ("recall", "warelay", "--no-rehearse"),
        ("entity", "Peter"),
        ("profile",),
        ("doctor",),
    ):
        loaded = set(loaded_modules(home_with_memories, *args))
        assert not loaded & NEVER, (args, loaded)


def test_ask_without_a_lookup_loads_neither_lancedb_nor_the_model(home_with_memories: Path) -> None:
    # A time question reads the lake: LanceDB and onnxruntime would only slow its start.
    loaded = set(
        loaded_modules(home_with_memories, "ask", "how long did I spend in zoom this week")
    )
    assert not loaded & {"lancedb", "onnxruntime", *NEVER}, loaded


def test_bench_cli_reports_medians_and_what_recall_loaded(home_with_memories: Path) -> None:
    result = run_benchmark(home_with_memories, rounds=1, query="sourdough")
    for key in (
        "help_s",
        "recall_s",
        "recall_no_rehearse_s",
        "ask_s",
        "recall_served_s",  # through the recall endpoint `omoide server` runs
        "ask_served_s",
        "import_lancedb_s",
        "embed_model_s",
        "python_s",
    ):
        assert result[key] > 0
    assert result["help_s"] > result["python_s"]
    assert not set(result["recall_loads"]) & NEVER
    assert "lancedb" in result["recall_loads"]


def test_recall_and_ask_end_without_teardown_once_their_answer_is_out(
    home_with_memories: Path,
) -> None:
    def omoide(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-c", WITH_TEARDOWN, *args]
        env = cli_env(home_with_memories)
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)

    recalled = omoide("recall", "sourdough", "--json")  # rehearses: a write, committed first
    assert recalled.returncode == 0, recalled.stderr
    assert "torn down" not in recalled.stdout
    assert any("sourdough" in m["content"] for m in json.loads(recalled.stdout))
    asked = omoide("ask", "what did I bake with more water", "--json")
    assert asked.returncode == 0, asked.stderr
    assert "torn down" not in asked.stdout
    assert json.loads(asked.stdout)["citations"]
    # An error keeps its line and its exit code.
    refused = omoide("recall", "sourdough", "--since", "someday")
    assert (refused.returncode, refused.stdout) == (1, "")
    assert "omoide: not a time: 'someday'" in refused.stderr
    # The rehearsal the first recall wrote is there for the next one to read.
    again = json.loads(omoide("recall", "sourdough", "--json").stdout)
    assert next(m for m in again if "sourdough" in m["content"])["recall_count"] >= 1
    # Commands that are not armed end as Python ends.
    assert "torn down" in omoide("entity", "Peter").stdout


# The console script's start, then a vector index trained on a table full of duplicates,
# which makes LanceDB warn about empty k-means clusters and partitions.
LANCE_WARNS = """
import sys, tempfile
from omoide.cli.app import main
sys.argv = ["omoide", "--help"]
try:
    main()
except SystemExit:
    pass
import numpy as np, pyarrow as pa, lancedb
from lancedb.index import IvfSq
v = np.zeros((2000, 16), "float32")
v[-100:] = np.random.default_rng(7).random((100, 16))
t = lancedb.connect(tempfile.mkdtemp()).create_table(
    "t", data=pa.table({"vector": pa.FixedSizeListArray.from_arrays(pa.array(v.ravel()), 16)})
)
t.create_index("vector", config=IvfSq(num_partitions=40, sample_rate=64, max_iterations=25))
"""


def test_lancedbs_warnings_stay_off_the_terminal_unless_asked_for(omoide_home: Path) -> None:
    def stderr(**env: str) -> str:
        r = subprocess.run(
            [sys.executable, "-c", LANCE_WARNS],
            env=cli_env(omoide_home, **env),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert r.returncode == 0, r.stderr[-2000:]
        return r.stderr

    assert "WARN" not in stderr()
    assert "WARN" in stderr(LANCEDB_LOG="warn")
