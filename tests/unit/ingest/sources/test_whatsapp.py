"""WhatsApp's "Export chat" read through `collect`: Android, US, German and iOS layouts, the .zip
the phone shares, the date order, placeholders and notices, damaged lines and files."""

from __future__ import annotations

import shutil
import zipfile
from datetime import date
from pathlib import Path

import pytest

from omoide.core import schemas
from omoide.core.errors import SourceError
from omoide.core.settings import get_settings
from omoide.ingest.fingerprint import input_files
from omoide.ingest.sources import collect
from omoide.ingest.sources.base import GARBLED
from omoide.ingest.sources.chat_export import Reading
from omoide.ingest.sources.text_files import NOT_TEXT_LINE
from omoide.ingest.sources.whatsapp import chat_title, parse_chat
from tests.unit.ingest.sources.chat_exports import (
    DAY,
    END,
    FIXTURES,
    NOW,
    START,
    TZ,
    export_source,
    shown_rows,
)

WHATSAPP = FIXTURES / "whatsapp"
PETER = WHATSAPP / "WhatsApp Chat with Peter.txt"
IOS = WHATSAPP / "WhatsApp Chat - Kyoto Trip" / "_chat.txt"
EXPECTED = [
    ("11-20 00:30:00.000000", "Mom", "Mom", "Can't sleep", "WhatsApp Chat with Mom.txt#L2"),
    ("11-20 07:05:00.000000", "Mom", "Mom", "Did you eat breakfast?", "WhatsApp Chat with Mom.txt#L3"),
    ("11-20 07:40:00.000000", "Mom", "Ken Sato", "Yes, rice and miso soup", "WhatsApp Chat with Mom.txt#L4"),
    ("11-20 07:41:00.000000", "Mom", "Ken Sato", "Breakfast at the ryokan", "WhatsApp Chat with Mom.txt#L5"),
    ("11-20 08:02:11.000000", "Kyoto Trip", "Aiko", "Booked the ryokan in Higashiyama for Friday.", "_chat.txt#L3"),
    ("11-20 08:05:40.000000", "Kyoto Trip", "Ken Sato", "Nice, send me the address", "_chat.txt#L4"),
    ("11-20 08:07:00.000000", "Kyoto Trip", "Jun", "Count me in!\nI can drive from Osaka", "_chat.txt#L8"),
    (
        "11-20 08:10:00.000000",
        "Peter",
        "Ken Sato",
        "Yes, until Sunday.\nThe ryokan is near Yasaka shrine",
        "WhatsApp Chat with Peter.txt#L3",
    ),
    ("11-20 08:13:00.000000", "Peter", "Peter", "That's the view from my window in Leeds", "WhatsApp Chat with Peter.txt#L6"),
    ("11-20 08:20:00.000000", "Peter", "Ken Sato", "Let's call tonight at 21:00", "WhatsApp Chat with Peter.txt#L8"),
    ("11-20 08:20:00.000001", "Peter", "Ken Sato", "ok", "WhatsApp Chat with Peter.txt#L9"),
    ("11-20 12:00:00.000000", "Familie", "Lena", "Hallo Ken! Wie ist Kyoto?", "WhatsApp Chat mit Familie.txt#L2"),
    ("11-20 12:03:00.000000", "Familie", "Ken Sato", "Wunderbar, morgen fahre ich nach Nara.", "WhatsApp Chat mit Familie.txt#L3"),
    ("11-20 12:05:00.000000", "Mom", "Mom", "Lunch?", "WhatsApp Chat with Mom.txt#L7"),
    ("11-20 12:06:00.000000", "Familie", "Papa", "Viel Spaß!", "WhatsApp Chat mit Familie.txt#L6"),
    ("11-20 21:30:00.000000", "Kyoto Trip", "Aiko", "Did you get the train tickets?", "_chat.txt#L10"),
]  # fmt: skip


def read(text: str, name: str = "WhatsApp Chat with Peter.txt", user: str = "") -> list[tuple]:
    """Export text -> (local date and time, speaker, text) of each message, and the parse."""
    parsed = parse_chat(text.encode("utf-8"), f"/x/{name}", Reading("w", user, TZ))
    return [
        (r["ts"].astimezone(NOW.tzinfo).isoformat(), r["actor"], r["text"]) for r in parsed.records
    ], parsed


