"""How a failed source reaches the terminal: the run's table row and a backfill's one line name it with its path."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console

from omoide.cli import run


def _printed(monkeypatch: pytest.MonkeyPatch, show: Callable[..., None], *args: Any) -> str:
    """A printing function + its arguments -> what it wrote to stdout (wide, so nothing folds)."""
    console = Console(width=400, record=True, file=io.StringIO())
    monkeypatch.setattr(run, "out", console)
    show(*args)
    return console.export_text()


def test_a_failed_source_has_its_row_with_the_path(monkeypatch: pytest.MonkeyPatch):
    summary = {
        "day": "2026-11-20",
        "sources": {
            "notes": {
                "events": 3,
                "added": 3,
                "quarantined": 0,
                "redactions": {},
                "cached": False,
            }
        },
        "failed_sources": {"firefox": "/home/x/places.sqlite: not found"},
        "sessions": {"sessions": 1, "events": 3, "compression": 3.0},
        "digest": {
            "produced_by": "embedded",
            "vault": "/v/2026-11-20.md",
            "facts": 0,
            "llm_calls": 0,
        },
        "memories": {"memories": 1, "embedded": 1},
    }
    text = _printed(monkeypatch, run._print_day, summary)
    (row,) = [line for line in text.splitlines() if "firefox" in line]
    assert "failed: /home/x/places.sqlite: not found" in row
    assert any("notes" in line and "collected" in line for line in text.splitlines())


def test_a_backfill_names_failed_days_with_their_source_and_path(monkeypatch: pytest.MonkeyPatch):
    from omoide.flows.backfill import day_failure, failed_days

    missing = {
        "ok": False,
        "error": "…",
        "failed_sources": {"firefox": "/x/places.sqlite: not found"},
    }
    results = {
        "2026-11-17": {"ok": True, "events": 5},
        "2026-11-18": missing,
        "2026-11-19": missing,
        "2026-11-20": {"ok": False, "error": "the embedding model did not load"},
    }
    assert failed_days(results) == (
        "3 of 4 days failed: 2026-11-18, 2026-11-19 (firefox: /x/places.sqlite: not found); "
        "2026-11-20 (the embedding model did not load)"
    )
    text = _printed(monkeypatch, run._print_days, results, day_failure)
    (row,) = [line for line in text.splitlines() if "2026-11-18" in line]
    assert "failed: firefox: /x/places.sqlite: not found" in row
    # Many days, many reasons: the line stays one line and points at the table.
    many = {f"2026-10-{d:02d}": missing for d in range(1, 11)}
    many |= {f"2026-11-{d:02d}": {"ok": False, "error": f"reason {d}"} for d in range(1, 5)}
    line = failed_days(many)
    assert line.startswith("14 of 14 days failed: 2026-10-01, …, 2026-10-10 (10 days) (firefox:")
    assert line.endswith("; 2 more reason(s) in the table")
