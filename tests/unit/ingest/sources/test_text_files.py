"""The shared text reading of every reader: BOMs decoded, binary files refused, garbage told apart, links listed."""

from __future__ import annotations

import codecs
import os
import sqlite3
from pathlib import Path

import pytest

from omoide.core.errors import SourceError
from omoide.ingest.sources.base import folder_files, visible_entries, visible_files
from omoide.ingest.sources.text_files import garbled, garbled_positions, not_text, utf8_text

TEXT = "- Tee mit @Peter im Café 🍵\n- 京都の宿\n"


def _sqlite(path: Path) -> Path:
    """Path -> a small real SQLite database written there."""
    conn = sqlite3.connect(path)
    conn.executescript("CREATE TABLE tags(name TEXT); INSERT INTO tags VALUES ('tags');")
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize(
    "raw",
    [
        TEXT.encode("utf-16"),  # Notepad's "Unicode": UTF-16 LE with its BOM
        codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"),
        TEXT.encode("utf-32"),
        codecs.BOM_UTF32_BE + TEXT.encode("utf-32-be"),
    ],
    ids=["utf16-le", "utf16-be", "utf32-le", "utf32-be"],
)
def test_utf16_and_utf32_with_a_bom_are_decoded(raw: bytes) -> None:
    assert utf8_text(raw, "note.md") == TEXT.encode("utf-8")


def test_utf8_is_returned_as_it_is_bom_included() -> None:
    # Readers count byte offsets of undecodable lines from the file's own start.
    for raw in (TEXT.encode(), codecs.BOM_UTF8 + TEXT.encode(), b"caf\xe9 latin-1 line\n"):
        assert utf8_text(raw, "x") == raw


def test_a_database_where_text_should_be_is_refused_by_name(tmp_path: Path) -> None:
    db = _sqlite(tmp_path / "2026-11-20.md")
    with pytest.raises(SourceError, match="not text: an SQLite database") as err:
        utf8_text(db.read_bytes(), db)
    assert err.value.path == str(db)


def test_utf16_without_a_bom_and_random_bytes_are_not_text() -> None:
    assert "not text" in (not_text(TEXT.encode("utf-16-le")) or "")
    assert "not text" in (not_text(bytes(range(256)) * 40) or "")
    assert "a PNG image" in (not_text(b"\x89PNG\r\n\x1a\n" + b"x" * 100) or "")


def test_stray_nul_bytes_and_a_crash_tail_do_not_make_a_file_binary() -> None:
    assert not_text(b"- the t\x00he note\n") is None
    assert not_text(TEXT.encode() + bytes(8192)) is None  # judged line by line instead
    assert not_text(b"") is None


def test_damaged_utf16_is_refused_with_its_offset() -> None:
    raw = "ab".encode("utf-16") + b"\x00\xd8" + "cd".encode("utf-16-le")  # a lone surrogate
    with pytest.raises(SourceError, match=r"not valid UTF-16 text \(byte offset 6"):
        utf8_text(raw, "note.md")


def test_garbled_is_mostly_control_or_replacement_characters() -> None:
    assert garbled("\ufffd" * 10)
    assert garbled("\ufffdt\ufffda\ufffdg\ufffds\ufffd")  # UTF-16 read as UTF-8
    assert garbled("\x00\x01\x02 x")
    assert not garbled("Mozi\ufffdla Firefox")  # one bad byte in a title
    assert not garbled("bell\x07 and \x1b[31mred\x1b[0m")
    assert not garbled("")
    assert not garbled("   \n\t")


def test_literal_names_list_broken_and_looping_links(tmp_path: Path) -> None:
    # Path.rglob with a name that has no wildcard skips both on Python 3.11.
    (tmp_path / "2026-11-20.md").symlink_to(tmp_path / "gone.md")
    (tmp_path / "Daily").mkdir()
    (tmp_path / "Daily" / "2026-11-21.md").symlink_to(tmp_path / "Daily" / "2026-11-21.md")
    (tmp_path / ".trash").mkdir()
    (tmp_path / ".trash" / "2026-11-20.md").write_text("deleted")
    os.mkfifo(tmp_path / "2026-11-22.md")
    assert visible_entries(tmp_path, "2026-11-20.md") == [tmp_path / "2026-11-20.md"]
    assert visible_entries(tmp_path, "2026-11-21.md") == [tmp_path / "Daily" / "2026-11-21.md"]
    assert visible_entries(tmp_path, "2026-11-22.md") == [tmp_path / "2026-11-22.md"]
    assert visible_files(tmp_path, "*.md") == []


def test_folder_files_names_what_is_not_a_file_and_an_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text("{}\n")
    (tmp_path / "b.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    (tmp_path / "c.jsonl").mkdir()
    files, odd = folder_files(tmp_path, "*.jsonl", "chat log")
    assert files == [tmp_path / "a.jsonl"]
    assert [(r.ref, r.reason) for r in odd] == [
        (str(tmp_path / "b.jsonl"), "chat log is a broken link"),
        (str(tmp_path / "c.jsonl"), "chat log is a folder, not a file"),
    ]
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("x")
    with pytest.raises(SourceError, match=r"no chat log \(\*\.jsonl\) in this folder") as err:
        folder_files(empty, "*.jsonl", "chat log")
    assert err.value.path == str(empty)


def test_garbled_positions_measures_a_column_at_once() -> None:
    import pyarrow as pa

    values = pa.array(["ok", "\ufffd\ufffd\x00", "a\x00b", None, "\x07\x07", "Café"])
    assert garbled_positions(values).tolist() == [1, 4]
    assert garbled_positions(pa.array([], pa.string())).tolist() == []
