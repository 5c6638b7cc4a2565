"""Focus events -> an ActivityWatch export: window, AFK and web-watcher buckets keyed by id."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from omoide.sample.content import content
from omoide.sample.desk import Focus


def _iso_utc(ms: int) -> str:
    """Unix ms -> ActivityWatch timestamp '2026-11-20T08:01:02.345000+00:00'."""
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="microseconds")


def afk_spans(focus: list[Focus]) -> list[tuple[int, int, str]]:
    """Focus events -> merged (start_ms, end_ms, 'afk'|'not-afk') spans while the machine is on."""
    out: list[tuple[int, int, str]] = []
    for f in focus:
        status = "afk" if f.afk else "not-afk"
        # A gap over a minute means the lid was closed: the AFK watcher records nothing then.
        if out and f.start_ms - out[-1][1] < 60_000 and out[-1][2] == status:
            out[-1] = (out[-1][0], f.start_ms + f.dur_ms, status)
        else:
            out.append((f.start_ms, f.start_ms + f.dur_ms, status))
    return out


def aw_export(focus: list[Focus], afk: list[tuple[int, int, str]], rng: random.Random) -> dict:
    """Focus events + AFK spans -> an ActivityWatch export with buckets keyed by id."""
    meta = {
        "window": ("currentwindow", "aw-watcher-window"),
        "afk": ("afkstatus", "aw-watcher-afk"),
        "web-chrome": ("web.tab.current", "aw-client-web"),
        "web-firefox": ("web.tab.current", "aw-client-web"),
    }
    rows: dict[str, list[tuple[int, int, dict]]] = {k: [] for k in meta}
    tabs = {"chrome": 6, "firefox": 9}
    for f in focus:
        rows["window"].append((f.start_ms, f.dur_ms, {"app": f.app, "title": f.title}))
        if f.browser and f.url:
            tabs[f.browser] = max(2, min(18, tabs[f.browser] + rng.choice((-1, 0, 0, 1))))
            rows[f"web-{f.browser}"].append(
                (
                    f.start_ms,
                    f.dur_ms,
                    {
                        "url": f.url,
                        "title": f.page,
                        "audible": "youtube.com" in f.url,
                        "incognito": False,
                        "tabCount": tabs[f.browser],
                    },
                )
            )
    rows["afk"] = [(a, b - a, {"status": s}) for a, b, s in afk]
    buckets, next_id = {}, 1
    for key, (kind, client) in meta.items():
        bucket_id = f"aw-watcher-{key}_{content().host}"
        events = []
        for start, dur, data in sorted(rows[key], key=lambda r: r[0]):
            events.append(
                {
                    "id": next_id,
                    "timestamp": _iso_utc(start),
                    "duration": round(dur / 1000, 3),
                    "data": data,
                }
            )
            next_id += 1
        buckets[bucket_id] = {
            "id": bucket_id,
            "created": "2025-02-11T08:14:03.512000+00:00",
            "name": None,
            "type": kind,
            "client": client,
            "hostname": content().host,
            "data": {},
            "events": events,
        }
    return {"buckets": buckets}
