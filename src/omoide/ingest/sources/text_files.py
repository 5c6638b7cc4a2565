"""Bytes of a text source -> UTF-8 text, or why they are not text: one place for every text reader.

Which encodings: UTF-8 (with or without a BOM), and UTF-16 or UTF-32 when the file starts with
their byte-order mark, as Windows editors (Notepad's "Unicode") and some exporters write them.
No charset guessing (charset-normalizer, chardet): the formats omoide reads are UTF-8 by their
own specs (JSON, JSONL, the exports), Markdown vaults are UTF-8, and a guess that is wrong for
a short note turns it into confident mojibake; a BOM is a declaration, not a guess. A file in
a legacy 8-bit encoding is still read line by line, and each line that is not UTF-8 is
rejected by its reader, naming the line.

Not text: a file that starts with the signature of a known binary format (SQLite, ZIP, PDF,
images, ...), or whose first block is mostly unreadable: more than `MAX_UNREADABLE` of its
characters control characters (NUL included) or bytes that are not UTF-8. Ordinary text holds
next to none; a UTF-16 file without a BOM holds about one NUL per character, a binary file
mostly invalid UTF-8. A stray NUL byte in a note does not make it binary (the reader stores
the note with the NUL replaced, counted), nor does a block of them at its end (what a crash
leaves); a file of them does. The same measure, on one value, tells a record whose text is
garbage (`garbled`: more than half unreadable): it is rejected, never stored.
"""

from __future__ import annotations

import codecs
import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from omoide.core.errors import SourceError

# Checked before the UTF-16 one: the UTF-32 LE mark starts with it.
BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)
# File signatures ("magic numbers") of binary formats found where text should be.
SIGNATURES = (
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"PK\x03\x04", "a ZIP archive (or an Office document)"),
    (b"%PDF-", "a PDF document"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"\xfd7zXZ\x00", "an xz archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"\x7fELF", "a program (ELF)"),
    (b"bplist00", "a binary property list"),
)
NOT_TEXT_LINE = "not text: mostly control or replacement characters"
SNIFF_BYTES = 65_536
MAX_UNREADABLE = 0.3
# Control characters a text holds on purpose: tab, line ends, vertical tab, form feed, and ESC (ANSI colour
# in terminal logs). Every other C0/C1 control, DEL and U+FFFD (a byte that was not UTF-8, or
# a character its writer had already lost) counts as unreadable.
_UNREADABLE = re.compile("[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f-\x9f\ufffd]")
# The same characters for Arrow's RE2, to find the few values worth measuring in a column.
_SUSPECT = r"[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f-\x{9f}\x{fffd}]"
# White space does not count either way (Python's \s also takes the C0 separators and NEL).
_SPACE = re.compile(r"[^\S\x1c-\x1f\x85]")


def unreadable_share(text: str) -> float:
    """Text -> the share of its non-space characters that are control or replacement characters."""
    bad = _UNREADABLE.subn("", text)[1]
    if not bad:
        return 0.0
    return bad / (len(text) - _SPACE.subn("", text)[1])


def garbled(text: str) -> bool:
    """A value -> is it mostly control or replacement characters (garbage, never stored)?"""
    return _UNREADABLE.search(text) is not None and unreadable_share(text) > 0.5


def garbled_positions(values: pa.Array) -> np.ndarray:
    """Arrow strings (nulls allowed) -> positions of the garbled ones, measured only where needed."""
    suspect = pc.fill_null(pc.match_substring_regex(values, _SUSPECT), False)
    found = np.flatnonzero(suspect.to_numpy(zero_copy_only=False))
    return found[[garbled(values[int(i)].as_py()) for i in found]].astype(np.int64)


def not_text(data: bytes) -> str | None:
    """File bytes -> why they are not text (binary format, unreadable bytes), or None."""
    for signature, what in SIGNATURES:
        if data.startswith(signature):
            return f"not text: {what}"
    if any(data.startswith(bom) for bom, _, _ in BOMS):
        return None  # declared text; decoding it tells whether it is
    # A file a crash cut short often ends in a block of NUL bytes: that block is judged as
    # the record it lands in (rejected as garbage), not as the file's nature.
    head = data[:SNIFF_BYTES].rstrip(b"\x00")
    sample = codecs.getincrementaldecoder("utf-8")("replace").decode(head)
    share = unreadable_share(sample)
    if share > MAX_UNREADABLE:
        return (
            f"not text: {share:.0%} of its first {len(head)} bytes are control characters "
            "or not UTF-8 (a binary file, or UTF-16 without a BOM?)"
        )
    return None


def utf8_text(data: bytes, path: object) -> bytes:
    """File bytes -> the same text as UTF-8 bytes; SourceError naming the file if it is not text.

    UTF-16/32 (marked by their BOM) are decoded strictly and re-encoded without the BOM: a
    damaged unit there shifts every character after it, so such a file is refused whole
    rather than read as garbage. UTF-8 bytes are returned unchanged, a BOM included, so the
    byte offsets readers report for lines that are not UTF-8 are the file's own.
    """
    why = not_text(data)
    if why is not None:
        raise SourceError(path, why)
    for bom, codec, name in BOMS:
        if not data.startswith(bom):
            continue
        if codec == "utf-8":
            return data
        body = data[len(bom) :]
        try:
            text = body.decode(codec)
        except UnicodeDecodeError as exc:
            raise SourceError(
                path, f"not valid {name} text (byte offset {len(bom) + exc.start}: {exc.reason})"
            ) from exc
        out = text.encode("utf-8")
        why = not_text(out)
        if why is not None:
            raise SourceError(path, f"{why} (read as {name})")
        return out
    return data
