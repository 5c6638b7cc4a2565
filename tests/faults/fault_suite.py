"""Every generated corruption through the ingest path, each in its own process, classified.

    python -m tests.faults.fault_suite [--json OUT] [--workers N] [--only TEXT]

A case's damaged input is ingested exactly as the daily flow's `ingest` task does it:
collect -> the cache key's fingerprint -> the raw edge check -> redaction -> the clean edge
check -> merge into a lake -> quarantine. An independent reader (an oracle written here with the standard library: json,
sqlite3, datetime) says which records the damaged input still holds for the day under test.
Each case is then one of:

- `ok`: every such record is in the lake or in quarantine with a reason;
- `named`: the source failed with a SourceError naming the file (a file that cannot be read
  as a whole, e.g. a damaged database, truncated JSON, a FIFO where a note should be);
- `all_rejected`: every record the day gave was quarantined with a reason and the source failed
  for the day naming the file, as the ingest task reports it (omoide.ingest.verdict);
- `silent_loss`: a record is in neither, and no error named it;
- `wrong_error`: an error, but not the right one (a damaged database called a lock, an error
  not naming the file, a whole source failed for one bad record);
- `garbage`: the lake holds NUL bytes, lone surrogates, uncapped huge values, or a value
  that is mostly U+FFFD or control characters (a binary file or a mis-decoded one read as
  text);
- `crash`: any other exception, the day's cache key included (it hashes what was collected);
- `hang`: the case did not finish within `hang_limit()` seconds (the process is killed).
"""

from __future__ import annotations

import argparse
import fnmatch
import functools
import json
import multiprocessing as mp
import os
import re
import shutil
import sqlite3
import sys
import tempfile
import time
import traceback
import unicodedata
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from tests.faults.corruptions import AW, NOTE, TZ, Case, all_cases

DAY = date(2026, 11, 20)
NOW = datetime(2026, 11, 21, 3, 0, tzinfo=UTC)
HANG_S = 60.0  # on a machine with a core per runnable process; see hang_limit
# What a timestamp may be: later than this and no later than the day after `now`.
EARLIEST = datetime(1990, 1, 1, tzinfo=UTC)
AW_TYPES = {"currentwindow", "afkstatus", "web.tab.current"}
WORD = re.compile(r"[^\W\d_]{3,}")
SURROGATE = re.compile("[\ud800-\udfff]")
CAPS = {"text": 65_536, "title": 4_096, "url": 4_096, "app": 4_096, "actor": 4_096}
DAILY_NOTE = re.compile(r"\d{4}-\d{2}-\d{2}\.md")
# Byte-order marks, the UTF-32 LE one before the UTF-16 LE one it starts with.
BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
BINARY = (b"SQLite format 3\x00", b"\x89PNG\r\n\x1a\n", b"PK\x03\x04", b"%PDF-")


def window() -> tuple[datetime, datetime]:
    """-> the UTC bounds of the day under test."""
    from omoide.core.days import day_bounds

    return day_bounds(DAY, TZ)


def possible(ts: datetime) -> bool:
    """Aware time -> could a person have recorded it (not before 1990, not after tomorrow)?"""
    return EARLIEST <= ts <= NOW + timedelta(days=1)


# --- the oracles -----------------------------------------------------------------------------


class Expect:
    """What a correct ingest must account for: records by ref, groups of refs, or a named file."""

    def __init__(self) -> None:
        self.refs: list[set[str]] = []  # each set: refs of which at least one must appear
        self.lines: list[tuple[str, set[str]]] = []  # a note line: its ref, or all its words
        self.whole_file: str | None = None  # the input cannot be read as a whole: name this

    def record(self, *refs: str) -> None:
        self.refs.append(set(refs))

    def line(self, ref: str, words: set[str]) -> None:
        self.lines.append((ref, words))


def _regular(path: Path) -> bool:
    """Path -> is it an existing regular file (no FIFO, folder, dangling or looping link)?"""
    try:
        return path.is_file() and not path.is_fifo()
    except OSError:
        return False


