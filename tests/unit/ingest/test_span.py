"""Record spans: which days the sources hold, and the range `omoide backfill --all` covers."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from omoide.core.errors import OmoideError
from omoide.core.settings import get_settings
from omoide.ingest.span import Span, backfill_range, record_span
from omoide.sample import write_sample
from tests.fakes import source_config

NOW = datetime(2026, 11, 24, 9, tzinfo=UTC)
TZ = "Europe/Berlin"


def test_every_sample_source_holds_the_sample_days(omoide_home: Path) -> None:
    write_sample(omoide_home, days=3, end=date(2026, 11, 20))
    settings = get_settings()
    spans = {s.kind: record_span(s, TZ, NOW) for s in settings.sources}
    for kind, span in spans.items():
        assert span is not None and span.records > 0, kind
        assert span.last == date(2026, 11, 20), kind
        assert span.first >= date(2026, 11, 17), kind
    assert spans["notes"] == Span(date(2026, 11, 18), date(2026, 11, 20), 3)
    first, last, problems = backfill_range(settings.sources, TZ, NOW)
    assert first == min(s.first for s in spans.values())
    assert last == date(2026, 11, 23) and problems == []


def test_an_unreadable_source_is_named_and_the_others_still_count(omoide_home: Path) -> None:
    write_sample(omoide_home, days=2, end=date(2026, 11, 20))
    broken = omoide_home / "History"
    broken.write_bytes(b"this is not a database")
    sources = [*get_settings().sources, source_config("chrome", broken, name="old-laptop")]
    first, _, problems = backfill_range(sources, TZ, NOW)
    assert first <= date(2026, 11, 19)
    assert len(problems) == 1 and problems[0].startswith("old-laptop: ")
    assert str(broken) in problems[0]


def test_no_records_anywhere_is_a_clear_error(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "not-a-day.md").write_text("- hello\n")
    with pytest.raises(OmoideError, match="nothing to backfill"):
        backfill_range([source_config("notes", notes)], TZ, NOW)
