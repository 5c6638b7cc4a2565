"""ActivityWatch collector: an aw-server export JSON file (or a folder of them) or the local REST API -> events.

Three bucket types are read: ``currentwindow`` (aw-watcher-window) -> ``window`` events,
``afkstatus`` (aw-watcher-afk) -> ``afk`` events and ``web.tab.current`` (aw-watcher-web)
-> ``web`` events; every other bucket type is ignored. Incognito web events are dropped
(counted, never stored). An event belongs to the window when its start timestamp is in
[start, end); its duration is kept as recorded, even when it runs past the end.

Identity: AW heartbeats extend the last event of a bucket in place (same start, same data,
longer duration), so the event id is built from the bucket id, the start timestamp and what
the event says (app, title, url or AFK status), never its duration: re-collecting a longer
version of the same event gives the same id, and distinct events that start at the same
instant stay distinct. The same event read twice (two export files) is one row, with the
longest duration. Ids before ingest version 5 left the content out; `aw_events.superseded`
finds lake rows stored under that formula, so a re-ingest replaces them instead of doubling
them.

Times: a timestamp without a UTC offset is read as wall-clock time in the source's
`timezone` (the top-level setting; UTC when unset), as the watcher that wrote it ran on
this machine's clock; such events are counted (`naive_time_local`). A time skipped by a DST
change is read with the offset before it, a repeated one as its first occurrence.

Damage: a bucket without a type or an events list, and an event whose time is unparseable
or impossible (before 1990, or more than a day after the run), is rejected with its
reference; buckets of other kinds (input counters, editor activity, ...) are not read, and
counted in the log. An export that is not valid JSON is salvaged (aw_export): each damaged
event or bucket header is a Reject naming bucket and position, the rest is read. Text that
is mostly control or replacement characters is a Reject, never stored. A folder of exports
with no `*.json` file is a SourceError naming it; an export in it that cannot be read is a
Reject naming the file, and the others still land.
"""

from __future__ import annotations

import functools
import logging
import math
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import numpy as np
import pandas as pd
import pyarrow as pa

from omoide.core import schemas
from omoide.core.errors import SourceError
from omoide.core.settings import SourceConfig
from omoide.ingest.normalise import normalised
from omoide.ingest.sources.aw_api import EVENT_TYPES, fetch_buckets
from omoide.ingest.sources.aw_events import event_ids, utc_times
from omoide.ingest.sources.aw_export import load_export
from omoide.ingest.sources.base import EARLIEST, GARBLED, Collected, Reject, folder_files
from omoide.ingest.sources.json_salvage import Damaged
from omoide.ingest.sources.text_files import garbled_positions

log = logging.getLogger(__name__)

KIND = "activitywatch"
BROWSERS = {
    "chrome": "Google Chrome",
    "chromium": "Chromium",
    "firefox": "Firefox",
    "edge": "Microsoft Edge",
    "brave": "Brave",
    "opera": "Opera",
    "vivaldi": "Vivaldi",
    "safari": "Safari",
    "arc": "Arc",
}
_WEB_BUCKET = re.compile(r"aw-watcher-web-([a-z]+)", re.IGNORECASE)

Row = tuple[str, str, str, float, str, str | None, str | None]
Found = tuple[str, int, str, str, dict[str, Any]]  # bucket id, position, type, browser, event
Mapped = tuple[str, str | None, str | None]
_MAPPED = ("app", "title", "url")


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """AW source (export file/folder or REST url) + UTC [start, end) -> window/afk/web events."""
    tz = source.timezone or "UTC"
    if source.url:
        base = source.url.rstrip("/")
        buckets = fetch_buckets(base, start, end)
        indexed = index_buckets(buckets, base, api=True, tz=tz)
        return in_window(indexed, base, source.name, start, end, now, api=True)
    if source.path is None:
        raise SourceError(source.kind, "neither 'path' nor 'url' is set")
    path = source.path
    if not path.exists():
        raise SourceError(path, "no such file or folder")
    if not path.is_dir():
        indexed = indexed_export(path, _file_state(path), tz)
        return in_window(indexed, str(path), source.name, start, end, now)
    files, rejects = folder_files(path, "*.json", "ActivityWatch export")
    parts: list[Collected] = []
    for f in files:
        try:
            indexed = indexed_export(f, _file_state(f), tz)
        except SourceError as exc:
            rejects.append(Reject(str(f), exc.reason))  # the folder's other exports still land
            continue
        parts.append(in_window(indexed, str(f), source.name, start, end, now))
    if not parts:
        why = "; ".join(f"{Path(r.ref).name}: {r.reason}" for r in rejects)
        raise SourceError(path, f"no readable ActivityWatch export in this folder ({why})")
    frames = [p.events for p in parts if not p.events.empty]
    events = pd.concat(frames, ignore_index=True) if frames else parts[0].events
    fixed: Counter[str] = Counter()
    for p in parts:
        fixed.update(p.fixed)
    return Collected(_dedupe(events), rejects + [r for p in parts for r in p.rejects], dict(fixed))


