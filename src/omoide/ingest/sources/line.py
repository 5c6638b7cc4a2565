"""LINE talk history text exports ("Send chat history" / トーク履歴を送信, desktop "Save chat") -> chat events.

The source path is one exported `.txt` file or a folder of them (searched recursively,
hidden folders skipped). Layouts, as checked against public examples and parsers of the
export (the Japanese iOS export quoted in qiita.com/shimajiroxyz/items/9a06a086ee9730ee3d55;
hellodigua/ChatLab's electron/main/parser/formats/line-native-txt.ts for the English,
Japanese and Chinese headers, date lines, 12-hour times and placeholders; meyfa/line-chat-parser
and its tests for the Windows app's space-separated "Save chat" files and its "24:53"):

    [LINE] 山田とのトーク履歴          [LINE] Chat history with Yamada       (Windows "Save chat":
    保存日時：2024/01/10 12:34          Saved on：2024/01/10 12:34             no header)
    (blank)                            (blank)
    2024/01/05(金)                     Fri, 01/05/2024                       2024.01.05 Friday
    09:15<TAB>山田<TAB>おはよう          04:46 PM<TAB>Yamada<TAB>Morning        09:15 Yamada Morning
    午後9:16<TAB>自分<TAB>"二行の         9:16 PM<TAB>Ken<TAB>"two               a second line
    メッセージ"                          lines"

Header: "…とのトーク履歴" / "Chat history with …" (a friend) or "…のトーク履歴" / "Chat
history in …" (a group) names the chat, the title; without one the file's name is the title
("[LINE] Family.txt" -> "Family"). The "Saved on" / "保存日時" line after it may use a
full-width colon.

Date lines, with or without a weekday: year first (`2024/01/05(金)`, `2024/1/5（Fri）`,
`2024.01.05 Friday`, `2024-01-05`, `2024年1月5日(金)`, `2026/1/30周五`) or year last
(`Fri, 01/05/2024`, `05/01/2024`). Year-last dates are month first (US English) or day first
(British English and most other locales), decided once per file: a date line or the "Saved
on" date with a first number above 12 means day first, a second number above 12 month first;
otherwise the weekdays vote (the reading under which more date lines name their right weekday);
otherwise month first, LINE's English default. A weekday that fits neither reading does not
make the line text (the export of issue 31 wrote "Mon, 12/03/2017"); only a weekday that is no
weekday at all does ("2024/01/05 hello"). Days move forward: an earlier date on its own line
is text, unless it opens a block of its own (its weekday, if it names one, fits and the next
line that is not blank is a message line: an older export's days appended after the newer
ones, as in `Sun, 05/08/2016` after the 2017 blocks), whose messages then take that date.
Inside an open double quote an earlier date, or one whose weekday does not fit, is text.

Message lines: "time<TAB>speaker<TAB>text", or in files without a tab-separated message
line, "time speaker text" (the Windows app's layout). Times are 24-hour ("09:15"; "24:10"
is 00:10 of the date line's day, Java's "kk" clock that writes midnight's hour as 24) or
12-hour ("9:15 AM", "04:46 PM", "午後9:15", "下午9:15", "PM 9:15"). In the space layout the
speaker is the longest known name the line starts with (the user's name, the friend the
header or the file's name names), else its first word: a name with spaces is only recognised when known. A
multi-line message is written in double quotes, removed here; other lines that belong to no
header, date or message continue the message above (the Windows app does not quote). An
unclosed quote ends at the next date or message line.

System lines, kept out of everyone's messages and counted (the log's "skipped"): a line
without a speaker (a join, an unsent message), in the space layout an English notice ("…
joined the group", "… unsent a message"), a message that is only a placeholder for what
the export does not hold (`[写真]`, `[スタンプ]`, `[動画]`, `[ファイル]`, `[ボイスメッセージ]`,
`[Photo]`, `[Sticker]`, `[Video]`, `[File]`, `[Voice message]`, … see _PLACEHOLDERS), and
a call record (`☎ 通話時間 0:07`, `☎ Missed call`).

Time: the export writes local wall-clock times without a zone, so they are read in the
source's `timezone` (the top-level `timezone` setting unless the `[[sources]]` table sets
its own; UTC when neither is set). A time that does not exist in that zone (skipped by a
DST change) is read with the offset before the change; a repeated one as its first
occurrence. Times have minute resolution: messages of the same minute are kept in file
order by adding a microsecond per earlier message of that minute (a placeholder left out
still takes its microsecond, so its neighbours keep the ids they had when it was read).

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
    text_lines,
)

KIND = "line"

_HEADER = re.compile(
    r"^(?:\[LINE\]\s*)?(?P<ja>.+?)(?P<ja_with>との|の)トーク履歴\s*$"
    r"|^(?:\[LINE\]\s*)?Chat history (?P<en_with>with|in) (?P<en>.+?)\s*$"
)
# A file's name without a header: the Windows app saves "[LINE] Chat with Bob.txt".
_FILE_TITLE = re.compile(r"^(?:\[LINE\]\s*)?(?:Chat(?: history)? (with|in)\s+)?")
_SAVED = re.compile(r"^(?:保存日時|Saved on)\s*[:：]?\s*(?P<when>.*)$")
_WEEKDAY = r"[A-Za-z]+\.?|(?:周|週|星期|禮拜|礼拜)[一二三四五六日天]|[月火水木金土日](?:曜日?)?"
_IN_BRACKETS = r"[(（]\s*(?P<wd1>[^)）]+?)\s*[)）]"
_YEAR_FIRST = re.compile(
    r"(?P<y>\d{4})(?:(?P<s>[/.\-])(?P<m>\d{1,2})(?P=s)(?P<d>\d{1,2})|年(?P<km>\d{1,2})月(?P<kd>\d{1,2})日)"
    rf"\s*(?:{_IN_BRACKETS}|(?P<wd2>{_WEEKDAY}))?"
)
_YEAR_LAST = re.compile(
    rf"(?:(?P<wd0>[A-Za-z]+\.?),?\s+)?(?P<a>\d{{1,2}})(?P<s>[/.\-])(?P<b>\d{{1,2}})(?P=s)(?P<y>\d{{4}})"
    rf"\s*(?:{_IN_BRACKETS}|(?P<wd2>[A-Za-z]+\.?))?"
)
_TIME = (
    r"(?P<pre>午前|午後|上午|下午|[AaPp]\.?[Mm]\.?(?=\s?\d))?\s?(?P<h>\d{1,2}):(?P<min>\d{2})"
    r"(?:\s?(?P<ampm>[AaPp]\.?[Mm]\.?))?"
)
_TAB_LINE = re.compile(rf"^{_TIME}\t(?P<rest>.*)$")
_SPACE_LINE = re.compile(rf"^{_TIME} (?P<rest>\S.*)$")
_JA_WEEKDAYS = "月火水木金土日"
_ZH_WEEKDAYS = "一二三四五六日"
_ZH_PREFIXES = ("周", "週", "星期", "禮拜", "礼拜")
_EN_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# What the export writes for what it does not hold (ChatLab's list, LINE's own UI words):
# a message that is only one of these is nobody's words.
_PLACEHOLDERS = frozenset(
    (
        "[写真]", "[スタンプ]", "[動画]", "[ファイル]", "[ボイスメッセージ]", "[位置情報]",
        "[連絡先]", "[アルバム]", "[ノート]", "[Photo]", "[Sticker]", "[Video]", "[File]",
        "[Voice message]", "[Audio]", "[Location]", "[Contact]", "[Album]", "[Note]",
        "[Notes]", "[GIF]", "[照片]", "[貼圖]", "[贴图]", "[影片]", "[视频]", "[檔案]",
        "[文件]", "[語音訊息]", "[语音信息]", "[位置]", "[记事本]", "[記事本]",
        "Photos", "Stickers", "Videos",  # some English exports write these bare
    )
)  # fmt: skip
_CALL = "☎"
# Notices the Windows app writes as "time name notice" (no speaker column to leave empty).
_NOTICE = re.compile(
    r"(?:joined|left) the group\.?|unsent a message\.?|(?:added|removed|invited) .+|"
    r"changed the group (?:name|photo|icon|cover).*|made an announcement\.?",
    re.IGNORECASE,
)


@dataclass
class _Draft:
    """A message being read: where it starts, when, who, and its lines so far."""

    line: int
    ts: datetime
    speaker: str
    lines: list[str] = field(default_factory=list)
    quoted: bool = False  # inside an unclosed double quote


@dataclass(frozen=True)
class _Layout:
    """How one file writes its lines: tabs or spaces, year-last dates' order, known speakers."""

    tabs: bool
    day_first: bool
    names: tuple[str, ...]  # longest first: who a space-separated line can start with


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """Talk history .txt file or folder + UTC [start, end) -> chat events of the window and rejects."""
    files = export_files(source, "*.txt", "LINE talk history")
    return collect_export(KIND, source, files, parse_talk, start, end, now)


