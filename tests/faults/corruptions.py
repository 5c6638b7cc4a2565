"""Generated corruptions of the five source kinds, each a function writing a damaged copy of real input.

Every case starts from the bundled sample (real Chrome, Firefox, ActivityWatch, notes and
chat formats) and damages it one way: truncation at several offsets, byte flips, wrong
types, bad encodings, impossible or naive timestamps, deep nesting, huge values, schema
damage, foreign journals, unreadable paths. A case writes its input under a folder it is
given and returns the source configuration that points at it.
"""

from __future__ import annotations

import codecs
import json
import os
import random
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from omoide.core.settings import SourceConfig

CHROME = Path("sources/chrome/Default/History")
FIREFOX = Path("sources/firefox/places.sqlite")
AW = Path("sources/activitywatch/aw-buckets-export.json")
NOTES = Path("sources/notes")
CHAT = Path("sources/chat/chat.jsonl")
NOTE = "2026-11-20.md"  # the note of the day under test
TZ = "Europe/Berlin"  # the zone of the day under test, as omoide.toml sets it

Build = Callable[[Path, Path], SourceConfig]  # (sample home, case folder) -> source


@dataclass(frozen=True)
class Case:
    """One corruption: its kind, a name that says what was damaged, and how to build it."""

    kind: str
    name: str
    build: Build


# Values a careless writer or a damaged file puts where a timestamp belongs.
BAD_TIMES = {
    "year0": "0000-01-01T00:00:00+00:00",
    "year9999": "9999-12-31T23:59:59+00:00",
    "negative-year": "-0001-01-01T00:00:00+00:00",
    "naive": "2026-11-20T10:00:00",
    "garbage": "yesterday-ish",
    "empty": "",
    "number-huge": 1e300,
    "number-negative": -62135596800,
    "nan-text": "NaN",
    "null": None,
    "bool": True,
    "list": [2026, 11, 20],
    "offset-25h": "2026-11-20T10:00:00+25:00",
    "leap-second": "2026-11-20T23:59:60+00:00",
    "date-only": "2026-11-20",
}
# Values a careless writer puts where text belongs.
BAD_TEXTS = {
    "nul": "before\x00after",
    "surrogate": "\ud800 lone surrogate",
    "huge": "x" * 3_000_000,
    "number": 42,
    "null": None,
    "object": {"a": 1},
    "control": "bell\x07 and \x1b[31mred\x1b[0m",
    "rtl-override": "abc\u202edcba",
}
NESTED = "[" * 100_000 + "]" * 100_000


def _copy(home: Path, rel: Path, to: Path) -> Path:
    """Sample file -> a copy under the case folder (same relative path); the copy's path."""
    dst = to / rel
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(home / rel, dst)
    return dst


def _truncate(path: Path, keep: int) -> None:
    """File -> its first `keep` bytes."""
    data = path.read_bytes()
    path.write_bytes(data[: max(0, min(keep, len(data)))])


def _flip(path: Path, seed: int, n: int, lo: int = 0) -> None:
    """File -> n bytes at seeded random offsets (from `lo`) replaced by random bytes."""
    data = bytearray(path.read_bytes())
    rng = random.Random(seed)
    for _ in range(n):
        i = rng.randrange(min(lo, len(data) - 1), len(data))
        data[i] = rng.randrange(256)
    path.write_bytes(bytes(data))


def _source(kind: str, path: Path) -> SourceConfig:
    """Kind + path -> the source configuration a user would write (zone filled as Settings does)."""
    zone = TZ if kind == "activitywatch" else None
    return SourceConfig(kind=kind, path=path, name=kind, timezone=zone)


def _sqlite_file(path: Path) -> None:
    """Path -> a small real SQLite database written there (a file of the wrong kind)."""
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE tags(id INTEGER PRIMARY KEY, name TEXT);"
        "INSERT INTO tags(name) VALUES ('tags'), ('travel'), ('work');"
    )
    conn.commit()
    conn.close()


def _folder_case(kind: str, name: str, rel: Path, make: Callable[[Path], None]) -> Case:
    """A folder source: the sample file's folder, changed by `make` (given the folder)."""

    def build(home: Path, to: Path) -> SourceConfig:
        path = _copy(home, rel, to)
        make(path.parent)
        return _source(kind, path.parent)

    return Case(kind, f"folder:{name}", build)