def _file_state(path: Path) -> tuple[int, int, int]:
    """File -> (inode, size, modification time in ns): changes whenever the file does."""
    st = path.stat()
    return (st.st_ino, st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=4)
def indexed_export(path: Path, state: tuple[int, int, int], tz: str = "UTC") -> Indexed:
    """Export file (+ its state and zone, the cache key) -> its events indexed by time, once per process.

    A backfill asks for every day of the same export; parsing and indexing it once makes
    each further day cost only its own events, not the whole history's.
    """
    export = load_export(path)
    indexed = index_buckets(export.buckets, str(path), tz=tz, replaced_bytes=export.replaced_bytes)
    indexed.rejects.extend(Reject(f"{path}#buckets[{b}]", why) for b, why in export.damage)
    return indexed


def _browser(bucket_id: str, bucket: Mapping[str, Any]) -> str:
    """Web bucket -> browser name ('aw-watcher-web-chrome_host' -> 'Google Chrome')."""
    for text in (bucket_id, str(bucket.get("client") or "")):
        m = _WEB_BUCKET.match(text)
        if m:
            name = m.group(1).lower()
            return BROWSERS.get(name, name.capitalize())
    return "Web browser"


def _str(value: object) -> str | None:
    """JSON value -> the string, or None when it is not a non-empty string."""
    return value if isinstance(value, str) and value else None


def _map(event_type: str, data: Mapping[str, Any], browser: str) -> Mapped | str | None:
    """Event data -> (app, title, url) or a reject reason, or None for a dropped event."""
    if event_type == "window":
        app = _str(data.get("app"))
        if app is None:
            return "window event without 'app'"
        return (app, _str(data.get("title")), _str(data.get("url")))
    if event_type == "afk":
        status = data.get("status")
        if status not in ("afk", "not-afk"):
            return "afk event status is not 'afk' or 'not-afk'"
        return ("afk", status, None)
    if data.get("incognito"):
        return None
    url = _str(data.get("url"))
    if url is None:
        return "web event without 'url'"
    return (browser, _str(data.get("title")), url)


@dataclass(frozen=True)
class Indexed:
    """Every event of some buckets with a parsed start time, and the records that have none."""

    found: list[Found]
    stamps: list[str]
    ts: pd.Series  # UTC start times, NaT where unparseable
    rejects: list[Reject]
    naive: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))  # written without offset
    replaced_bytes: bool = False  # the file held bytes that were not UTF-8 (now U+FFFD)