def parse_talk(data: bytes, path: str, read: Reading) -> Parsed:
    """Talk history bytes + reading -> every message it holds, and what it could not use."""
    parsed = Parsed()
    lines = text_lines(data, path, parsed)
    title, friend, taken = _header(lines)
    named, with_friend = _file_title(path)
    friend = friend if title is not None else named if with_friend else None
    layout = _layout(lines, taken, read.user_name, friend)
    tz = zone(read.timezone)
    day: date | None = None
    seen_date = False
    drafts: list[_Draft] = []
    current: _Draft | None = None
    for n, line in enumerate(lines[taken:], start=taken + 1):
        if line is None:
            continue
        ref = f"{path}#L{n}"
        dated = _date(line, layout.day_first)
        started = (_TAB_LINE if layout.tabs else _SPACE_LINE).match(line)
        if current is not None and current.quoted and started is None:
            if dated is None or not dated[1] or (day is not None and dated[0] < day):
                current.quoted = not line.endswith('"')
                current.lines.append(line[:-1] if not current.quoted else line)
                continue
        # Days move forward, so an earlier "date line" is a date typed in a message, unless
        # it opens a block of its own: an older export's days appended after newer ones.
        if dated is not None and (
            day is None or dated[0] >= day or (dated[1] and _opens_block(lines, n, layout))
        ):
            day, current, seen_date = dated[0], None, True
            continue
        if started is not None:
            current = _started(started, layout, day, tz, ref, n, parsed)
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
    _add_messages(parsed, drafts, title or named, path, read)
    return parsed


