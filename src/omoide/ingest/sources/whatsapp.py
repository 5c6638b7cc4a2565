"""WhatsApp's "Export chat" text (a `.txt`, or the `.zip` the phone shares) -> chat events.

The source path is one export (`.txt` or `.zip`) or a folder of them (searched recursively,
hidden folders skipped; other files beside them, such as the media of an unzipped export,
are left alone). A `.zip` is read for its chat text only: `_chat.txt` (iOS) or
`WhatsApp Chat with ….txt` (Android), never its media.

Layout, as the phone's locale writes it (checked against the formats handled and tested by
Pustur/whatsapp-chat-parser, src/parser.ts and tests/unit/parser.test.ts, and
joweich/chat-miner, chatminer/chatparsers.py and test/whatsapp/*.txt):

    20/11/2026, 09:15 - Peter: Morning!             Android, day first, 24-hour
    11/20/26, 9:15 AM - Mom: Did you eat?           Android, US (a narrow no-break space may
                                                    stand before AM/PM)
    20.11.26, 21:30 - Lena: Bis morgen              Android, German
    [20/11/2026, 08:02:11] Aiko: Booked it          iOS, seconds, brackets; `[11/20/26,
                                                    9:03:12 PM]` in the US
    2026/11/20 9:15 - 山田: こんにちは                 year first (Japanese and other locales)

A line that starts with a date and a time starts a message ("Name: text") or is a notice of
the app ("Messages and calls are end-to-end encrypted…", "Peter joined using this group's
invite link", "Lena changed the subject to …": no "Name: " before its text, or a quote
before the first ": "); every other line continues the message above (multi-line
messages). iOS marks what the app wrote itself with a U+200E (left-to-right mark) before its
text: such notices, "image omitted" and `<attached: …>` lines are never a person's words.

Kept out of the person's messages, counted in the log as skipped: the app's notices, media
placeholders (a message that is only `<…>` in angle brackets — `<Media omitted>`,
`<Medien ausgelassen>`, `<添付ファイル>`, `<attached: 00000012-PHOTO-….jpg>` —, "image
omitted" and the like, a file name with "(file attached)" / "(Datei angehängt)", "null"
for a view-once photo), deleted-message notices ("This message was deleted"), "Waiting for
this message", missed calls, and the "<This message was edited>"
mark at the end of an edited one; a caption after an attachment line is kept as the text.

Day or month first: the export itself decides. A first number above 12 anywhere in the
file means day first, a second one above 12 month first; otherwise dates going backwards
within a year tell which part is the day (months only grow within a year); otherwise the
default is day first (most locales), except month first for slash dates with an upper-case
AM/PM (the US layout). A four-digit first number is a year (year, month, day). Two-digit
years are 20yy.

Times are local wall-clock times without a zone: read in the source's `timezone` (a time
skipped by a DST change takes the offset before it); messages of the same second keep their
file order by a microsecond per earlier one.

The person: the export has no "me" marker (each message names its speaker, the owner too,
by the name their phone shows), so the user is the speaker whose name equals `user_name`
(case-insensitive), written as `user_name`; without it every message is someone else's.
The title is the chat's name from the file name ("WhatsApp Chat with Peter.txt", "WhatsApp
Chat mit Lena.txt", "WhatsApp Chat - Kyoto Trip.zip" -> "Peter", "Lena", "Kyoto Trip"; an
unzipped `_chat.txt` takes its folder's name). `source_ref` is `path#Lnn` of the message's
first line (of the chat text inside a zip). The event id hashes chat, time, speaker and
text, so a later export of the same chat gives the same ids. A line that is not UTF-8 or is
mostly control characters, a message with an impossible date or time, and a stray line
before the first message are Rejects naming `path#Lnn`; a file with no dated line at all,
or a zip without a chat text, is one Reject naming the file.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from itertools import pairwise
from pathlib import Path
from zoneinfo import ZoneInfo

from omoide.core.days import zone
from omoide.core.errors import SourceError
from omoide.core.settings import SourceConfig
from omoide.ingest.sources.base import Collected, Reject, folder_files
from omoide.ingest.sources.chat_export import (
    Listed,
    Parsed,
    Reading,
    collect_export,
    message,
    named_speaker,
    text_lines,
)
from omoide.ingest.sources.text_files import utf8_text

KIND = "whatsapp"
WHAT = "WhatsApp chat export"
_PATTERNS = ("*.txt", "*.zip")
# A chat text is a few MB; a member claiming more is not one (or a zip bomb).
MAX_CHAT_BYTES = 256 << 20
# Direction and isolation marks, and a BOM: WhatsApp puts some of them before dates and texts.
_MARKS = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
_LRM = "\u200e"
_START = re.compile(
    r"(?P<open>\[)?"
    r"(?P<a>\d{1,4})(?P<sep>[./-])\s?(?P<b>\d{1,2})(?P=sep)\s?(?P<c>\d{1,4})\.?,?\s+"
    r"(?:klo\s+)?"  # Finnish: "13.6.2018 klo 21.25"
    r"(?P<h>\d{1,2})[:.](?P<mi>\d{2})(?:[:.](?P<s>\d{2}))?"
    r"(?:[\s\u202f]?(?P<ap>[AaPp])\.?\s?(?P<m>[Mm])\.?)?"
    r"(?(open)\]\s|\s[-\u2013]\s)"
    r"(?P<rest>.*)"
)
_MEDIA = re.compile(
    r"<[^<>\n]+>"
    r"|\S.*\.\w{2,5} \((?:file attached|Datei angehängt|archivo adjunto|arquivo anexado"
    r"|fichier joint|bestand bijgevoegd|file allegato)\)"
    r"|(?:image|video|audio|sticker|GIF|document|Contact card) omitted"
    r"|null",
    re.IGNORECASE,
)
# What the app writes in a person's name that holds none of their words.
_NOT_WORDS = {
    "this message was deleted",
    "you deleted this message",
    "diese nachricht wurde gelöscht.",
    "du hast diese nachricht gelöscht.",
    "このメッセージは削除されました",
    "waiting for this message. this may take a while.",
    "missed voice call",
    "missed video call",
}
_EDITED = re.compile(
    r"[\s\u200e]*<(?:This message was edited|Diese Nachricht wurde bearbeitet"
    r"|このメッセージは編集されました)>$"
)
_TITLE = re.compile(
    r"^(?:WhatsApp[ -]Chat|Chat de WhatsApp|Conversa do WhatsApp|Discussion WhatsApp)"
    r"\s*(?:with|mit|con|com|avec|met|-)\s+(?P<name>.+)$",
    re.IGNORECASE,
)


@dataclass
class _Draft:
    """A dated line being read: where, its date and time as written, what follows it."""

    line: int
    m: re.Match[str]
    lines: list[str] = field(default_factory=list)


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """Export .txt/.zip file or folder + UTC [start, end) -> chat events of the window and rejects."""
    return collect_export(KIND, source, _files(source), parse_chat, start, end, now, chat_text)


def _files(source: SourceConfig) -> Listed:
    """Source -> its export files (.txt and .zip), and Rejects for matches that are no files.

    SourceError when the path is missing, or is a folder without any such file.
    """
    root = source.path
    if root is None or not root.exists():
        raise SourceError(root or source.name, f"no such {WHAT} file or folder")
    if not root.is_dir():
        return [root], []
    return folder_files(root, _PATTERNS, WHAT)


def chat_text(data: bytes, path: Path) -> bytes:
    """Export file bytes -> its chat text as UTF-8 bytes (from inside a .zip too); SourceError if none."""
    if not data.startswith(b"PK\x03\x04"):
        return utf8_text(data, path)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            member = _chat_member(archive.infolist())
            if member is None:
                raise SourceError(
                    path, "a ZIP without a chat text (_chat.txt or WhatsApp Chat ….txt)"
                )
            if member.file_size > MAX_CHAT_BYTES:
                raise SourceError(
                    path, f"{member.filename} in this ZIP is {member.file_size} bytes: no chat text"
                )
            chat = archive.read(member)
    except (
        zipfile.BadZipFile,
        NotImplementedError,
        RuntimeError,
        EOFError,
        OSError,
        zlib.error,
    ) as exc:
        # damaged, cut short, encrypted (RuntimeError) or compressed in a way zipfile lacks
        raise SourceError(path, f"not a readable ZIP archive ({exc})") from exc
    return utf8_text(chat, path)


def _chat_member(members: list[zipfile.ZipInfo]) -> zipfile.ZipInfo | None:
    """A zip's members -> the chat text among them (iOS `_chat.txt`, Android's named one), or None."""
    texts = [m for m in members if not m.is_dir() and m.filename.lower().endswith(".txt")]
    for wanted in (lambda n: n == "_chat.txt", lambda n: n.startswith("whatsapp")):
        found = [m for m in texts if wanted(Path(m.filename).name.casefold())]
        if len(found) == 1:
            return found[0]
    return texts[0] if len(texts) == 1 else None


def chat_title(path: str) -> str:
    """Export file path -> the chat's name ("WhatsApp Chat with Peter.txt" -> "Peter")."""
    p = Path(path)
    stem = p.parent.name if p.stem.casefold() == "_chat" else p.stem
    found = _TITLE.match(stem.strip())
    return (found["name"] if found else stem).strip()


