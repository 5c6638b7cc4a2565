from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pandas as pd

from omoide.core import schemas
from omoide.ingest.sources.base import events_frame
from omoide.store.lake import merge_events, read_events, read_part
from omoide.store.quarantine import quarantine, read_quarantine

DAY = date(2026, 11, 20)
T0 = datetime(2026, 11, 20, 9, tzinfo=UTC)


def visits(ids, title="t", dur=1.0):
    recs = [
        {
            "event_id": i,
            "ts": T0 + timedelta(minutes=n),
            "duration_s": dur,
            "source": "chrome",
            "source_name": "chrome",
            "event_type": "visit",
            "title": title,
            "url": f"https://x.test/{i}",
            "source_ref": f"History#visits.id={i}",
        }
        for n, i in enumerate(ids)
    ]
    return events_frame(recs, datetime(2026, 11, 21, tzinfo=UTC))


def test_merge_is_idempotent_and_never_erases(tmp_path: Path):
    c1 = merge_events(tmp_path, DAY, "chrome", visits(["a", "b", "c"]))
    assert (c1.added, c1.total) == (3, 3)
    path = tmp_path / "events" / "day=2026-11-20" / "chrome.parquet"
    mtime = path.stat().st_mtime_ns
    c2 = merge_events(tmp_path, DAY, "chrome", visits(["a", "b", "c"]))
    assert (c2.added, c2.updated, c2.total) == (0, 0, 3)
    assert path.stat().st_mtime_ns == mtime  # unchanged content: not rewritten
    # the browser purged a and b; a new visit d appeared: nothing collected before is lost
    c3 = merge_events(tmp_path, DAY, "chrome", visits(["c", "d"]))
    assert (c3.added, c3.kept, c3.total) == (1, 2, 4)
    assert sorted(read_events(tmp_path, DAY)["event_id"]) == ["a", "b", "c", "d"]


def test_merge_updates_changed_rows_and_replace_mode(tmp_path: Path):
    merge_events(tmp_path, DAY, "aw", visits(["a", "b"], dur=5.0))
    c = merge_events(tmp_path, DAY, "aw", visits(["a", "b"], dur=9.0))  # heartbeat grew
    assert c.updated == 2 and c.total == 2
    assert set(read_events(tmp_path, DAY)["duration_s"]) == {9.0}
    c = merge_events(tmp_path, DAY, "aw", visits(["z"]), replace=True)
    assert c.total == 1 and list(read_events(tmp_path, DAY)["event_id"]) == ["z"]


def test_no_temp_files_left_and_schema_kept(tmp_path: Path):
    merge_events(tmp_path, DAY, "chrome", visits(["a"]))
    folder = tmp_path / "events" / "day=2026-11-20"
    assert [p.name for p in folder.iterdir()] == ["chrome.parquet"]
    df = read_part(folder / "chrome.parquet", schemas.EVENTS)
    assert str(df["ts"].dtype) == "datetime64[us, UTC]"


def test_quarantine_keeps_refs_and_reasons_once(tmp_path: Path):
    rej = pd.DataFrame({"ref": ["n.md#L3"], "reason": ["invalid UTF-8 at byte offset 4"]})
    now = pd.Timestamp(T0)
    quarantine(tmp_path, "collect", DAY, "notes", rej, now)
    quarantine(tmp_path, "collect", DAY, "notes", rej, now)
    q = read_quarantine(tmp_path)
    assert len(q) == 1
    assert q.iloc[0]["ref"] == "n.md#L3" and q.iloc[0]["stage"] == "collect"
    assert quarantine(tmp_path, "collect", DAY, "notes", rej.iloc[0:0], now) is None


def test_a_visit_stored_under_an_older_id_is_replaced_not_duplicated(tmp_path: Path):
    merge_events(tmp_path, DAY, "chrome", visits(["old-a", "b"]))
    renamed = visits(["new-a", "b"])
    renamed.loc[0, "source_ref"] = "History#visits.id=old-a"  # same browser row, new id formula
    counts = merge_events(tmp_path, DAY, "chrome", renamed)
    assert counts.total == 2
    assert sorted(read_events(tmp_path, DAY)["event_id"]) == ["b", "new-a"]
