"""What the chat-export readers (line, chatgpt, claude, discord) share: speakers, times, files, events.

Who is the user: every reader writes the user's own messages with `actor` = the
configured `user_name`, the one name the rest of omoide tells the user's words by. Where the
export itself marks the user (ChatGPT's author role "user", Claude's sender "human") that
holds even when `user_name` is empty: the actor is then `OWN_SPEAKER` ("me"), which the
reflection counts as the user when no name is set. LINE and Discord name every speaker, so
there the user is the speaker whose name equals `user_name` (case-insensitive; Discord's
account name or display name); other speakers keep their names. An AI's turns are spoken
by `ASSISTANT_SPEAKER` ("assistant"), a name the profile never takes for a person.

Reading: an export is read once per file and version (size, mtime) and kept for the next
windows a backfill asks for (a ChatGPT export can hold years in one file); each window
then takes its messages by time. Message times are checked against `now` per window: one
before 1990 or more than a day ahead is a Reject, as in the JSONL reader. A file that is
not the export it should be (not text, another shape) is one Reject naming the file, and
the source's other files are still read; a missing path, or a folder without any file of
its kind, is a SourceError (a broken link or a folder of that name: a Reject naming it).

Damage: UTF-16/32 files with a BOM are decoded (text_files); a text export's lines end at LF,
CRLF or a lone CR (an old Mac's), mixed or not; a file that is not text (a database, UTF-16
without a BOM) is one Reject naming it, a message whose text is mostly control or
replacement characters a Reject naming the message. A JSON export that does not
decode as a whole (a flipped byte, a cut-off file, bytes that are not UTF-8) is read
conversation by conversation (Discord: message by message): each damaged one is a Reject
naming its position, the rest land.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from bisect import bisect_left, bisect_right
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from omoide.core.errors import SourceError
from omoide.core.ids import stable_id
from omoide.core.kinds import OWN_SPEAKER
from omoide.core.settings import SourceConfig
from omoide.ingest.sources.base import (
    EARLIEST,
    Collected,
    Reject,
    events_frame,
    folder_files,
    impossible,
    not_a_file,
    read_source,
)
from omoide.ingest.sources.json_salvage import salvaged_document
from omoide.ingest.sources.text_files import NOT_TEXT_LINE, garbled, utf8_text

log = logging.getLogger(__name__)

# Parsed files kept in memory, the least recently used dropped first: a backfill asks the
# same exports for day after day, and a Discord export is a file per channel.
_KEPT_FILES = 64
_LOCK = threading.Lock()
_LINE_END = re.compile(rb"(\r\n?|\n)")


@dataclass(frozen=True)
class Reading:
    """What a reader needs besides the bytes: names and zone from the source's settings."""

    source_name: str
    user_name: str
    timezone: str


@dataclass
class Parsed:
    """One export file read: its message records in time order, and what it could not use."""

    records: list[dict[str, Any]] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)
    skipped: int = 0  # messages with nothing to remember (system lines, empty text, tool turns)
    times: list[datetime] = field(default_factory=list)  # of the records, once sorted


Parser = Callable[[bytes, str, Reading], Parsed]
# A file's bytes -> the text its parser reads (UTF-8 bytes); SourceError naming it when none.
Decoder = Callable[[bytes, Path], bytes]
Listed = tuple[list[Path], list[Reject]]  # a source's files, and what is there but no file
_KEPT: OrderedDict[tuple[Parser, str, tuple[int, int, int], Reading], Parsed] = OrderedDict()


