"""Sessionize: activity events -> sessions (vectorised, no per-event Python loop).

Text columns become integer codes into their distinct values (free for the categorical
columns the browser collectors emit, one hash pass otherwise), so the per-event work is
numpy over integers and strings are handled once per distinct value or per session.
A window event showing a page at the time takes that page's key (`same_activity`), so a
page seen by the browser's history and both ActivityWatch watchers is one session.
"""

from __future__ import annotations

import logging
from datetime import date
from urllib.parse import urlsplit

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from omoide.core import schemas
from omoide.core.ids import stable_ids
from omoide.core.kinds import ACTIVITY_TYPES
from omoide.ingest.same_activity import shown_pages

log = logging.getLogger(__name__)

# Focus durations are meaningful for these; browser visits are point-like navigations.
_DWELL_TYPES = ("window", "web")
# AFK (from the ActivityWatch afk watcher) splits computer activity, not chat on a phone.
_AFK_SPLITS = ("visit", "window", "web")
# Caps keep a session row small; the full provenance stays in source_refs / event_ids.
_MAX_TITLES = 50
_MAX_URLS = 50
# An absolute URL whose authority is a plain host (and port): its host is the group, as
# urlsplit would read it. Anything else (userinfo, brackets, %, non-ASCII, whitespace)
# is left to urlsplit itself.
_SIMPLE_URL = (
    r"^[A-Za-z][A-Za-z0-9+.-]*://(?P<host>[A-Za-z0-9._~!$&'()*+,;=-]*)(?::[0-9]*)?(?:[/?#]|$)"
)


def _arrow(values: pd.Series | pd.Index) -> pa.Array:
    """String column -> one contiguous Arrow string array (nulls kept)."""
    data = pa.array(values, type=pa.string(), from_pandas=True)
    return data.combine_chunks() if isinstance(data, pa.ChunkedArray) else data


