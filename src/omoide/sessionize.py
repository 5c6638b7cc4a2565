"""Sessionize: activity events -> sessions (vectorised pandas, no per-event Python loop)."""

from __future__ import annotations

import logging
from datetime import date
from urllib.parse import urlsplit

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from omoide import schemas
from omoide.ids import stable_ids

log = logging.getLogger(__name__)

# Focus durations are meaningful for these; browser visits are point-like navigations.
_DWELL_TYPES = ("window", "web")
# AFK (from the ActivityWatch afk watcher) splits computer activity, not chat on a phone.
_AFK_SPLITS = ("visit", "window", "web")
# Caps keep a session row small; the full provenance stays in source_refs / event_ids.
_MAX_TITLES = 50
_MAX_URLS = 50


def domains(urls: pd.Series) -> pd.Series:
    """URL series -> lower-case host without 'www.' (None where there is no URL)."""
    codes, uniq = pd.factorize(urls)
    hosts = [None] * (len(uniq) + 1)  # the extra last slot serves code -1 (no URL)
    for i, u in enumerate(uniq):  # per distinct URL, not per event: URLs repeat heavily
        try:
            host = urlsplit(u).hostname or ""
        except ValueError:
            host = ""
        hosts[i] = host.removeprefix("www.") or None
    return pd.Series(np.array(hosts, dtype=object)[codes], index=urls.index, dtype=object)


def afk_intervals(events: pd.DataFrame) -> pd.DataFrame:
    """Events -> sorted AFK intervals (start, end) from ActivityWatch afk events."""
    afk = events[(events["event_type"] == "afk") & (events["title"] == "afk")]
    starts = afk["ts"]
    ends = starts + pd.to_timedelta(afk["duration_s"], unit="s")
    return pd.DataFrame({"start": starts, "end": ends}).sort_values("start", ignore_index=True)


def _activity_keys(ev: pd.DataFrame, min_dwell_s: float) -> pd.Series:
    """Activity events (time-sorted) -> grouping key; short focus flips take the previous key."""
    dom = domains(ev["url"])
    chat = ev["event_type"] == "chat"
    key = ("app:" + ev["app"].fillna("?")).where(dom.isna(), "domain:" + dom.fillna(""))
    key = key.where(~chat, "chat:" + ev["title"].fillna("?"))
    short = ev["event_type"].isin(_DWELL_TYPES) & (ev["duration_s"] < min_dwell_s)
    # A flip shorter than the minimum dwell belongs to the activity around it: take the
    # previous lasting key (or the next one for leading flips).
    merged = key.mask(short).ffill().bfill()
    return merged.fillna(key)


def sessions(
    events: pd.DataFrame,
    day: date,
    gap_s: float = 300.0,
    min_dwell_s: float = 10.0,
    now: pd.Timestamp | None = None,
) -> pd.DataFrame:
    """Sanitized events of one day -> SESSIONS frame (same key revisited within gap = one)."""
    recorded_at = pd.Timestamp(now) if now is not None else pd.Timestamp.now(tz="UTC")
    cols = ["event_id", "ts", "duration_s", "event_type", "app", "title", "url", "source_ref"]
    ev = events.loc[events["event_type"].isin(schemas.ACTIVITY_TYPES), cols]
    if ev.empty:
        return schemas.empty(schemas.SESSIONS)
    ev = ev.iloc[_time_order(ev)].reset_index(drop=True)
    ev["key"] = _activity_keys(ev, min_dwell_s)
    ev["end"] = ev["ts"] + pd.to_timedelta(ev["duration_s"], unit="s")
    ts_us = _us(ev["ts"])
    afk_starts = _us(afk_intervals(events)["start"])
    afk_epoch = np.searchsorted(afk_starts, ts_us, side="right")
    afk_epoch = np.where(ev["event_type"].isin(_AFK_SPLITS).to_numpy(), afk_epoch, -1)

    # Integer codes and numpy from here on: a stable sort by key keeps time order inside it.
    codes = pd.factorize(ev["key"])[0]
    order = np.argsort(codes, kind="stable")
    ev, codes, ts_us, afk_epoch = (
        ev.iloc[order].reset_index(drop=True),
        codes[order],
        ts_us[order],
        afk_epoch[order],
    )
    # Latest end so far within the key: a long event can cover later short ones.
    end_max = pd.Series(_us(ev["end"])).groupby(codes).cummax().to_numpy()
    same_key = np.r_[False, codes[1:] == codes[:-1]]
    within_gap = np.r_[False, ts_us[1:] - end_max[:-1] <= gap_s * 1e6]
    no_afk_between = np.r_[False, afk_epoch[1:] == afk_epoch[:-1]]
    ev["session_no"] = np.cumsum(~(same_key & within_gap & no_afk_between))
    return _aggregate(ev, day, recorded_at)