def test_whatsapp_android_us_german_and_ios_layouts() -> None:
    out = collect(export_source("whatsapp", WHATSAPP, user_name="ken sato"), START, END, NOW)
    expected = [(*r[:2], "ken sato" if r[2] == "Ken Sato" else r[2], *r[3:]) for r in EXPECTED]
    assert shown_rows(out.events) == expected
    # Not the encryption notices, the joins and the subject change, the media placeholders
    # (<Media omitted>, <Medien ausgelassen>, image omitted, <attached: …>), the deleted
    # message, nor the 19th's and 21st's messages; the caption after an attachment is kept.
    assert out.rejects == []
    schemas.to_table(out.events, schemas.EVENTS)
    assert set(out.events["event_type"]) == {"chat"} and set(out.events["source"]) == {"whatsapp"}
    skipped = parse_chat(PETER.read_bytes(), str(PETER), Reading("w", "", TZ)).skipped
    assert skipped == 3  # the notice, <Media omitted>, "This message was deleted"


def test_without_user_name_every_speaker_keeps_their_name() -> None:
    out = collect(export_source("whatsapp", PETER), START, END, NOW)
    assert sorted(set(out.events["actor"])) == ["Ken Sato", "Peter"]


def test_the_zip_the_phone_shares_is_read_for_its_chat_text(tmp_path: Path) -> None:
    ios = tmp_path / "WhatsApp Chat - Kyoto Trip.zip"
    with zipfile.ZipFile(ios, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(IOS, "_chat.txt")
        z.writestr("00000012-PHOTO-2026-11-20-08-06-30.jpg", b"\xff\xd8\xff\xe0 not a real photo")
    android = tmp_path / "WhatsApp Chat with Peter.zip"
    with zipfile.ZipFile(android, "w") as z:
        z.write(PETER, PETER.name)
        z.writestr("notes from Peter.txt", "a text file someone shared")  # media, not the chat
    out = collect(export_source("whatsapp", tmp_path, user_name="Ken Sato"), START, END, NOW)
    rows = shown_rows(out.events)
    assert [r[:4] for r in rows] == [r[:4] for r in EXPECTED if r[1] in ("Kyoto Trip", "Peter")]
    assert {r[4].split("#")[0] for r in rows} == {ios.name, android.name}
    assert ("WhatsApp Chat - Kyoto Trip.zip#L8") in {r[4] for r in rows}
    assert out.rejects == []
    assert [p.name for p in input_files(export_source("whatsapp", tmp_path), DAY)] == [
        ios.name,
        android.name,
    ]
    # A zip cut short, one without a chat text, and one with two candidates are each named.
    (tmp_path / "cut.zip").write_bytes(ios.read_bytes()[:200])
    with zipfile.ZipFile(tmp_path / "photos.zip", "w") as z:
        z.writestr("IMG-20261120-WA0003.jpg", b"\xff\xd8\xff")
    out = collect(export_source("whatsapp", tmp_path), START, END, NOW)
    reasons = {Path(r.ref).name: r.reason for r in out.rejects}
    assert reasons["cut.zip"].startswith("not a readable ZIP archive")
    assert reasons["photos.zip"].startswith("a ZIP without a chat text")
    assert len(out.events) == len(rows)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        # Nothing above 12 and no order to go by: day first, as most locales write it.
        ("05/11/2026, 10:00 - Ann: hi\n", date(2026, 11, 5)),
        # The US layout: slash dates with an upper-case AM/PM.
        ("[11/05/26, 10:00:00\u202fAM] Ann: hi\n", date(2026, 11, 5)),
        # India's: lower-case am/pm, day first.
        ("05/11/26, 10:00 am - Ann: hi\n", date(2026, 11, 5)),
        # Dates going back within a year: 12 January, then 1 February (the day went back).
        ("12/01/2026, 10:00 - Ann: hi\n01/02/2026, 10:00 - Ann: yo\n", date(2026, 1, 12)),
        # ... and January 12, then February 1 written month first.
        ("01/12/2026, 10:00 - Ann: hi\n02/01/2026, 10:00 - Ann: yo\n", date(2026, 1, 12)),
        # One day above 12 anywhere decides for the whole file.
        ("05/11/2026, 10:00 - Ann: hi\n13/11/2026, 10:00 - Ann: yo\n", date(2026, 11, 5)),
        ("05/11/2026, 10:00 - Ann: hi\n05/13/2026, 10:00 - Ann: yo\n", date(2026, 5, 11)),
        # Year first (Japanese and other locales), dashes, dots, Finnish "klo".
        ("2026/11/05 9:15 - 山田: こんにちは\n", date(2026, 11, 5)),
        ("2026-11-05, 09:15 - Ann: hi\n", date(2026, 11, 5)),
        ("5.11.2026 klo 9.15 - Ann: hi\n", date(2026, 11, 5)),
    ],
)
def test_the_export_decides_the_date_order(text: str, day: date) -> None:
    rows, _ = read(text)
    assert rows and rows[0][0][:10] == day.isoformat()


