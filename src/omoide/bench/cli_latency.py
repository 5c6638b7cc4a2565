"""CLI latency benchmark: fresh `omoide` processes for `--help`, `recall` and `ask`, against a bare interpreter.

What is timed, each as a fresh process (what a person or a script pays per call), round by
round in turn so a busy moment hits every figure alike; the median of the rounds counts:
- `python`: `python -c pass`, the baseline every command pays;
- `help`: `omoide --help`;
- `recall`: `omoide recall QUERY --json` on a sample home (it rehearses: one table write);
- `recall_no_rehearse`: the same with `--no-rehearse` (a pure read);
- `ask`: `omoide ask QUERY --json` (a lookup: recall without rehearsal, then the answer);
- `recall_served` and `ask_served`: the same two commands answered through the home's recall
  endpoint (what `omoide server` runs; started here alone, `python -m omoide.cli.recall_endpoint`,
  once the rounds above are done): a fresh command process, but no LanceDB or model to load.
  The commands above are kept from that route (`recall_route.answered` off), so they stay a
  process's own work even when a server runs for the home;
- `import_lancedb` and `embed_model`: a bare interpreter importing lancedb as omoide does, and one loading the
  embedding model and embedding QUERY: the two floors under every recall, apart.
One more recall process reports which heavy modules it loaded, so a regression that pulls
Prefect or Great Expectations into the quick commands shows in the figures.
Without a home, a three-day sample is written and backfilled first (not timed).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from omoide.core.errors import OmoideError

QUERY = "what did I decide about the standing desk"
HEAVY = ("prefect", "great_expectations", "pandas", "lancedb", "onnxruntime")
_MARK = "omoide-bench-loaded:"
# The console script's own body: what `omoide` runs, without depending on PATH.
_OMOIDE = "from omoide.cli.app import main; main()"
# It lists them after `main` returns, so the command must not end the process itself
# (`omoide.cli.quick_exit`).
_LOADED = (
    "import sys\n"
    "import omoide.cli.quick_exit as q\n"
    "q.end_if_armed = lambda code: None\n"
    "from omoide.cli.app import main\n"
    "try:\n    main()\n"
    "except SystemExit:\n    pass\n"
    f"print('\\n{_MARK}', *(m for m in {HEAVY!r} if m in sys.modules))\n"
)
# The same, kept from the home's recall endpoint: what a command costs when no server runs.
_OWN = "import omoide.cli.recall_route as r; r.answered = lambda *_: None; " + _OMOIDE
# The endpoint alone for the home, as `omoide server` runs it; it prints one line once it answers.
_ENDPOINT = [sys.executable, "-m", "omoide.cli.recall_endpoint"]
ENDPOINT_START_S = 300.0  # importing LanceDB and loading the model, on a busy machine
# The model's share of a recall: what `omoide recall` pays to embed its question, nothing else.
_EMBED = "from omoide.embed.minilm import MiniLMEmbedder; MiniLMEmbedder().embed([{query!r}], query=True)"


def _env(home: Path) -> dict[str, str]:
    """Home -> the environment of a benchmarked command (this one's, with the home set)."""
    return {**os.environ, "OMOIDE_HOME": str(home)}


def _timed(argv: Sequence[str], env: dict[str, str]) -> float:
    """Command -> seconds it took as a fresh process; raises when it fails."""
    began = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    took = time.perf_counter() - began
    if done.returncode != 0:
        raise OmoideError(f"benchmarked command failed: {argv[3:]}: {done.stderr.strip()[-400:]}")
    return took


def sample_home(folder: Path, days: int = 3, end: date = date(2026, 11, 20)) -> Path:
    """Empty folder -> a sample home with `days` days backfilled, by `omoide sample` and `backfill`."""
    first = end - timedelta(days=days - 1)
    cli = [sys.executable, "-c", _OMOIDE]
    _timed(
        [*cli, "sample", "--days", str(days), "--end", str(end), "--out", str(folder)], _env(folder)
    )
    _timed([*cli, "backfill", "--start", str(first), "--end", str(end)], _env(folder))
    return folder


def loaded_modules(home: Path, *args: str) -> list[str]:
    """Home + omoide arguments -> the heavy modules (HEAVY) that fresh process had loaded at its end."""
    argv = [sys.executable, "-c", _LOADED, *args]
    # No input: a command that reads its stdin (`omoide mcp`) ends at once instead of waiting.
    done = subprocess.run(
        argv, env=_env(home), stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False
    )
    if _MARK not in done.stdout:
        raise OmoideError(f"omoide {' '.join(args)} crashed: {done.stderr.strip()[-400:]}")
    return done.stdout.rsplit(_MARK, 1)[-1].split()


def _served_times(
    home: Path, commands: dict[str, list[str]], rounds: int
) -> dict[str, list[float]] | None:
    """Home + commands + rounds -> their times through a recall endpoint started for it, or None when none starts."""
    endpoint = subprocess.Popen(
        _ENDPOINT, env=_env(home), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True
    )
    try:
        # One line once it answers; none (it exits) when another endpoint answers for the home.
        if not _ready(endpoint):
            return None
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(rounds):
            for name, argv in commands.items():
                times[name].append(_timed(argv, _env(home)))
        return times
    finally:
        endpoint.terminate()
        try:
            endpoint.wait(timeout=30)
        except subprocess.TimeoutExpired:
            endpoint.kill()
            endpoint.wait()


def _ready(endpoint: subprocess.Popen[str]) -> bool:
    """A starting endpoint process -> whether it said it answers within ENDPOINT_START_S."""
    import selectors

    said = endpoint.stdout
    if said is None:
        return False
    with selectors.DefaultSelector() as waiting:
        waiting.register(said, selectors.EVENT_READ)
        if not waiting.select(timeout=ENDPOINT_START_S):
            return False
    return "recall endpoint" in said.readline()


def run_benchmark(home: Path | None = None, rounds: int = 7, query: str = QUERY) -> dict[str, Any]:
    """Sample home (or None: one is built) + rounds -> medians in seconds and ratios to python."""
    with tempfile.TemporaryDirectory(prefix="omoide-bench-cli-") as scratch:
        if home is None:
            home = sample_home(Path(scratch) / "home")
        env = _env(home)
        commands = {
            "python": [sys.executable, "-c", "pass"],
            "help": [sys.executable, "-c", _OMOIDE, "--help"],
            # As omoide imports it: importing omoide first defers LanceDB's namespace client.
            "import_lancedb": [sys.executable, "-c", "import omoide, lancedb"],
            "embed_model": [sys.executable, "-c", _EMBED.format(query=query)],
            "recall": [sys.executable, "-c", _OWN, "recall", query, "--json"],
            "recall_no_rehearse": [
                *[sys.executable, "-c", _OWN, "recall", query, "--json"],
                "--no-rehearse",
            ],
            "ask": [sys.executable, "-c", _OWN, "ask", query, "--json"],
        }
        _timed(commands["recall_no_rehearse"], env)  # warm the file cache once, untimed
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(rounds):
            for name, argv in commands.items():
                times[name].append(_timed(argv, env))
        loaded = loaded_modules(home, "recall", query, "--json", "--no-rehearse")
        served = _served_times(
            home,
            {
                "recall_served": [sys.executable, "-c", _OMOIDE, "recall", query, "--json"],
                "ask_served": [sys.executable, "-c", _OMOIDE, "ask", query, "--json"],
            },
            rounds,
        )
    med = {name: statistics.median(ts) for name, ts in {**times, **(served or {})}.items()}
    return {
        "rounds": rounds,
        "python_s": round(med["python"], 3),
        "help_s": round(med["help"], 3),
        "recall_s": round(med["recall"], 3),
        "recall_no_rehearse_s": round(med["recall_no_rehearse"], 3),
        "ask_s": round(med["ask"], 3),
        "recall_served_s": round(med["recall_served"], 3) if served else None,
        "ask_served_s": round(med["ask_served"], 3) if served else None,
        "import_lancedb_s": round(med["import_lancedb"], 3),
        "embed_model_s": round(med["embed_model"], 3),
        "help_vs_python": round(med["help"] / med["python"], 2),
        "recall_vs_python": round(med["recall"] / med["python"], 2),
        "rehearse_overhead": round(med["recall"] / med["recall_no_rehearse"] - 1, 3),
        "recall_loads": loaded,
        "targets": {
            "help_s": 0.5,
            "recall_s": 1.0,
            "ask_s": 1.0,
            "recall_served_s": 1.0,
            "ask_served_s": 1.0,
            "rehearse_overhead": 0.2,
        },
    }
