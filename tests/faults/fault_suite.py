"""Every generated corruption through the ingest path, each in its own process, classified.

    python -m tests.faults.fault_suite [--json OUT] [--workers N] [--only TEXT]

A case's damaged input is ingested exactly as the daily flow's `ingest` task does it:
collect -> the raw edge check -> redaction -> the clean edge check -> merge into a lake ->
quarantine. An independent reader (an oracle written here with the standard library: json,
sqlite3, datetime) says which records the damaged input still holds for the day under test.
Each case is then one of:

- `ok`: every such record is in the lake or in quarantine with a reason;
- `named`: the source failed with a SourceError naming the file (a file that cannot be read
  as a whole, e.g. a damaged database, truncated JSON, a FIFO where a note should be);
- `silent_loss`: a record is in neither, and no error named it;
- `wrong_error`: an error, but not the right one (a damaged database called a lock, an error
  not naming the file, a whole source failed for one bad record);
- `garbage`: the lake holds NUL bytes, lone surrogates or uncapped huge values;
- `crash`: any other exception;
- `hang`: the case did not finish within HANG_S seconds (the process is killed).
"""

from __future__ import annotations

import argparse
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
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from tests.faults.corruptions import NOTE, Case, all_cases

DAY = date(2026, 11, 20)
TZ = "Europe/Berlin"
NOW = datetime(2026, 11, 21, 3, 0, tzinfo=UTC)
HANG_S = 60.0
# What a timestamp may be: later than this and no later than the day after `now`.
EARLIEST = datetime(1990, 1, 1, tzinfo=UTC)
AW_TYPES = {"currentwindow", "afkstatus", "web.tab.current"}
WORD = re.compile(r"[^\W\d_]{3,}")
SURROGATE = re.compile("[\ud800-\udfff]")
CAPS = {"text": 65_536, "title": 4_096, "url": 4_096, "app": 4_096, "actor": 4_096}


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
    """Path -> is it an existing regular file (no FIFO, folder, dangling link)?"""
    try:
        return path.is_file() and not path.is_fifo()
    except OSError:
        return False


def chat_oracle(path: Path, expect: Expect) -> None:
    """Chat JSONL -> every non-blank line whose time is today or unusable must be accounted."""
    start, end = window()
    data = path.read_bytes()
    for n, raw in enumerate(data.split(b"\n"), start=1):
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


def _when(value: object, naive_utc: bool = False) -> datetime | None:
    """A JSON timestamp -> aware UTC datetime, or None when it is not one."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        if isinstance(value, int | float):
            return datetime.fromtimestamp(value, UTC)
        if isinstance(value, str):
            ts = datetime.fromisoformat(value.strip())
            if ts.tzinfo is None:
                return ts.replace(tzinfo=UTC) if naive_utc else None
            return ts.astimezone(UTC)
    except (ValueError, OverflowError, OSError):
        return None
    return None


def aw_oracle(path: Path, expect: Expect) -> None:
    """AW export -> today's or unusable events of the buckets omoide reads must be accounted."""
    start, end = window()
    try:
        doc = json.loads(path.read_bytes())
    except (ValueError, RecursionError):
        expect.whole_file = str(path)
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
        groups: dict[tuple[str, str], set[str]] = {}
        for i, ev in enumerate(events):
            ref = f"{bref}.events[{i}]"
            stamp = ev.get("timestamp") if isinstance(ev, dict) else None
            ts = _when(stamp, naive_utc=True)
            if ts is None or not possible(ts):
                expect.record(ref)
            elif start <= ts < end:
                data = ev.get("data")
                if kind == "web.tab.current" and isinstance(data, dict) and data.get("incognito"):
                    continue  # dropped on purpose: never stored
                # Heartbeats of one event share bucket and start: one id, so one survivor.
                groups.setdefault((bid, ts.isoformat()), set()).add(ref)
        for refs in groups.values():
            expect.record(*refs)


def notes_oracle(root: Path, expect: Expect) -> None:
    """Notes folder or file -> the day's note must be read, and every word of it accounted."""
    if root.is_symlink() and not root.exists() or root.is_fifo():
        expect.whole_file = str(root)
        return
    candidates = [root] if not root.is_dir() else [p for p in root.rglob(NOTE)]
    for note in candidates:
        if not _regular(note):
            expect.whole_file = str(note)
            continue
        lines = note.read_bytes().removeprefix(b"\xef\xbb\xbf").splitlines()
        text = [ln.decode("utf-8", "replace") for ln in lines]
        skip = _structure_lines(text)
        for n, line in enumerate(text, start=1):
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


def expectation(case: Case, source: Any) -> Expect:
    """Case + its source configuration -> what a correct ingest must account for."""
    expect = Expect()
    path = Path(source.path)
    if case.kind == "notes":
        notes_oracle(path, expect)
    elif not _regular(path):
        expect.whole_file = str(path)
    elif case.kind == "chat":
        chat_oracle(path, expect)
    elif case.kind == "activitywatch":
        aw_oracle(path, expect)
    else:
        sqlite_oracle(path, case.kind, expect)
    return expect


# --- running one case ------------------------------------------------------------------------


def ingest(source: Any, folder: Path) -> dict[str, Any]:
    """Source -> what the daily flow's ingest would keep: lake refs and texts, quarantine refs."""
    import pandas as pd

    from omoide import quality
    from omoide.ingest.gate import sanitized
    from omoide.ingest.sources import collect
    from omoide.store.lake import merge_events, read_events
    from omoide.store.quarantine import quarantine

    start, end = window()
    raw = collect(source, start, end, NOW)
    out = sanitized(raw, DAY, TZ, [])
    for check in out.checks:
        quality.raise_for_failures(check)
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
    }


def _garbage(texts: dict[str, list[str]]) -> list[str]:
    """Lake string columns -> what should never be stored: NUL, lone surrogates, huge values."""
    found = []
    for col, values in texts.items():
        for v in values:
            if "\x00" in v:
                found.append(f"{col}: NUL byte")
            if SURROGATE.search(v):
                found.append(f"{col}: lone surrogate")
            if len(v) > CAPS[col] + 64:
                found.append(f"{col}: {len(v)} characters")
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


def classify(expect: Expect, outcome: dict[str, Any]) -> tuple[str, str]:
    """Expectation + what happened -> (class, detail)."""
    if "hang" in outcome:
        return "hang", f"still running after {HANG_S:.0f} s"
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
            expect = expectation(case, source)
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
            elif time.monotonic() - started > HANG_S:
                proc.kill()
                outcome = {"hang": True}
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
