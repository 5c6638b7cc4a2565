"""WhatsApp exports in the layouts issue 52 found misread: attachment notes in other languages,
Finnish "klo", German "Uhr", French "à", an iOS export dated only up to the 12th whose media
names say day first, CR-only line ends, a year 0000."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from omoide.ingest.pii import redact_text
from omoide.ingest.sources import collect
from omoide.ingest.sources.chat_export import Parsed, Reading
from omoide.ingest.sources.whatsapp import parse_chat
from tests.unit.ingest.sources.chat_exports import END, NOW, START, export_source

LOGGER = "omoide.ingest.sources.whatsapp"


def _read(
    text: str | bytes, name: str = "WhatsApp Chat with Laura.txt"
) -> tuple[list[tuple[str, str, str]], Parsed]:
    """Export text (read in UTC) -> (time, speaker, text) of each message, and the parse."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    parsed = parse_chat(data, f"/x/{name}", Reading("w", "", "UTC"))
    rows = [(r["ts"].strftime("%Y-%m-%d %H:%M:%S"), r["actor"], r["text"]) for r in parsed.records]
    return rows, parsed


def _said(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Captured logs -> the WhatsApp reader's messages."""
    return [r.getMessage() for r in caplog.records if r.name == LOGGER]


@pytest.mark.parametrize(
    "placeholder",
    [
        "IMG-20241210-WA0001.jpg (Datei angehängt)",
        "IMG-20241210-WA0001.jpg (archivo adjunto)",
        "IMG-20241210-WA0001.jpg (ファイル添付)",
        "IMG-20241210-WA0001.jpg (附件)",
        "DOC-20241210-WA0002.pdf (fichier joint)",
        "VID-20241210-WA0003.mp4 (file allegato)",
        "AUD-20241210-WA0004.opus (arquivo anexado)",
        "STK-20241210-WA0005.webp (bestand bijgevoegd)",
        "PTT-20241210-WA0006.opus (файл прикреплен)",
        # A file the app named itself is an attachment whatever language its note is in.
        "IMG-20241210-WA0007.jpg (tiedosto liitetty)",
        "Reiseplan.pdf (Datei angehängt)",
        "Reiseplan.pdf (Datei angeha\u0308ngt)",  # the umlaut decomposed (NFD), as macOS may save it
        "IMG-20241210-WA0008.jpg\u00a0(file attached)",
        "presupuesto.xlsx (archivo adjunto)",
        "<Multimedia omitido>",
        "<Médias omis>",
        "<Media weggelaten>",
        "<Medien ausgelassen>",
        "<メディアなし>",
        "<attached: 00000012-PHOTO-2024-12-10-08-06-30.jpg>",
        "<adjunto: 00000013-PHOTO-2024-12-10-08-06-31.jpg>",
        "Kyoto.pdf • 2 pages <attached: 00000020-Kyoto.pdf>",
        "image omitted",
        "Bild weggelassen",
        "imagen omitida",
        "image absente",
        "immagine omessa",
    ],
)
def test_attachment_placeholders_in_every_language_are_no_ones_words(placeholder: str) -> None:
    rows, parsed = _read(f"10/12/2024, 09:15 - Lena: {placeholder}\n")
    assert rows == [] and parsed.skipped == 1 and parsed.rejects == []
    # A caption on the lines after an attachment is the person's words.
    rows, _ = _read(f"10/12/2024, 09:15 - Lena: {placeholder}\nDer Weihnachtsmarkt\n")
    assert [r[2] for r in rows] == ["Der Weihnachtsmarkt"]


@pytest.mark.parametrize(
    "notice",
    ["Se eliminó este mensaje.", "Ce message a été supprimé.", "This message was deleted."],
)
def test_deleted_message_notices_are_no_ones_words(notice: str) -> None:
    rows, parsed = _read(f"10/12/2024, 09:15 - Lena: {notice}\n")
    assert rows == [] and parsed.skipped == 1


@pytest.mark.parametrize(
    "words",
    [
        "hello.world (lol)",
        "notes.txt (my draft)",  # a file the person named, and no note of the app
        "I sent IMG-20241210-WA0001.jpg yesterday",
        "<3",
    ],
)
def test_words_that_only_look_like_placeholders_are_kept(words: str) -> None:
    rows, _ = _read(f"10/12/2024, 09:15 - Lena: {words}\n")
    assert [r[2] for r in rows] == [words]


FINNISH = (
    "13.06.18 klo 21.24.02 - Matti: Hei, tuletko huomenna?\n"
    "Sauna on lämmin\n"
    "13.06.18 klo 21.25.15 - Laura: Moi\n"
    "13.06.18 klo 21.26.00 - Laura: IMG-20180613-WA0004.jpg (tiedosto liitetty)\n"
    "Järvi illalla\n"
    "[13.6.2018 klo 21.27.30] Matti: iOS writes brackets\n"
)


def test_finnish_klo_with_dotted_times_and_seconds_starts_each_message() -> None:
    rows, parsed = _read(FINNISH)
    assert rows == [
        ("2018-06-13 21:24:02", "Matti", "Hei, tuletko huomenna?\nSauna on lämmin"),
        ("2018-06-13 21:25:15", "Laura", "Moi"),
        ("2018-06-13 21:26:00", "Laura", "Järvi illalla"),
        ("2018-06-13 21:27:30", "Matti", "iOS writes brackets"),
    ]
    assert parsed.rejects == [] and parsed.skipped == 0  # the photo's caption is kept
    # No message holds another one's date and time, so none of them is redacted as a phone.
    assert all(redact_text(text)[0] == text for _, _, text in rows)


def test_german_uhr_spanish_japanese_and_french_layouts() -> None:
    rows, _ = _read(
        "20.11.26, 21:30 Uhr - Lena: Bis morgen\n"
        "20.11.26, 21:31 Uhr - Lena: IMG-20261120-WA0007.jpg (Datei angehängt)\n"
        "20.11.26, 21:32 Uhr - Papa: <Medien ausgelassen>\n"
    )
    assert rows == [("2026-11-20 21:30:00", "Lena", "Bis morgen")]
    rows, _ = _read(
        "20/11/26 21:30 - Ana: IMG-20261120-WA0001.jpg (archivo adjunto)\n"
        "Qué bonito\n"
        "20/11/26 21:31 - Ana: <Multimedia omitido>\n"
        "20/11/26 9:35 p. m. - Luis: Gracias\n"
    )
    assert rows == [
        ("2026-11-20 21:30:00", "Ana", "Qué bonito"),
        ("2026-11-20 21:35:00", "Luis", "Gracias"),
    ]
    rows, _ = _read(
        "2026/11/20 21:30 - 山田: IMG-20261120-WA0002.jpg (ファイル添付)\n"
        "2026/11/20 21:31 - 山田: 了解\n"
    )
    assert rows == [("2026-11-20 21:31:00", "山田", "了解")]
    rows, _ = _read(
        "20/11/2026 à 21:30 - Ann: Salut\n"
        "20/11/2026 à 21h31 - Ann: Ça va ?\n"
        "20/11/2026 21 h 32 - Bob: Oui\n"
    )
    assert [r[0][11:16] for r in rows] == ["21:30", "21:31", "21:32"]


IOS_DAY_FIRST = (
    "[01/12/2024, 9:00:00 AM] Ann: \u200eMessages and calls are end-to-end encrypted.\n"
    "[07/12/2024, 10:00:00 AM] Ann: Look at the market\n"
    "[07/12/2024, 10:00:05 AM] Ann: \u200e<attached: 00000003-PHOTO-2024-12-07-10-00-05.jpg>\n"
    "[07/12/2024, 10:01:00 AM] Ann: IMG-20241207-WA0003.jpg (file attached)\n"
    "[08/12/2024, 9:00:00 PM] Ben: Nice\n"
)


def test_media_names_decide_day_first_for_an_ios_export_dated_only_up_to_the_12th(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.INFO, logger=LOGGER):
        rows, _ = _read(IOS_DAY_FIRST, "_chat.txt")
    assert rows == [
        ("2024-12-07 10:00:00", "Ann", "Look at the market"),
        ("2024-12-08 21:00:00", "Ben", "Nice"),
    ]
    said = _said(caplog)
    assert said == ["/x/_chat.txt: dates read day first (the days in media file names)"]
    assert not any("market" in line or "Nice" in line for line in said)  # never message text
    # Without the media names nothing says so: the US layout (AM/PM, slashes) reads month first.
    caplog.clear()
    plain = "".join(line for line in IOS_DAY_FIRST.splitlines(True) if "attached" not in line)
    with caplog.at_level(logging.INFO, logger=LOGGER):
        rows, _ = _read(plain, "_chat.txt")
    assert [r[0][:10] for r in rows] == ["2024-07-12", "2024-08-12"]
    assert "upper-case AM/PM" in _said(caplog)[-1]


@pytest.mark.parametrize(
    ("text", "day", "why"),
    [
        # A file of another day (forwarded) and a day equal to its month give no vote.
        (
            "05/11/2024, 10:00 AM - Ann: IMG-20240105-WA0001.jpg (file attached)\n"
            "11/11/2024, 10:00 AM - Ann: IMG-20241111-WA0002.jpg (file attached)\n"
            "05/11/2024, 10:01 AM - Ann: hi\n",
            "2024-05-11",
            "upper-case AM/PM",
        ),
        # Month first proven by the names, though the dates going back say day first.
        (
            "11/05/2024, 10:00 - Ann: IMG-20241105-WA0001.jpg (file attached)\n"
            "10/06/2024, 10:01 - Ann: hi\n",
            "2024-10-06",
            "media file names",
        ),
        # No names: the part that goes back within a year is the day.
        ("03/02/2024, 10:00 - Ann: hi\n01/03/2024, 10:00 - Ann: yo\n", "2024-02-03", "backwards"),
    ],
)
def test_every_clue_to_the_date_order_is_weighed_and_logged(
    text: str, day: str, why: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger=LOGGER):
        rows, _ = _read(text)
    assert rows[0][0][:10] == day
    assert why in _said(caplog)[-1]


def test_cr_only_and_mixed_line_ends_are_line_breaks() -> None:
    lines = [
        "20/11/2026, 09:00 - Messages and calls are end-to-end encrypted. Tap to learn more.",
        "20/11/2026, 09:15 - Peter: Morning!",
        "20/11/2026, 09:16 - Ken: Hi",
        "a second line",
        "20/11/2026, 09:17 - Peter: ok",
    ]
    rows, parsed = _read("\r".join(lines) + "\r")
    assert [(r[1], r[2]) for r in rows] == [
        ("Peter", "Morning!"),
        ("Ken", "Hi\na second line"),
        ("Peter", "ok"),
    ]
    assert parsed.skipped == 1 and parsed.rejects == []
    assert [r["source_ref"][-3:] for r in parsed.records] == ["#L2", "#L3", "#L5"]
    mixed = lines[0] + "\r\n" + lines[1] + "\r" + lines[2] + "\n" + lines[3] + "\r\n" + lines[4]
    assert _read(mixed)[0] == rows


def test_an_impossible_year_is_a_reject_naming_the_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    chat = tmp_path / "WhatsApp Chat with Peter.txt"
    chat.write_text(
        "20/11/2026, 09:15 - Peter: Morning!\n"
        "20/11/0000, 09:16 - Peter: a year no calendar has\n"
        "20/11/202, 09:17 - Peter: a year cut short\n"
        "01/01/0001, 00:30 - Peter: the first day there was\n"
        "20/11/2026, 09:18 - Peter: ok\n",
        encoding="utf-8",
    )
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        out = collect(export_source("whatsapp", chat), START, END, NOW)
    assert out.events["text"].tolist() == ["Morning!", "ok"]
    assert sorted((r.ref.rsplit("#", 1)[1], r.reason) for r in out.rejects) == [
        ("L2", "impossible year 0000"),
        ("L3", "impossible year 202"),
        ("L4", "impossible date 01/01/0001"),  # a zone ahead of UTC moves it before year 1
    ]
    assert any("2 message(s) dated in an impossible year" in m for m in _said(caplog))
