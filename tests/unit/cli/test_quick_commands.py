"""The query commands start quickly: neither Prefect nor Great Expectations is ever imported by them."""

from __future__ import annotations

import json
from pathlib import Path

from omoide.bench.cli_latency import loaded_modules, run_benchmark
from tests.fakes import run_cli

NEVER = {"prefect", "great_expectations"}


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