def parse_chat(data: bytes, path: str, read: Reading) -> Parsed:
    """Chat text bytes + reading -> every message it holds, and what it could not use."""
    parsed = Parsed()
    drafts: list[_Draft] = []
    current: _Draft | None = None
    for n, line in enumerate(text_lines(data, path, parsed), start=1):
        if line is None:
            continue
        started = _START.fullmatch(line.lstrip(_MARKS))
        if started is not None:
            current = _Draft(n, started)
            drafts.append(current)
        elif current is not None:
            current.lines.append(line)
        elif line.strip(_MARKS + " \t"):
            parsed.rejects.append(Reject(f"{path}#L{n}", "line before the first message"))
    if not drafts:
        parsed.rejects[:] = [
            Reject(path, "not a WhatsApp chat export: no line starts with a date and a time")
        ]
        return parsed
    order = date_order([d.m for d in drafts])
    _add_messages(parsed, drafts, order, chat_title(path), path, read)
    return parsed


def date_order(starts: list[re.Match[str]]) -> str:
    """Every dated line's match -> "ymd", "dmy" or "mdy": the order the export writes dates in."""
    if any(len(m["a"]) == 4 for m in starts):
        return "ymd"
    parts = [(int(m["a"]), int(m["b"]), int(m["c"])) for m in starts]
    if any(a > 12 for a, _, _ in parts):
        return "dmy"
    if any(b > 12 for _, b, _ in parts):
        return "mdy"
    # Within a year the month never goes back: the part that does is the day.
    for (a0, b0, y0), (a1, b1, y1) in pairwise(parts):
        if y0 == y1 and a1 < a0 and b1 > b0:
            return "dmy"
        if y0 == y1 and b1 < b0 and a1 > a0:
            return "mdy"
    us = any(m["sep"] == "/" and m["ap"] is not None and m["ap"].isupper() for m in starts)
    return "mdy" if us else "dmy"


