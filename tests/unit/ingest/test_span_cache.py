"""Kept day keys: a backfill re-run reads no unchanged source, and any change to a source's files is seen."""

from __future__ import annotations

import json
import os
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from omoide.core.days import day_bounds
from omoide.core.settings import SourceConfig
from omoide.ingest import span_cache
from omoide.ingest.fingerprint import span_prints
from omoide.sample import write_sample

NOW = datetime(2026, 11, 21, 8, tzinfo=UTC)
DAYS = [date(2026, 11, 18), date(2026, 11, 19), date(2026, 11, 20)]
TZ = "Europe/Berlin"
SOURCES = [
    ("chrome", "chrome/Default"),
    ("firefox", "firefox/places.sqlite"),
    ("activitywatch", "activitywatch"),
    ("notes", "notes"),
    ("chat", "chat"),
]


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """-> the names of the sources read to key a span, one entry per read (files trusted at once)."""
    monkeypatch.setattr(span_cache, "RACY_NS", -(10**12))
    seen: list[str] = []
    read = span_cache.span_prints

    def counted(source: SourceConfig, *args: object) -> object:
        seen.append(source.name)
        return read(source, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(span_cache, "span_prints", counted)
    return seen


def keyed(source: SourceConfig, kept: Path, now: datetime = NOW) -> dict[date, str | None]:
    """Source + the folder of kept keys (+ now) -> its span's day keys through the cache."""
    return span_cache.planned_fingerprints(source, DAYS, TZ, now, kept, "v1")


def test_every_kind_of_source_is_keyed_once_then_reused_with_the_same_keys(
    tmp_path: Path, reads: list[str]
) -> None:
    write_sample(tmp_path, days=3)
    for kind, path in SOURCES:
        source = SourceConfig(kind=kind, path=tmp_path / "sources" / path, name=kind)
        first = keyed(source, tmp_path / "kept")
        assert first == span_prints(source, DAYS, TZ, NOW)[0], kind
        assert None not in first.values() and len(set(first.values())) == 3, kind
        assert keyed(source, tmp_path / "kept", NOW + timedelta(days=30)) == first, kind
    assert reads == [kind for kind, _ in SOURCES]


def test_a_changed_file_added_file_or_renamed_folder_is_read_again(
    tmp_path: Path, reads: list[str]
) -> None:
    write_sample(tmp_path, days=3)
    folder = tmp_path / "sources" / "activitywatch"
    source = SourceConfig(kind="activitywatch", path=folder, name="aw")
    before = keyed(source, tmp_path / "kept")
    export = folder / "aw-buckets-export.json"
    doc = json.loads(export.read_text())
    bucket = next(b for b in doc["buckets"].values() if b["type"] == "currentwindow")
    when = day_bounds(DAYS[1], TZ)[0] + timedelta(hours=10, seconds=7)
    bucket["events"].append(
        {"timestamp": when.isoformat(), "duration": 42.0, "data": {"app": "vim", "title": "x"}}
    )
    stat = export.stat()
    export.write_text(json.dumps(doc))
    # Its modified time put back, as a copy that keeps times does: the change time still moves.
    os.utime(export, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    after = keyed(source, tmp_path / "kept")
    assert after[DAYS[1]] != before[DAYS[1]]
    assert after[DAYS[0]] == before[DAYS[0]] and after[DAYS[2]] == before[DAYS[2]]
    assert keyed(source, tmp_path / "kept") == after
    assert reads == ["aw", "aw"]

    notes = SourceConfig(kind="notes", path=tmp_path / "sources" / "notes", name="notes")
    noted = keyed(notes, tmp_path / "kept")
    (tmp_path / "sources" / "notes" / "sub").mkdir()
    (tmp_path / "sources" / "notes" / "sub" / f"{DAYS[0]}.md").write_text("- 09:00 a second note\n")
    assert keyed(notes, tmp_path / "kept")[DAYS[0]] != noted[DAYS[0]]
    assert reads.count("notes") == 2  # kept, then read again once the folder changed
    # A hidden folder's files are no one's records (an editor's state): no new read.
    (tmp_path / "sources" / "notes" / ".obsidian").mkdir()
    (tmp_path / "sources" / "notes" / ".obsidian" / "workspace.json").write_text("{}")
    keyed(notes, tmp_path / "kept")
    assert reads.count("notes") == 2


def test_keys_a_later_now_could_change_or_files_just_written_are_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_sample(tmp_path, days=3)
    chat = tmp_path / "sources" / "chat" / "chat.jsonl"
    source = SourceConfig(kind="chat", path=chat, name="chat")
    kept = tmp_path / "kept"
    # Written a moment ago: a write in the same clock tick would leave the same times.
    keyed(source, kept)
    assert not kept.exists()

    monkeypatch.setattr(span_cache, "RACY_NS", -(10**12))
    # A span reaching past tomorrow: a record now impossible may become possible.
    keyed(source, kept, now=datetime(2026, 11, 19, 8, tzinfo=UTC))
    assert not kept.exists()
    # A record from the future is rejected now, not once its time has come.
    with chat.open("a", encoding="utf-8") as f:
        f.write(json.dumps({"ts": "2030-01-01T00:00:00Z", "speaker": "me", "text": "hi"}) + "\n")
    keyed(source, kept)
    assert not kept.exists()


def test_an_earlier_now_or_a_damaged_kept_file_reads_the_source_again(
    tmp_path: Path, reads: list[str]
) -> None:
    write_sample(tmp_path, days=3)
    source = SourceConfig(
        kind="firefox", path=tmp_path / "sources" / "firefox" / "places.sqlite", name="ff"
    )
    kept = tmp_path / "kept"
    first = keyed(source, kept)
    assert keyed(source, kept, NOW - timedelta(hours=1)) == first
    assert reads == ["ff", "ff"]
    (path,) = kept.iterdir()
    right = json.loads(path.read_text())
    wrong_keys = {**right, "days": dict.fromkeys(right["days"], 3)}
    wrong_shape = {**right, "spans": [], "now": "yesterday"}
    for damage in ("{not json", "[]", "null", json.dumps(wrong_keys), json.dumps(wrong_shape)):
        path.write_text(damage)
        assert keyed(source, kept) == first
        assert keyed(source, kept) == first  # kept again whole
    assert len(reads) == 7


def test_days_keyed_by_two_backfills_are_reused_by_one_over_both(
    tmp_path: Path, reads: list[str]
) -> None:
    write_sample(tmp_path, days=3)
    history = tmp_path / "sources" / "chrome" / "Default"
    source = SourceConfig(kind="chrome", path=history, name="chrome")
    kept = tmp_path / "kept"
    head = span_cache.planned_fingerprints(source, DAYS[:1], TZ, NOW, kept, "v1")
    tail = span_cache.planned_fingerprints(source, DAYS[1:], TZ, NOW, kept, "v1")
    assert keyed(source, kept) == {**head, **tail} == span_prints(source, DAYS, TZ, NOW)[0]
    assert reads == ["chrome", "chrome"]
    # Another version of the collectors keys them again.
    span_cache.planned_fingerprints(source, DAYS, TZ, NOW, kept, "v2")
    assert reads == ["chrome", "chrome", "chrome"]


def test_a_span_with_a_rejected_record_keeps_its_keys_for_that_span_only(
    tmp_path: Path, reads: list[str]
) -> None:
    # A rejected record counts in every day of the span it was read in: another span's
    # days have other keys, so they are never taken from it.
    write_sample(tmp_path, days=3)
    chat = tmp_path / "sources" / "chat" / "chat.jsonl"
    when = day_bounds(DAYS[1], TZ)[0] + timedelta(hours=9)
    with chat.open("a", encoding="utf-8") as f:
        f.write(json.dumps({"ts": when.isoformat(), "speaker": "me", "text": "\x01" * 40}) + "\n")
    source = SourceConfig(kind="chat", path=chat, name="chat")
    kept = tmp_path / "kept"
    whole = keyed(source, kept)
    assert keyed(source, kept) == whole == span_prints(source, DAYS, TZ, NOW)[0]
    assert reads == ["chat"]
    head = span_cache.planned_fingerprints(source, DAYS[:2], TZ, NOW, kept, "v1")
    assert head == span_prints(source, DAYS[:2], TZ, NOW)[0]
    assert reads == ["chat", "chat"]
