"""`omoide bench ask`: the sample month backfilled once (kept between runs), its questions asked, each answer judged -> the share right per kind and language.

The home: `omoide sample --days N --volume V` and `omoide backfill` over its days, run as a
person runs them, into a cache folder (`--cache-dir`, default ~/.cache/omoide-bench/ask) and
reused while its key (the sample's days, volume and last day, and a hash of every file of the
sample, the flows and tasks and the library under them: BUILT_BY) is unchanged: a change to
how answers are read does not rebuild it, a change to how a day is stored does. One
run at a time per cache folder. The questions and their truths come from the home's own
script and source files (`omoide.bench.ask_cases`), each answer (`omoide.answer.ask`'s JSON)
is judged by `omoide.bench.ask_judge`. `run_cases` scores a questions file the same way
against any home (`--data`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from omoide.answer.ask import ask
from omoide.bench.ask_cases import (
    compare_cases,
    count_cases,
    decision_cases,
    did_cases,
    lookup_cases,
    overview_cases,
    time_spent_cases,
    when_cases,
    which_days_cases,
)
from omoide.bench.ask_cases_people import (
    commitments_cases,
    part_of_day_cases,
    said_by_cases,
    who_cases,
)
from omoide.bench.ask_judge import language_wrong, verdict
from omoide.bench.ask_month import Case, Month
from omoide.core.errors import OmoideError
from omoide.core.settings import Settings, get_settings

END = date(2026, 11, 20)
BUILD_FORMAT = 1  # bump when the home is built differently; a cached one is then rebuilt
# What decides the built home: the sample, the flows and tasks and the library below them (not
# the answers, the benchmarks or the CLI: a change there asks again without a rebuild).
BUILT_BY = (
    "omoide.sample",
    "omoide.flows",
    "omoide.tasks",
    "omoide.expectations",
    "omoide.core",
    "omoide.ingest",
    "omoide.llm",
    "omoide.embed",
    "omoide.store",
    "omoide.memory",
    "omoide.reflect",
    "omoide.profile",
    "omoide.vault",
    "omoide.quality",
)
KINDS = (
    overview_cases,
    time_spent_cases,
    when_cases,
    lookup_cases,
    count_cases,
    which_days_cases,
    compare_cases,
    part_of_day_cases,
    said_by_cases,
    who_cases,
    commitments_cases,
    decision_cases,
    did_cases,
)
_KEY = "bench-key.json"
_OMOIDE = "from omoide.cli.app import main; main()"
SCRIPT = "sample-script.json"


def month_cases(home: Path, script: dict[str, Any]) -> list[Case]:
    """A sample home + its script -> every question of every kind, English then Japanese, with its truth."""
    month = Month(home, script)
    return [c for lang in ("en", "ja") for kind in KINDS for c in kind(month, lang)]


def _omoide(home: Path, *args: str) -> None:
    """Home + arguments -> one `omoide` process run to its end; raises when it fails."""
    env = {**os.environ, "OMOIDE_HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-c", _OMOIDE, *args], env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise OmoideError(f"omoide {' '.join(args)} failed: {done.stderr.strip()[-600:]}")


def code_hash() -> str:
    """() -> sha256 over every file of the packages that build a home, read as files: never imported, as the flows import Prefect."""
    digest = hashlib.sha256()
    for name in BUILT_BY:
        spec = importlib.util.find_spec(name)  # imports only the parent package, omoide
        if spec is None or spec.origin is None and not spec.submodule_search_locations:
            raise OmoideError(f"{name} is not installed")
        roots = [Path(r) for r in spec.submodule_search_locations or [str(spec.origin)]]
        for root in roots:
            files = [root] if root.is_file() else sorted(root.rglob("*"))
            for path in files:
                if path.is_file() and "__pycache__" not in path.parts:
                    digest.update(f"{name}/{path.relative_to(root.parent)}".encode() + b"\0")
                    digest.update(path.read_bytes())
    return digest.hexdigest()


def home_key(home: Path, days: int, volume: float) -> dict[str, Any]:
    """Home folder + the sample's days and volume -> everything that changes the built home."""
    return {
        "format": BUILD_FORMAT,
        "home": str(home),  # refs are relative, but the sample's toml and Prefect state are not
        "days": days,
        "volume": volume,
        "end": END.isoformat(),
        "code": code_hash(),
    }


