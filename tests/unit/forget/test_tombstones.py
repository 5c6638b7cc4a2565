"""Tombstones: keyed hashes only, and what they match when a source is read again."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from omoide.core import schemas
from omoide.ingest.tombstones import (
    add_tombstones,
    domain_entry,
    forgotten_rows,
    load_tombstones,
    record_entries,
    salt_of,
    title_entries,
    tombstones_digest,
    url_entry,
)

NOW = datetime(2026, 11, 21, tzinfo=UTC)


def _events(rows: list[dict]) -> pd.DataFrame:
    """Partial event rows -> an EVENTS frame."""
    base = {
        "ts": pd.Timestamp("2026-11-20T10:00:00Z"),
        "duration_s": 1.0,
        "source": "chrome",
        "source_name": "chrome",
        "event_type": "visit",
        "source_ref": "History#visits.id=1",
        "recorded_at": pd.Timestamp(NOW),
    }
    return schemas.conform(pd.DataFrame([{**base, **r} for r in rows]), schemas.EVENTS)


def test_a_forgotten_record_domain_and_url_prefix_stay_out_and_no_text_is_stored(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"
    salt = salt_of(state)
    old = _events([{"event_id": "e1", "title": "Zorblax results", "url": "https://a.example/1"}])
    entries = [
        *record_entries(salt, old),
        domain_entry(salt, "Clinic-ZQ.example"),
        url_entry(salt, "https://docs.example/private/"),
    ]
    assert add_tombstones(state, entries, NOW) == 4
    assert add_tombstones(state, entries, NOW) == 0  # idempotent
    stored = (state / "tombstones.jsonl").read_text(encoding="utf-8")
    for text in ("Zorblax", "clinic", "docs.example", "a.example"):
        assert text.lower() not in stored.lower()

    again = _events(
        [
            # the same record, read again (same id)
            {"event_id": "e1", "title": "Zorblax results", "url": "https://a.example/1"},
            # the same chat line or note entry under a new id (the note above was edited)
            {"event_id": "e1-moved", "title": "Zorblax results", "url": "https://a.example/1"},
            {"event_id": "e2", "title": "x", "url": "https://portal.clinic-zq.example/r?id=9"},
            {"event_id": "e3", "title": "Results - clinic-zq.example - Chrome", "url": None},
            {"event_id": "e4", "title": "y", "url": "https://docs.example/private/plan"},
            {"event_id": "e5", "title": "kept", "url": "https://docs.example/public"},
            {"event_id": "e6", "title": "kept", "url": "https://notclinic-zq.example/"},
        ]
    )
    hit = forgotten_rows(again, load_tombstones(state))
    assert hit.tolist() == [True, True, True, True, True, False, False]


def test_no_tombstones_match_nothing_and_change_the_cache_key_when_added(tmp_path: Path) -> None:
    state = tmp_path / "state"
    events = _events([{"event_id": "e1", "title": "t", "url": "https://a.example/"}])
    assert not forgotten_rows(events, load_tombstones(state)).any()
    assert tombstones_digest(state) == ""
    add_tombstones(state, [domain_entry(salt_of(state), "b.example")], NOW)
    assert tombstones_digest(state) != ""


def test_a_forgotten_sites_window_titles_stay_out_and_other_windows_do_not(tmp_path: Path) -> None:
    state = tmp_path / "state"
    salt = salt_of(state)
    pages = ["How to Make Dashi (Japanese Soup Stock) • Just One Cookbook"]
    add_tombstones(state, title_entries(salt, pages, ["Just One Cookbook"]), NOW)
    stored = (state / "tombstones.jsonl").read_text(encoding="utf-8").lower()
    assert "dashi" not in stored and "cookbook" not in stored

    window = {"event_type": "window", "source": "activitywatch", "url": None}
    again = _events(
        [
            # the forgotten page in the browser's window, as the window watcher records it
            {**window, "event_id": "w1", "title": f"{pages[0]} — Mozilla Firefox"},
            # another page of the same site, visited after the forget
            {**window, "event_id": "w2", "title": "Miso Soup • JUST ONE COOKBOOK - Google Chrome"},
            # a page that only starts like it, and the same words inside another title
            {**window, "event_id": "w3", "title": "How to Make Dashi faster - Mozilla Firefox"},
            {**window, "event_id": "w4", "title": "notes on just one cookbook - Obsidian"[:14]},
            # a visit record is judged by its URL, not its title
            {
                "event_id": "v1",
                "title": "Miso Soup • Just One Cookbook",
                "url": "https://b.example/",
            },
        ]
    )
    assert forgotten_rows(again, load_tombstones(state)).tolist() == [
        True,
        True,
        False,
        False,
        False,
    ]
