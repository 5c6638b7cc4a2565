"""Day fingerprints: a day's cache key sees that day's records and nothing else."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from omoide.core.days import day_bounds
from omoide.core.settings import SourceConfig
from omoide.ingest.fingerprint import (
    collected_day,
    collected_fingerprint,
    day_fingerprint,
    input_files,
    span_prints,
)
from omoide.ingest.sources.chrome import chrome_us
from omoide.sample import write_sample

NOW = datetime(2026, 11, 21, 8, tzinfo=UTC)
DAYS = [date(2026, 11, 18), date(2026, 11, 19), date(2026, 11, 20)]
TZ = "Europe/Berlin"


def keys(source: SourceConfig) -> list[str | None]:
    """Source -> its fingerprint for each sample day."""
    return [day_fingerprint(source, d, TZ, NOW) for d in DAYS]


def test_a_new_chrome_visit_changes_only_the_key_of_its_day(tmp_path: Path) -> None:
    write_sample(tmp_path, days=3)
    history = tmp_path / "sources" / "chrome" / "Default" / "History"
    source = SourceConfig(kind="chrome", path=history, name="chrome")
    before = keys(source)
    assert None not in before and len(set(before)) == 3
    when = day_bounds(DAYS[1], TZ)[0] + timedelta(hours=15)
    with sqlite3.connect(history) as conn:
        url = conn.execute(
            "INSERT INTO urls(url, title, last_visit_time) VALUES (?, ?, ?)",
            ("https://example.org/new", "New page", chrome_us(when)),
        ).lastrowid
        conn.execute(
            "INSERT INTO visits(url, visit_time, transition) VALUES (?, ?, 1)",
            (url, chrome_us(when)),
        )
    after = keys(source)
    assert after[0] == before[0] and after[2] == before[2]
    assert after[1] != before[1]


def test_a_span_read_once_gives_each_day_the_key_of_its_own_read(tmp_path: Path) -> None:
    # The plan hashes a span's rows once and slices them: a day's key must not depend on it.
    write_sample(tmp_path, days=3)
    for kind, path in [
        ("chrome", "chrome/Default/History"),
        ("firefox", "firefox/places.sqlite"),
        ("activitywatch", "activitywatch/aw-buckets-export.json"),
        ("chat", "chat/chat.jsonl"),
    ]:
        source = SourceConfig(kind=kind, path=tmp_path / "sources" / path, name=kind)
        span = span_prints(source, DAYS, TZ, NOW)[0]
        assert list(span.values()) == keys(source), kind
        assert None not in span.values() and len(set(span.values())) == 3, kind


def test_a_new_activitywatch_event_changes_only_the_key_of_its_day(tmp_path: Path) -> None:
    write_sample(tmp_path, days=3)
    export = tmp_path / "sources" / "activitywatch" / "aw-buckets-export.json"
    source = SourceConfig(kind="activitywatch", path=export, name="aw")
    before = keys(source)
    doc = json.loads(export.read_text())
    bucket = next(b for b in doc["buckets"].values() if b["type"] == "currentwindow")
    when = day_bounds(DAYS[2], TZ)[0] + timedelta(hours=10, seconds=7)
    bucket["events"].append(
        {"timestamp": when.isoformat(), "duration": 42.0, "data": {"app": "vim", "title": "x"}}
    )
    export.write_text(json.dumps(doc))
    after = keys(source)
    assert after[:2] == before[:2] and after[2] != before[2]


def test_notes_key_follows_the_days_note_and_a_live_server_is_never_cached(
    tmp_path: Path,
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "2026-11-20.md").write_text("- one\n")
    (notes / "2026-11-01.md").write_text("- far away\n")
    src = SourceConfig(kind="notes", path=notes, name="notes")
    day = date(2026, 11, 20)
    assert [p.name for p in input_files(src, day)] == ["2026-11-20.md"]
    a = day_fingerprint(src, day, "UTC", NOW)
    (notes / "2026-11-01.md").write_text("- changed, but another day\n")
    assert day_fingerprint(src, day, "UTC", NOW + timedelta(hours=1)) == a
    (notes / "2026-11-20.md").write_text("- one, edited\n")
    assert day_fingerprint(src, day, "UTC", NOW) != a
    live = SourceConfig(kind="activitywatch", url="http://127.0.0.1:5600")
    assert day_fingerprint(live, day, "UTC", NOW) is None


def test_an_unreadable_source_has_no_key(tmp_path: Path) -> None:
    broken = tmp_path / "History"
    broken.write_bytes(b"not a database at all")
    source = SourceConfig(kind="chrome", path=broken, name="chrome")
    assert day_fingerprint(source, DAYS[0], TZ, NOW) is None


def test_a_day_is_read_once_for_its_key_and_its_ingest_unless_its_file_changed(
    tmp_path: Path, monkeypatch
) -> None:
    import omoide.ingest.fingerprint as fingerprint

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "2026-11-20.md").write_text("- one\n")
    src = SourceConfig(kind="notes", path=notes, name="notes")
    day = date(2026, 11, 20)
    reads = []
    real = fingerprint.collect
    monkeypatch.setattr(fingerprint, "collect", lambda *a: reads.append(a) or real(*a))
    key = day_fingerprint(src, day, "UTC", NOW)
    assert collected_fingerprint(collected_day(src, day, "UTC", NOW)) == key
    assert len(reads) == 1  # the ingest took what the key was computed from
    day_fingerprint(src, day, "UTC", NOW)
    (notes / "2026-11-20.md").write_text("- one, edited after the key\n")
    again = collected_day(src, day, "UTC", NOW)
    assert len(reads) == 3 and "edited" in " ".join(again.events["text"].dropna())


def test_a_lone_surrogate_in_collected_text_still_gives_a_key() -> None:
    import pandas as pd

    from omoide.ingest.sources.base import Collected

    def frame(title: str) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "event_id": pd.Series(["e1"], dtype=object),
                "title": pd.Series([title], dtype=object),
                "entities": pd.Series([[]], dtype=object),
                "recorded_at": [pd.Timestamp(NOW)],
            }
        )

    # pandas hashes text as UTF-8, which a lone surrogate cannot be: hashed by its raw code units.
    one, other = (collected_fingerprint(Collected(frame(t))) for t in ("a\ud800", "a\ud801"))
    assert one != other
    assert collected_fingerprint(Collected(frame("a\ud800"))) == one