def _entries(root: Path, pattern: str) -> list[Path]:
    """Folder + glob -> every entry whose name matches, broken and looping links included (hidden skipped)."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found += [Path(folder, n) for n in dirs + files if fnmatch.fnmatchcase(n, pattern)]
    return sorted(p for p in found if not p.name.startswith("."))


def _unreadable(text: str) -> float:
    """Text -> share of its non-space characters that are U+FFFD or control characters."""
    visible = [ch for ch in text if not ch.isspace() or unicodedata.category(ch) == "Cc"]
    bad = [
        ch
        for ch in visible
        if ch == "\ufffd" or (unicodedata.category(ch) == "Cc" and ch not in "\t\n\r\x0b\x0c\x1b")
    ]
    return len(bad) / len(visible) if visible else 0.0


def _text(data: bytes) -> str | None:
    """File bytes -> its text (by its BOM, else UTF-8, bad bytes as U+FFFD), or None: not a text file.

    Not text: a binary format's signature, a UTF-16/32 file that does not decode, or a first
    64 KiB (less a NUL tail, what a crash leaves) more than 30 % unreadable.
    """
    if data.startswith(BINARY):
        return None
    for bom, codec in BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(codec)
            except UnicodeDecodeError:
                return None
    head = data[:65_536].rstrip(b"\x00").decode("utf-8", "replace")
    return None if _unreadable(head) > 0.3 else data.decode("utf-8", "replace")


def _lines(data: bytes) -> list[bytes]:
    """Text file bytes -> its lines as UTF-8 bytes (a UTF-16/32 file re-encoded), split at LF."""
    if any(data.startswith(bom) for bom, codec in BOMS if codec != "utf-8"):
        text = _text(data)
        return (text or "").encode("utf-8").split(b"\n")
    return data.split(b"\n")


def chat_oracle(path: Path, expect: Expect) -> None:
    """Chat JSONL -> every non-blank line whose time is today or unusable must be accounted."""
    start, end = window()
    data = path.read_bytes()
    for n, raw in enumerate(_lines(data), start=1):
        if not raw.strip():
            continue
        ref = f"{path}#L{n}"
        try:
            msg = json.loads(raw.decode("utf-8-sig" if n == 1 else "utf-8"))
        except (ValueError, RecursionError):
            expect.record(ref)
            continue
        ts = _when(msg.get("ts")) if isinstance(msg, dict) else None
        if ts is None or not possible(ts) or start <= ts < end:
            expect.record(ref)


def _when(value: object, naive_local: bool = False) -> datetime | None:
    """A JSON timestamp -> aware UTC datetime (without offset: local time in TZ, if allowed), or None."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        if isinstance(value, int | float):
            return datetime.fromtimestamp(value, UTC)
        if isinstance(value, str):
            ts = datetime.fromisoformat(value.strip())
            if ts.tzinfo is None:
                return ts.replace(tzinfo=ZoneInfo(TZ)).astimezone(UTC) if naive_local else None
            return ts.astimezone(UTC)
    except (ValueError, OverflowError, OSError):
        return None
    return None


def aw_oracle(path: Path, expect: Expect, original: Path) -> None:
    """AW export -> today's or unusable events of the buckets omoide reads must be accounted.

    Events that say the same thing (app, title, url or status) at the same instant in one
    bucket are one event (heartbeats of it): one survivor is enough. A file that does not
    decode as JSON is compared with the intact export it was made from: every event still
    (even partly) in it must be accounted, by its own ref, or by its bucket's when the
    bucket's header is damaged.
    """
    text = _text(path.read_bytes())
    if text is None:
        expect.whole_file = str(path)
        return
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        _damaged_aw_oracle(path, expect, original)
        return
    buckets = doc.get("buckets") if isinstance(doc, dict) else None
    if isinstance(buckets, list):
        buckets = {
            str(b.get("id", i)) if isinstance(b, dict) else str(i): b for i, b in enumerate(buckets)
        }
    if not isinstance(buckets, dict):
        expect.whole_file = str(path)
        return
    for bid, bucket in buckets.items():
        bref = f"{path}#buckets[{bid}]"
        kind = bucket.get("type") if isinstance(bucket, dict) else None
        if not isinstance(bucket, dict) or not isinstance(kind, str):
            expect.record(bref)
            continue
        if kind not in AW_TYPES:
            continue  # a kind of activity omoide does not read (documented, logged)
        events = bucket.get("events")
        if not isinstance(events, list):
            expect.record(bref)
            continue
        groups: dict[tuple[object, ...], set[str]] = {}
        for i, ev in enumerate(events):
            _aw_event(f"{bref}.events[{i}]", bid, kind, ev, expect, groups)
        for refs in groups.values():
            expect.record(*refs)