def index_buckets(
    buckets: Mapping[str, Any],
    origin: str,
    *,
    api: bool = False,
    tz: str = "UTC",
    replaced_bytes: bool = False,
) -> Indexed:
    """Buckets keyed by id -> their events with start times parsed at once, and bad buckets/events.

    Refs are `origin#buckets[ID].events[i]` for a file; for the REST API (`api=True`) they
    are the aw-server URL of the event itself when it has an id, as list positions are not
    stable. Times without an offset are read in `tz`.
    """
    found: list[Found] = []
    stamps: list[str] = []
    rejects: list[Reject] = []
    ignored: Counter[str] = Counter()
    for bid, bucket in buckets.items():
        bref = f"{origin}#buckets[{bid}]"
        if isinstance(bucket, Damaged):
            rejects.append(Reject(bref, bucket.reason))
            continue
        if not isinstance(bucket, dict):
            rejects.append(Reject(bref, "bucket is not an object"))
            continue
        kind = bucket.get("type")
        if not isinstance(kind, str):
            rejects.append(Reject(bref, "bucket without a 'type'"))
            continue
        event_type = EVENT_TYPES.get(kind)
        if event_type is None:
            ignored[kind] += 1
            continue
        events = bucket.get("events")
        if not isinstance(events, list):
            what = "missing" if events is None else "not a list"
            rejects.append(Reject(bref, f"bucket 'events' is {what}"))
            continue
        browser = _browser(bid, bucket) if event_type == "web" else ""
        for i, ev in enumerate(events):
            stamp = ev.get("timestamp") if isinstance(ev, dict) else None
            if isinstance(stamp, str) and stamp:
                found.append((bid, i, event_type, browser, ev))
                stamps.append(stamp)
                continue
            if isinstance(ev, Damaged):
                reason = ev.reason
            elif isinstance(ev, dict):
                reason = "event without timestamp"
            else:
                reason = "event is not an object"
            rejects.append(Reject(_ref(origin, bid, i, ev, api), reason))
    if ignored:
        # Buckets of kinds omoide does not model (input counts, editor activity, ...).
        log.info("activitywatch: not read: %s", dict(ignored))
    ts, naive = utc_times(stamps, tz)
    for k in np.flatnonzero(ts.isna().to_numpy()).tolist():
        bid, i, _, _, ev = found[k]
        rejects.append(Reject(_ref(origin, bid, i, ev, api), "unparseable timestamp"))
    return Indexed(found, stamps, ts, rejects, naive, replaced_bytes)


def in_window(
    indexed: Indexed,
    origin: str,
    source_name: str,
    start: datetime,
    end: datetime,
    now: datetime,
    *,
    api: bool = False,
) -> Collected:
    """Indexed events + UTC [start, end) -> the window's events, and every rejected record.

    Only the window's events are checked further, so a long export history costs little and
    its other days' flaws are reported on their own day.
    """
    found, stamps, ts = indexed.found, indexed.stamps, indexed.ts
    rejects = list(indexed.rejects)
    bad = ts.isna().to_numpy().copy()
    # Year 0, 9999 and the like parse, but no watcher recorded them: rejected on every day.
    earliest, latest = pd.Timestamp(EARLIEST), pd.Timestamp(now) + pd.Timedelta(days=1)
    odd = ~bad & ((ts < earliest) | (ts > latest)).fillna(False).to_numpy()
    for k in np.flatnonzero(odd).tolist():
        bid, i, _, _, ev = found[k]
        rejects.append(Reject(_ref(origin, bid, i, ev, api), f"impossible timestamp {stamps[k]}"))
    bad = bad | odd
    inside = ~bad & (ts >= pd.Timestamp(start)).to_numpy() & (ts < pd.Timestamp(end)).to_numpy()
    rows, kept, incognito = _rows(found, np.flatnonzero(inside), origin, api, rejects)
    if incognito:
        log.info("activitywatch: dropped %d incognito web event(s)", incognito)
    events, fixed = _storable(_frame(rows, ts.iloc[kept], source_name, now), rejects)
    if indexed.replaced_bytes and not events.empty:
        replaced = np.zeros(len(events), bool)
        for col in _MAPPED:
            replaced |= events[col].fillna("").str.contains("\ufffd", regex=False).to_numpy(bool)
        fixed["invalid_utf8_replaced"] = int(replaced.sum())
    if len(indexed.naive) and (naive := int(indexed.naive[kept].sum())):
        fixed["naive_time_local"] = naive
        log.info("activitywatch: %d event(s) without a UTC offset read as local time", naive)
    events = _dedupe(events)
    log.info("activitywatch: %d event(s) in window, %d rejected", len(events), len(rejects))
    return Collected(events, rejects, {k: v for k, v in fixed.items() if v})