def _empty_folder_case(kind: str) -> Case:
    """A folder source pointed at a folder holding no file of its kind (only a stray one)."""

    def build(home: Path, to: Path) -> SourceConfig:
        folder = to / "empty"
        folder.mkdir()
        (folder / "README.txt").write_text("not a source file\n")
        return _source(kind, folder)

    return Case(kind, "folder:empty", build)


# --- chat (JSONL) ----------------------------------------------------------------------------


def _chat_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _chat_write(path: Path, lines: list[object]) -> None:
    path.write_text(
        "".join((ln if isinstance(ln, str) else json.dumps(ln)) + "\n" for ln in lines),
        encoding="utf-8",
        errors="surrogatepass",
    )


def chat_cases() -> Iterator[Case]:
    """Chat log corruptions: whole-file damage, then one bad line among good ones."""

    def file_case(name: str, damage: Callable[[Path], None]) -> Case:
        def build(home: Path, to: Path) -> SourceConfig:
            path = _copy(home, CHAT, to)
            damage(path)
            return _source("chat", path)

        return Case("chat", name, build)

    for frac in (0.0, 0.05, 0.13, 0.3, 0.5, 0.61, 0.77, 0.9, 0.98, 0.999):
        yield file_case(
            f"truncate@{frac}", lambda p, f=frac: _truncate(p, int(p.stat().st_size * f))
        )
    for seed in range(16):
        yield file_case(f"flip-bytes#{seed}", lambda p, s=seed: _flip(p, s, 12))
    yield file_case("utf16-file", lambda p: p.write_bytes(p.read_text().encode("utf-16")))
    yield file_case("utf32-file", lambda p: p.write_bytes(p.read_text().encode("utf-32")))
    yield file_case("utf16-no-bom", lambda p: p.write_bytes(p.read_text().encode("utf-16-le")))
    yield file_case("sqlite-file", _sqlite_file)
    yield file_case("all-nul", lambda p: p.write_bytes(bytes(p.stat().st_size)))
    yield _empty_folder_case("chat")
    yield _folder_case(
        "chat", "dangling-symlink", CHAT, lambda d: (d / "old.jsonl").symlink_to(d / "gone.jsonl")
    )
    yield _folder_case(
        "chat", "symlink-loop", CHAT, lambda d: (d / "loop.jsonl").symlink_to(d / "loop.jsonl")
    )
    yield _folder_case("chat", "directory", CHAT, lambda d: (d / "dir.jsonl").mkdir())
    yield _folder_case("chat", "sqlite-beside", CHAT, lambda d: _sqlite_file(d / "db.jsonl"))
    yield file_case(
        "latin1-line",
        lambda p: p.write_bytes(
            p.read_bytes()
            + '{"ts": "2026-11-20T12:00:00+01:00", "text": "caf\xe9"}\n'.encode("latin-1")
        ),
    )
    yield file_case("crlf", lambda p: p.write_bytes(p.read_bytes().replace(b"\n", b"\r\n")))
    yield file_case(
        "bom-every-line",
        lambda p: p.write_bytes(
            b"".join(b"\xef\xbb\xbf" + ln + b"\n" for ln in p.read_bytes().splitlines())
        ),
    )
    yield file_case(
        "nul-bytes",
        lambda p: p.write_bytes(
            p.read_bytes().replace(b"ok", b"o\x00k").replace(b"the", b"t\x00he")
        ),
    )
    yield file_case("nested-line", lambda p: p.write_text(p.read_text() + NESTED + "\n"))
    yield file_case(
        "huge-line",
        lambda p: p.write_text(
            p.read_text()
            + json.dumps(
                {"ts": "2026-11-20T12:00:00+01:00", "speaker": "x", "text": "y" * 20_000_000}
            )
            + "\n"
        ),
    )

    def line_case(name: str, mutate: Callable[[dict], object]) -> Case:
        def build(home: Path, to: Path) -> SourceConfig:
            path = _copy(home, CHAT, to)
            lines: list[object] = list(_chat_lines(path))
            # The day under test is 2026-11-20 local: damage a line of that day.
            i = next(
                k for k, m in enumerate(lines) if str(m.get("ts", "")).startswith("2026-11-20")
            )
            lines[i] = mutate(dict(lines[i]))  # type: ignore[arg-type]
            _chat_write(path, lines)
            return _source("chat", path)

        return Case("chat", f"line:{name}", build)

    for key, value in BAD_TIMES.items():
        yield line_case(f"ts={key}", lambda m, v=value: {**m, "ts": v})
    for key, value in BAD_TEXTS.items():
        yield line_case(f"text={key}", lambda m, v=value: {**m, "text": v})
        yield line_case(f"speaker={key}", lambda m, v=value: {**m, "speaker": v})
        yield line_case(f"conversation={key}", lambda m, v=value: {**m, "conversation": v})
    yield line_case("no-ts", lambda m: {k: v for k, v in m.items() if k != "ts"})
    yield line_case("array", lambda m: [m])
    yield line_case("number", lambda m: 7)
    yield line_case("string", lambda m: json.dumps(m))
    yield line_case("nested-text", lambda m: {**m, "text": json.loads("[" * 500 + "]" * 500)})
    yield line_case("deep-json", lambda m: NESTED)
    yield line_case("half-line", lambda m: json.dumps(m)[:40])
    yield line_case("extra-fields", lambda m: {**m, "x": {"y": [1, 2, {"z": None}]}})
    yield line_case("ts-epoch-ms", lambda m: {**m, "ts": 1_763_632_800_000})