def _aw_event(
    ref: str,
    bid: str,
    kind: str,
    ev: object,
    expect: Expect,
    groups: dict[tuple[object, ...], set[str]],
    also: tuple[str, ...] = (),
) -> None:
    """One decoded AW event -> expected when today's or unusable; grouped with its heartbeats."""
    start, end = window()
    stamp = ev.get("timestamp") if isinstance(ev, dict) else None
    ts = _when(stamp, naive_local=True)
    if ts is None or not possible(ts):
        expect.record(ref, *also)
    elif start <= ts < end:
        data = ev.get("data")
        if kind == "web.tab.current" and isinstance(data, dict) and data.get("incognito"):
            return  # dropped on purpose: never stored
        said = tuple(
            repr(data.get(k)) if isinstance(data, dict) else repr(data)
            for k in ("app", "title", "url", "status")
        )
        groups.setdefault((bid, ts.isoformat(), said), set()).update({ref, *also})


@functools.cache
def _original_spans(
    original: Path,
) -> list[tuple[str, str, tuple[int, int], list[tuple[int, int, dict]]]]:
    """The intact export -> per bucket: id, type, byte span of its header, byte span of each event."""
    raw = original.read_bytes()
    doc = json.loads(raw)
    out = []
    cursor = 0
    for bid, bucket in doc["buckets"].items():
        head = raw.index(json.dumps(bid, ensure_ascii=False).encode() + b": {", cursor)
        opener = raw.index(b'"events": [', head) + len(b'"events": [')
        spans = []
        cursor = opener
        for ev in bucket["events"]:
            chunk = json.dumps(ev, ensure_ascii=False).encode()
            a = raw.index(chunk, cursor)
            spans.append((a, a + len(chunk), ev))
            cursor = a + len(chunk)
        out.append((bid, bucket["type"], (head, opener), spans))
    return out


def _damaged_aw_oracle(path: Path, expect: Expect, original: Path) -> None:
    """An export that does not decode + the intact one -> what its events still say must be accounted."""
    damaged, intact = path.read_bytes(), original.read_bytes()
    common = min(len(damaged), len(intact))
    changed = sum(x != y for x, y in zip(damaged[:common], intact[:common], strict=True))
    if changed > 64:
        expect.whole_file = str(path)  # not a copy damaged in place: no event can be located
        return
    kept = 0
    for bid, kind, (h0, h1), spans in _original_spans(original):
        if kind not in AW_TYPES:
            continue
        bref = f"{path}#buckets[{bid}]"
        also = () if damaged[h0:h1] == intact[h0:h1] else (bref,)
        groups: dict[tuple[object, ...], set[str]] = {}
        for i, (a, b, ev) in enumerate(spans):
            if a >= len(damaged):
                continue  # cut away: the file no longer holds it
            kept += 1
            ref = f"{bref}.events[{i}]"
            if damaged[a:b] != intact[a:b]:
                try:
                    ev = json.loads(damaged[a:b].decode("utf-8", "replace"))
                except (ValueError, RecursionError):
                    expect.record(ref, *also)
                    continue
            _aw_event(ref, bid, kind, ev, expect, groups, also)
        for refs in groups.values():
            expect.record(*refs)
    if not kept:
        expect.whole_file = str(path)


