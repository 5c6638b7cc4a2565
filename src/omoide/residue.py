"""PII residue: what the detectors still find in sanitized text, for the clean-edge gate."""

from __future__ import annotations

import pandas as pd

from omoide import pii

# The gate's own regexes cover e-mails and URL secrets; a card needs Luhn, which only a
# detector can judge, so every detected type is counted here.
CHECKED_COLUMNS = ("title", "url", "text", "app", "actor")


def pii_residue(events: pd.DataFrame) -> pd.Series:
    """Sanitized events -> per row, how many PII spans the detectors still find (should be 0)."""
    counts = pd.Series(0, index=events.index, dtype="int64")
    for col in CHECKED_COLUMNS:
        if col not in events.columns:
            continue
        values = events[col].astype("string")
        maybe = values.str.contains(pii.PREFILTER, regex=True, na=False)
        if maybe.any():
            counts[maybe] += values[maybe].map(lambda t: len(pii.find_pii(t))).astype("int64")
    return counts
