"""Chat logs with bad lines: each one quarantined with its line and reason, the rest kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from omoide.core.errors import SourceError
from omoide.ingest.sources.chat import collect
from tests.unit.ingest.sources.test_chat import END, NOW, START, TEAM, _source


def test_bad_lines_are_rejected_with_refs_and_reasons() -> None:
    out = collect(_source(TEAM), START, END, NOW)
    got = [(r.ref.rsplit("#", 1)[1], r.reason, r.excerpt) for r in out.rejects]
    assert got[0][0] == "L5" and got[0][1].startswith("invalid JSON at col ")
    assert got[1:] == [
        ("L6", "timestamp without timezone", ""),
        ("L7", "missing 'ts'", ""),
        ("L8", "missing or empty 'text'", ""),
        ("L9", "unparseable timestamp", ""),
        ("L10", "line is not a JSON object", ""),
        ("L11", "'speaker' is not a string", ""),
    ]
    assert all(r.ref.startswith(f"{TEAM}#") for r in out.rejects)


def test_invalid_utf8_line_is_rejected_and_others_kept(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    good = b'{"ts": "2026-11-20T12:00:00+01:00", "speaker": "me", "text": "ok"}\n'
    bad = b'{"ts": "2026-11-20T12:01:00+01:00", "speaker": "me", "text": "caf\xff\xfe"}\n'
    log.write_bytes(good + bad + good.replace(b"ok", b"still ok"))
    out = collect(_source(log), START, END, NOW)
    offset = len(good) + bad.index(b"\xff")
    assert [(r.ref, r.reason) for r in out.rejects] == [
        (f"{log}#L2", f"invalid UTF-8 at byte offset {offset}")
    ]
    assert out.events["text"].tolist() == ["ok", "still ok"]
    assert out.events["title"].isna().all()  # no conversation given


def test_missing_path_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such chat log"):
        collect(_source(tmp_path / "gone.jsonl"), START, END, NOW)
