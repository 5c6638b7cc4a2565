"""A damaged or foreign ActivityWatch export: bad events quarantined with their refs, a broken file named."""

from __future__ import annotations

from pathlib import Path

import pytest

from omoide.core.errors import SourceError
from omoide.ingest.sources.activitywatch import collect
from tests.unit.ingest.sources.test_activitywatch import END, FIXTURE, NOW, START, _source


def test_malformed_events_are_rejected_with_refs_and_incognito_is_dropped() -> None:
    out = collect(_source(FIXTURE), START, END, NOW)
    win = f"{FIXTURE}#buckets[aw-watcher-window_laptop].events"
    assert sorted((r.ref, r.reason, r.excerpt) for r in out.rejects) == sorted(
        [
            (f"{win}[0]", "unparseable timestamp", ""),
            (f"{win}[3]", "event data is not an object", ""),
            (f"{win}[4]", "duration is not a non-negative number", ""),
            (f"{win}[5]", "event without timestamp", ""),
            (
                f"{FIXTURE}#buckets[aw-watcher-afk_laptop].events[0]",
                "afk event status is not 'afk' or 'not-afk'",
                "",
            ),
        ]
    )
    stored = " ".join(str(v) for v in out.events.to_numpy().ravel())
    assert "private.example" not in stored and "private tab" not in stored


def test_truncated_export_keeps_what_is_before_the_cut(tmp_path: Path) -> None:
    cut = tmp_path / "aw-export.json"
    text = FIXTURE.read_text()
    cut.write_text(text[: len(text) // 2])
    whole = collect(_source(FIXTURE), START, END, NOW).events
    out = collect(_source(cut), START, END, NOW)
    # The events written before the cut all land; the cut is named by its bucket.
    kept = set(out.events["event_id"])
    assert kept and kept <= set(whole["event_id"])
    assert any(
        r.ref.startswith(f"{cut}#buckets[")
        and "before this bucket's events list is closed" in r.reason
        for r in out.rejects
    )


def test_file_without_any_events_list_names_file_and_position(tmp_path: Path) -> None:
    cut = tmp_path / "aw-export.json"
    cut.write_text(FIXTURE.read_text()[:200])
    with pytest.raises(SourceError) as err:
        collect(_source(cut), START, END, NOW)
    assert err.value.path == str(cut)
    assert err.value.reason.startswith("invalid JSON at line ")
    assert " col " in err.value.reason
    assert not err.value.transient


def test_missing_and_foreign_files_are_source_errors(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such file"):
        collect(_source(tmp_path / "nope.json"), START, END, NOW)
    other = tmp_path / "other.json"
    other.write_text('{"hello": []}')
    with pytest.raises(SourceError, match="not an ActivityWatch export"):
        collect(_source(other), START, END, NOW)


def test_a_flipped_byte_lands_every_other_event_and_quarantines_the_damaged_one(
    tmp_path: Path,
) -> None:
    import pandas as pd

    from omoide.ingest.gate import sanitized
    from omoide.store.lake import merge_events, read_events
    from omoide.store.quarantine import quarantine, read_quarantine

    raw = FIXTURE.read_bytes()
    at = raw.index(b'"title": "#general"') + len(b'"title": ')
    damaged = tmp_path / "aw-export.json"
    damaged.write_bytes(raw[:at] + b"\x01" + raw[at + 1 :])  # its opening quote
    day = pd.Timestamp(START).tz_convert("Europe/Berlin").date()
    intact = collect(_source(FIXTURE), START, END, NOW).events
    out = sanitized(collect(_source(damaged), START, END, NOW), day, "Europe/Berlin", [])
    merge_events(tmp_path / "lake", day, "aw", out.events)
    quarantine(tmp_path / "quarantine", "collect", day, "aw", out.rejects, pd.Timestamp(NOW))
    lake = read_events(tmp_path / "lake", day)
    assert sorted(lake["title"]) == sorted(t for t in intact["title"] if t != "#general")
    q = read_quarantine(tmp_path / "quarantine")
    (slack,) = q[q["reason"].str.startswith("damaged JSON")].itertuples()
    assert slack.ref == f"{damaged}#buckets[aw-watcher-window_laptop].events[2]"