def _opens_block(lines: list[str | None], n: int, layout: _Layout) -> bool:
    """A file's lines + a date line's number (1-based) + its layout -> is the next line that is not blank a message line?"""
    message_line = _TAB_LINE if layout.tabs else _SPACE_LINE
    for i in range(n, len(lines)):
        line = lines[i]
        if line is None or line.strip():
            return line is not None and message_line.match(line) is not None
    return False


def _header(lines: list[str | None]) -> tuple[str | None, str | None, int]:
    """The file's lines -> the chat's name from its header (None without one), the friend of a one-to-one chat, lines it takes."""
    first = (lines[0] or "") if lines else ""
    found = _HEADER.match(first.strip())
    if found is None:
        return None, None, 0
    taken = 2 if len(lines) > 1 and _SAVED.match((lines[1] or "").strip()) else 1
    name = (found["ja"] or found["en"]).strip()
    friend = found["ja_with"] == "との" or found["en_with"] == "with"
    return name, name if friend else None, taken


def _file_title(path: str) -> tuple[str | None, bool]:
    """A file's path -> the chat's name its file name gives ("[LINE] Chat with Bob.txt" -> Bob), and whether a friend."""
    found = _FILE_TITLE.match(Path(path).stem)
    return Path(path).stem[found.end() :].strip() or None, found[1] == "with"


def _layout(lines: list[str | None], taken: int, user_name: str, friend: str | None) -> _Layout:
    """A file's lines (+ its header's length, the user's and friend's names) -> how it writes messages and dates."""
    body = [line.strip() for line in lines[taken:] if line]
    tabs = any(_TAB_LINE.match(line) for line in lines[taken:] if line)
    saved = _SAVED.match((lines[1] or "").strip()) if taken == 2 else None
    dates = [m for m in map(_YEAR_LAST.fullmatch, body) if m]
    if saved is not None and (m := _YEAR_LAST.search(saved["when"])):
        dates.append(m)
    day_first = any(int(m["a"]) > 12 for m in dates)
    month_first = any(int(m["b"]) > 12 for m in dates)
    if day_first == month_first:  # neither or both: the weekdays vote, else month first
        votes = Counter(
            first for m in dates for first in (False, True) if _fits(m, first, *_weekdays(m))
        )
        day_first = votes[True] > votes[False]
    names = tuple(sorted({n for n in (user_name, friend) if n}, key=len, reverse=True))
    return _Layout(tabs, day_first, names)


def _date(line: str, day_first: bool) -> tuple[date, bool] | None:
    """A line + the file's order for year-last dates -> (the day it announces, whether its weekday fits), or None."""
    text = line.strip()
    if m := _YEAR_FIRST.fullmatch(text):
        wanted = _weekday(m["wd1"] or m["wd2"])
        if (m["wd1"] or m["wd2"]) and wanted is None:
            return None
        y, mo, d = int(m["y"]), int(m["m"] or m["km"]), int(m["d"] or m["kd"])
        readings = [(y, mo, d)]
    elif m := _YEAR_LAST.fullmatch(text):
        given = _weekdays(m)
        wanted = given[0] if given else None
        if any(w is None for w in given):
            return None
        y, a, b = int(m["y"]), int(m["a"]), int(m["b"])
        readings = [(y, b, a), (y, a, b)] if day_first else [(y, a, b), (y, b, a)]
    else:
        return None
    for y, mo, d in readings:  # the file's order, else the one a number above 12 leaves
        try:
            day = date(y, mo, d)
        except ValueError:
            continue
        return day, wanted is None or day.weekday() == wanted
    return None


