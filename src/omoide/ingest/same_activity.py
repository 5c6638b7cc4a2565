"""One thing done, seen by several sources -> which page a focused window was showing.

A minute of browsing is recorded three times: a browser-history visit, an ActivityWatch
web-watcher event (both carry the page's URL and title) and a window-watcher event whose
title is the page's title with the browser's name after it ("Pull requests · GitHub -
Google Chrome"), but no URL. Sessionize groups pages by their site and windows by their
app, so without this the window event would make a second session of the same minutes.
Here a window event is matched to the page event it shows: a page title that is the
window's title or a leading part of it (`titles.heads`), at the same time. Sessionize then
groups the window event with that page, so the one session cites all three records.
The same title at another time, or another title at the same time, is not a match.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from omoide.ingest.titles import heads, normal

# Events that name a page by URL and title: browser-history visits and web-watcher events.
PAGE_TYPES = ("visit", "web")
# A visit is stamped when navigation starts and the page's title reaches the window title a
# moment later (up to 0.9 s on the sample); aw-core joins events this far apart (pulsetime).
SLACK_S = 5.0


def shown_pages(events: pd.DataFrame, slack_s: float = SLACK_S) -> np.ndarray:
    """Events -> per row, the position of the page event its window shows at that time (-1: none)."""
    out = np.full(len(events), -1, dtype=np.int64)
    kind = events["event_type"].to_numpy()
    titled = events["title"].notna().to_numpy()
    window = np.flatnonzero((kind == "window") & titled)
    page = np.flatnonzero(np.isin(kind, PAGE_TYPES) & titled & events["url"].notna().to_numpy())
    if not (window.size and page.size):
        return out
    start = events["ts"].dt.as_unit("us").astype("int64").to_numpy()
    end = start + np.round(events["duration_s"].fillna(0.0).to_numpy(float) * 1e6).astype(np.int64)
    slack = int(slack_s * 1e6)
    wins = _keyed(window, events["title"].iloc[window], heads)
    wins["end"] = end[wins["row"]] + slack
    pages = _keyed(page, events["title"].iloc[page], lambda t: [normal(t)])
    pages["start"] = start[pages["row"]]
    # The latest page of that title begun by the window's end (a page tab's events do not
    # nest), kept if it had not ended before the window began.
    found = pd.merge_asof(
        wins.sort_values("end"),
        pages.sort_values("start"),
        left_on="end",
        right_on="start",
        by="key",
        suffixes=("", "_page"),
    ).dropna(subset=["row_page"])
    found["row_page"] = found["row_page"].astype(np.int64)
    found = found[end[found["row_page"]] + slack >= start[found["row"]]]
    # Where several titles match, the longest is the most specific ("a · b" over "a").
    found = found.assign(length=found["key"].str.len()).sort_values(
        ["row", "length", "row_page"], ascending=[True, False, True]
    )
    best = found.drop_duplicates("row")
    out[best["row"].to_numpy()] = best["row_page"].to_numpy()
    return out


def _keyed(
    rows: np.ndarray, titles: pd.Series, keys_of: Callable[[str], list[str]]
) -> pd.DataFrame:
    """Row positions + their titles + title -> match keys -> one (row, key) pair per key."""
    # Titles repeat all day: each distinct one is split once.
    codes, distinct = pd.factorize(np.asarray(titles, dtype=object))
    split = [keys_of(str(t)) for t in distinct]
    keys = pd.DataFrame(
        {
            "code": np.repeat(np.arange(len(split)), [len(k) for k in split]),
            "key": pd.Series([k for ks in split for k in ks], dtype=object),
        }
    )
    keys = keys[keys["key"] != ""]  # a blank title names no page
    return pd.DataFrame({"row": rows, "code": codes}).merge(keys, on="code")[["row", "key"]]