def month_home(cache: Path, days: int, volume: float) -> tuple[Path, float | None]:
    """Cache folder + the sample's days and volume -> its backfilled home and build seconds (None: reused)."""
    home = cache / f"month-{days}d-v{volume:g}"
    key = home_key(home, days, volume)
    if (home / _KEY).exists() and json.loads((home / _KEY).read_text(encoding="utf-8")) == key:
        return home, None
    shutil.rmtree(home, ignore_errors=True)  # stale or half-built: a build never resumes
    home.mkdir(parents=True)
    began = time.perf_counter()
    first = END - timedelta(days=days - 1)
    _omoide(
        home,
        "sample",
        "--days",
        str(days),
        "--end",
        str(END),
        "--out",
        str(home),
        "--volume",
        str(volume),
    )
    _omoide(home, "backfill", "--start", str(first), "--end", str(END))
    took = time.perf_counter() - began
    (home / _KEY).write_text(json.dumps(key), encoding="utf-8")
    return home, took


def _share(oks: list[bool]) -> dict[str, Any]:
    """Verdicts -> how many were right, of how many, and the percentage."""
    right = sum(oks)
    return {
        "right": right,
        "questions": len(oks),
        "percent": round(100 * right / len(oks), 1) if oks else None,
    }


def run_cases(cases: list[Case], settings: Settings) -> dict[str, Any]:
    """Cases + a home's settings -> each asked and judged; right per kind, per language, per both, overall."""
    items = []
    for c in cases:
        try:
            got = ask(c["question"], settings, datetime.fromisoformat(c["now"])).to_json()
            why, told = verdict(c, got), not language_wrong(c["lang"], got["answer"])
        except Exception as e:  # an answer that fails is a wrong one; the rest are still asked
            got = {"kind": None, "window": None, "answer": "", "citations": []}
            why, told = f"raised {type(e).__name__}: {e}", None
        items.append(
            {
                "question": c["question"],
                "lang": c["lang"],
                "kind": c["kind"],
                "right": not why,
                "why": why,
                "in_language": told,  # None: no answer to read
                "expected": c["expected"],
                "answer": got,
            }
        )
    by_kind: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for i in items:
        by_kind[i["kind"]][i["lang"]].append(i["right"])
        by_kind[i["kind"]]["all"].append(i["right"])
    langs = sorted({i["lang"] for i in items})
    every = [i["right"] for i in items]
    return {
        "questions": len(items),
        "per_kind": {
            k: {lang: _share(v[lang]) for lang in (*langs, "all")}
            for k, v in sorted(by_kind.items())
        },
        "per_language": {
            lang: _share([i["right"] for i in items if i["lang"] == lang]) for lang in langs
        },
        "in_language": {
            lang: _share(
                [i["in_language"] for i in items if i["lang"] == lang and i["answer"]["kind"]]
            )
            for lang in langs
        },
        "right_percent": {k: _share(v["all"])["percent"] for k, v in sorted(by_kind.items())},
        "overall_percent": _share(every)["percent"] if every else 0.0,
        "items": items,
    }


def run_ask_bench(
    days: int = 30, volume: float = 1.0, cache_dir: Path | None = None
) -> dict[str, Any]:
    """The sample's days and volume (+ a cache folder) -> the month's questions asked and judged, and how its home was had."""
    from omoide.bench.mcp import default_cache_dir

    cache = (cache_dir or default_cache_dir() / "ask").expanduser().resolve()
    began = time.perf_counter()
    home, built_s = month_home(cache, days, volume)
    script = json.loads((home / SCRIPT).read_text(encoding="utf-8"))
    cases = month_cases(home, script)
    asked = time.perf_counter()
    result = run_cases(cases, get_settings(home=home))
    return {
        **result,
        "days": days,
        "volume": volume,
        "home": str(home),
        "built_s": None if built_s is None else round(built_s, 1),
        "ask_s": round(time.perf_counter() - asked, 1),
        "seconds": round(time.perf_counter() - began, 1),
    }
