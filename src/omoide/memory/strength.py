"""Forgetting and rehearsal: each memory's strength decays with age and is renewed by recall.

An Ebbinghaus-style retention curve, with the stability growing the way spaced-repetition
schedulers grow it (each successful review multiplies the interval):

    t         = days since max(ts, last_recalled_at)         (a recall restarts the clock)
    stability = S0 · (1 + A · importance) · (1 + B) ^ recall_count
    strength  = exp(−t / stability)                           (1 when fresh, → 0 with age)

With S0 = 7 days, A = 3 and B = 1: an unimportant memory nobody recalls falls to 37 % in a
week and 1.4 % in a month; an importance-1 memory keeps 37 % after four weeks; every recall
doubles the stability. Strength is computed on the fly from the stored columns (ts,
importance, recall_count, last_recalled_at) and never deletes or rewrites anything.

Recall may rank with `strength_factor` = FLOOR + (1 − FLOOR) · strength (FLOOR 0.5), so a
faded memory is at most halved, never hidden.
"""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import numpy.typing as npt
import pandas as pd

S0_DAYS = 7.0  # stability of an unimportant, never-recalled memory
IMPORTANCE_GAIN = 3.0  # A: importance 1 makes a memory last (1 + A)× longer
REHEARSAL_GAIN = 1.0  # B: each recall multiplies stability by (1 + B)
FLOOR = 0.5  # the least `strength_factor` can give
# (1 + B)^recall_count overflows float64 past ~1000 recalls; by 40 doublings the stability
# is already ~10^13 days, so capping the exponent changes no strength.
_MAX_REHEARSALS = 40

ArrayLike = npt.ArrayLike


def stability(
    importance: ArrayLike,
    recall_count: ArrayLike,
    s0: float = S0_DAYS,
    importance_gain: float = IMPORTANCE_GAIN,
    rehearsal_gain: float = REHEARSAL_GAIN,
) -> np.ndarray:
    """Importance in [0, 1] + recall counts -> stability in days (same shape)."""
    imp = np.clip(np.asarray(importance, dtype=np.float64), 0.0, 1.0)
    n = np.clip(np.asarray(recall_count, dtype=np.float64), 0, _MAX_REHEARSALS)
    return s0 * (1.0 + importance_gain * imp) * np.power(1.0 + rehearsal_gain, n)


def _utc_ns(values: ArrayLike) -> np.ndarray:
    """Timestamps (datetimes, pandas/arrow values, NaT/None allowed) -> UTC datetime64[ns]."""
    return pd.to_datetime(pd.Series(values), utc=True).dt.tz_localize(None).to_numpy("M8[ns]")


def elapsed_days(ts: ArrayLike, last_recalled_at: ArrayLike, now: datetime) -> np.ndarray:
    """Memory times + last recall times (None when never) + now -> days since the later, ≥ 0."""
    happened = _utc_ns(ts)
    recalled = _utc_ns(last_recalled_at)
    since = np.where(np.isnat(recalled), happened, np.maximum(happened, recalled))
    now_ns = np.datetime64(now.astimezone(UTC).replace(tzinfo=None), "ns")
    return np.maximum((now_ns - since) / np.timedelta64(1, "D"), 0.0)


def retention(days: ArrayLike, stab: ArrayLike) -> np.ndarray:
    """Days elapsed + stability -> exp(−days / stability) in (0, 1]."""
    return np.exp(-np.asarray(days, dtype=np.float64) / np.asarray(stab, dtype=np.float64))


def strength(
    ts: ArrayLike,
    importance: ArrayLike,
    recall_count: ArrayLike,
    last_recalled_at: ArrayLike,
    now: datetime,
    s0: float = S0_DAYS,
    importance_gain: float = IMPORTANCE_GAIN,
    rehearsal_gain: float = REHEARSAL_GAIN,
) -> np.ndarray:
    """Memory columns (arrays of equal length) + now -> strength in (0, 1] per memory."""
    days = elapsed_days(ts, last_recalled_at, now)
    return retention(days, stability(importance, recall_count, s0, importance_gain, rehearsal_gain))


def frame_strength(rows: pd.DataFrame, now: datetime) -> np.ndarray:
    """Memory rows (ts, importance, recall_count, last_recalled_at) + now -> strength per row."""
    return strength(
        rows["ts"], rows["importance"], rows["recall_count"], rows["last_recalled_at"], now
    )


def strength_factor(value: ArrayLike, floor: float = FLOOR) -> np.ndarray:
    """Strength in [0, 1] -> ranking multiplier floor + (1 − floor)·strength, in [floor, 1]."""
    return floor + (1.0 - floor) * np.clip(np.asarray(value, dtype=np.float64), 0.0, 1.0)