def _when(m: re.Match[str], order: str, tz: ZoneInfo) -> datetime | str:
    """A dated line's match + date order + zone -> its UTC time, or why it is impossible."""
    a, b, c = int(m["a"]), int(m["b"]), int(m["c"])
    y, mo, d = (a, b, c) if order == "ymd" else (c, b, a) if order == "dmy" else (c, a, b)
    y += 2000 if y < 100 else 0
    try:
        day = date(y, mo, d)
    except ValueError:
        return f"impossible date {m['a']}{m['sep']}{m['b']}{m['sep']}{m['c']}"
    hour, minute, second = int(m["h"]), int(m["mi"]), int(m["s"] or 0)
    if m["ap"] is not None:
        if not 1 <= hour <= 12:
            return f"impossible time of day {m['h']}:{m['mi']} {m['ap']}{m['m']}"
        hour = hour % 12 + (12 if m["ap"].lower() == "p" else 0)
    if hour > 23 or minute > 59 or second > 59:
        return f"impossible time of day {m['h']}:{m['mi']}"
    return datetime.combine(day, time(hour, minute, second), tzinfo=tz).astimezone(UTC)


def _spoken(rest: str) -> tuple[str, str] | None:
    """A dated line's text after the time -> (speaker, text), or None for a notice of the app."""
    speaker, sep, text = rest.partition(": ")
    if not sep:
        speaker, sep, text = rest.partition(":")  # "Name:" with nothing after it
        if not sep or text:
            return None
    if '"' in speaker or "“" in speaker or "„" in speaker:
        return None  # 'Lena changed the subject to "Trip: Kyoto"'
    if text.startswith(_LRM):
        return None  # iOS: the app's own words (notices, "image omitted", "<attached: …>")
    speaker = speaker.strip(_MARKS + " ").lstrip("~\u202f\u00a0 ")
    return (speaker, text) if speaker else None


def _words(text: str) -> str:
    """A message's text as exported -> the person's words in it ('' for a placeholder or notice)."""
    first, _, rest = text.partition("\n")
    if _MEDIA.fullmatch(first.strip(_MARKS + " ")):
        text = rest  # the attachment line; what follows is its caption
    text = _EDITED.sub("", text).strip()
    if text.strip(_MARKS).casefold() in _NOT_WORDS:
        return ""
    return text


def _add_messages(
    parsed: Parsed, drafts: list[_Draft], order: str, title: str, path: str, read: Reading
) -> None:
    """Dated lines (+ their continuations) -> message records; notices and media counted as skipped."""
    tz = zone(read.timezone)
    in_second: Counter[datetime] = Counter()
    for d in drafts:
        ref = f"{path}#L{d.line}"
        ts = _when(d.m, order, tz)
        if isinstance(ts, str):
            parsed.rejects.append(Reject(ref, ts))
            continue
        spoken = _spoken(d.m["rest"])
        text = _words("\n".join([spoken[1], *d.lines])) if spoken else ""
        if spoken is None or not text:
            parsed.skipped += 1
            continue
        base, ts = ts, ts + timedelta(microseconds=in_second[ts])
        in_second[base] += 1
        speaker = spoken[0]
        actor = named_speaker([speaker], read.user_name)
        identity = (title, ts.isoformat(timespec="microseconds"), speaker, text)
        parsed.records.append(message(KIND, read, ts, title, actor, text, ref, identity))