def notes_oracle(root: Path, expect: Expect) -> None:
    """Notes folder or file -> the day's note must be read, and every word of it accounted.

    Entries named like the day's note that are no regular file (a folder, FIFO, broken or
    looping link) and a note that is no text file must be named; a folder holding no daily
    note at all must be named too.
    """
    if root.is_symlink() and not root.exists() or root.is_fifo():
        expect.whole_file = str(root)
        return
    if root.is_dir():
        candidates = _entries(root, NOTE)
        if not candidates and not any(DAILY_NOTE.fullmatch(p.name) for p in _entries(root, "*.md")):
            expect.whole_file = str(root)
    else:
        candidates = [root]
    for note in candidates:
        data = note.read_bytes() if _regular(note) else None
        text = _text(data) if data is not None else None
        if text is None:
            expect.whole_file = str(note)
            continue
        # Split where the reader splits (LF, CR, CRLF), not at every break str.splitlines knows.
        utf8 = text.removeprefix("\ufeff").encode("utf-8", "surrogatepass")
        lines = [ln.decode("utf-8", "replace") for ln in utf8.splitlines()]
        skip = _structure_lines(lines)
        for n, line in enumerate(lines, start=1):
            if n in skip or not line.strip():
                continue
            words = {w.casefold() for w in WORD.findall(line)}
            if words:
                expect.line(f"{note}#L{n}", words)


def _structure_lines(text: list[str]) -> set[int]:
    """Note lines -> 1-based numbers of front matter, headings, omoide markers and closed blocks.

    Headings (ATX and setext) are found with the CommonMark parser: they are the note's
    structure, kept as the titles of what follows them, not records of their own.
    """
    from markdown_it import MarkdownIt

    skip: set[int] = set()
    if text and text[0].rstrip() == "---":
        close = next((j for j in range(1, len(text)) if text[j].rstrip() in ("---", "...")), None)
        if close is not None:
            skip |= set(range(1, close + 2))
    body = ["" if n in skip else line for n, line in enumerate(text, start=1)]
    for tok in MarkdownIt("commonmark").parse("\n".join(body)):
        if tok.type == "heading_open" and tok.map:
            skip |= set(range(tok.map[0] + 1, tok.map[1] + 1))
    begin = None
    for n, line in enumerate(text, start=1):
        marker = line.strip()
        if re.match(r"^<!-- omoide:(?:[\w-]+:)?(?:begin|end)\b", marker):
            skip.add(n)  # omoide's own syntax, never the user's words
        if re.match(r"^<!-- omoide:(?:[\w-]+:)?begin\b", marker):
            begin = n
        elif begin is not None and re.match(r"^<!-- omoide:(?:[\w-]+:)?end\b", marker):
            skip |= set(range(begin, n + 1))
            begin = None
    return skip


def sqlite_oracle(db: Path, kind: str, expect: Expect) -> None:
    """Browser database -> a damaged file must be named; else today's and impossible visits accounted."""
    visits, time_col, pages = (
        ("visits", "visit_time", "urls")
        if kind == "chrome"
        else ("moz_historyvisits", "visit_date", "moz_places")
    )
    offset = 11_644_473_600_000_000 if kind == "chrome" else 0
    rows = _readable_rows(db, visits, time_col, pages)
    if rows is None:
        expect.whole_file = str(db)
        return
    start, end = window()
    lo, hi = (int(t.timestamp() * 1_000_000) + offset for t in (start, end))
    earliest = int(EARLIEST.timestamp() * 1_000_000) + offset
    latest = int((NOW + timedelta(days=1)).timestamp() * 1_000_000) + offset
    for vid, t in rows:
        ref = f"{db}#{visits}.id={vid}"
        if not isinstance(t, int | float) or not earliest <= t <= latest:
            expect.record(ref)
        elif lo <= t < hi:
            expect.record(ref)


