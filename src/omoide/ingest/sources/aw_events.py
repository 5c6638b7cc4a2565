"""What identifies an ActivityWatch event and when it happened: ids (today's and the old one), UTC start times.

An event's id hashes its source, bucket, start and what it says (app, title, url or AFK
status) but not its duration, which heartbeats keep extending (see activitywatch). Before
ingest version 5 (omoide.tasks.ingest.INGEST_VERSION) the id left what it says out, so distinct events starting
at the same instant were merged; `superseded` lets the lake replace rows stored under that
id when the same event arrives again, instead of keeping both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import unquote

import numpy as np
import pandas as pd

from omoide.core.days import zone
from omoide.core.ids import stable_id

KIND = "activitywatch"
# A timestamp that ends in a UTC offset (or Z) right after its time of day.
_AWARE = re.compile(r"\d:\d\d(?::\d\d(?:[.,]\d+)?)?\s*(?:[zZ]|[+-]\d\d(?::?\d\d)?)\s*$")
# Where an event's ref names its bucket: an export position or an aw-server event URL.
_REF_BUCKET = re.compile(
    r"#buckets\[(?P<file>.*)\]\.events\[\d+\]$|/api/0/buckets/(?P<api>[^/]+)/events/\d+$"
)


def utc_times(stamps: list[str], tz: str) -> tuple[pd.Series, np.ndarray]:
    """Timestamps as written + the zone of those without an offset -> UTC times (NaT: unparseable), and which were naive.

    A time without an offset is wall-clock time in `tz` (fold 0: a time a DST change skips
    takes the offset before the change, a repeated one its first occurrence).
    """
    ts = pd.to_datetime(
        pd.Series(stamps, dtype=object), utc=True, format="ISO8601", errors="coerce"
    )
    naive = np.fromiter((_AWARE.search(s) is None for s in stamps), bool, len(stamps))
    naive &= ts.notna().to_numpy()
    picked = np.flatnonzero(naive)
    if picked.size and tz != "UTC":
        # Parsed as UTC above: the same wall-clock reading is placed in the zone instead.
        z = zone(tz)
        wall = ts.iloc[picked].dt.tz_localize(None)
        local = [
            pd.Timestamp(t.to_pydatetime(warn=False).replace(tzinfo=z)).tz_convert("UTC")
            for t in wall
        ]
        ts = ts.copy()
        ts.iloc[picked] = pd.DatetimeIndex(local).as_unit(ts.dt.unit)
    return ts, naive


def iso(ts: pd.Series) -> pd.Series:
    """UTC times -> ISO text with microseconds, as event ids spell them."""
    return ts.dt.strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")


def event_ids(
    source_name: str,
    buckets: Sequence[str],
    ts: pd.Series,
    apps: Sequence[str],
    titles: Sequence[str | None],
    urls: Sequence[str | None],
) -> list[str]:
    """Events' source, buckets, UTC starts and what they say -> their ids (duration left out)."""
    return [
        stable_id(KIND, source_name, b, t, app, title, url)
        for b, t, app, title, url in zip(buckets, iso(ts), apps, titles, urls, strict=True)
    ]


def superseded(old: pd.DataFrame, new: pd.DataFrame) -> pd.Series:
    """Stored events + newly collected ones -> bool per stored row: an AW event under the old id that a new row replaces.

    The old id was (source name, bucket, start) only: it is recognised by recomputing that
    formula from the stored row itself, and such a row is replaced when a new event of the
    same source, bucket and start arrives (the old formula gave that new event the same id,
    so it would have replaced the row then too). Rows under today's id are never touched.
    """
    out = pd.Series(False, index=old.index)
    mine = old["source"].astype(str) == KIND
    fresh = new[new["source"].astype(str) == KIND]
    if not mine.any() or fresh.empty:
        return out
    rows = old[mine]
    keys = list(
        zip(
            rows["source_name"].astype(str),
            rows["source_ref"].astype(str).map(_bucket_of),
            iso(rows["ts"]),
            strict=True,
        )
    )
    arrived = set(
        zip(
            fresh["source_name"].astype(str),
            fresh["source_ref"].astype(str).map(_bucket_of),
            iso(fresh["ts"]),
            strict=True,
        )
    )
    out[rows.index] = [
        b is not None and key in arrived and e == stable_id(KIND, n, b, t)
        for e, key in zip(rows["event_id"], keys, strict=True)
        for n, b, t in [key]
    ]
    return out


def _bucket_of(ref: str) -> str | None:
    """An event's ref -> the bucket id it names (export position or aw-server URL), or None."""
    m = _REF_BUCKET.search(ref)
    if m is None:
        return None
    return m["file"] if m["file"] is not None else unquote(m["api"])