def _storable(events: pd.DataFrame, rejects: list[Reject]) -> tuple[pd.DataFrame, Counter[str]]:
    """Window events -> text made storable (NUL, lone surrogates, caps; counted), garbled ones rejected.

    Done here, not only at the gate: the day's cache key hashes these values, and a lone
    surrogate cannot even be encoded.
    """
    events, counts = normalised(events)
    fixed = Counter(counts)
    bad = np.zeros(len(events), bool)
    for col in _MAPPED:
        strings = pa.array(events[col].to_numpy(dtype=object), pa.string(), from_pandas=True)
        for i in garbled_positions(strings).tolist():
            if not bad[i]:
                rejects.append(Reject(str(events["source_ref"].iat[i]), GARBLED.format(column=col)))
            bad[i] = True
    return (events[~bad].reset_index(drop=True) if bad.any() else events), fixed


def _ref(origin: str, bid: str, i: int, ev: object, api: bool) -> str:
    """Event position -> its ref: file path + bucket + index, or the aw-server event URL."""
    if api and isinstance(ev, dict) and isinstance(ev.get("id"), int):
        return f"{origin}/api/0/buckets/{quote(bid, safe='')}/events/{ev['id']}"
    return f"{origin}#buckets[{bid}].events[{i}]"


def _rows(
    found: list[Found], picked: np.ndarray, origin: str, api: bool, rejects: list[Reject]
) -> tuple[list[Row], list[int], int]:
    """Candidate events + indexes to check -> valid rows, their indexes, incognito count."""
    rows: list[Row] = []
    kept: list[int] = []
    incognito = 0
    for k in picked.tolist():
        bid, i, event_type, browser, ev = found[k]
        ref = _ref(origin, bid, i, ev, api)
        dur = ev.get("duration", 0.0)
        if (
            isinstance(dur, bool)
            or not isinstance(dur, int | float)
            or not math.isfinite(dur)
            or dur < 0
        ):
            rejects.append(Reject(ref, "duration is not a non-negative number"))
            continue
        data = ev.get("data")
        if not isinstance(data, dict):
            rejects.append(Reject(ref, "event data is not an object"))
            continue
        mapped = _map(event_type, data, browser)
        if mapped is None:
            incognito += 1
            continue
        if isinstance(mapped, str):
            rejects.append(Reject(ref, mapped))
            continue
        app, title, url = mapped
        rows.append((ref, bid, event_type, float(dur), app, title, url))
        kept.append(k)
    return rows, kept, incognito


def _frame(rows: list[Row], ts: pd.Series, source_name: str, now: datetime) -> pd.DataFrame:
    """Valid rows + their UTC timestamps -> EVENTS frame with deterministic ids."""
    if not rows:
        return schemas.empty(schemas.EVENTS)
    cols = list(zip(*rows, strict=True))
    df = pd.DataFrame(
        {
            "source_ref": pd.Series(cols[0], dtype=object),
            "event_type": pd.Series(cols[2], dtype=object),
            "duration_s": pd.Series(cols[3], dtype="float64"),
            "app": pd.Series(cols[4], dtype=object),
            "title": pd.Series(cols[5], dtype=object),
            "url": pd.Series(cols[6], dtype=object),
            "ts": ts.reset_index(drop=True),
        }
    )
    df["event_id"] = event_ids(source_name, cols[1], df["ts"], cols[4], cols[5], cols[6])
    df["source"] = KIND
    df["source_name"] = source_name
    df["entities"] = [[] for _ in range(len(df))]
    df["recorded_at"] = pd.Timestamp(now).tz_convert("UTC")
    return schemas.conform(df, schemas.EVENTS)


def _dedupe(events: pd.DataFrame) -> pd.DataFrame:
    """Events -> one row per event_id, keeping the longest (latest heartbeat) duration."""
    if events.empty:
        return events
    out = events.sort_values("duration_s", ascending=False, kind="stable")
    out = out.drop_duplicates("event_id").sort_values(["ts", "event_id"], kind="stable")
    if len(out) < len(events):
        log.info("activitywatch: merged %d duplicate event(s)", len(events) - len(out))
    return out.reset_index(drop=True)