def text_lines(data: bytes, path: str, parsed: Parsed) -> list[str | None]:
    """A text export's bytes -> its lines (no line ends), None for a line that is not UTF-8 or is garbled (rejected, named by line).

    A line ends at LF, CRLF or a lone CR: a file saved on an old Mac (or mixed by an editor)
    ends its lines with CR only, and read at LF alone it was one line thousands long.
    """
    out: list[str | None] = []
    offset = 0
    parts = _LINE_END.split(data)  # line, its end, line, its end, ..., the last line
    for n, (raw, end) in enumerate(zip(parts[::2], [*parts[1::2], b""], strict=True), start=1):
        try:
            line: str | None = raw.decode("utf-8-sig" if n == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            reason = f"invalid UTF-8 at byte offset {offset + exc.start}"
            parsed.rejects.append(Reject(f"{path}#L{n}", reason))
            line = None
        else:
            if garbled(line):  # NUL or control bytes, not a line anyone wrote
                parsed.rejects.append(Reject(f"{path}#L{n}", NOT_TEXT_LINE))
                line = None
        out.append(line)
        offset += len(raw) + len(end)
    return out


def reading(source: SourceConfig) -> Reading:
    """Source settings -> the names and zone a reader uses (UTC and no user name when unset)."""
    return Reading(source.name, (source.user_name or "").strip(), source.timezone or "UTC")


def own_speaker(user_name: str) -> str:
    """The configured user name -> the actor of messages the export marks as the user's."""
    return user_name or OWN_SPEAKER


def named_speaker(names: Sequence[str], user_name: str) -> str:
    """A speaker's names as the export writes them (first = shown) + user name -> the actor."""
    if user_name and any(n.strip().casefold() == user_name.casefold() for n in names if n):
        return user_name
    return next((n for n in names if n), "?")


def export_files(source: SourceConfig, pattern: str, what: str) -> Listed:
    """Source + glob for folders + what it holds -> the files to read and Rejects for matches that are no files.

    SourceError when the path is missing, or is a folder without any such file.
    """
    root = source.path
    if root is None or not root.exists():
        raise SourceError(root or source.name, f"no such {what} file or folder")
    return folder_files(root, pattern, what) if root.is_dir() else ([root], [])


def load_json(data: bytes, path: str) -> Any | Reject:
    """File bytes -> the decoded JSON document, or one Reject naming the file and why not."""
    try:
        return json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        return Reject(path, f"not UTF-8 text (byte offset {exc.start})")
    except json.JSONDecodeError as exc:
        return Reject(path, f"invalid JSON at line {exc.lineno} col {exc.colno}: {exc.msg}")
    except RecursionError:
        return Reject(path, "invalid JSON: nested too deeply")


def document(
    data: bytes, path: str, parsed: Parsed, items: str | None = None, label: str = "record"
) -> Any | None:
    """File bytes (+ where its records are) -> the decoded JSON document, or None with the reason added to parsed's rejects.

    A document that does not decode (a flipped byte, a cut-off file, bytes that are not
    UTF-8) is salvaged record by record (json_salvage): each damaged record is a Reject
    named `path#<label>-<position>`, the others are read; only when its records cannot be
    found is the file one Reject. `items` names the top-level key of the records' list
    (None: the document is that list).
    """
    whole = load_json(data, path)
    if not isinstance(whole, Reject):
        return whole
    salvaged = salvaged_document(data.decode("utf-8-sig", "replace"), items)
    if salvaged is None:
        parsed.rejects.append(whole)
        return None
    doc, damaged = salvaged
    parsed.rejects += [Reject(f"{path}#{label}-{i}", d.reason) for i, d in damaged]
    log.warning(
        "%s: %s; read %s by %s: %d damaged, rejected",
        path,
        whole.reason,
        label,
        label,
        len(damaged),
    )
    return doc


def conversations(
    data: bytes, path: str, parsed: Parsed, export: str
) -> Iterator[tuple[int, dict[str, Any]]]:
    """A conversations.json's bytes -> (index, conversation) of each; what is not one goes to rejects."""
    doc = document(data, path, parsed, label="conversation")
    if doc is None:
        return
    if not isinstance(doc, list):
        parsed.rejects.append(Reject(path, f"not a {export} export: not a list of conversations"))
        return
    for i, conv in enumerate(doc):
        if isinstance(conv, dict):
            yield i, conv
        else:
            parsed.rejects.append(
                Reject(f"{path}#conversation-{i}", "conversation is not an object")
            )


def iso_time(value: object) -> datetime | str:
    """ISO 8601 text with a zone -> aware UTC datetime, or the reason it is not one."""
    if not isinstance(value, str):
        return "missing or non-text timestamp"
    try:
        ts = datetime.fromisoformat(value.strip())
    except ValueError:
        return "unparseable timestamp"
    if ts.tzinfo is None or ts.utcoffset() is None:
        return "timestamp without timezone"
    try:
        return ts.astimezone(UTC)
    except OverflowError:  # year 1 or 9999 moved across midnight by its offset
        return "timestamp out of range"


def epoch_time(value: object) -> datetime | str:
    """Epoch seconds (UTC by definition) -> aware UTC datetime, or the reason it is not one."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "missing or non-numeric timestamp"
    try:
        return datetime.fromtimestamp(value, UTC)
    except (OverflowError, OSError, ValueError):
        return "timestamp out of range"


def message(
    kind: str,
    read: Reading,
    ts: datetime,
    conversation: str | None,
    actor: str,
    text: str,
    ref: str,
    identity: Sequence[object],
) -> dict[str, Any]:
    """One message's fields + the parts that identify it -> an EVENTS record (id from the parts)."""
    return {
        "event_id": stable_id(kind, read.source_name, *identity),
        "ts": ts,
        "source": kind,
        "source_name": read.source_name,
        "event_type": "chat",
        "app": "chat",
        "title": conversation,
        "actor": actor,
        "text": text,
        "source_ref": ref,
    }


def collect_export(
    kind: str,
    source: SourceConfig,
    listed: Listed,
    parse: Parser,
    start: datetime,
    end: datetime,
    now: datetime,
    decode: Decoder = utf8_text,
) -> Collected:
    """Export files (+ entries that are no files) + their parser + UTC [start, end) + now -> chat events of the window and rejects.

    `decode` turns a file's bytes into the text its parser reads (default: text_files'
    UTF-8/BOM rules; WhatsApp's also opens the .zip a phone shares).
    """
    read = reading(source)
    files, odd = listed
    records: list[dict[str, Any]] = []
    rejects: list[Reject] = list(odd)
    skipped = 0
    for f in files:
        parsed = parsed_file(parse, f, read, decode)
        got, bad = in_window(parsed, start, end, now)
        records.extend(got)
        rejects.extend(bad)
        skipped += parsed.skipped
    seen: set[str] = set()
    unique = [r for r in records if not (r["event_id"] in seen or seen.add(r["event_id"]))]
    if len(unique) < len(records):
        log.info("%s: merged %d repeated message(s)", kind, len(records) - len(unique))
    log.info(
        "%s: %d file(s), %d event(s), %d rejected, %d without text skipped",
        kind,
        len(files),
        len(unique),
        len(rejects),
        skipped,
    )
    fixed: Counter[str] = Counter()
    return Collected(events_frame(unique, now, fixed, rejects), rejects, dict(fixed))


def parsed_file(parse: Parser, path: Path, read: Reading, decode: Decoder = utf8_text) -> Parsed:
    """Parser + export file + reading -> the file parsed, once per version of the file.

    The version is (inode, size, mtime): a changed export is read again. Only regular
    files are opened (a FIFO would wait forever); SourceError naming the file otherwise. A
    file that is not text (see text_files) is one Reject naming it.
    """
    why = not_a_file(path)
    if why is not None:
        raise SourceError(path, why)
    st = path.stat()
    key = (parse, str(path), (st.st_ino, st.st_size, st.st_mtime_ns), read)
    with _LOCK:
        kept = _KEPT.pop(key, None)
    if kept is None:
        data = read_source(path)
        try:
            data = decode(data, path)
        except SourceError as exc:
            kept = Parsed(rejects=[Reject(str(path), exc.reason)])
        else:
            kept = parse(data, str(path), read)
        kept.records.sort(key=lambda r: r["ts"])
        kept.times = [r["ts"] for r in kept.records]
    with _LOCK:
        _KEPT[key] = kept  # the most recently used last
        while len(_KEPT) > _KEPT_FILES:
            _KEPT.popitem(last=False)
    return kept


def in_window(
    parsed: Parsed, start: datetime, end: datetime, now: datetime
) -> tuple[list[dict[str, Any]], list[Reject]]:
    """A parsed file + UTC [start, end) + now -> its messages in the window, and its rejects.

    Impossible times (before 1990, more than a day after `now`) are rejected on every
    window, like the file's other rejects: they belong to no day.
    """
    times, records = parsed.times, parsed.records
    lo = bisect_left(times, EARLIEST)
    hi = bisect_right(times, now + timedelta(days=1))
    odd = records[:lo] + records[hi:]
    rejects = [
        *parsed.rejects,
        *(Reject(r["source_ref"], impossible(r["ts"], now) or "impossible timestamp") for r in odd),
    ]
    return records[bisect_left(times, start, lo, hi) : bisect_left(times, end, lo, hi)], rejects
