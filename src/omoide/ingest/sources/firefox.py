"""Firefox `places.sqlite` -> one event per history visit."""

from __future__ import annotations

from datetime import datetime, timedelta

import numpy as np
import pandas as pd

from omoide.core.settings import SourceConfig
from omoide.ingest.sources.base import EARLIEST, Collected
from omoide.ingest.sources.sqlite_copy import database_file, require_columns, shadow_copy, unix_us
from omoide.ingest.sources.visits import VisitTable, named_codes, read_visits, visit_events

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


def transition_names(raw: np.ndarray, null: np.ndarray) -> pd.Categorical:
    """visit_type values + NULL mask -> names; unknown types keep their number, NULL stays null."""
    return named_codes(np.asarray(raw, dtype=np.int64), null, VISIT_TYPES, "type_")


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """places.sqlite + UTC [start, end) -> visit events in that window, and rejects."""
    db = database_file(source.path, "places.sqlite", source.name)
    with shadow_copy(db, tables=("moz_historyvisits", "moz_places")) as conn:
        cols = require_columns(
            conn, "moz_historyvisits", {"id", "place_id", "visit_date"}, db, "Firefox places"
        )
        require_columns(conn, "moz_places", {"id", "url", "title"}, db, "Firefox places")
        table = VisitTable(
            visits="moz_historyvisits",
            page="place_id",
            time="visit_date",
            duration_us="0",
            transition="visit_type" if "visit_type" in cols else "NULL",
            transition_nullable=True,
            pages="moz_places",
            numeric=("visit_type",) if "visit_type" in cols else (),
        )
        possible = (unix_us(EARLIEST), unix_us(now + timedelta(days=1)))
        visits = read_visits(conn, table, unix_us(start), unix_us(end), db, possible)
    return visit_events(
        visits,
        transition_names(visits.transition, visits.transition_null),
        source,
        db,
        "moz_historyvisits",
        "Firefox",
        now,
    )
