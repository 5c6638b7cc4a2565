"""Each source's raw events of a day -> both edge checks, redaction, and the rows set aside (no I/O).

Text is first made storable (NUL bytes and lone surrogates replaced, huge values capped:
`omoide.ingest.normalise`); the raw edge check (`events_raw`) quarantines what it can; the rest is redacted; the clean
edge check (`events_clean`) then refuses anything in which PII is still visible. A day's
sources are checked together, one validation per edge (GX costs per expectation, not per
row), and each source gets the verdicts of its own rows. Nothing is raised here: the caller
publishes the check results first, then raises for critical failures
(`quality.raise_for_failures`), so a failed gate is always visible in the UI.

Here, before anything is written, every ref becomes home-relative (`omoide.core.refs`): the
collectors name the absolute file they read, and a home that moves must still find it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pandas as pd

from omoide import quality
from omoide.core.days import day_bounds
from omoide.core.refs import to_refs
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


def sanitized_day(
    parts: Mapping[str, Collected],
    day: date,
    tz: str,
    excluded_domains: Sequence[str],
    home: Path | None = None,
) -> dict[str, Sanitized]:
    """Collected events by source + local day (+ OMOIDE_HOME) -> each source's redacted events, rejects, checks.

    Given the home, the events' and rejects' refs are written relative to it; without one
    (a test of one collector) they stay as collected.
    """
    start, end = day_bounds(day, tz)
    params = {"day_start": start, "day_end": end}
    events, fixed = {}, {}
    for name, raw in parts.items():
        events[name], fixed[name] = normalised(raw.events.drop_duplicates("event_id", keep="last"))
    raw_checks = quality.validate_parts(events, "events_raw", params)
    kept, bad, clean, counts = {}, {}, {}, {}
    for name in parts:
        kept[name], bad[name] = quality.quarantine_split(events[name], raw_checks[name])
        clean[name], counts[name] = sanitize(kept[name], list(excluded_domains))
    clean_checks = quality.validate_parts(
        {n: c.assign(pii_residue=pii_residue(c)) for n, c in clean.items()}, "events_clean", params
    )
    out = {}
    for name, raw in parts.items():
        rejects = pd.concat(
            [
                pd.DataFrame(
                    [{"ref": r.ref, "reason": r.reason} for r in raw.rejects],
                    columns=["ref", "reason"],
                ),
                bad[name].rename(columns={"source_ref": "ref"})[["ref", "reason"]],
            ],
            ignore_index=True,
        )
        redactions = dict(fixed[name])
        for key, n in raw.fixed.items():
            redactions[key] = redactions.get(key, 0) + n
        events_out = clean[name]
        if home is not None:
            events_out = events_out.assign(source_ref=to_refs(events_out["source_ref"], home))
            rejects["ref"] = to_refs(rejects["ref"], home)
        out[name] = Sanitized(
            events_out,
            rejects,
            {**counts[name], **redactions},
            [raw_checks[name], clean_checks[name]],
        )
    return out


def sanitized(
    raw: Collected,
    day: date,
    tz: str,
    excluded_domains: Sequence[str],
    home: Path | None = None,
) -> Sanitized:
    """One source's collected events + local day (+ OMOIDE_HOME) -> its redacted events, rejects and checks."""
    return sanitized_day({"source": raw}, day, tz, excluded_domains, home)["source"]
