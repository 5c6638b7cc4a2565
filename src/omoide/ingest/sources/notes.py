"""Markdown daily notes (`YYYY-MM-DD.md`, e.g. an Obsidian vault's daily notes) -> events.

Which file: the caller's window is one local calendar day, so its start is a local midnight
at UTC offset -12..+14 h. The day read is the UTC date of `start + 13 h`, which is that
local day for every offset above -11:00 up to +13:00 (all inhabited zones but UTC-11, e.g.
Pago Pago, and +13:45/+14, e.g. Kiritimati): Kiritimati's day D+1 and Honolulu's day D
are the very same UTC window, so no rule without the timezone can serve both. A folder is
searched recursively for that file name (hidden folders such as `.trash` are skipped); a
single-file source must itself be named so. A folder, FIFO, broken or looping link of that
name is a Reject naming it. A day without a note is normal, but a folder that holds no
daily note at all (no `YYYY-MM-DD.md` anywhere) is a SourceError naming it: the source
points at the wrong folder, or its notes are named another way.

What becomes an event: each paragraph and each list item (nested items on their own) is a
`note` event whose text is the Markdown source without the list marker; a fenced or
indented code block is kept whole as one `note` event (its text is the code, no entities,
as `@decorators` are not people). Headings are not events: the heading path ("Work >
Meetings") goes into `title`. YAML front matter and HTML blocks (comments, embeds) are
skipped. @mentions become `entities`.

`## Retain` sections (OpenClaw convention): items like `W @Peter: text`, `B @x: text`,
`O(c=0.9) @x: text`, `S text` become `retain` events with `fact_kind`, `confidence` (O only),
`entities` (the @names before the colon, then any in the statement) and the statement as
text. A bad confidence (not a number in [0, 1], or given on a non-O line) is a Reject;
items without the `K ...` head stay ordinary notes.

Time: an item starting with `HH:MM` gets that wall-clock time (the prefix is removed from
the text); every other event gets the window start (local midnight). Wall-clock times are
offsets from local midnight; times from 04:00 on are shifted by the day's DST change
(window length - 24 h), as zones switch in the small hours.

Bytes are decoded line by line: a line that is not UTF-8 is a Reject (offset counted from the
start of the file) and is read as blank, so the rest of the file is still collected. A
UTF-16/32 note with a BOM (Notepad's "Unicode") is decoded; a note that is not text (an
SQLite file, a block of NUL bytes, UTF-16 without a BOM) is one Reject naming the file, and a
paragraph that is mostly control or replacement characters a Reject naming its line
(see text_files): neither is stored.
Event ids hash the file's relative path, the block's normalised text and its occurrence
index among equal blocks, not its line: editing lines above keeps the ids of the rest.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from omoide.core.errors import SourceError
from omoide.core.ids import stable_id
from omoide.core.markers import without_pipeline_block
from omoide.core.settings import SourceConfig
from omoide.ingest.sources.base import (
    Collected,
    Reject,
    events_frame,
    not_a_file,
    read_source,
    visible_entries,
    visible_files,
)
from omoide.ingest.sources.text_files import NOT_TEXT_LINE, garbled, utf8_text

log = logging.getLogger(__name__)

KIND = "notes"
DAY_SHIFT = timedelta(hours=13)
DST_SWITCHED_BY = timedelta(hours=4)

_DAY_FILE = re.compile(r"\d{4}-\d{2}-\d{2}\.md")
_MENTION = re.compile(r"(?<![\w@])@(\w[\w\-]*(?:\.\w[\w\-]*)*)")
_TIME = re.compile(
    r"(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?![\d:])\s*(?:[-–—]\s*)?(?P<rest>.*)", re.S
)
_RETAIN = re.compile(
    r"(?P<kind>[WBOS])(?:\((?P<params>[^)]*)\))?(?![^\s:])"
    r"(?P<who>(?:\s+@\w[\w.\-]*)*)\s*(?P<colon>:)?\s*(?P<text>.*)",
    re.S,
)
_CONFIDENCE = re.compile(r"\s*c\s*=\s*(?P<c>\S*)\s*")


@dataclass
class _Block:
    """One Markdown block that becomes an event: raw text, first line, heading path."""

    text: str
    line: int
    title: str | None
    retain: bool
    code: bool = False


def note_day(start: datetime) -> date:
    """Start of a local-day window (UTC) -> that local calendar day (see module doc)."""
    return (start.astimezone(UTC) + DAY_SHIFT).date()


def note_days(source: SourceConfig) -> list[date]:
    """Notes folder or daily-note file -> the days that have a note, by file name, in order."""
    root = source.path
    if root is None or not root.exists():
        raise SourceError(root or source.name, "no such notes file or folder")
    files = visible_files(root, "*.md") if root.is_dir() else [root]
    days = []
    for f in files:
        if _DAY_FILE.fullmatch(f.name):
            try:
                days.append(date.fromisoformat(f.name.removesuffix(".md")))
            except ValueError:
                continue  # 2026-13-45.md is no day: never collected either
    return sorted(days)


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """Notes folder or daily-note file + UTC day window -> note/retain events of that day."""
    root = source.path
    if root is None or not root.exists():
        raise SourceError(root or source.name, "no such notes file or folder")
    name = f"{note_day(start).isoformat()}.md"
    rejects: list[Reject] = []
    if root.is_dir():
        files = []
        # A folder, FIFO, broken or looping link where the day's note should be is named.
        for entry in visible_entries(root, name):
            why = not_a_file(entry)
            if why is None:
                files.append(entry)
            else:
                rejects.append(Reject(str(entry), f"the day's note: {why}"))
        if not files and not rejects and not _holds_daily_notes(root):
            raise SourceError(root, "no daily note (YYYY-MM-DD.md) in this folder")
    elif not _DAY_FILE.fullmatch(root.name):
        raise SourceError(root, "a single-file notes source must be named YYYY-MM-DD.md")
    else:
        files = [root] if root.name == name else []
    records: list[dict[str, Any]] = []
    for f in files:
        data = read_source(f)
        try:
            data = utf8_text(data, f)
        except SourceError as exc:
            rejects.append(Reject(str(f), f"the day's note: {exc.reason}"))
            continue
        rel = f.relative_to(root).as_posix() if root.is_dir() else f.name
        recs, bad = note_events(data, str(f), rel, source.name, start, end)
        records.extend(recs)
        rejects.extend(bad)
    fixed: Counter[str] = Counter()
    events = events_frame(records, now, fixed, rejects)
    log.info("notes: %d file(s), %d event(s), %d rejected", len(files), len(events), len(rejects))
    return Collected(events, rejects, dict(fixed))


def _holds_daily_notes(root: Path) -> bool:
    """Notes folder -> does it hold any entry named like a daily note (YYYY-MM-DD.md)?"""
    return any(_DAY_FILE.fullmatch(p.name) for p in visible_entries(root, "*.md"))


def decode_lines(data: bytes, path: str) -> tuple[list[str], list[Reject]]:
    """File bytes -> text lines (undecodable or garbled ones blank) and a Reject per bad line.

    Lines end at LF, CRLF or a lone CR (an old Mac file), as a Markdown reader sees them.
    """
    lines: list[str] = []
    rejects: list[Reject] = []
    offset = 0
    if data.startswith(b"\xef\xbb\xbf"):
        data, offset = data[3:], 3
    for n, raw in enumerate(data.splitlines(keepends=True), start=1):
        body = raw.rstrip(b"\r\n")
        try:
            line = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            lines.append("")
            rejects.append(
                Reject(f"{path}#L{n}", f"invalid UTF-8 at byte offset {offset + exc.start}")
            )
        else:
            # A run of NUL or control bytes (a crash's tail) is no line of the user's; left
            # in, Markdown would join it to the paragraph above and spoil that too.
            lines.append("" if garbled(line) else line)
            if garbled(line):
                rejects.append(Reject(f"{path}#L{n}", NOT_TEXT_LINE))
        offset += len(raw)
    if not data or data.endswith((b"\n", b"\r")):
        lines.append("")  # the empty line after the last line break, as str.split gives
    return lines, rejects


def _blank_front_matter(lines: list[str]) -> None:
    """Lines -> same lines with a leading YAML front matter block blanked (numbering kept)."""
    if not lines or lines[0].rstrip() != "---":
        return
    for j in range(1, len(lines)):
        if lines[j].rstrip() in ("---", "..."):
            lines[: j + 1] = [""] * (j + 1)
            return


def _blocks(lines: list[str]) -> list[_Block]:
    """Markdown lines -> paragraphs, list items, code and HTML blocks with their heading paths.

    Any line with text that no block or heading covers (Markdown nested deeper than the
    parser follows, say) becomes a block of its own: a line of the user's is never dropped.
    """
    tokens = MarkdownIt("commonmark").parse("\n".join(lines))
    headings: list[tuple[int, str]] = []
    blocks: list[_Block] = []
    covered: set[int] = set()
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            level = int(tok.tag[1:])
            headings = [h for h in headings if h[0] < level] + [(level, tokens[i + 1].content)]
            covered.update(range(*tok.map) if tok.map else ())
            continue
        title = " > ".join(h[1] for h in headings) or None
        retain = any(h[1].strip().casefold() == "retain" for h in headings)
        line = (tok.map[0] if tok.map else 0) + 1
        if tok.type == "inline" and tokens[i - 1].type == "paragraph_open":
            blocks.append(_Block(tok.content, line, title, retain))
        elif tok.type in ("fence", "code_block", "html_block") and tok.content.strip():
            blocks.append(_Block(tok.content.rstrip("\n"), line, title, False, code=True))
        else:
            continue
        covered.update(range(*tok.map) if tok.map else ())
    for n, text in enumerate(lines):
        if n not in covered and text.strip() and _has_words(text):
            blocks.append(_Block(text.strip(), n + 1, None, False, code=True))
    return sorted(blocks, key=lambda b: b.line)


def _has_words(text: str) -> bool:
    """Line -> does it hold anything but Markdown punctuation (fences, rules, quote marks)?"""
    return any(ch.isalnum() for ch in text)


def mentions(text: str) -> list[str]:
    """Text -> @mention names without '@', in order, each once."""
    return list(dict.fromkeys(m.rstrip(".-") for m in _MENTION.findall(text)))


def _retain(block: _Block, ref: str) -> dict[str, Any] | Reject | None:
    """Retain-section item -> retain fields, a Reject, or None when it has no `K ...` head."""
    m = _RETAIN.fullmatch(block.text)
    if m is None:
        return None
    kind, params, who = m["kind"], m["params"], m["who"]
    confidence: float | None = None
    if params is not None:
        c = _CONFIDENCE.fullmatch(params)
        if c is None:
            return Reject(ref, f"retain parameters must be 'c=0..1', not {params.strip()!r}")
        if kind != "O":
            return Reject(ref, f"confidence given on a {kind} line (only O lines carry one)")
        try:
            confidence = float(c["c"])
        except ValueError:
            confidence = None
        if confidence is None or not 0.0 <= confidence <= 1.0:
            return Reject(ref, f"confidence {c['c']!r} is not a number in [0, 1]")
    if who and not m["colon"]:
        # Without a colon the @names are part of the sentence, not a subject list.
        text = block.text[len(kind) + (len(params) + 2 if params is not None else 0) :].strip()
    else:
        text = m["text"].strip()
    if not text:
        return Reject(ref, "retain item without a statement")
    names = [w.lstrip("@").rstrip(".-") for w in who.split()]
    return {
        "event_type": "retain",
        "fact_kind": kind,
        "confidence": confidence,
        "text": text,
        "entities": list(dict.fromkeys(names + mentions(text))),
    }


def _when(text: str, start: datetime, end: datetime) -> tuple[datetime, str]:
    """Item text + window -> (timestamp, text without its HH:MM prefix)."""
    m = _TIME.fullmatch(text)
    if m is None or not m["rest"].strip():
        return start, text
    wall = timedelta(hours=int(m["h"]), minutes=int(m["m"]))
    shift = (end - start) - timedelta(hours=24) if wall >= DST_SWITCHED_BY else timedelta(0)
    return start + wall + shift, m["rest"]


def note_events(
    data: bytes,
    path: str,
    rel: str,
    source_name: str,
    start: datetime,
    end: datetime,
) -> tuple[list[dict[str, Any]], list[Reject]]:
    """Daily-note bytes + UTC day window -> event records and rejects."""
    lines, rejects = decode_lines(data, path)
    _blank_front_matter(lines)
    # omoide's own digest block (a vault that is also a notes source) is not the user's writing.
    lines[:] = without_pipeline_block(lines)
    seen: Counter[str] = Counter()
    records: list[dict[str, Any]] = []
    for block in _blocks(lines):
        ref = f"{path}#L{block.line}"
        norm = " ".join(block.text.split())
        occurrence = seen[norm]
        seen[norm] += 1
        fields: dict[str, Any] | Reject | None = _retain(block, ref) if block.retain else None
        if isinstance(fields, Reject):
            rejects.append(fields)
            continue
        ts = start
        if fields is None and block.code:
            fields = {"event_type": "note", "text": block.text, "entities": []}
        elif fields is None:
            ts, text = _when(block.text, start, end)
            fields = {"event_type": "note", "text": text, "entities": mentions(text)}
        if not start <= ts < end:
            rejects.append(Reject(ref, "item time falls outside the day's window"))
            continue
        records.append(
            {
                "event_id": stable_id(KIND, source_name, rel, norm, occurrence),
                "ts": ts,
                "source": KIND,
                "source_name": source_name,
                "title": block.title,
                "source_ref": ref,
                **fields,
            }
        )
    return records, rejects
