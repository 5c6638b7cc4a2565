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
    13.06.18 klo 21.25.15 - Laura: Moi              Finnish: "klo", dots in the time too
    20/11/2026 à 21:30 - Ann: Salut                 French ("à"; "21h30", "21 h 30" read too)

Times may carry seconds, AM/PM in any case with or without dots ("p. m."), a trailing "Uhr".
Lines end at LF, CRLF or a lone CR (an old Mac's; see chat_export.text_lines).

A line that starts with a date and a time starts a message ("Name: text") or is a notice of
the app ("Messages and calls are end-to-end encrypted…", "Peter joined using this group's
invite link", "Lena changed the subject to …": no "Name: " before its text, or a quote
before the first ": "); every other line continues the message above (multi-line
messages). iOS marks what the app wrote itself with a U+200E (left-to-right mark) before its
text: such notices, "image omitted" and `<attached: …>` lines are never a person's words.

Kept out of the person's messages, counted in the log as skipped: the app's notices, media
placeholders (tables of the app's own strings below: a message that is only `<…>` —
`<Media omitted>`, `<Medien ausgelassen>`, `<attached: 00000012-PHOTO-….jpg>` in any
language —, iOS's "image omitted" / "Bild weggelassen" / "imagen omitida" …, a file name with
"(file attached)" / "(Datei angehängt)" / "(archivo adjunto)" / "(ファイル添付)" / "(附件)" …, a
file the app named (`IMG-20241210-WA0001.jpg`) with a note in any language, iOS's
"Title.pdf • 2 pages <attached: …>", "null" for a view-once photo), deleted-message notices,
"Waiting for this message", missed calls, and the "<This message was edited>" mark at the
end of an edited one; a caption after an attachment line is kept as the text.

Day or month first: decided from all the file's dated lines, strongest evidence first. A
first number above 12 anywhere means day first, a second one above 12 month first;
otherwise the media file names on the lines vote (IMG-20241207-WA0003.jpg or
00000012-PHOTO-2024-12-07-….jpg on a line dated 07/12/2024 proves day first); otherwise
dates going backwards within a year do (months only grow within a year: the part that goes
back is the day); otherwise day first (most locales), except month first for slash dates
with an upper-case AM/PM (the US layout). WhatsApp's date lines name no weekday to vote, as
LINE's do. The choice and what decided it are logged. A four-digit first number is a year
(year, month, day); two-digit years are 20yy; a year 0000 or of three digits is impossible.

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
mostly control characters, a message with an impossible date (31/11, year 0000: counted in
the log) or time, and a stray line before the first message are Rejects naming `path#Lnn`;
a file with no dated line at all, or a zip without a chat text, is one Reject naming it.
"""

from __future__ import annotations

import io
import logging
import re
import unicodedata
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

log = logging.getLogger(__name__)

KIND = "whatsapp"
WHAT = "WhatsApp chat export"
_PATTERNS = ("*.txt", "*.zip")
# A chat text is a few MB; a member claiming more is not one (or a zip bomb).
MAX_CHAT_BYTES = 256 << 20
# Direction and isolation marks, and a BOM: WhatsApp puts some of them before dates and texts.
_MARKS = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
_LRM = "\u200e"
_ORDERS = {"ymd": "year first", "dmy": "day first", "mdy": "month first"}
_BAD_YEAR = "impossible year"
_START = re.compile(
    r"(?P<open>\[)?"
    r"(?P<a>\d{1,4})(?P<sep>[./-])\s?(?P<b>\d{1,2})(?P=sep)\s?(?P<c>\d{1,4})\.?,?\s+"
    r"(?:(?:klo|à)\s+)?"  # Finnish "13.6.2018 klo 21.25", French "20/11/2026 à 21:30"
    r"(?P<h>\d{1,2})(?:[:.]|\s?h\s?)(?P<mi>\d{2})(?:[:.](?P<s>\d{2}))?"  # 21:30, 21.30, 21h30, 21 h 30
    r"(?:\s?(?P<ap>[AaPp])\.?\s?(?P<m>[Mm])\.?)?"
    r"(?:\s?Uhr)?"  # German "21:30 Uhr"
    r"(?(open)\]\s|\s[-\u2013]\s)"
    r"(?P<rest>.*)"
)
# The names WhatsApp gives the media it saves: Android's IMG-20241207-WA0003.jpg (also VID-,
# AUD-, PTT- for voice notes, DOC-, STK- for stickers), iOS's 00000012-PHOTO-2024-12-07-10-00-00.jpg.
# Both carry the day the medium came, which is the day of the line that names it.
_MEDIA_FILE = re.compile(
    r"(?:IMG|VID|AUD|PTT|DOC|STK)-(?P<y>\d{4})(?P<mo>\d{2})(?P<d>\d{2})-WA\d+\.\w{2,5}"
    r"|\d{8}-[A-Z]+-(?P<iy>\d{4})-(?P<imo>\d{2})-(?P<id>\d{2})(?:-\d{2}){3}\.\w{2,5}"
)
# What the app writes after an attached file's name, "<file> (file attached)", as real
# exports in these languages show it (collected from the placeholder tables and test exports
# of public WhatsApp parsers). A file the app named itself is an attachment whatever
# language its note is in, so a language missing here costs only files the person named.
_ATTACHED = (
    "file attached", "Datei angehängt", "archivo adjunto", "fichier joint", "file allegato",
    "arquivo anexado", "bestand bijgevoegd", "ファイル添付", "附件", "файл прикреплен",
    "файл прикреплён",
)  # fmt: skip
_MEDIA = re.compile(
    r"<[^<>\n]+>"  # <Media omitted>, <Medien ausgelassen>, <attached: …> in any language
    rf"|\S.*\.\w{{2,5}}\s*[(（](?:{'|'.join(map(re.escape, _ATTACHED))})[)）]"
    rf"|(?:{_MEDIA_FILE.pattern})\s*[(（][^()（）\n]{{1,40}}[)）]"
    r"|\S.*\s<[^<>\n:：]{1,30}[:：]\s?[^<>\n]+\.\w{2,5}>"  # iOS: "Title.pdf • 2 pages <attached: …>"
    r"|null",  # a view-once photo
    re.IGNORECASE,
)
# iOS's line for a medium left out of the export ("image omitted"), from the same sources;
# iOS marks it with U+200E (see _spoken), which some tools strip on the way.
_OMITTED = frozenset(
    w.casefold()
    for w in (
        "image omitted", "video omitted", "audio omitted", "sticker omitted", "GIF omitted",
        "document omitted", "Contact card omitted", "Bild weggelassen", "Video weggelassen",
        "Audio weggelassen", "Sticker weggelassen", "GIF weggelassen", "Dokument weggelassen",
        "Kontaktkarte ausgelassen", "imagen omitida", "video omitido", "audio omitido",
        "sticker omitido", "GIF omitido", "documento omitido", "Tarjeta de contacto omitida",
        "image absente", "vidéo absente", "audio omis", "sticker omis", "GIF retiré",
        "document manquant", "Fiche contact manquante", "immagine omessa", "video omesso",
        "audio omesso", "sticker non incluso", "GIF esclusa", "documento omesso",
        "Scheda contatto omessa", "imagem não revelada", "vídeo não revelado",
        "ficheiro de áudio não revelado", "sticker não revelado", "GIF não revelada",
        "documento não revelado", "Contacto não revelado", "afbeelding weggelaten",
        "video weggelaten", "sticker weggelaten", "изображение отсутствует",
        "видео отсутствует", "аудио отсутствует", "стикер не добавлен", "GIF отсутствует",
        "документ отсутствует",
    )
)  # fmt: skip
# What the app writes in a person's name that holds none of their words (casefolded).
_NOT_WORDS = {
    "this message was deleted", "this message was deleted.", "you deleted this message",
    "you deleted this message.", "diese nachricht wurde gelöscht.",
    "du hast diese nachricht gelöscht.", "se eliminó este mensaje.", "eliminaste este mensaje.",
    "ce message a été supprimé.", "vous avez supprimé ce message.",
    "questo messaggio è stato eliminato.", "hai eliminato questo messaggio.",
    "esta mensagem foi apagada.", "このメッセージは削除されました",
    "waiting for this message. this may take a while.", "missed voice call", "missed video call",
}  # fmt: skip
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
    order, why = date_order([d.m for d in drafts])
    log.info("%s: dates read %s (%s)", path, _ORDERS[order], why)
    _add_messages(parsed, drafts, order, chat_title(path), path, read)
    bad_years = sum(r.reason.startswith(_BAD_YEAR) for r in parsed.rejects)
    if bad_years:
        log.warning("%s: %d message(s) dated in an impossible year, rejected", path, bad_years)
    return parsed


def date_order(starts: list[re.Match[str]]) -> tuple[str, str]:
    """Every dated line's match -> ("ymd", "dmy" or "mdy", what decided it): the order the export writes dates in."""
    if any(len(m["a"]) == 4 for m in starts):
        return "ymd", "a four-digit year first"
    parts = [(int(m["a"]), int(m["b"]), int(m["c"])) for m in starts]
    if any(a > 12 for a, _, _ in parts):
        return "dmy", "a first number above 12"
    if any(b > 12 for _, b, _ in parts):
        return "mdy", "a second number above 12"
    named = _media_votes(starts)
    if named["dmy"] != named["mdy"]:
        return max(named, key=named.__getitem__), "the days in media file names"
    # Within a year the month never goes back: the part that does is the day.
    back: Counter[str] = Counter()
    for (a0, b0, y0), (a1, b1, y1) in pairwise(parts):
        if y0 == y1 and a1 < a0 and b1 > b0:
            back["dmy"] += 1
        elif y0 == y1 and b1 < b0 and a1 > a0:
            back["mdy"] += 1
    if back["dmy"] != back["mdy"]:
        return max(back, key=back.__getitem__), "dates going backwards"
    if any(m["sep"] == "/" and m["ap"] is not None and m["ap"].isupper() for m in starts):
        return "mdy", "the US layout: slashes and an upper-case AM/PM"
    return "dmy", "nothing to tell: day first, as most locales write it"


def _media_votes(starts: list[re.Match[str]]) -> Counter[str]:
    """Dated lines' matches -> how many name a media file of their own day read day first, and month first."""
    votes: Counter[str] = Counter({"dmy": 0, "mdy": 0})
    for m in starts:
        a, b, year = int(m["a"]), int(m["b"]), _year(m["c"])
        for f in _MEDIA_FILE.finditer(m["rest"]):
            y, mo, d = (int(f[k] or f["i" + k]) for k in ("y", "mo", "d"))
            if y != year or a == b:
                continue  # another day's file (forwarded), or both orders read the same
            votes["dmy"] += (d, mo) == (a, b)
            votes["mdy"] += (mo, d) == (a, b)
    return votes


def _year(written: str) -> int:
    """A year as the export writes it ("24" or "2024") -> the year (two digits are 20yy)."""
    return int(written) + (2000 if len(written) <= 2 else 0)


def _when(m: re.Match[str], order: str, tz: ZoneInfo) -> datetime | str:
    """A dated line's match + date order + zone -> its UTC time, or why it is impossible."""
    a, b, c = m["a"], m["b"], m["c"]
    if order == "ymd":
        written, mo, d = a, int(b), int(c)
    else:
        written, mo, d = (c, int(b), int(a)) if order == "dmy" else (c, int(a), int(b))
    if len(written) == 3 or (len(written) == 4 and int(written) == 0):
        return f"{_BAD_YEAR} {written}"  # no calendar has a year 0000; 202 is a year cut short
    try:
        day = date(_year(written), mo, d)
    except ValueError:
        return f"impossible date {a}{m['sep']}{b}{m['sep']}{c}"
    hour, minute, second = int(m["h"]), int(m["mi"]), int(m["s"] or 0)
    if m["ap"] is not None:
        if not 1 <= hour <= 12:
            return f"impossible time of day {m['h']}:{m['mi']} {m['ap']}{m['m']}"
        hour = hour % 12 + (12 if m["ap"].lower() == "p" else 0)
    if hour > 23 or minute > 59 or second > 59:
        return f"impossible time of day {m['h']}:{m['mi']}"
    try:
        return datetime.combine(day, time(hour, minute, second), tzinfo=tz).astimezone(UTC)
    except OverflowError:  # year 1 or 9999 moved past the calendar's end by the zone
        return f"impossible date {a}{m['sep']}{b}{m['sep']}{c}"


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
    first = unicodedata.normalize("NFC", first.strip(_MARKS + " "))  # "angehängt" as NFD too
    if _MEDIA.fullmatch(first) or first.casefold() in _OMITTED:
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