def _readable_rows(db: Path, visits: str, time_col: str, pages: str) -> list[tuple] | None:
    """Database (+ its journals, or alone when they spoil it) -> (id, time) of every visit, or None.

    SQLite's file format: a database is a whole number of pages (size from its header);
    anything else was cut short, whatever a lenient reader still gets out of it.
    """
    data = db.read_bytes()
    if data:
        page = int.from_bytes(data[16:18], "big") if len(data) >= 100 else 0
        page = 65_536 if page == 1 else page
        if page < 512 or len(data) % page:
            return None
    for with_journals in (True, False):
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / db.name
            shutil.copyfile(db, copy)
            if with_journals:
                for suffix in ("-wal", "-journal"):
                    if Path(f"{db}{suffix}").exists():
                        shutil.copyfile(f"{db}{suffix}", f"{copy}{suffix}")
            conn = sqlite3.connect(copy)
            conn.text_factory = bytes  # a damaged file can hold anything, even in its error text
            try:
                ok = conn.execute("PRAGMA quick_check").fetchall() == [(b"ok",)]
                cols = {r[1] for r in conn.execute(f"PRAGMA table_info({visits})")}
                pcols = {r[1] for r in conn.execute(f"PRAGMA table_info({pages})")}
                need, pneed = {b"id", time_col.encode()}, {b"id", b"url", b"title"}
                if ok and need <= cols and pneed <= pcols:
                    return conn.execute(f"SELECT id, {time_col} FROM {visits}").fetchall()
            except (sqlite3.DatabaseError, UnicodeDecodeError):
                pass  # damaged: SQLite's own error text may not even decode
            finally:
                conn.close()
    return None


def expectation(case: Case, source: Any, home: Path) -> Expect:
    """Case + its source configuration + the intact sample -> what a correct ingest must account for."""
    expect = Expect()
    path = Path(source.path)
    if case.kind == "notes":
        notes_oracle(path, expect)
    elif case.kind in ("chat", "activitywatch") and path.is_dir():
        # A folder source: every file of its kind read, every entry of that name that is no
        # readable text file named; a folder without any readable one is itself named.
        pattern = "*.jsonl" if case.kind == "chat" else "*.json"
        entries = _entries(path, pattern)
        readable = [e for e in entries if _regular(e) and _text(e.read_bytes()) is not None]
        if not readable:
            expect.whole_file = str(path)
        for entry in entries:
            if entry not in readable:
                expect.record(str(entry))
            elif case.kind == "chat":
                chat_oracle(entry, expect)
            else:
                aw_oracle(entry, expect, home / AW)
    elif not _regular(path):
        expect.whole_file = str(path)
    elif case.kind in ("chat", "activitywatch") and _text(path.read_bytes()) is None:
        expect.whole_file = str(path)  # a text source that is no text file
    elif case.kind == "chat":
        chat_oracle(path, expect)
    elif case.kind == "activitywatch":
        aw_oracle(path, expect, home / AW)
    else:
        sqlite_oracle(path, case.kind, expect)
    return expect


# --- running one case ------------------------------------------------------------------------


def ingest(source: Any, folder: Path) -> dict[str, Any]:
    """Source -> what the daily flow's ingest would keep: lake refs and texts, quarantine refs."""
    import pandas as pd

    from omoide import quality
    from omoide.ingest.fingerprint import collected_fingerprint
    from omoide.ingest.gate import sanitized
    from omoide.ingest.sources import collect
    from omoide.ingest.verdict import all_rejected
    from omoide.store.lake import merge_events, read_events
    from omoide.store.quarantine import quarantine

    start, end = window()
    raw = collect(source, start, end, NOW)
    collected_fingerprint(raw)  # the day's cache key: a traceback there means never cached
    out = sanitized(raw, DAY, TZ, [])
    for check in out.checks:
        quality.raise_for_failures(check)
    failed = all_rejected(source, DAY, TZ, NOW, raw, out.rejects, folder)
    if failed is None:
        merge_events(folder / "lake", DAY, source.name, out.events, replace=source.kind == "notes")
    quarantine(folder / "quarantine", "collect", DAY, source.name, out.rejects, pd.Timestamp(NOW))
    lake = read_events(folder / "lake", DAY)
    texts = {c: [v for v in lake[c].dropna().astype(str)] for c in CAPS if c in lake}
    return {
        "refs": sorted(set(lake["source_ref"].astype(str))),
        "rejects": sorted({str(r) for r in out.rejects["ref"]}),
        "words": sorted(
            {
                w.casefold()
                for col in ("text", "title")
                for v in texts.get(col, [])
                for w in WORD.findall(v)
            }
        ),
        "garbage": _garbage(texts),
        "failed": failed,
    }


