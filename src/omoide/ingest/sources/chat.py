"""Generic chat logs (JSONL, one message per line) -> chat events.

Each line is `{"ts": ISO 8601 text or epoch seconds, "speaker": str, "text": str,
"conversation": str}`; `ts` and a non-empty `text` are required, `speaker` and
`conversation` are optional strings. An optional `role` string marks a program's line:
"assistant", "bot" or "system" (omoide.core.kinds.BOT_ROLES) makes the speaker a bot, kept
as its name with the "[bot]" mark (or "assistant" when unnamed), so the reflection never
takes it for a person; any other role is the speaker's own line. The source path is a
`.jsonl` file or a folder searched recursively for `*.jsonl` (hidden folders skipped).
Every file is read and only messages whose `ts` lies in the window are kept. A folder with
no `*.jsonl` file is a SourceError naming it; a broken or looping link, a folder or a FIFO
of that name is a Reject naming it.

Encoding: UTF-8, or UTF-16/32 with a BOM (see text_files). A file that is not text (an
SQLite database, UTF-16 without a BOM) is a Reject naming it in a folder, a SourceError when
it is the source itself; a message whose text is mostly control or replacement characters
is a Reject.

A timestamp written without a timezone is rejected ("timestamp without timezone") rather
than guessed: the log's writer may have used any zone, and a wrong guess moves the message
to another day. Epoch seconds are UTC by definition. A time before 1990 or more than a day
after the run is impossible for a message a person wrote, and rejected as such. Bad lines (not UTF-8, not JSON, missing
or bad fields) become Rejects with their `path#Lnn` ref; the other lines are still read.
Blank lines are not records. A message repeated verbatim (same conversation, time, speaker
and text) is one event: its id is built from exactly those fields.
"""

from __future__ import annotations

import json
import logging
import math
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from omoide.core.errors import SourceError
from omoide.core.ids import stable_id
from omoide.core.kinds import BOT_ROLES, bot_speaker
from omoide.core.settings import SourceConfig
from omoide.ingest.sources.base import (
    Collected,
    Reject,
    events_frame,
    folder_files,
    impossible,
    read_source,
)
from omoide.ingest.sources.chat_export import iso_time
from omoide.ingest.sources.text_files import utf8_text

log = logging.getLogger(__name__)

KIND = "chat"


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """JSONL file or folder + UTC [start, end) -> chat events of the window and rejects."""
    root = source.path
    if root is None or not root.exists():
        raise SourceError(root or source.name, "no such chat log file or folder")
    files, rejects = folder_files(root, "*.jsonl", "chat log") if root.is_dir() else ([root], [])
    records: list[dict[str, Any]] = []
    for f in files:
        try:
            data = utf8_text(read_source(f), f)
        except SourceError as exc:
            if not root.is_dir():
                raise
            rejects.append(Reject(str(f), exc.reason))  # the folder's other logs are still read
            continue
        recs, bad = chat_events(data, str(f), source.name, start, end, now)
        records.extend(recs)
        rejects.extend(bad)
    unique = list({r["event_id"]: r for r in reversed(records)}.values())[::-1]
    if len(unique) < len(records):
        log.info("chat: merged %d repeated message(s)", len(records) - len(unique))
    log.info("chat: %d file(s), %d event(s), %d rejected", len(files), len(unique), len(rejects))
    fixed: Counter[str] = Counter()
    events = events_frame(unique, now, fixed, rejects)
    return Collected(events, rejects, dict(fixed))


def parse_ts(value: object, now: datetime | None = None) -> datetime | str:
    """JSON `ts` value (+ now) -> aware UTC datetime, or the reason it is not one (or is impossible)."""
    ts = _parse_ts(value)
    if isinstance(ts, datetime) and now is not None:
        return impossible(ts, now) or ts
    return ts


def _parse_ts(value: object) -> datetime | str:
    """JSON `ts` value -> aware UTC datetime, or the reason it is not one."""
    if isinstance(value, bool) or value is None:
        return "missing or non-time 'ts'"
    if isinstance(value, int | float):
        if not math.isfinite(value):
            return "epoch timestamp is not finite"
        try:
            return datetime.fromtimestamp(value, UTC)
        except (OverflowError, OSError, ValueError):
            return "epoch timestamp out of range"
    if not isinstance(value, str):
        return "'ts' is neither ISO 8601 text nor epoch seconds"
    return iso_time(value)


def chat_events(
    data: bytes, path: str, source_name: str, start: datetime, end: datetime, now: datetime
) -> tuple[list[dict[str, Any]], list[Reject]]:
    """JSONL bytes + UTC [start, end) + now -> event records of the window and rejects.

    A line that cannot be used (not UTF-8, not JSON, nested too deeply, missing fields,
    an impossible time) is rejected on every day it is collected: it belongs to no day.
    """
    records: list[dict[str, Any]] = []
    rejects: list[Reject] = []
    offset = 0
    for n, raw in enumerate(data.split(b"\n"), start=1):
        ref = f"{path}#L{n}"
        line_start, offset = offset, offset + len(raw) + 1
        if not raw.strip():
            continue
        try:
            line = raw.decode("utf-8-sig" if n == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            rejects.append(Reject(ref, f"invalid UTF-8 at byte offset {line_start + exc.start}"))
            continue
        try:
            msg = json.loads(line)
        except json.JSONDecodeError as exc:
            rejects.append(Reject(ref, f"invalid JSON at col {exc.colno}: {exc.msg}"))
            continue
        except RecursionError:
            rejects.append(Reject(ref, "JSON nested too deeply"))
            continue
        if not isinstance(msg, dict):
            rejects.append(Reject(ref, "line is not a JSON object"))
            continue
        if "ts" not in msg:
            rejects.append(Reject(ref, "missing 'ts'"))
            continue
        text = msg.get("text")
        if not isinstance(text, str) or not text.strip():
            rejects.append(Reject(ref, "missing or empty 'text'"))
            continue
        speaker, conversation = msg.get("speaker"), msg.get("conversation")
        fields = ("speaker", "conversation", "role")
        wrong = [k for k in fields if not isinstance(msg.get(k), str | None)]
        if wrong:
            rejects.append(Reject(ref, f"'{wrong[0]}' is not a string"))
            continue
        ts = parse_ts(msg["ts"], now)
        if isinstance(ts, str):
            rejects.append(Reject(ref, ts))
            continue
        if not start <= ts < end:
            continue
        ts_iso = ts.isoformat(timespec="microseconds")
        records.append(
            {
                "event_id": stable_id(KIND, source_name, conversation, ts_iso, speaker, text),
                "ts": ts,
                "source": KIND,
                "source_name": source_name,
                "event_type": "chat",
                "app": "chat",
                "title": conversation,
                "actor": _actor(speaker, msg.get("role")),
                "text": text,
                "source_ref": ref,
            }
        )
    return records, rejects


def _actor(speaker: str | None, role: str | None) -> str | None:
    """A line's speaker + its optional role -> the event's actor (a bot's marked as one)."""
    if isinstance(role, str) and role.strip().casefold() in BOT_ROLES:
        return bot_speaker(speaker or "")
    return speaker