def test_placeholders_and_notices_are_no_ones_words() -> None:
    rows, parsed = read(
        "2026/11/20 9:15 - 山田: <添付ファイル>\n"
        "2026/11/20 9:16 - 山田: このメッセージは削除されました\n"
        "2026/11/20 9:17 - 山田: null\n"
        "2026/11/20 9:18 - 山田さんがグループに参加しました\n"
        "2026/11/20 9:19 - 山田: 写真ありがとう <3\n"
        "2026/11/20 9:20 - 山田: DOC-20261120-WA0001.pdf (file attached)\n"
        "2026/11/20 9:21 - 山田: hello.world (lol)\n"
        "2026/11/20 9:22 - 山田: \n"
        "[2026/11/20 9:23:00] 山田: 了解 \u200e<This message was edited>\n"
    )
    assert [r[2] for r in rows] == ["写真ありがとう <3", "hello.world (lol)", "了解"]
    assert parsed.skipped == 6 and parsed.rejects == []


def test_times_are_local_and_12_hour_clocks_read() -> None:
    rows, _ = read(
        "20/11/2026, 12:05 am - Ann: just after midnight\n"
        "20/11/2026, 12:05 pm - Ann: just after noon\n"
        "20/11/2026, 9:05 p. m. - Ann: evening\n"
        "20/11/2026, 21:05:07 - Ann: with seconds\n"
    )
    assert [r[0] for r in rows] == [
        "2026-11-19T15:05:00+00:00",
        "2026-11-20T03:05:00+00:00",
        "2026-11-20T12:05:00+00:00",
        "2026-11-20T12:05:07+00:00",
    ]  # Tokyo is UTC+9


def test_damaged_lines_and_files_are_named(tmp_path: Path) -> None:
    chat = tmp_path / "WhatsApp Chat with Peter.txt"
    chat.write_bytes(
        b"Exported from WhatsApp\n"
        b"20/11/2026, 09:00 - Peter: fine\n"
        b"20/11/2026, 09:01 - Peter: caf\xe9 au lait\n"
        b"31/11/2026, 09:02 - Peter: the 31st of November\n"
        b"that has a second line\n"
        b"20/11/2026, 25:10 - Peter: a time no clock shows\n"
        b"20/11/2026, 09:03 - Peter: \x00\x01\x02\x03\x04\x05\x06\n"
        b"\x01\x02\x03\x04\x05\x06\x07\x08\n"
    )
    (tmp_path / "notes.txt").write_text("shopping: milk, eggs\n", encoding="utf-8")
    (tmp_path / "scan.txt").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))
    (tmp_path / "WhatsApp Chat with Aiko.txt").write_bytes(
        b"\xff\xfe" + "20/11/2026, 09:05 - Aiko: UTF-16 works too\r\n".encode("utf-16-le")
    )
    (tmp_path / "gone.zip").symlink_to(tmp_path / "nowhere.zip")
    out = collect(export_source("whatsapp", tmp_path), START, END, NOW)
    assert [(r[2], r[3]) for r in shown_rows(out.events)] == [
        ("Peter", "fine"),
        ("Aiko", "UTF-16 works too"),
    ]
    assert sorted((r.ref.replace(str(tmp_path) + "/", ""), r.reason) for r in out.rejects) == [
        ("WhatsApp Chat with Peter.txt#L1", "line before the first message"),
        ("WhatsApp Chat with Peter.txt#L3", "invalid UTF-8 at byte offset 85"),
        ("WhatsApp Chat with Peter.txt#L4", "impossible date 31/11/2026"),
        ("WhatsApp Chat with Peter.txt#L6", "impossible time of day 25:10"),
        ("WhatsApp Chat with Peter.txt#L7", GARBLED.format(column="text")),
        ("WhatsApp Chat with Peter.txt#L8", NOT_TEXT_LINE),
        ("gone.zip", "WhatsApp chat export is a broken link"),
        ("notes.txt", "not a WhatsApp chat export: no line starts with a date and a time"),
        ("scan.txt", "not text: a PNG image"),
    ]
    with pytest.raises(SourceError, match="no such WhatsApp"):
        collect(export_source("whatsapp", tmp_path / "nowhere"), START, END, NOW)
    (tmp_path / "empty").mkdir()
    with pytest.raises(SourceError, match=r"no WhatsApp chat export \(\*.txt, \*.zip\)"):
        collect(export_source("whatsapp", tmp_path / "empty"), START, END, NOW)