def _us(ts: pd.Series) -> np.ndarray:
    """UTC timestamp series -> int64 microseconds since the epoch."""
    return ts.dt.as_unit("us").astype("int64").to_numpy()


def _time_order(ev: pd.DataFrame) -> np.ndarray:
    """Events -> row order by (ts, event_id), computed in Arrow (fast on large string columns)."""
    table = pa.table({"ts": _us(ev["ts"]), "id": pa.array(ev["event_id"], pa.string())})
    return pc.sort_indices(table, sort_keys=[("ts", "ascending"), ("id", "ascending")]).to_numpy()


def _aggregate(ev: pd.DataFrame, day: date, recorded_at: pd.Timestamp) -> pd.DataFrame:
    """Events tagged with session_no -> one SESSIONS row per session, without per-group Python."""
    # Rows arrive ordered by session, then time (session numbers follow the key/time order).
    sess = ev["session_no"].to_numpy()
    first = np.flatnonzero(np.r_[True, sess[1:] != sess[:-1]])
    offsets = np.r_[first, len(ev)]
    end_us = ev["end"].dt.as_unit("us").astype("int64").to_numpy()
    out = pd.DataFrame(
        {
            "start": ev["ts"].iloc[first].reset_index(drop=True),
            "end": pd.to_datetime(np.maximum.reduceat(end_us, first), unit="us", utc=True),
            "n_events": np.diff(offsets),
            "key": ev["key"].iloc[first].reset_index(drop=True),
            "app": ev.groupby("session_no", sort=True)["app"]
            .first()
            .reindex(sess[first])
            .to_numpy(),
            "event_ids": _lists(offsets, ev["event_id"]),
            "source_refs": _lists(offsets, ev["source_ref"]),
            "titles": _unique_lists(ev, sess[first], "title", _MAX_TITLES),
            "urls": _unique_lists(ev, sess[first], "url", _MAX_URLS),
        }
    )
    is_domain = out["key"].str.startswith("domain:")
    out["domain"] = out["key"].str.removeprefix("domain:").where(is_domain, None)
    out["duration_s"] = (out["end"] - out["start"]).dt.total_seconds()
    out["session_id"] = stable_ids(
        pd.Series("session", index=out.index),
        pd.Series(day.isoformat(), index=out.index),
        out["key"],
        ev["event_id"].iloc[first].reset_index(drop=True),
    )
    out["recorded_at"] = recorded_at
    out = out.sort_values(["start", "session_id"], ignore_index=True)
    log.info("sessionized %d events into %d sessions", len(ev), len(out))
    return schemas.conform(out, schemas.SESSIONS)


def _lists(offsets: np.ndarray, values: pd.Series) -> pd.Series:
    """Group offsets + flat values -> an Arrow list column (zero-copy, no per-group Python)."""
    arr = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), pa.array(values, pa.string()))
    return pd.Series(arr, dtype=pd.ArrowDtype(arr.type))


def _unique_lists(ev: pd.DataFrame, sessions_no: np.ndarray, col: str, cap: int) -> pd.Series:
    """Events (sorted by session, time) -> per session the first `cap` distinct values of col."""
    sub = ev.loc[ev[col].notna(), ["session_no", col]].drop_duplicates()
    sub = sub[sub.groupby("session_no", sort=False).cumcount() < cap]
    counts = sub["session_no"].value_counts().reindex(sessions_no, fill_value=0).to_numpy()
    return _lists(np.r_[0, np.cumsum(counts)], sub[col])


def compression_ratio(n_events: int, n_sessions: int) -> float:
    """Counts -> events per session (0 when there are no sessions)."""
    return n_events / n_sessions if n_sessions else 0.0
