"""A deferred module runs its code on first use, whole, once, in one thread; GX's unused imports stay deferred."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from omoide.core.deferred_imports import defer

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """-> the name of a fresh package whose submodule `heavy` counts its runs and takes 0.2 s."""
    name = f"deferpkg_{tmp_path.name.replace('-', '_')}"
    root = tmp_path / name
    root.mkdir()
    (root / "__init__.py").write_text("RUNS = []\n")
    (root / "heavy.py").write_text(
        textwrap.dedent(
            f"""
            import time
            import {name}
            {name}.RUNS.append(1)
            time.sleep(0.2)  # two threads must both wait for the whole module
            FIRST = 1
            SECOND = FIRST + 1
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    for module in [m for m in sys.modules if m.startswith(name)]:
        del sys.modules[module]


def test_a_deferred_module_runs_on_its_first_use_and_only_then(package: str) -> None:
    assert defer(f"{package}.heavy") == [f"{package}.heavy"]
    parent = sys.modules[package]
    from importlib import import_module

    heavy = import_module(f"{package}.heavy")  # as `from package import heavy` finds it
    assert parent.RUNS == []  # type: ignore[attr-defined]
    assert heavy.__name__ == f"{package}.heavy"  # bookkeeping reads do not run it
    assert parent.RUNS == []  # type: ignore[attr-defined]

    assert heavy.SECOND == 2
    assert heavy.FIRST == 1
    assert parent.RUNS == [1]  # type: ignore[attr-defined]
    assert type(heavy) is type(sys)  # a plain module from now on
    assert parent.heavy is heavy  # bound to its package, as an import binds it


def test_two_threads_at_once_both_get_the_whole_module_run_once(package: str) -> None:
    defer(f"{package}.heavy")
    heavy = sys.modules[f"{package}.heavy"]
    seen: list[int] = []
    barrier = threading.Barrier(2)

    def use() -> None:
        barrier.wait()
        seen.append(heavy.SECOND)

    threads = [threading.Thread(target=use) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [2, 2]
    assert sys.modules[package].RUNS == [1]  # type: ignore[attr-defined]


def test_an_imported_or_missing_module_is_left_alone(package: str) -> None:
    import json

    assert defer("json", "no_such_module_here", "no_such_package.sub") == []
    assert sys.modules["json"] is json


def test_gx_validates_with_scipy_altair_and_boto3_never_loaded() -> None:
    # A fresh process: this one may have imported them already.
    code = textwrap.dedent(
        """
        import sys, types
        from omoide import quality
        from tests.unit.test_quality import PARAMS, event, frame
        assert quality.validate(frame([event(1), event(2)]), "events_raw", PARAMS).success
        twice = quality.validate(frame([event(1), event(1)]), "events_raw", PARAMS)
        assert [o.unexpected_count for o in twice.outcomes if not o.success] == [2]
        print([m for m in ("scipy.stats", "altair", "boto3") if type(sys.modules[m]) is types.ModuleType])
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
