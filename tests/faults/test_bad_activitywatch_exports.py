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


def test_truncated_export_names_file_and_position(tmp_path: Path) -> None:
    cut = tmp_path / "aw-export.json"
    text = FIXTURE.read_text()
    cut.write_text(text[: len(text) // 2])
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
