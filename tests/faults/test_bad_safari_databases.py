"""Safari History.db files holding values of the wrong type (issue 52): each visit rejected by its
row, never read as 2001-01-01 (Core Data's clock at 0) or as a failed page load; Chrome and Firefox,
read by the same code, alike."""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from pathlib import Path

import pytest

from omoide.core.days import day_bounds
from omoide.core.settings import SourceConfig
from omoide.ingest.sources import collect
from omoide.ingest.sources.visits import IMPOSSIBLE
from omoide.ingest.span import record_span
from tests.unit.ingest.sources.chat_exports import END, NOW, START, TZ
from tests.unit.ingest.sources.test_firefox import CURRENT, MIDNIGHT, build
from tests.unit.ingest.sources.test_safari import VISITS, build_history, local

BAD_TIMES = {"text": "yesterday", "blob": b"\xde\xad\xbe\xef"}
HOUR = timedelta(hours=1)


def _safari(tmp_path: Path, *extra: tuple) -> tuple[Path, SourceConfig]:
    """Visit rows beside the fixture's -> a History.db with the real schema, and its source."""
    db = build_history(tmp_path / "Safari" / "History.db", [*VISITS, *extra])
    return db, SourceConfig(kind="safari", path=db.parent, name="safari")


@pytest.mark.parametrize("kind", sorted(BAD_TIMES))
def test_a_visit_time_that_is_no_number_is_rejected_never_2001(tmp_path: Path, kind: str) -> None:
    db, source = _safari(tmp_path, (20, 1, BAD_TIMES[kind], "Apple", 1, 0, None, None, 0))
    new_year_2001 = day_bounds(date(2001, 1, 1), "UTC")
    for window in ((START, END), new_year_2001):
        out = collect(source, *window, NOW)
        assert f"{db}#history_visits.id=20" not in set(out.events["source_ref"])
        assert (f"{db}#history_visits.id=20", IMPOSSIBLE) in {
            (r.ref, r.reason) for r in out.rejects
        }
    # A backfill --all starts at the first day a source holds: not 2001.
    span = record_span(source, TZ, NOW)
    assert span is not None and span.first == date(2026, 11, 20)


def test_flags_of_the_wrong_type_reject_their_visit_by_row(tmp_path: Path) -> None:
    db, source = _safari(
        tmp_path,
        (21, 3, local("11:00:00"), "Yes", "yes", 0, None, None, 0),  # text: CAST made it 0
        (22, 3, local("11:01:00"), "Blob", 1, b"\x01", None, None, 0),
        (23, 3, local("11:02:00"), "Loaded", 1.0, 0, None, None, 0),  # a REAL 1 is a flag
    )
    out = collect(source, START, END, NOW)
    refs = set(out.events["source_ref"])
    assert f"{db}#history_visits.id=23" in refs
    assert not {f"{db}#history_visits.id={i}" for i in (5, 21, 22)} & refs  # 5: a failed load
    got = {(r.ref.rsplit("#", 1)[1], r.reason) for r in out.rejects}
    assert ("history_visits.id=21", "'load_successful' holds text where a number belongs") in got
    assert ("history_visits.id=22", "'http_non_get' holds a blob where a number belongs") in got
    assert not any(r.ref.endswith("id=5") for r in out.rejects)  # a real failed load: skipped


def test_firefox_rejects_a_visit_type_or_time_that_is_text(tmp_path: Path) -> None:
    db = build(tmp_path / "places.sqlite", CURRENT)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE moz_historyvisits SET visit_type = 'typed' WHERE id = 13")
        conn.execute("UPDATE moz_historyvisits SET visit_date = 'noon' WHERE id = 14")
    conn.close()
    source = SourceConfig(kind="firefox", path=db, name="firefox")
    out = collect(source, MIDNIGHT, MIDNIGHT + 24 * HOUR, NOW)
    got = {(r.ref.rsplit("#", 1)[1], r.reason) for r in out.rejects}
    assert ("moz_historyvisits.id=13", "'visit_type' holds text where a number belongs") in got
    assert ("moz_historyvisits.id=14", IMPOSSIBLE) in got
    kept = set(out.events["source_ref"])
    assert f"{db}#moz_historyvisits.id=15" in kept and f"{db}#moz_historyvisits.id=13" not in kept


def test_chrome_rejects_a_transition_that_is_text(tmp_path: Path) -> None:
    from tests.unit.ingest.sources.test_chrome import ALL_TIME, V22, chrome

    if not V22.is_file():
        pytest.skip("eval History files not present")
    db = tmp_path / "History"
    db.write_bytes(V22.read_bytes())
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE visits SET transition = 'link' WHERE id = 3")
    conn.close()
    out = collect(chrome(db), *ALL_TIME, NOW)
    assert (f"{db}#visits.id=3", "'transition' holds text where a number belongs") in {
        (r.ref, r.reason) for r in out.rejects
    }
    assert f"{db}#visits.id=3" not in set(out.events["source_ref"])
