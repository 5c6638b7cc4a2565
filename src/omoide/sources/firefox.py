"""Firefox `places.sqlite` -> one event per history visit."""

from __future__ import annotations

from datetime import datetime

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

# nsINavHistoryService TRANSITION_* constants stored in moz_historyvisits.visit_type.
VISIT_TYPES = {
    1: "link",
    2: "typed",
    3: "bookmark",
    4: "embed",
    5: "redirect_permanent",
    6: "redirect_temporary",
    7: "download",
    8: "framed_link",
    9: "reload",
}


def transition_names(raw: pd.Series) -> pd.Series:
    """visit_type values -> transition names; unknown types keep their number, NULL stays null."""
    num = pd.to_numeric(raw, errors="coerce").astype("Int64")
    named = num.map(VISIT_TYPES)
    other = "type_" + num.astype("str")
    return named.where(named.notna() | num.isna(), other).astype("str")


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """places.sqlite + UTC [start, end) -> visit events in that window, and rejects."""
    db = database_file(source.path, "places.sqlite", source.name)
    with shadow_copy(db) as conn:
        cols = require_columns(
            conn, "moz_historyvisits", {"id", "place_id", "visit_date"}, db, "Firefox places"
        )
        require_columns(conn, "moz_places", {"id", "url", "title"}, db, "Firefox places")
        visit_type = "h.visit_type" if "visit_type" in cols else "NULL"
        rows = conn.execute(
            f"""
            SELECT h.id, h.visit_date, h.visit_date, 0.0, p.url, p.title, {visit_type}
            FROM moz_historyvisits AS h LEFT JOIN moz_places AS p ON h.place_id = p.id
            WHERE h.visit_date >= ? AND h.visit_date < ?
            ORDER BY h.visit_date, h.id
            """,
            (unix_us(start), unix_us(end)),
        ).fetchall()
    visits = pd.DataFrame(rows, columns=list(VISIT_COLUMNS))
    visits["transition"] = transition_names(visits["transition"])
    return visit_events(visits, source, db, "moz_historyvisits", "Firefox", now)
