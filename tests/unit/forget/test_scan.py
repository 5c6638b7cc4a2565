"""The receipt's scan: raw bytes in any case and escaping, decoded parquet, whole words, own files left out."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from omoide.forget.scan import scan_home
from omoide.forget.select import Needle


def test_the_scan_finds_text_however_it_is_stored_and_skips_the_persons_own_files(
    tmp_path: Path,
) -> None:
    home = tmp_path
    (home / "cache").mkdir()
    (home / "cache/a.json").write_text(json.dumps({"t": "Café Zorblax"}), encoding="utf-8")
    (home / "cache/b.txt").write_text("see https://x.example/?q=caf%C3%A9%20zorblax")
    # Compressed: the raw bytes do not hold it, the decoded column does.
    pq.write_table(
        pa.table({"titles": [["x", "ZORBLAX visit " * 50]]}), home / "p.parquet", compression="zstd"
    )
    (home / "sources").mkdir()
    (home / "sources/notes.md").write_text("Café Zorblax, my own note")
    (home / "other.txt").write_text("Peterson and Quillon's plan")

    hits = scan_home(home, [Needle("Café Zorblax"), Needle("zorblax visit")], [home / "sources"])
    found = {(h.path.name, h.needle) for h in hits}
    assert ("a.json", 0) in found  # JSON-escaped é
    assert ("b.txt", 0) in found  # URL-quoted
    assert ("p.parquet", 1) in found
    assert not any(h.path.name == "notes.md" for h in hits)

    words = scan_home(home, [Needle("Peter", word=True), Needle("Quillon", word=True)])
    assert {(h.path.name, h.needle) for h in words} == {("other.txt", 1)}