def _garbage(texts: dict[str, list[str]]) -> list[str]:
    """Lake string columns -> what should never be stored: NUL, lone surrogates, huge values, unreadable text."""
    found = []
    for col, values in texts.items():
        for v in values:
            if "\x00" in v:
                found.append(f"{col}: NUL byte")
            if SURROGATE.search(v):
                found.append(f"{col}: lone surrogate")
            if len(v) > CAPS[col] + 64:
                found.append(f"{col}: {len(v)} characters")
            if _unreadable(v) > 0.5:
                found.append(f"{col}: mostly U+FFFD or control characters ({v[:24]!r})")
    return sorted(set(found))


def _child(case_index: int, folder: str, conn: Any) -> None:
    """Worker process: build nothing, ingest the case's prepared source, send the outcome."""
    case = all_cases()[case_index]
    source = json.loads(Path(folder, "source.json").read_text())
    from omoide.core.errors import SourceError
    from omoide.core.settings import SourceConfig

    try:
        conn.send({"result": ingest(SourceConfig(**source), Path(folder))})
    except SourceError as exc:
        conn.send({"error": "SourceError", "message": str(exc), "transient": exc.transient})
    except Exception as exc:  # noqa: BLE001 - every other exception is what we look for
        conn.send(
            {
                "error": type(exc).__name__,
                "message": str(exc)[:500],
                "trace": traceback.format_exc()[-2000:],
                "case": case.name,
            }
        )


def hang_limit() -> float:
    """() -> seconds a case may run: HANG_S, stretched by how many runnable processes share each core now."""
    # A hang never ends; a slow case on a machine at load 8 with two cores (the suite's own
    # workers beside two CPU-bound processes) took over 60 s for the 100,000-line note, which
    # finishes in ~25 s on a busy machine. Stretching by the load keeps a hang a hang.
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    return HANG_S * max(1.0, load / (os.cpu_count() or 1))


def classify(expect: Expect, outcome: dict[str, Any]) -> tuple[str, str]:
    """Expectation + what happened -> (class, detail)."""
    if "hang" in outcome:
        return "hang", f"still running after {outcome['hang']:.0f} s"
    if "error" in outcome:
        message = outcome["message"]
        if outcome["error"] != "SourceError":
            return "crash", f"{outcome['error']}: {message}"
        if expect.whole_file is None:
            return "wrong_error", f"the whole source failed for bad records: {message}"
        if expect.whole_file not in message:
            return "wrong_error", f"error does not name {expect.whole_file}: {message}"
        if "lock" in message or "consistent copy" in message:
            return "wrong_error", f"a damaged file reported as a lock: {message}"
        return "named", message
    result = outcome["result"]
    if expect.whole_file is not None:
        # The oracle cannot read it as a whole, yet nothing failed: only fine if nothing was lost.
        named = any(expect.whole_file in r for r in result["rejects"])
        if not named:
            return "silent_loss", f"{expect.whole_file} unreadable, but no error or reject names it"
    seen = set(result["refs"]) | set(result["rejects"])
    words = set(result["words"])
    missing = [sorted(refs)[0] for refs in expect.refs if not refs & seen]
    missing += [ref for ref, need in expect.lines if ref not in seen and not need <= words]
    if missing:
        return (
            "silent_loss",
            f"{len(missing)} record(s) neither kept nor quarantined, e.g. {missing[:3]}",
        )
    if result["garbage"]:
        return "garbage", ", ".join(result["garbage"])
    if result.get("failed"):
        return "all_rejected", result["failed"]
    return "ok", f"{len(result['refs'])} kept, {len(result['rejects'])} quarantined"