# --- notes (Markdown) ------------------------------------------------------------------------


def _nested_dangling(note: Path) -> None:
    """A note's path -> a broken link of that name one folder down (a vault's Daily/ folder)."""
    (note.parent / "Daily").mkdir()
    (note.parent / "Daily" / note.name).symlink_to(note.parent / "Daily" / "moved.md")


def notes_cases() -> Iterator[Case]:
    """Daily note corruptions: damaged bytes, hostile Markdown, and paths that are not files."""

    def file_case(name: str, damage: Callable[[Path], None]) -> Case:
        def build(home: Path, to: Path) -> SourceConfig:
            path = _copy(home, NOTES / NOTE, to)
            damage(path)
            return _source("notes", path.parent)

        return Case("notes", name, build)

    for frac in (0.0, 0.05, 0.33, 0.6, 0.95):
        yield file_case(
            f"truncate@{frac}", lambda p, f=frac: _truncate(p, int(p.stat().st_size * f))
        )
    for seed in range(12):
        yield file_case(f"flip-bytes#{seed}", lambda p, s=seed: _flip(p, s, 10))
    yield file_case(
        "nul-bytes", lambda p: p.write_bytes(p.read_bytes().replace(b" the ", b" t\x00he "))
    )
    yield file_case(
        "encoded-surrogate",
        lambda p: p.write_bytes(p.read_bytes() + b"- bad \xed\xa0\x80 surrogate\n"),
    )
    yield file_case("latin1", lambda p: p.write_bytes(p.read_text().encode("latin-1", "replace")))
    yield file_case("utf16", lambda p: p.write_bytes(p.read_text().encode("utf-16")))
    yield file_case(
        "utf16-be", lambda p: p.write_bytes(codecs.BOM_UTF16_BE + p.read_text().encode("utf-16-be"))
    )
    yield file_case("utf32", lambda p: p.write_bytes(p.read_text().encode("utf-32")))
    yield file_case("utf16-no-bom", lambda p: p.write_bytes(p.read_text().encode("utf-16-le")))
    yield file_case("all-nul", lambda p: p.write_bytes(bytes(p.stat().st_size)))
    yield file_case("nul-tail", lambda p: p.write_bytes(p.read_bytes() + bytes(4096)))
    yield file_case("sqlite-file", _sqlite_file)
    yield file_case(
        "png-file", lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n" + random.Random(3).randbytes(2000))
    )
    yield file_case("crlf", lambda p: p.write_bytes(p.read_bytes().replace(b"\n", b"\r\n")))
    yield file_case("cr-only", lambda p: p.write_bytes(p.read_bytes().replace(b"\n", b"\r")))
    yield file_case(
        "huge-line", lambda p: p.write_text(p.read_text() + "- " + "word " * 2_000_000 + "\n")
    )
    yield file_case(
        "many-lines",
        lambda p: p.write_text(p.read_text() + "".join(f"- item {i}\n" for i in range(100_000))),
    )
    yield file_case(
        "deep-list",
        lambda p: p.write_text(
            p.read_text() + "".join("  " * i + f"- level {i}\n" for i in range(3000))
        ),
    )
    yield file_case(
        "deep-quote", lambda p: p.write_text(p.read_text() + ">" * 50_000 + " quoted\n")
    )
    yield file_case(
        "unclosed-fence",
        lambda p: p.write_text(p.read_text().replace("## Retain", "```\n## Retain")),
    )
    yield file_case(
        "unclosed-front-matter", lambda p: p.write_text("---\ntags: [x\n" + p.read_text())
    )
    yield file_case(
        "omoide-block-unclosed",
        lambda p: p.write_text(
            p.read_text().replace("## Retain", "<!-- omoide:begin x -->\n## Retain")
        ),
    )
    yield file_case(
        "bad-retain-lines",
        lambda p: p.write_text(
            p.read_text() + "- O(c=1.7) @x: too sure\n- O(c=nan) y\n- X bogus kind\n- W\n"
        ),
    )
    yield file_case(
        "html-and-script",
        lambda p: p.write_text(
            p.read_text() + "<script>alert(1)</script>\n<div>\n- inside html\n</div>\n"
        ),
    )
    yield file_case("empty-file", lambda p: p.write_bytes(b""))
    yield file_case("only-front-matter", lambda p: p.write_text("---\na: 1\n---\n"))
    yield file_case(
        "time-garbage",
        lambda p: p.write_text(
            p.read_text() + "- 25:99 not a time\n- 23:59 last minute\n- 00:00 first\n"
        ),
    )

    def path_case(name: str, make: Callable[[Path], None]) -> Case:
        def build(home: Path, to: Path) -> SourceConfig:
            folder = to / NOTES
            folder.mkdir(parents=True)
            make(folder / NOTE)
            return _source("notes", folder)

        return Case("notes", f"path:{name}", build)

    yield path_case("directory", lambda p: p.mkdir())
    yield path_case("dangling-symlink", lambda p: p.symlink_to(p.parent / "gone.md"))
    yield path_case("fifo", lambda p: os.mkfifo(p))
    yield path_case("symlink-loop", lambda p: p.symlink_to(p))
    yield path_case("nested-dangling-symlink", _nested_dangling)
    yield path_case("no-daily-notes", lambda p: (p.parent / "ideas.md").write_text("- an idea\n"))

    def root_case(name: str, make: Callable[[Path], Path]) -> Case:
        def build(home: Path, to: Path) -> SourceConfig:
            return _source("notes", make(to))

        return Case("notes", f"root:{name}", build)

    def fifo_root(to: Path) -> Path:
        path = to / NOTE
        os.mkfifo(path)
        return path

    def dangling_root(to: Path) -> Path:
        path = to / "notes"
        path.symlink_to(to / "nowhere")
        return path

    yield root_case("fifo-file", fifo_root)
    yield root_case("dangling-folder", dangling_root)


