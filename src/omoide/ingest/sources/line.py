"""LINE talk history text exports ("Send chat history" / トーク履歴を送信) -> chat events.

The source path is one exported `.txt` file or a folder of them (searched recursively,
hidden folders skipped). Shape, as checked against public examples of the export (the
Japanese iOS export quoted in qiita.com/shimajiroxyz/items/9a06a086ee9730ee3d55; the
English headers and date lines handled by hellodigua/ChatLab's
electron/main/parser/formats/line-native-txt.ts and its tests, and meyfa/line-chat-parser's
tests):

    [LINE] 山田とのトーク履歴          [LINE] Chat history with Yamada
    保存日時：2024/01/10 12:34          Saved on: 2024/01/10 12:34
    (blank)                            (blank)
    2024/01/05(金)                     Fri, 01/05/2024   (or 2024.01.05 Friday, 2024/01/05(Fri))
    09:15<TAB>山田<TAB>おはよう          09:15<TAB>Yamada<TAB>Morning
    09:16<TAB>自分<TAB>"二行の              9:16 AM<TAB>Ken<TAB>"two
    メッセージ"                          lines"

The header names the chat ("…とのトーク履歴" / "Chat history with …" for a friend, "…の
トーク履歴" / "Chat history in …" for a group); it becomes the title. Without a header the
file's name is the title ("[LINE] Family.txt" -> "Family"). A date line sets the day of
the messages below it; it counts only when its weekday matches its date, which tells
"Fri, 01/05/2024" (month first) from a day-first one, and keeps a date typed inside a
message from being taken for a new day. A message line is "time<TAB>speaker<TAB>text"
with 24-hour times ("09:15") or 12-hour ones ("9:15 AM", "午後9:15"); a line with an empty
speaker or no speaker at all is a system notice ("… joined the group", an unsent message)
and is skipped. A message spanning lines is written in double quotes, the quotes removed
here; other lines that belong to no header, date or message are continuations of the
message above. An unclosed quote ends at the next date or message line.

Time: the export writes local wall-clock times without a zone, so they are read in the
source's `timezone` (the top-level `timezone` setting unless the `[[sources]]` table sets
its own; UTC when neither is set). A time that does not exist in that zone (skipped by a
DST change) is read with the offset before the change; a repeated one as its first
occurrence. Times have minute resolution: messages of the same minute are kept in file
order by adding a microsecond per earlier message of that minute.

Speakers: names as the export writes them; the one equal to `user_name` (case-insensitive)
is written as `user_name` (see chat_export). `source_ref` is `path#Lnn` of the message's
first line. The event id hashes the chat, time, speaker and text: exporting the chat again
later gives the same ids for the same messages. UTF-16/32 exports with a BOM are decoded
(text_files). A line that is not UTF-8 or is mostly control characters, a message before
any date line or with an impossible time of day, and a stray line before the first message
become Rejects naming `path#Lnn`; a .txt file with neither a LINE header nor a date line is
one Reject naming the file. The rest is read.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from omoide.core.days import zone
from omoide.core.settings import SourceConfig
from omoide.ingest.sources.base import Collected, Reject
from omoide.ingest.sources.chat_export import (
    Parsed,
    Reading,
    collect_export,
    export_files,
    message,
    named_speaker,
)
from omoide.ingest.sources.text_files import NOT_TEXT_LINE, garbled

KIND = "line"

_HEADER = re.compile(
    r"^\[LINE\]\s*(?P<ja>.+?)(?:との|の)トーク履歴\s*$"
    r"|^(?:\[LINE\]\s*)?Chat history (?:with|in) (?P<en>.+?)\s*$"
)
_SAVED = re.compile(r"^(?:保存日時|Saved on)\s*[:：]")
_SLASH_DATE = re.compile(
    r"^(?P<y>\d{4})/(?P<m>\d{1,2})/(?P<d>\d{1,2})\s*[(（](?P<wd>[^)）]+)[)）]\s*$"
)
_DOT_DATE = re.compile(r"^(?P<y>\d{4})\.(?P<m>\d{1,2})\.(?P<d>\d{1,2})\s+(?P<wd>[A-Za-z]+)\s*$")
_US_DATE = re.compile(r"^(?P<wd>[A-Za-z]+),\s*(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4})\s*$")
_MESSAGE = re.compile(
    r"^(?P<pre>午前|午後)?(?P<h>\d{1,2}):(?P<min>\d{2})\s?(?P<ampm>[AaPp][Mm])?\t(?P<rest>.*)$"
)
_JA_WEEKDAYS = "月火水木金土日"
_EN_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


@dataclass
class _Draft:
    """A message being read: where it starts, when, who, and its lines so far."""

    line: int
    ts: datetime
    speaker: str
    lines: list[str] = field(default_factory=list)
    quoted: bool = False  # inside an unclosed double quote


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """Talk history .txt file or folder + UTC [start, end) -> chat events of the window and rejects."""
    files = export_files(source, "*.txt", "LINE talk history")
    return collect_export(KIND, source, files, parse_talk, start, end, now)


def parse_talk(data: bytes, path: str, read: Reading) -> Parsed:
    """Talk history bytes + reading -> every message it holds, and what it could not use."""
    parsed = Parsed()
    lines = _lines(data, path, parsed)
    title, taken = _header(lines)
    tz = zone(read.timezone)
    day: date | None = None
    seen_date = False
    drafts: list[_Draft] = []
    current: _Draft | None = None
    for n, line in enumerate(lines[taken:], start=taken + 1):
        if line is None:
            continue
        ref = f"{path}#L{n}"
        new_day = _date(line)
        started = _MESSAGE.match(line)
        if current is not None and current.quoted and new_day is None and started is None:
            current.quoted = not line.endswith('"')
            current.lines.append(line[:-1] if not current.quoted else line)
            continue
        # Days only move forward: an earlier "date line" is a date typed in a message.
        if new_day is not None and (day is None or new_day >= day):
            day, current, seen_date = new_day, None, True
            continue
        if started is not None:
            current = _started(started, day, tz, ref, n, parsed)
            if current is not None:
                drafts.append(current)
            continue
        if not line.strip():
            continue
        if current is None:
            parsed.rejects.append(Reject(ref, "line outside any message"))
            continue
        current.lines.append(line)
    if title is None and not seen_date:
        parsed.rejects[:] = [
            Reject(path, "not a LINE talk history: no '[LINE]' header or date line")
        ]
        return parsed
    title = title or re.sub(r"^\[LINE\]\s*", "", Path(path).stem) or None
    _add_messages(parsed, drafts, title, path, read)
    return parsed


def _lines(data: bytes, path: str, parsed: Parsed) -> list[str | None]:
    """File bytes -> its lines (no line ends), None for a line that is not UTF-8 or is garbled (rejected)."""
    out: list[str | None] = []
    offset = 0
    for n, raw in enumerate(data.split(b"\n"), start=1):
        try:
            line = raw.decode("utf-8-sig" if n == 1 else "utf-8").rstrip("\r")
        except UnicodeDecodeError as exc:
            reason = f"invalid UTF-8 at byte offset {offset + exc.start}"
            parsed.rejects.append(Reject(f"{path}#L{n}", reason))
            out.append(None)
        else:
            if garbled(line):  # NUL or control bytes, not a line anyone wrote
                parsed.rejects.append(Reject(f"{path}#L{n}", NOT_TEXT_LINE))
            out.append(None if garbled(line) else line)
        offset += len(raw) + 1
    return out


def _header(lines: list[str | None]) -> tuple[str | None, int]:
    """The file's lines -> the chat's name from its header (None without one), lines it takes."""
    first = (lines[0] or "") if lines else ""
    found = _HEADER.match(first.strip())
    if found is None:
        return None, 0
    taken = 2 if len(lines) > 1 and _SAVED.match((lines[1] or "").strip()) else 1
    return (found["ja"] or found["en"]).strip(), taken


def _date(line: str) -> date | None:
    """A line -> the day it announces when it is a date line whose weekday fits, else None."""
    text = line.strip()
    if m := _SLASH_DATE.match(text) or _DOT_DATE.match(text):
        candidates = [(int(m["y"]), int(m["m"]), int(m["d"]))]
    elif m := _US_DATE.match(text):
        a, b, y = int(m["a"]), int(m["b"]), int(m["y"])
        candidates = [(y, a, b), (y, b, a)]  # month first, as the US English export writes
    else:
        return None
    weekday = _weekday(m["wd"])
    for y, mo, d in candidates:
        try:
            day = date(y, mo, d)
        except ValueError:
            continue
        if day.weekday() == weekday:
            return day
    return None


def _weekday(name: str) -> int | None:
    """A weekday as a date line writes it ("金", "Fri", "Friday") -> 0 (Monday) .. 6, or None."""
    name = name.strip()
    if name and name[0] in _JA_WEEKDAYS:
        return _JA_WEEKDAYS.index(name[0])
    key = name[:3].casefold()
    return _EN_WEEKDAYS.index(key) if key in _EN_WEEKDAYS else None


def _started(
    m: re.Match[str], day: date | None, tz: ZoneInfo, ref: str, n: int, parsed: Parsed
) -> _Draft | None:
    """A message line's match + the current day -> a new draft, or None (skipped or rejected)."""
    speaker, sep, text = m["rest"].partition("\t")
    if not sep or not speaker.strip():
        parsed.skipped += 1  # a system notice: no speaker
        return None
    if day is None:
        parsed.rejects.append(Reject(ref, "message before any date line"))
        return None
    clock = _clock(int(m["h"]), int(m["min"]), m["pre"], m["ampm"])
    if clock is None:
        parsed.rejects.append(Reject(ref, f"impossible time of day {m['h']}:{m['min']}"))
        return None
    local = datetime.combine(day, clock, tzinfo=tz)
    draft = _Draft(n, local.astimezone(UTC), speaker.strip())
    draft.quoted = text.startswith('"') and not (len(text) > 1 and text.endswith('"'))
    draft.lines.append(text[1:] if draft.quoted else text)
    return draft


def _clock(hour: int, minute: int, ja: str | None, ampm: str | None) -> time | None:
    """Hour and minute as written (+ 午前/午後 or AM/PM) -> the time of day, or None if impossible."""
    if minute > 59:
        return None
    if ja is None and ampm is None:
        return time(hour, minute) if hour <= 23 else None
    if hour > 12:
        return None
    afternoon = ja == "午後" or (ampm or "").lower() == "pm"
    return time(hour % 12 + (12 if afternoon else 0), minute)


def _add_messages(
    parsed: Parsed, drafts: list[_Draft], title: str | None, path: str, read: Reading
) -> None:
    """Finished drafts + the chat's title -> message records (same-minute ones kept in order)."""
    in_minute: Counter[datetime] = Counter()
    for d in drafts:
        text = "\n".join(d.lines).strip()
        if not text:
            parsed.skipped += 1
            continue
        ts = d.ts + timedelta(microseconds=in_minute[d.ts])
        in_minute[d.ts] += 1
        actor = named_speaker([d.speaker], read.user_name)
        identity = (title or "", ts.isoformat(timespec="microseconds"), d.speaker, text)
        parsed.records.append(
            message(KIND, read, ts, title, actor, text, f"{path}#L{d.line}", identity)
        )
