"""Forgetting and rehearsal: strength decays with age, slower when important, renewed by recall."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import numpy as np
import pandas as pd

from omoide.memory.strength import (
    S0_DAYS,
    elapsed_days,
    frame_strength,
    stability,
    strength,
    strength_factor,
)

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)


def ago(days: float) -> datetime:
    return NOW - timedelta(days=days)


def test_strength_decays_with_age_and_follows_the_curve():
    ages = [0, 1, 7, 30, 365]
    s = strength([ago(d) for d in ages], [0.0] * 5, [0] * 5, [None] * 5, NOW)
    assert s[0] == 1.0
    assert np.all(np.diff(s) < 0)
    assert math.isclose(s[2], math.exp(-1.0))  # one stability (S0 = 7 days) -> 1/e
    assert s[-1] > 0  # faded, never gone


def test_important_memories_fade_slower():
    s = strength([ago(14)] * 3, [0.0, 0.5, 1.0], [0] * 3, [None] * 3, NOW)
    assert s[0] < s[1] < s[2]
    assert math.isclose(s[2], math.exp(-14 / (S0_DAYS * 4)))


def test_rehearsal_reinforces_and_restarts_the_clock():
    old = ago(30)
    never = strength([old], [0.5], [0], [None], NOW)[0]
    # Counted recalls raise stability even when the last recall was long ago.
    counted = strength([old], [0.5], [3], [old], NOW)[0]
    # A recall yesterday restarts the clock as well.
    recent = strength([old], [0.5], [1], [ago(1)], NOW)[0]
    assert never < counted and never < recent
    assert math.isclose(recent, math.exp(-1 / (S0_DAYS * 2.5 * 2)))
    assert stability([0.5], [2])[0] == 2 * stability([0.5], [1])[0]


def test_vectorised_and_safe_at_the_edges():
    n = 1000
    ts = pd.Series(pd.date_range(end=NOW, periods=n, freq="h", tz="UTC"))
    s = strength(ts, np.linspace(0, 1, n), np.arange(n) % 5, [pd.NaT] * n, NOW)
    assert s.shape == (n,) and np.all((s > 0) & (s <= 1))
    # A future timestamp counts as fresh; a huge recall count does not overflow.
    edge = strength([NOW + timedelta(days=2), ago(10)], [0.2, 0.2], [0, 10_000], [None, None], NOW)
    assert edge[0] == 1.0 and 0.99 < edge[1] <= 1.0
    assert elapsed_days([ago(3)], [ago(1)], NOW)[0] == 1.0


def test_strength_factor_is_bounded_and_monotone():
    f = strength_factor([0.0, 0.5, 1.0, 1.5, -1.0])
    assert f.tolist() == [0.5, 0.75, 1.0, 1.0, 0.5]
    assert strength_factor([0.0], floor=0.8)[0] == 0.8


def test_frame_strength_reads_memory_columns():
    rows = pd.DataFrame(
        {
            "ts": [ago(20), ago(20)],
            "importance": [0.9, 0.1],
            "recall_count": [2, 0],
            "last_recalled_at": [ago(2), None],
        }
    )
    s = frame_strength(rows, NOW)
    assert s[0] > 0.9 > s[1]