# --- ActivityWatch (export JSON) -------------------------------------------------------------


def _aw_doc(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _day_event(bucket: dict) -> int:
    """Bucket -> index of an event on the day under test (2026-11-20, Berlin)."""
    return next(
        i for i, e in enumerate(bucket["events"]) if e["timestamp"].startswith("2026-11-20T1")
    )


def _flip_in_day_event(path: Path, find: bytes, to: bytes) -> None:
    """Export -> one byte changed inside the first event of the day under test holding `find`."""
    data = path.read_bytes()
    day = data.index(b'"timestamp": "2026-11-20T1')
    at = data.index(find, day)
    path.write_bytes(data[:at] + to + data[at + len(to) :])


# One damaged byte in one event of the day, each making the JSON undecodable as a whole.
_ONE_BYTE: dict[str, Callable[[Path], None]] = {
    "title-quote": lambda p: _flip_in_day_event(p, b'"title": "', b'"title": \x01'),
    "closing-brace": lambda p: _flip_in_day_event(p, b"}}, {", b"}|"),
    "comma-between-events": lambda p: _flip_in_day_event(p, b"}}, {", b"}}; "),
    "opening-brace": lambda p: _flip_in_day_event(p, b', {"id"', b", ["),
    "invalid-utf8-in-title": lambda p: _flip_in_day_event(p, b"Firefox", b"Fi\xffefox"),
    "events-key": lambda p: _damage_events_key(p),
}


def _damage_events_key(path: Path) -> None:
    """Export -> the key of the AFK bucket's events list damaged (one byte), the file invalid."""
    data = path.read_bytes()
    bucket = data.index(b'"aw-watcher-afk_kaze": {')
    at = data.index(b'"events": [', bucket)
    path.write_bytes(data[: at + 7] + b"\x02" + data[at + 8 :])  # its closing quote


def _naive_local(buckets: dict, round_to_hour: bool) -> None:
    """Buckets -> every event's time as Berlin wall-clock without offset (rounded to the hour)."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    for bucket in buckets.values():
        for ev in bucket["events"]:
            local = datetime.fromisoformat(ev["timestamp"]).astimezone(ZoneInfo(TZ))
            if round_to_hour:
                local = local.replace(minute=0, second=0, microsecond=0)
            ev["timestamp"] = local.replace(tzinfo=None).isoformat()


def _naive_coinciding(buckets: dict) -> None:
    """Buckets -> times without offset that many distinct events share (a watcher's coarse clock)."""
    _naive_local(buckets, round_to_hour=True)


def aw_cases() -> Iterator[Case]:
    """ActivityWatch export corruptions: the file, a bucket, or one event."""

    def file_case(name: str, damage: Callable[[Path], None]) -> Case:
        def build(home: Path, to: Path) -> SourceConfig:
            path = _copy(home, AW, to)
            damage(path)
            return _source("activitywatch", path)

        return Case("activitywatch", name, build)

    for frac in (0.0, 0.001, 0.1, 0.25, 0.5, 0.66, 0.8, 0.9, 0.99, 0.9999):
        yield file_case(
            f"truncate@{frac}", lambda p, f=frac: _truncate(p, int(p.stat().st_size * f))
        )
    for seed in range(16):
        yield file_case(f"flip-bytes#{seed}", lambda p, s=seed: _flip(p, s, 6))
    yield file_case(
        "not-utf8", lambda p: p.write_bytes(p.read_bytes().replace(b"Mozilla", b"Mozi\xffla"))
    )
    yield file_case("utf16", lambda p: p.write_bytes(p.read_text().encode("utf-16")))
    yield file_case("utf32", lambda p: p.write_bytes(p.read_text().encode("utf-32")))
    yield file_case("utf16-no-bom", lambda p: p.write_bytes(p.read_text().encode("utf-16-le")))
    yield file_case("sqlite-file", _sqlite_file)
    yield file_case("nested", lambda p: p.write_text(NESTED))
    yield file_case(
        "nested-inside", lambda p: p.write_text(p.read_text()[:-2] + ', "x": ' + NESTED + "}}")
    )
    yield file_case(
        "top-level-list", lambda p: p.write_text(json.dumps(list(_aw_doc(p)["buckets"].values())))
    )
    yield file_case("buckets-null", lambda p: p.write_text(json.dumps({"buckets": None})))
    yield file_case("buckets-string", lambda p: p.write_text(json.dumps({"buckets": "no"})))
    yield file_case("empty-object", lambda p: p.write_text("{}"))
    yield file_case(
        "nul-escapes", lambda p: p.write_text(p.read_text().replace("Firefox", "Fire\\u0000fox"))
    )
    yield file_case(
        "surrogate-escapes",
        lambda p: p.write_text(p.read_text().replace("Firefox", "Fire\\ud800fox")),
    )
    for what, damage in _ONE_BYTE.items():
        yield file_case(f"one-byte:{what}", damage)
    yield _empty_folder_case("activitywatch")
    yield _folder_case(
        "activitywatch",
        "dangling-symlink",
        AW,
        lambda d: (d / "old.json").symlink_to(d / "gone.json"),
    )
    yield _folder_case(
        "activitywatch", "symlink-loop", AW, lambda d: (d / "loop.json").symlink_to(d / "loop.json")
    )
    yield _folder_case("activitywatch", "sqlite-beside", AW, lambda d: _sqlite_file(d / "db.json"))

    def doc_case(name: str, mutate: Callable[[dict], None]) -> Case:
        def build(home: Path, to: Path) -> SourceConfig:
            path = _copy(home, AW, to)
            doc = _aw_doc(path)
            mutate(doc["buckets"])
            path.write_text(json.dumps(doc), encoding="utf-8")
            return _source("activitywatch", path)

        return Case("activitywatch", name, build)

    window = "aw-watcher-window_kaze"
    for key in ("events", "type"):
        for value_name, value in (("null", None), ("number", 3), ("string", "x"), ("object", {})):
            yield doc_case(
                f"bucket:{key}={value_name}", lambda b, k=key, v=value: b[window].update({k: v})
            )
    yield doc_case("bucket:unknown-type", lambda b: b[window].update(type="app.editor.activity"))
    yield doc_case("bucket:no-type", lambda b: b[window].pop("type"))
    yield doc_case("bucket:not-object", lambda b: b.update({window: [1, 2]}))
    yield doc_case("bucket:no-events", lambda b: b[window].pop("events"))

    def event_case(name: str, mutate: Callable[[dict], object]) -> Case:
        def change(buckets: dict) -> None:
            events = buckets[window]["events"]
            i = _day_event(buckets[window])
            events[i] = mutate(dict(events[i]))

        return doc_case(f"event:{name}", change)

    for key, value in BAD_TIMES.items():
        yield event_case(f"timestamp={key}", lambda e, v=value: {**e, "timestamp": v})
    for key, value in (
        ("negative", -5),
        ("nan", "NaN"),
        ("huge", 1e308),
        ("bool", True),
        ("null", None),
        ("string", "10"),
    ):
        yield event_case(f"duration={key}", lambda e, v=value: {**e, "duration": v})
    for key, value in BAD_TEXTS.items():
        yield event_case(
            f"title={key}", lambda e, v=value: {**e, "data": {**e["data"], "title": v}}
        )
        yield event_case(f"app={key}", lambda e, v=value: {**e, "data": {**e["data"], "app": v}})
    yield doc_case("naive-coinciding", _naive_coinciding)
    yield doc_case("naive-local", lambda b: _naive_local(b, round_to_hour=False))
    yield event_case("data=null", lambda e: {**e, "data": None})
    yield event_case("data=list", lambda e: {**e, "data": [1]})
    yield event_case("not-object", lambda e: "event")
    yield event_case("no-timestamp", lambda e: {k: v for k, v in e.items() if k != "timestamp"})


# --- browser databases (SQLite) --------------------------------------------------------------


def _db_case(kind: str, rel: Path, name: str, damage: Callable[[Path], None]) -> Case:
    def build(home: Path, to: Path) -> SourceConfig:
        path = _copy(home, rel, to)
        damage(path)
        return _source(kind, path)

    return Case(kind, name, build)


def _sql(script: str) -> Callable[[Path], None]:
    """SQL -> a damage that runs it on the database."""

    def run(path: Path) -> None:
        conn = sqlite3.connect(path)
        try:
            conn.executescript(script)
        except sqlite3.IntegrityError:
            # A NOT NULL column (Chrome's visit_time): the damage a writer can do is an empty text.
            conn.executescript(script.replace("= NULL", "= ''"))
        conn.commit()
        conn.close()

    return run


def _foreign_wal(path: Path) -> None:
    """Database -> a WAL beside it that belongs to another database (valid frames, other pages)."""
    other = path.with_name("other.sqlite")
    conn = sqlite3.connect(other)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("CREATE TABLE t(x)")
    conn.executemany("INSERT INTO t VALUES (?)", [("y" * 500,)] * 200)
    conn.commit()
    shutil.copyfile(f"{other}-wal", f"{path}-wal")
    conn.close()


def _garbage(suffix: str) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        Path(f"{path}{suffix}").write_bytes(random.Random(suffix).randbytes(8192))

    return write


def sqlite_cases(kind: str) -> Iterator[Case]:
    """Browser database corruptions: bytes, pages, schema, values, journals."""
    rel = CHROME if kind == "chrome" else FIREFOX
    visits, page, time_col = (
        ("visits", "url", "visit_time")
        if kind == "chrome"
        else ("moz_historyvisits", "place_id", "visit_date")
    )
    pages, title = ("urls", "title") if kind == "chrome" else ("moz_places", "title")
    for keep in (0, 16, 60, 100, 1000, 4096, 4097, 8192, 20000, 40000):
        yield _db_case(kind, rel, f"truncate@{keep}", lambda p, k=keep: _truncate(p, k))
    yield _db_case(kind, rel, "truncate-last-byte", lambda p: _truncate(p, p.stat().st_size - 1))
    for seed in range(10):
        yield _db_case(kind, rel, f"flip-bytes#{seed}", lambda p, s=seed: _flip(p, s, 40, lo=100))
    yield _db_case(kind, rel, "flip-header", lambda p: _flip(p, 99, 4, lo=16))
    yield _db_case(
        kind,
        rel,
        "zero-page-2",
        lambda p: p.write_bytes(p.read_bytes()[:4096] + bytes(4096) + p.read_bytes()[8192:]),
    )
    yield _db_case(
        kind, rel, "random-bytes", lambda p: p.write_bytes(random.Random(5).randbytes(50_000))
    )
    yield _db_case(
        kind,
        rel,
        "visits-as-view",
        _sql(
            f"ALTER TABLE {visits} RENAME TO real_visits; CREATE VIEW {visits} AS SELECT * FROM real_visits;"
        ),
    )
    yield _db_case(kind, rel, "no-visits-table", _sql(f"DROP TABLE {visits};"))
    yield _db_case(kind, rel, "no-pages-table", _sql(f"DROP TABLE {pages};"))
    yield _db_case(
        kind,
        rel,
        "time-as-text",
        _sql(f"UPDATE {visits} SET {time_col} = 'soon' WHERE id % 7 = 0;"),
    )
    yield _db_case(
        kind, rel, "time-null", _sql(f"UPDATE {visits} SET {time_col} = NULL WHERE id % 5 = 0;")
    )
    yield _db_case(
        kind, rel, "time-zero", _sql(f"UPDATE {visits} SET {time_col} = 0 WHERE id % 6 = 0;")
    )
    yield _db_case(
        kind,
        rel,
        "time-negative",
        _sql(f"UPDATE {visits} SET {time_col} = -1000000 WHERE id % 4 = 0;"),
    )
    yield _db_case(
        kind,
        rel,
        "time-year9999",
        _sql(f"UPDATE {visits} SET {time_col} = 253402300799000000 WHERE id % 4 = 1;"),
    )
    yield _db_case(
        kind,
        rel,
        "time-max-int",
        _sql(f"UPDATE {visits} SET {time_col} = 9223372036854775807 WHERE id % 9 = 2;"),
    )
    yield _db_case(
        kind,
        rel,
        "time-real",
        _sql(f"UPDATE {visits} SET {time_col} = {time_col} + 0.5 WHERE id % 3 = 0;"),
    )
    yield _db_case(kind, rel, "page-missing", _sql(f"DELETE FROM {pages} WHERE id % 3 = 0;"))
    yield _db_case(
        kind, rel, "page-null", _sql(f"UPDATE {visits} SET {page} = NULL WHERE id % 8 = 0;")
    )
    yield _db_case(
        kind, rel, "page-text", _sql(f"UPDATE {visits} SET {page} = 'p' WHERE id % 8 = 1;")
    )
    yield _db_case(kind, rel, "url-null", _sql(f"UPDATE {pages} SET url = NULL WHERE id % 4 = 0;"))
    yield _db_case(
        kind, rel, "url-blob", _sql(f"UPDATE {pages} SET url = X'FFFE00' WHERE id % 4 = 1;")
    )
    yield _db_case(
        kind,
        rel,
        "title-invalid-utf8",
        _sql(f"UPDATE {pages} SET {title} = CAST(X'6361ff66e9' AS TEXT) WHERE id % 2 = 0;"),
    )
    yield _db_case(
        kind,
        rel,
        "title-nul",
        _sql(f"UPDATE {pages} SET {title} = 'a' || char(0) || 'b' WHERE id % 2 = 1;"),
    )
    yield _db_case(
        kind,
        rel,
        "title-huge",
        _sql(f"UPDATE {pages} SET {title} = hex(randomblob(1500000)) WHERE id % 10 = 0;"),
    )
    yield _db_case(
        kind, rel, "title-number", _sql(f"UPDATE {pages} SET {title} = 12.5 WHERE id % 3 = 2;")
    )
    yield _db_case(kind, rel, "foreign-wal", _foreign_wal)
    yield _db_case(kind, rel, "garbage-wal", _garbage("-wal"))
    yield _db_case(kind, rel, "garbage-journal", _garbage("-journal"))


def all_cases() -> list[Case]:
    """-> every generated corruption, in a fixed order."""
    return [
        *chat_cases(),
        *notes_cases(),
        *aw_cases(),
        *sqlite_cases("chrome"),
        *sqlite_cases("firefox"),
    ]
