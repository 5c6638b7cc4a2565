"""ActivityWatch: what an event is (ids with content, naive times), a damaged export salvaged, old lake ids replaced."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from omoide.core.days import day_bounds
from omoide.core.errors import SourceError
from omoide.core.ids import stable_id
from omoide.core.settings import SourceConfig
from omoide.ingest.fingerprint import collected_fingerprint, day_fingerprint
from omoide.ingest.sources.activitywatch import collect, indexed_export
from omoide.ingest.sources.aw_events import superseded
from omoide.store.lake import merge_events, read_events
from tests.unit.ingest.sources.test_activitywatch import EXPECTED_DAY, FIXTURE, NOW, TZ

START, END = day_bounds(date(2026, 11, 20), TZ)
WINDOW = "aw-watcher-window_laptop"


def _aw(path: Path, tz: str | None = TZ) -> SourceConfig:
    """Export path -> the AW source Settings would give (its zone from the top level)."""
    return SourceConfig(kind="activitywatch", path=path, name="aw", timezone=tz)


def _doc() -> dict:
    return json.loads(FIXTURE.read_text())


def _write(path: Path, doc: dict) -> Path:
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return path


# --- identity -----------------------------------------------------------------------------


def test_distinct_events_with_the_same_start_are_never_merged(tmp_path: Path) -> None:
    doc = _doc()
    same = "2026-11-20T09:00:00+00:00"
    doc["buckets"][WINDOW]["events"] = [
        {"id": i, "timestamp": same, "duration": 10.0 + i, "data": {"app": "Code", "title": t}}
        for i, t in enumerate(["a.py", "b.py", "c.py", "a.py"])
    ]
    out = collect(_aw(_write(tmp_path / "x.json", doc)), START, END, NOW)
    window = out.events[out.events["event_type"] == "window"]
    # Three different titles at one instant: three events; the repeated a.py is one, longest kept.
    assert sorted(zip(window["title"], window["duration_s"], strict=True)) == [
        ("a.py", 13.0),
        ("b.py", 11.0),
        ("c.py", 12.0),
    ]


def test_naive_times_are_local_times_and_counted(tmp_path: Path) -> None:
    doc = _doc()
    # aw-watcher clocks without an offset: Berlin wall clock, many events on one second.
    doc["buckets"][WINDOW]["events"] = [
        {
            "id": i,
            "timestamp": "2026-11-20T09:00:00",
            "duration": 1.0,
            "data": {"app": a, "title": a},
        }
        for i, a in enumerate(["Code", "Slack", "Firefox", "Terminal"])
    ]
    out = collect(_aw(_write(tmp_path / "x.json", doc)), START, END, NOW)
    window = out.events[out.events["event_type"] == "window"]
    assert len(window) == 4
    assert set(window["ts"]) == {pd.Timestamp("2026-11-20T08:00:00Z")}
    assert out.fixed["naive_time_local"] == 4
    # Without a configured zone they are UTC, as aw-core reads them.
    utc = collect(_aw(tmp_path / "x.json", tz=None), START, END, NOW)
    assert set(utc.events.loc[utc.events["event_type"] == "window", "ts"]) == {
        pd.Timestamp("2026-11-20T09:00:00Z")
    }


def test_settings_give_activitywatch_the_top_level_zone(omoide_home: Path) -> None:
    from omoide.core.settings import get_settings

    (omoide_home / "omoide.toml").write_text(
        'timezone = "Asia/Tokyo"\n[[sources]]\nkind = "activitywatch"\npath = "aw.json"\n'
    )
    (source,) = get_settings().sources
    assert source.timezone == "Asia/Tokyo" and source.user_name is None


# --- damaged exports ------------------------------------------------------------------------


def test_a_flipped_byte_costs_only_the_event_it_is_in(tmp_path: Path) -> None:
    raw = FIXTURE.read_bytes()
    title = b'"title": "activitywatch.py - omoide'  # the Code event, events[7]
    at = raw.index(title) + len(b'"title": ')
    damaged = tmp_path / "aw-export.json"
    damaged.write_bytes(raw[:at] + b"\x01" + raw[at + 1 :])  # its opening quote
    whole = collect(_aw(FIXTURE), START, END, NOW)
    out = collect(_aw(damaged), START, END, NOW)
    assert len(out.events) == len(EXPECTED_DAY) - 1
    assert set(out.events["title"]) == set(whole.events["title"]) - {
        "activitywatch.py - omoide - Visual Studio Code"
    }
    bad = [r for r in out.rejects if r.reason.startswith("damaged JSON")]
    assert [r.ref for r in bad] == [f"{damaged}#buckets[{WINDOW}].events[7]"]
    # The other flaws of the file are reported as on an intact copy, with the same refs.
    others = sorted((r.ref.split("#")[1], r.reason) for r in out.rejects if r not in bad)
    assert others == sorted((r.ref.split("#")[1], r.reason) for r in whole.rejects)


def test_a_damaged_bucket_header_is_named_and_the_other_buckets_land(tmp_path: Path) -> None:
    raw = FIXTURE.read_bytes()
    at = raw.index(b'"type": "afkstatus"') + len(b'"type": ')
    damaged = tmp_path / "aw-export.json"
    damaged.write_bytes(raw[:at] + b"\x01" + raw[at + 1 :])
    out = collect(_aw(damaged), START, END, NOW)
    assert "afk" not in set(out.events["event_type"])
    assert {"window", "web"} <= set(out.events["event_type"])
    (header,) = [r for r in out.rejects if "header" in r.reason]
    assert header.ref == f"{damaged}#buckets[aw-watcher-afk_laptop]"


def test_invalid_utf8_in_a_title_costs_one_character_and_is_counted(tmp_path: Path) -> None:
    raw = FIXTURE.read_bytes()
    damaged = tmp_path / "aw-export.json"
    damaged.write_bytes(raw.replace(b"OpenStreetMap", b"OpenStr\xffetMap"))
    out = collect(_aw(damaged), START, END, NOW)
    assert "OpenStr\ufffdetMap" in set(out.events["title"])
    assert len(out.events) == len(EXPECTED_DAY)
    assert out.fixed["invalid_utf8_replaced"] == 1


def test_a_lone_surrogate_in_a_title_still_gives_the_day_a_cache_key(tmp_path: Path) -> None:
    doc = _doc()
    doc["buckets"][WINDOW]["events"][2]["data"]["title"] = "\ud800 lone"
    path = tmp_path / "aw.json"
    path.write_text(json.dumps(doc), encoding="utf-8")  # written as the escape \ud800
    source = _aw(path)
    out = collect(source, START, END, NOW)
    assert "\ufffd lone" in set(out.events["title"])
    assert out.fixed["surrogate_replaced"] == 1
    collected_fingerprint(out)  # the cache key hashes this without a traceback
    assert day_fingerprint(source, date(2026, 11, 20), TZ, NOW) is not None
    # The ingest task's own key (None would mean: never cached).
    from omoide.tasks.ingest import ingest_cache_key

    parameters = {
        "sources": [source],
        "day": date(2026, 11, 20),
        "tz": TZ,
        "now": NOW,
        "excluded_domains": [],
        "lake_dir": tmp_path / "lake",
        "state_dir": tmp_path / "state",
    }
    assert ingest_cache_key(None, parameters) is not None  # type: ignore[arg-type]


def test_an_empty_folder_and_odd_entries_are_named(tmp_path: Path) -> None:
    (tmp_path / "aw").mkdir()
    with pytest.raises(SourceError, match=r"no ActivityWatch export \(\*\.json\) in this folder"):
        collect(_aw(tmp_path / "aw"), START, END, NOW)
    shutil.copy(FIXTURE, tmp_path / "aw" / "export.json")
    (tmp_path / "aw" / "old.json").symlink_to(tmp_path / "aw" / "gone.json")
    (tmp_path / "aw" / "binary.json").write_bytes(b"SQLite format 3\x00" + bytes(100))
    out = collect(_aw(tmp_path / "aw"), START, END, NOW)
    assert len(out.events) == len(EXPECTED_DAY)
    assert sorted((r.ref, r.reason) for r in out.rejects if "#" not in r.ref) == [
        (str(tmp_path / "aw" / "binary.json"), "not text: an SQLite database"),
        (str(tmp_path / "aw" / "old.json"), "ActivityWatch export is a broken link"),
    ]


def test_the_export_is_parsed_once_per_process_and_version(tmp_path: Path) -> None:
    path = shutil.copy(FIXTURE, tmp_path / "aw.json")
    indexed_export.cache_clear()
    collect(_aw(path), START, END, NOW)
    collect(_aw(path), *day_bounds(date(2026, 11, 19), TZ), NOW)
    assert indexed_export.cache_info().hits == 1 and indexed_export.cache_info().misses == 1


# --- lakes written with the old ids --------------------------------------------------------


def _with_old_ids(events: pd.DataFrame) -> pd.DataFrame:
    """Events -> the same rows under the id formula before ingest version 5 (bucket + start)."""
    old = events.copy()
    bucket = old["source_ref"].str.extract(r"#buckets\[(.*)\]\.events")[0]
    iso = old["ts"].dt.strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")
    old["event_id"] = [
        stable_id("activitywatch", "aw", b, t) for b, t in zip(bucket, iso, strict=True)
    ]
    return old


def test_a_lake_with_old_ids_holds_each_event_once_after_a_reingest(tmp_path: Path) -> None:
    day = date(2026, 11, 20)
    new = collect(_aw(FIXTURE), START, END, NOW).events
    merge_events(tmp_path, day, "aw", _with_old_ids(new))
    counts = merge_events(tmp_path, day, "aw", new)
    lake = read_events(tmp_path, day)
    assert len(lake) == len(new) == len(EXPECTED_DAY)
    assert set(lake["event_id"]) == set(new["event_id"])
    assert counts.total == len(new)
    # Idempotent from there on.
    merge_events(tmp_path, day, "aw", new)
    assert len(read_events(tmp_path, day)) == len(new)


def test_events_merged_under_an_old_id_come_back_apart(tmp_path: Path) -> None:
    day = date(2026, 11, 20)
    doc = _doc()
    same = "2026-11-20T09:00:00+00:00"
    doc["buckets"][WINDOW]["events"] = [
        {"id": i, "timestamp": same, "duration": 5.0, "data": {"app": "Code", "title": t}}
        for i, t in enumerate(["a.py", "b.py"])
    ]
    new = collect(_aw(_write(tmp_path / "x.json", doc)), START, END, NOW).events
    old = _with_old_ids(new).drop_duplicates("event_id")  # the merge the old id made
    merge_events(tmp_path / "lake", day, "aw", old)
    merge_events(tmp_path / "lake", day, "aw", new)
    lake = read_events(tmp_path / "lake", day)
    assert sorted(lake.loc[lake["event_type"] == "window", "title"]) == ["a.py", "b.py"]
    assert len(lake) == len(new)


def test_only_old_ids_that_a_new_row_replaces_are_superseded() -> None:
    new = collect(_aw(FIXTURE), START, END, NOW).events
    old = _with_old_ids(new)
    assert superseded(old, new).all()
    assert not superseded(new, new).any()  # today's ids are never touched
    assert not superseded(old, new.iloc[0:0]).any()
    other = old.assign(source="chrome")
    assert not superseded(other, new).any()