def test_event_ids_are_stable_and_a_later_export_merges(tmp_path: Path) -> None:
    first = collect(export_source("whatsapp", PETER), START, END, NOW).events
    (tmp_path / "old").mkdir()
    shutil.copy(PETER, tmp_path / "old" / PETER.name)
    later = tmp_path / "new" / PETER.name
    later.parent.mkdir()
    later.write_text(
        PETER.read_text("utf-8") + "21/11/2026, 09:05 - Ken Sato: Morning!\n", encoding="utf-8"
    )
    both = collect(export_source("whatsapp", tmp_path), START, END, NOW).events
    assert sorted(both["event_id"]) == sorted(first["event_id"]) and first["event_id"].is_unique


def test_titles_come_from_the_file_names() -> None:
    assert chat_title("/a/WhatsApp Chat with Peter.txt") == "Peter"
    assert chat_title("/a/WhatsApp Chat mit Lena.txt") == "Lena"
    assert chat_title("/a/WhatsApp Chat - Kyoto Trip.zip") == "Kyoto Trip"
    assert chat_title("/a/WhatsApp Chat - Kyoto Trip/_chat.txt") == "Kyoto Trip"
    assert chat_title("/a/family.txt") == "family"


def test_settings_give_whatsapp_and_telegram_the_zone_and_the_users_name(
    omoide_home: Path,
) -> None:
    (omoide_home / "omoide.toml").write_text(
        'timezone = "Asia/Tokyo"\nuser_name = "Ken Sato"\n'
        '[[sources]]\nkind = "whatsapp"\npath = "wa"\ntimezone = "Europe/Berlin"\n'
        '[[sources]]\nkind = "telegram"\npath = "tg"\n'
        '[[sources]]\nkind = "safari"\npath = "History.db"\n',
        encoding="utf-8",
    )
    sources = {s.kind: s for s in get_settings().sources}
    assert (sources["whatsapp"].timezone, sources["telegram"].timezone) == (
        "Europe/Berlin",
        "Asia/Tokyo",
    )
    assert sources["whatsapp"].user_name == sources["telegram"].user_name == "Ken Sato"
    assert sources["safari"].timezone is None and sources["safari"].user_name is None


@pytest.mark.parametrize("suite", ["events_raw", "events_clean"])
def test_the_event_suites_accept_every_source_kind(suite: str) -> None:
    import json

    from omoide.core.kinds import SOURCE_KINDS

    spec = json.loads((Path(__file__).parents[4] / "expectations" / f"{suite}.json").read_text())
    kinds = next(
        e["kwargs"]["value_set"]
        for e in spec["expectations"]
        if e["type"] == "expect_column_values_to_be_in_set" and e["kwargs"]["column"] == "source"
    )
    assert sorted(kinds) == sorted(SOURCE_KINDS)
