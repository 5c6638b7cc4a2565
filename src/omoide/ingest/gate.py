"""One source's raw events of a day -> both edge checks, redaction, and the rows set aside (no I/O).

Text is first made storable (NUL bytes and lone surrogates replaced, huge values capped:
`omoide.ingest.normalise`); the raw edge check (`events_raw`) quarantines what it can; the rest is redacted; the clean
edge check (`events_clean`) then refuses anything in which PII is still visible. Nothing is
raised here: the caller publishes the check results first, then raises for critical
failures (`quality.raise_for_failures`), so a failed gate is always visible in the UI.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import pandas as pd

from omoide import quality
from omoide.core.days import day_bounds
from omoide.ingest.normalise import normalised
from omoide.ingest.sanitize import pii_residue, sanitize
from omoide.ingest.sources import Collected


@dataclass
class Sanitized:
    """Clean events plus what was set aside on the way (refs and reasons only) and the checks."""

    events: pd.DataFrame
    rejects: pd.DataFrame  # ref, reason
    redactions: dict[str, int]
    checks: list[quality.QualityResult]  # raw edge, then clean edge


def sanitized(raw: Collected, day: date, tz: str, excluded_domains: Sequence[str]) -> Sanitized:
    """Collected events + local day -> redacted events that passed the raw check, rejects, checks."""
    start, end = day_bounds(day, tz)
    params = {"day_start": start, "day_end": end}
    events, fixed = normalised(raw.events.drop_duplicates("event_id", keep="last"))
    raw_check = quality.validate(events, "events_raw", params)
    kept, bad = quality.quarantine_split(events, raw_check)
    clean, counts = sanitize(kept, list(excluded_domains))
    clean_check = quality.validate(
        clean.assign(pii_residue=pii_residue(clean)), "events_clean", params
    )
    rejects = pd.concat(
        [
            pd.DataFrame(
                [{"ref": r.ref, "reason": r.reason} for r in raw.rejects], columns=["ref", "reason"]
            ),
            bad.rename(columns={"source_ref": "ref"})[["ref", "reason"]],
        ],
        ignore_index=True,
    )
    for key, n in raw.fixed.items():
        fixed[key] = fixed.get(key, 0) + n
    return Sanitized(clean, rejects, {**counts, **fixed}, [raw_check, clean_check])