def _distinct(values: pd.Series) -> tuple[np.ndarray, pa.Array]:
    """String column -> (int64 code per row into its distinct values, -1 for null; those values)."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        return values.cat.codes.to_numpy().astype(np.int64), _arrow(values.cat.categories)
    encoded = pc.dictionary_encode(_arrow(values))
    codes = pc.fill_null(encoded.indices, -1).to_numpy(zero_copy_only=False)
    return codes.astype(np.int64), encoded.dictionary


def _filled(codes: np.ndarray, uniques: pa.Array, fill: str) -> tuple[np.ndarray, pa.Array]:
    """Codes (-1 null) into distinct values -> codes where a null counts as the value `fill`."""
    if not (codes < 0).any():
        return codes, uniques
    at = pc.index(uniques, fill).as_py()
    if at < 0:
        uniques, at = pa.concat_arrays([uniques, pa.array([fill], pa.string())]), len(uniques)
    return np.where(codes < 0, at, codes), uniques


def _urlsplit_host(url: str) -> str:
    """URL -> its host as urlsplit reads it, lower-case ('' when there is none)."""
    try:
        return urlsplit(url).hostname or ""
    except ValueError:
        return ""


def _hosts(urls: pa.Array) -> pa.Array:
    """Distinct URLs -> lower-case host without 'www.' (null where there is none)."""
    simple = pc.struct_field(pc.extract_regex(urls, _SIMPLE_URL), "host")
    odd = np.flatnonzero(pc.and_(simple.is_null(), urls.is_valid()).to_numpy(zero_copy_only=False))
    if odd.size:
        mask = np.zeros(len(urls), dtype=bool)
        mask[odd] = True
        found = [_urlsplit_host(u) for u in urls.take(pa.array(odd)).to_pylist()]
        simple = pc.replace_with_mask(simple, mask, pa.array(found, pa.string()))
    hosts = pc.replace_substring_regex(pc.ascii_lower(simple), r"^www\.", "", max_replacements=1)
    return pc.if_else(pc.equal(hosts, ""), pa.scalar(None, pa.string()), hosts)


def domains(urls: pd.Series) -> pd.Series:
    """URL series -> lower-case host without 'www.' (None where there is no URL)."""
    codes, uniques = _distinct(urls)
    hosts = np.array([*_hosts(uniques).to_pylist(), None], dtype=object)  # last: code -1
    return pd.Series(hosts[codes], index=urls.index, dtype=object)


def afk_intervals(events: pd.DataFrame) -> pd.DataFrame:
    """Events -> sorted AFK intervals (start, end) from ActivityWatch afk events."""
    afk = events[(events["event_type"] == "afk") & (events["title"] == "afk")]
    starts = afk["ts"]
    ends = starts + pd.to_timedelta(afk["duration_s"], unit="s")
    return pd.DataFrame({"start": starts, "end": ends}).sort_values("start", ignore_index=True)


class _Keys:
    """What activities are grouped by, as integer ids: domains, then apps, then chats."""

    def __init__(self, urls: pa.Array, apps: pa.Array, titles: pa.Array) -> None:
        """Distinct URLs, apps and chat titles -> key ids and names of their groups."""
        encoded = pc.dictionary_encode(_hosts(urls))
        hosts = pc.fill_null(encoded.indices, -1).to_numpy(zero_copy_only=False)
        self.url_domain = np.append(hosts, -1).astype(np.int64)  # last slot: no URL
        self.app_base = len(encoded.dictionary)
        self.chat_base = self.app_base + len(apps)
        named = [("domain:", encoded.dictionary), ("app:", apps), ("chat:", titles)]
        self.names = pa.concat_arrays(
            [pc.binary_join_element_wise(prefix, values, "") for prefix, values in named]
        )

    def of(
        self, url: np.ndarray, app: np.ndarray, title: np.ndarray, chat: np.ndarray
    ) -> np.ndarray:
        """Codes of URL, app and title per event (+ which are chats) -> key id per event."""
        domain = self.url_domain[url]
        key = np.where(domain >= 0, domain, self.app_base + app)
        return np.where(chat, self.chat_base + title, key)


def _merge_flips(key: np.ndarray, short: np.ndarray) -> np.ndarray:
    """Time-ordered keys + which events are short flips -> keys with flips merged away."""
    # A flip shorter than the minimum dwell belongs to the activity around it: take the
    # previous lasting key (or the next one for leading flips).
    lasting = np.flatnonzero(~short)
    if not short.any() or not lasting.size:
        return key
    previous = np.maximum.accumulate(np.where(short, -1, np.arange(len(short))))
    return key[np.where(previous >= 0, previous, lasting[0])]


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
    activity = events["event_type"].isin(ACTIVITY_TYPES).to_numpy()
    ev = events[cols] if activity.all() else events.loc[activity, cols]
    if ev.empty:
        return schemas.empty(schemas.SESSIONS)
    # Per-event arrays in (ts, event_id) order; `time` maps that order back to rows of ev
    # (None: they are in that order already, as collectors and the lake deliver them).
    ts_us = _us(ev["ts"])
    time = _time_order(ts_us, ev["event_id"])
    ts_us = _take(ts_us, time)
    end_us = _take(_us(ev["ts"] + pd.to_timedelta(ev["duration_s"], unit="s")), time)
    (url, urls), (app, apps), (title, titles) = (_distinct(ev[c]) for c in ("url", "app", "title"))
    # A window showing a page at the time is that page's activity: it takes the page's URL,
    # app and title, so it joins the page's session instead of making its own.
    shown = shown_pages(ev)
    url, app, title = (np.where(shown >= 0, codes[shown], codes) for codes in (url, app, title))
    url, app, title = _take(url, time), _take(app, time), _take(title, time)
    keys, key = _event_keys(ev, time, url, urls, app, apps, title, titles, min_dwell_s)
    afk_starts = _us(afk_intervals(events)["start"])
    afk_epoch = np.searchsorted(afk_starts, ts_us, side="right")
    afk_epoch = np.where(_take(ev["event_type"].isin(_AFK_SPLITS).to_numpy(), time), afk_epoch, -1)
    by_key, first = _session_starts(key, ts_us, end_us, afk_epoch, gap_s)
    del afk_epoch

    event_ids = _arrow(ev["event_id"])
    names = keys.names.take(pa.array(key[by_key[first]])).to_pandas()
    session_ids = stable_ids(
        pd.Series("session", index=names.index),
        pd.Series(day.isoformat(), index=names.index),
        names,
        event_ids.take(pa.array(_rows_of(by_key[first], time))).to_pandas(),
    )
    del key
    # Sessions go in output order before any list is built, so no list is copied twice.
    session_ids = np.array(session_ids)  # fixed-width hex: numpy sorts it natively
    start, counts = ts_us[by_key[first]], np.diff(np.r_[first, len(by_key)])
    ranked = np.lexsort((session_ids, start))
    first, start, counts = first[ranked], start[ranked], counts[ranked]
    session_ids, names = session_ids[ranked], names.iloc[ranked].reset_index(drop=True)
    offsets = np.r_[0, np.cumsum(counts)]
    # Each session's events in output order, as positions in time order.
    rows = by_key[np.repeat(first - offsets[:-1], counts) + np.arange(offsets[-1])]
    del by_key, ts_us
    source = pa.array(_rows_of(rows, time))
    out = pd.DataFrame(
        {
            "session_id": pd.Series(session_ids, dtype="str"),
            "start": pd.Series(start.view("datetime64[us]")).dt.tz_localize("UTC"),
            "end": pd.to_datetime(
                np.maximum.reduceat(end_us[rows], offsets[:-1]), unit="us", utc=True
            ),
            "app": _first_named(app[rows], apps, offsets),
            "domain": names.str.removeprefix("domain:").where(names.str.startswith("domain:")),
            "titles": _unique_lists(title[rows], titles, offsets, _MAX_TITLES),
            "urls": _unique_lists(url[rows], urls, offsets, _MAX_URLS),
            "n_events": counts,
            "source_refs": _lists(offsets, _arrow(ev["source_ref"]).take(source)),
            "event_ids": _lists(offsets, event_ids.take(source)),
        }
    )
    out["duration_s"] = (out["end"] - out["start"]).dt.total_seconds()
    out["recorded_at"] = recorded_at
    log.info("sessionized %d events into %d sessions", len(ev), len(out))
    return schemas.conform(out, schemas.SESSIONS)


def _event_keys(
    ev: pd.DataFrame,
    time: np.ndarray | None,
    url: np.ndarray,
    urls: pa.Array,
    app: np.ndarray,
    apps: pa.Array,
    title: np.ndarray,
    titles: pa.Array,
    min_dwell_s: float,
) -> tuple[_Keys, np.ndarray]:
    """Events + their codes in time order -> (the keys, key id per event after flip merging)."""
    kind = ev["event_type"]
    chat = _take((kind == "chat").to_numpy(), time)
    short = _take((kind.isin(_DWELL_TYPES) & (ev["duration_s"] < min_dwell_s)).to_numpy(), time)
    key_app, key_apps = _filled(app, apps, "?")
    key_title, key_titles = _filled(title, titles, "?") if chat.any() else (title, titles[:0])
    keys = _Keys(urls, key_apps, key_titles)
    return keys, _merge_flips(keys.of(url, key_app, key_title, chat), short)


def _session_starts(
    key: np.ndarray, ts_us: np.ndarray, end_us: np.ndarray, afk_epoch: np.ndarray, gap_s: float
) -> tuple[np.ndarray, np.ndarray]:
    """Per-event key, start, end, AFK epoch -> (order by key then time, session starts in it)."""
    # Dense codes: a stable sort by key keeps time order inside it (a radix sort when the
    # codes fit 16 bits, as a day's domains, apps and chats nearly always do).
    codes, distinct = pd.factorize(key)
    by_key = np.argsort(
        codes.astype(np.uint16 if len(distinct) <= 1 << 16 else np.int64), kind="stable"
    )
    codes, ts_us, end_us, afk_epoch = (
        codes[by_key],
        ts_us[by_key],
        end_us[by_key],
        afk_epoch[by_key],
    )
    # Latest end so far within the key: a long event can cover later short ones.
    end_max = pd.Series(end_us).groupby(codes).cummax().to_numpy()
    same_key = np.r_[False, codes[1:] == codes[:-1]]
    within_gap = np.r_[False, ts_us[1:] - end_max[:-1] <= gap_s * 1e6]
    no_afk_between = np.r_[False, afk_epoch[1:] == afk_epoch[:-1]]
    return by_key, np.flatnonzero(~(same_key & within_gap & no_afk_between))


def _us(ts: pd.Series) -> np.ndarray:
    """UTC timestamp series -> int64 microseconds since the epoch."""
    return ts.dt.as_unit("us").astype("int64").to_numpy()


def _take(values: np.ndarray, order: np.ndarray | None) -> np.ndarray:
    """Array + row order (None: as it is) -> the array in that order."""
    return values if order is None else values[order]


def _rows_of(positions: np.ndarray, order: np.ndarray | None) -> np.ndarray:
    """Positions in an order of rows (None: as they are) -> the rows they stand for."""
    return positions if order is None else order[positions]


def _time_order(ts_us: np.ndarray, ids: pd.Series) -> np.ndarray | None:
    """Event times and ids -> row order by (ts, event_id), stable; None if already so."""
    rows = np.arange(len(ts_us))
    step = np.diff(ts_us)
    if (step >= 0).all():
        # Usually time-ordered already: only rows sharing a timestamp need sorting by id.
        tied = np.flatnonzero(step == 0)
        if not tied.size:
            return None
        rows = np.union1d(tied, tied + 1)
    table = pa.table({"ts": ts_us[rows], "id": _arrow(ids).take(pa.array(rows))})
    keys = [("ts", "ascending"), ("id", "ascending")]
    ordered = rows[pc.sort_indices(table, sort_keys=keys).to_numpy()]
    if np.array_equal(ordered, rows):
        return None
    if len(rows) == len(ts_us):
        return ordered
    # Rows of one timestamp are contiguous, so sorting them in their own slots is enough.
    order = np.arange(len(ts_us))
    order[rows] = ordered
    return order


def _first_named(codes: np.ndarray, names: pa.Array, offsets: np.ndarray) -> pd.Series:
    """Codes (-1 null) in session order + offsets -> per session its first non-null name."""
    # The app of a short flip may be missing; the session takes the first one it has.
    n = len(codes)
    first = np.minimum.reduceat(np.where(codes >= 0, np.arange(n), n), offsets[:-1])
    found = first < offsets[1:]
    picked = pa.array(codes[np.minimum(first, n - 1)], mask=~found)
    return names.take(picked).to_pandas()


def _lists(offsets: np.ndarray, values: pa.Array) -> pd.Series:
    """Group offsets + flat values -> an Arrow list column (zero-copy, no per-group Python)."""
    arr = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), values)
    return pd.Series(arr, dtype=pd.ArrowDtype(arr.type))


def _unique_lists(codes: np.ndarray, names: pa.Array, offsets: np.ndarray, cap: int) -> pd.Series:
    """Codes (-1 null) in session order + offsets -> per session its first `cap` distinct names."""
    session = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    pairs = session * (len(names) + 1) + codes
    # Repeats next to each other (a page reloaded, a title kept) are most duplicates and
    # cost nothing to drop; the hash pass then sees only the rest.
    fresh = np.flatnonzero((codes >= 0) & np.r_[True, pairs[1:] != pairs[:-1]])
    keep = fresh[~pd.Series(pairs[fresh]).duplicated().to_numpy()]
    # Rank of each kept value inside its session: kept rows are in session order.
    kept_session = session[keep]
    rank = np.arange(len(keep)) - np.searchsorted(kept_session, kept_session, side="left")
    keep, kept_session = keep[rank < cap], kept_session[rank < cap]
    counts = np.bincount(kept_session, minlength=len(offsets) - 1)
    return _lists(np.r_[0, np.cumsum(counts)], names.take(pa.array(codes[keep])))


def compression_ratio(n_events: int, n_sessions: int) -> float:
    """Counts -> events per session (0 when there are no sessions)."""
    return n_events / n_sessions if n_sessions else 0.0
