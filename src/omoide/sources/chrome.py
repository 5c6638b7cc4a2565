"""Chrome-family `History` databases (Chrome, Chromium, Edge, Brave) -> one event per visit."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pandas as pd

from omoide.settings import SourceConfig
from omoide.sources.base import Collected
from omoide.sources.sqlite_copy import (
    VISIT_COLUMNS,
    database_file,
    require_columns,
    shadow_copy,
    unix_us,
    visit_events,
)

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


def transition_names(raw: pd.Series) -> pd.Series:
    """Raw transition integers -> core type names ('link', 'typed', ...)."""
    core = raw.astype("int64") & 0xFF
    named = core.map(TRANSITIONS)
    return named.where(named.notna(), "core_" + core.astype(str)).astype("str")


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """Chrome History + UTC [start, end) -> visit events in that window, and rejects."""
    db = database_file(source.path, "History", source.name)
    with shadow_copy(db) as conn:
        cols = require_columns(
            conn, "visits", {"id", "url", "visit_time", "transition"}, db, "Chrome History"
        )
        require_columns(conn, "urls", {"id", "url", "title"}, db, "Chrome History")
        # visit_duration arrived with History schema v20; older files have no durations.
        duration = "v.visit_duration" if "visit_duration" in cols else "0"
        rows = conn.execute(
            f"""
            SELECT v.id, v.visit_time, v.visit_time - {WEBKIT_OFFSET_US},
                   {duration} / 1e6, u.url, u.title, v.transition
            FROM visits AS v LEFT JOIN urls AS u ON v.url = u.id
            WHERE v.visit_time >= ? AND v.visit_time < ?
            ORDER BY v.visit_time, v.id
            """,
            (chrome_us(start), chrome_us(end)),
        ).fetchall()
    visits = pd.DataFrame(rows, columns=list(VISIT_COLUMNS))
    visits["transition"] = transition_names(visits["transition"])
    return visit_events(visits, source, db, "visits", browser_name(db), now)
