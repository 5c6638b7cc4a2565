"""Chrome-family `History` databases (Chrome, Chromium, Edge, Brave) -> one event per visit."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd

from omoide.core.settings import SourceConfig
from omoide.ingest.sources.base import EARLIEST, Collected
from omoide.ingest.sources.sqlite_copy import database_file, require_columns, shadow_copy, unix_us
from omoide.ingest.sources.visits import VisitTable, named_codes, read_visits, visit_events

# Chrome stores microseconds since 1601-01-01 UTC (the Windows FILETIME epoch).
WEBKIT_OFFSET_US = 11_644_473_600_000_000

# Core page transition (transition & 0xFF), from ui/base/page_transition_types.h.
TRANSITIONS = {
    0: "link",
    1: "typed",
    2: "auto_bookmark",
    3: "auto_subframe",
    4: "manual_subframe",
    5: "generated",
    6: "auto_toplevel",
    7: "form_submit",
    8: "reload",
    9: "keyword",
    10: "keyword_generated",
}


def chrome_us(ts: datetime) -> int:
    """Aware datetime -> Chrome timestamp (µs since 1601-01-01 UTC)."""
    return unix_us(ts) + WEBKIT_OFFSET_US


def browser_name(path: Path) -> str:
    """History path -> display name of the Chrome-family browser that wrote it."""
    parts = [p.lower() for p in Path(path).parts]
    joined = "/".join(parts)
    if "microsoft/edge" in joined or any(p.startswith("microsoft-edge") for p in parts):
        return "Microsoft Edge"
    if "bravesoftware" in joined:
        return "Brave"
    if "chromium" in parts:
        return "Chromium"
    return "Google Chrome"


def transition_names(raw: np.ndarray) -> pd.Categorical:
    """Raw transition integers -> core type names ('link', 'typed', ..., 'core_<n>')."""
    core = np.asarray(raw, dtype=np.int64) & 0xFF
    return named_codes(core, np.zeros(len(core), dtype=bool), TRANSITIONS, "core_")


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """Chrome History + UTC [start, end) -> visit events in that window, and rejects."""
    db = database_file(source.path, "History", source.name)
    with shadow_copy(db, tables=("visits", "urls")) as conn:
        cols = require_columns(
            conn, "visits", {"id", "url", "visit_time", "transition"}, db, "Chrome History"
        )
        require_columns(conn, "urls", {"id", "url", "title"}, db, "Chrome History")
        table = VisitTable(
            visits="visits",
            page="url",
            time="visit_time",
            # visit_duration arrived with History schema v20; older files have no durations.
            duration_us="visit_duration" if "visit_duration" in cols else "0",
            transition="transition",
            transition_nullable=False,
            pages="urls",
            numeric=("transition", *(["visit_duration"] if "visit_duration" in cols else [])),
        )
        possible = (chrome_us(EARLIEST), chrome_us(now + timedelta(days=1)))
        visits = read_visits(conn, table, chrome_us(start), chrome_us(end), db, possible)
    return visit_events(
        visits,
        transition_names(visits.transition),
        source,
        db,
        "visits",
        browser_name(db),
        now,
        WEBKIT_OFFSET_US,
    )