def run(cases: list[tuple[int, Case]], workers: int) -> list[dict[str, Any]]:
    """Cases -> one classified outcome each, `workers` at a time, each in a forked process."""
    from omoide.sample import write_sample

    base = Path(tempfile.mkdtemp(prefix="omoide-faults-"))
    write_sample(base / "sample", days=2, end=DAY)
    _warm_up(base / "sample")
    ctx = mp.get_context("fork")
    pending = list(cases)
    running: dict[int, tuple[Any, Any, float, Expect, Case, Path]] = {}
    results: list[dict[str, Any]] = []
    while pending or running:
        while pending and len(running) < workers:
            index, case = pending.pop(0)
            folder = base / f"case{index}"
            folder.mkdir()
            source = case.build(base / "sample", folder)
            expect = expectation(case, source, base / "sample")
            (folder / "source.json").write_text(json.dumps(source.model_dump(mode="json")))
            parent, child = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_child, args=(index, str(folder), child))
            proc.start()
            running[index] = (proc, parent, time.monotonic(), expect, case, folder)
        time.sleep(0.02)
        for index, (proc, pipe, started, expect, case, folder) in list(running.items()):
            outcome: dict[str, Any] | None = None
            if pipe.poll():
                outcome = pipe.recv()
            elif not proc.is_alive():
                outcome = {"error": "ProcessDied", "message": f"exit code {proc.exitcode}"}
            elif time.monotonic() - started > (limit := hang_limit()):
                proc.kill()
                outcome = {"hang": limit}
            if outcome is None:
                continue
            proc.join(5)
            kind, detail = classify(expect, outcome)
            results.append(
                {
                    "kind": case.kind,
                    "case": case.name,
                    "class": kind,
                    "detail": detail,
                    "seconds": round(time.monotonic() - started, 2),
                    "trace": outcome.get("trace", ""),
                }
            )
            del running[index]
            shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(base, ignore_errors=True)
    return results


def _warm_up(sample: Path) -> None:
    """Run one clean ingest before forking, so every child inherits loaded models and GX."""
    from omoide.core.settings import SourceConfig

    with tempfile.TemporaryDirectory() as tmp:
        ingest(
            SourceConfig(kind="chat", path=sample / "sources/chat/chat.jsonl", name="chat"),
            Path(tmp),
        )


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Outcomes -> counts per class and kind, the total and the failures."""
    bad = {"crash", "silent_loss", "hang", "wrong_error", "garbage"}
    return {
        "cases": len(results),
        "by_class": dict(Counter(r["class"] for r in results)),
        "by_kind": {
            k: dict(Counter(r["class"] for r in results if r["kind"] == k))
            for k in sorted({r["kind"] for r in results})
        },
        "failures": [r for r in results if r["class"] in bad],
        "slowest_s": max((r["seconds"] for r in results), default=0.0),
    }


def main(argv: list[str] | None = None) -> int:
    """Command line -> the suite run; prints the summary as JSON; exit 1 when any case failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write every outcome to this file")
    parser.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    parser.add_argument("--only", default="", help="only cases whose kind/name contains this")
    args = parser.parse_args(argv)
    cases = [(i, c) for i, c in enumerate(all_cases()) if args.only in f"{c.kind}/{c.name}"]
    results = run(cases, args.workers)
    out = summary(results)
    if args.json:
        args.json.write_text(json.dumps({"summary": out, "results": results}, indent=1))
    print(
        json.dumps(
            {k: v for k, v in out.items() if k != "failures"}
            | {
                "failures": [
                    {k: r[k] for k in ("kind", "case", "class", "detail")} for r in out["failures"]
                ]
            },
            indent=1,
        )
    )
    return 1 if out["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
