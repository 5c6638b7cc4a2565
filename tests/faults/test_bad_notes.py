"""Notes with undecodable lines: the line quarantined with its byte offset, the rest of the note kept."""

from __future__ import annotations

from pathlib import Path

from omoide.ingest.sources.notes import collect
from tests.unit.ingest.sources.test_notes import END, NOW, START, _source


def test_invalid_utf8_line_is_rejected_and_the_rest_collected(tmp_path: Path) -> None:
    note = tmp_path / "2026-11-20.md"
    data = b"- first line\n\n- caf\xff\xfe menu\n\n- \xe6\x97\xa5\xe8\xa8\x98 last line\n"
    note.write_bytes(data)
    assert data.index(b"\xff") == 19
    out = collect(_source(note), START, END, NOW)
    assert [(r.ref, r.reason) for r in out.rejects] == [
        (f"{note}#L3", "invalid UTF-8 at byte offset 19")
    ]
    assert list(zip(out.events["source_ref"], out.events["text"], strict=True)) == [
        (f"{note}#L1", "first line"),
        (f"{note}#L5", "日記 last line"),
    ]
