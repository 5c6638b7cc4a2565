"""The story month written once per module: its home and its script."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from omoide.sample import write_sample, write_script

MONTH = (date(2026, 10, 22), date(2026, 11, 20))


@pytest.fixture(scope="module")
def month(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """-> a 30-day sample (the story month, a light activity volume) and its script."""
    home = tmp_path_factory.mktemp("month")
    assert write_sample(home, days=30, volume=0.25) == MONTH
    return home, json.loads(write_script(home, *MONTH).read_text(encoding="utf-8"))