def _weekdays(m: re.Match[str]) -> list[int | None]:
    """A year-last date line's match -> the weekdays it names (0 = Monday; None: a word that is no weekday)."""
    return [_weekday(w) for w in (m["wd0"], m["wd1"], m["wd2"]) if w]


def _fits(m: re.Match[str], day_first: bool, *weekdays: int | None) -> bool:
    """A year-last date line's match + an order + its weekday -> is it a real day of that weekday?"""
    a, b, y = int(m["a"]), int(m["b"]), int(m["y"])
    mo, d = (b, a) if day_first else (a, b)
    try:
        return bool(weekdays) and date(y, mo, d).weekday() == weekdays[0]
    except ValueError:
        return False


def _weekday(name: str | None) -> int | None:
    """A weekday as a date line writes it ("金", "金曜日", "Fri", "Friday", "周五") -> 0 (Monday) .. 6, or None."""
    name = (name or "").strip().rstrip(".")
    if name.isascii():
        folded = name.casefold()
        found = [
            i for i, day in enumerate(_EN_WEEKDAYS) if len(folded) >= 3 and day.startswith(folded)
        ]
        return found[0] if found else None
    if name[0] in _JA_WEEKDAYS and name[1:] in ("", "曜", "曜日"):
        return _JA_WEEKDAYS.index(name[0])
    prefix = next((p for p in _ZH_PREFIXES if name.startswith(p)), None)
    rest = name[len(prefix) :].replace("天", "日") if prefix else ""
    return _ZH_WEEKDAYS.index(rest) if len(rest) == 1 and rest in _ZH_WEEKDAYS else None


def _started(
    m: re.Match[str],
    layout: _Layout,
    day: date | None,
    tz: ZoneInfo,
    ref: str,
    n: int,
    parsed: Parsed,
) -> _Draft | None:
    """A message line's match + the file's layout and current day -> a new draft, or None (skipped or rejected)."""
    speaker, text = _speaker(m["rest"], layout)
    if speaker is None:
        parsed.skipped += 1  # a system notice: no speaker
        return None
    if day is None:
        parsed.rejects.append(Reject(ref, "message before any date line"))
        return None
    clock = _clock(int(m["h"]), int(m["min"]), m["pre"] or m["ampm"])
    if clock is None:
        parsed.rejects.append(Reject(ref, f"impossible time of day {m['h']}:{m['min']}"))
        return None
    local = datetime.combine(day, clock, tzinfo=tz)
    draft = _Draft(n, local.astimezone(UTC), speaker)
    draft.quoted = text.startswith('"') and not (len(text) > 1 and text.endswith('"'))
    draft.lines.append(text[1:] if draft.quoted else text)
    return draft


def _speaker(rest: str, layout: _Layout) -> tuple[str | None, str]:
    """What follows a message line's time + the file's layout -> (speaker, text); speaker None for a notice."""
    if layout.tabs:
        speaker, sep, text = rest.partition("\t")
        return (speaker.strip(), text) if sep and speaker.strip() else (None, rest)
    known = next((n for n in layout.names if rest.casefold().startswith(n.casefold() + " ")), None)
    speaker, _, text = (
        (rest[: len(known)], " ", rest[len(known) + 1 :]) if known else rest.partition(" ")
    )
    if not text.strip() or _NOTICE.fullmatch(text.strip()):
        return None, rest
    return speaker, text


def _clock(hour: int, minute: int, marker: str | None) -> time | None:
    """Hour and minute as written (+ 午前/午後, 上午/下午 or AM/PM) -> the time of day, or None if impossible."""
    if minute > 59:
        return None
    if marker is None:
        return time(hour % 24, minute) if hour <= 24 else None
    if hour > 12:  # 12-hour clocks write 0 or 12 for the first hour (午前0:30, 12:30 AM)
        return None
    afternoon = marker in ("午後", "下午") or marker.replace(".", "").casefold() == "pm"
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
        # Counted before a placeholder is left out, so its neighbours keep the times (and
        # ids) they had when placeholders were read as messages.
        ts = d.ts + timedelta(microseconds=in_minute[d.ts])
        in_minute[d.ts] += 1
        if text in _PLACEHOLDERS or text.startswith(_CALL):
            parsed.skipped += 1  # nothing anyone wrote: a photo, a sticker, a call record
            continue
        actor = named_speaker([d.speaker], read.user_name)
        identity = (title or "", ts.isoformat(timespec="microseconds"), d.speaker, text)
        parsed.records.append(
            message(KIND, read, ts, title, actor, text, f"{path}#L{d.line}", identity)
        )
