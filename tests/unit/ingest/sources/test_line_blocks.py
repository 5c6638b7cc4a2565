"""LINE exports whose days do not only go forward (issue 52): an older block appended after
newer ones is filed on its own dates, a date typed in a message stays text; placeholders in
either language and CR-only line ends."""

from __future__ import annotations

import pytest

from omoide.ingest.sources.chat_export import Parsed, Reading
from omoide.ingest.sources.line import parse_talk

APPENDED = (
    "[LINE] Chat history with Peter\n"
    "Saved on: 2017/12/03 16:47\n"
    "\n"
    "Sat, 12/02/2017\n"
    "09:02 AM\tPeter\tMorning! Kamakura tomorrow?\n"
    "\n"
    "Sun, 12/03/2017\n"
    "10:00 AM\tKen Sato\tOn the platform\n"
    '10:05 AM\tPeter\t"Remember\n'
    "Sat, 12/02/2017\n"
    'was the plan first"\n'
    "\n"
    "Sun, 05/08/2016\n"
    "08:00 PM\tPeter\tWelcome to Tokyo!\n"
    "08:01 PM\tKen Sato\tThanks, just landed\n"
    "Mon, 05/09/2016\n"
    "07:00 AM\tPeter\tJet lag?\n"
)


def _read(text: str) -> tuple[list[tuple[str, str, str]], Parsed]:
    """Talk history text (read in UTC) -> (time, speaker, text) of each message, and the parse."""
    parsed = parse_talk(text.encode("utf-8"), "x.txt", Reading("line", "", "UTC"))
    rows = [(r["ts"].strftime("%Y-%m-%d %H:%M"), r["actor"], r["text"]) for r in parsed.records]
    return rows, parsed


def test_an_older_block_appended_after_newer_ones_takes_its_own_dates() -> None:
    rows, parsed = _read(APPENDED)
    assert rows == [
        ("2017-12-02 09:02", "Peter", "Morning! Kamakura tomorrow?"),
        ("2017-12-03 10:00", "Ken Sato", "On the platform"),
        ("2017-12-03 10:05", "Peter", "Remember\nSat, 12/02/2017\nwas the plan first"),
        ("2016-05-08 20:00", "Peter", "Welcome to Tokyo!"),
        ("2016-05-08 20:01", "Ken Sato", "Thanks, just landed"),
        ("2016-05-09 07:00", "Peter", "Jet lag?"),
    ]
    assert parsed.rejects == []


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("Sat, 12/02/2017\nwas the plan first", "no message line follows it"),
        ("Fri, 12/02/2017", "the weekday does not fit (a Saturday)"),
    ],
)
def test_an_earlier_date_that_opens_no_block_is_text(typed: str, why: str) -> None:
    text = (
        "[LINE] Chat history with Peter\n\nSun, 12/03/2017\n"
        f"10:05 AM\tPeter\tRemember\n{typed}\n10:06 AM\tKen Sato\tok\n"
    )
    rows, _ = _read(text)
    assert rows[0] == ("2017-12-03 10:05", "Peter", f"Remember\n{typed}"), why
    assert rows[1][0] == "2017-12-03 10:06"


@pytest.mark.parametrize(
    "placeholder",
    [
        "[Photo]",
        "[Sticker]",
        "[File]",
        "[写真]",
        "[スタンプ]",
        "[ファイル]",
        "[動画]",
        "[ボイスメッセージ]",
    ],
)
def test_placeholders_are_no_ones_words(placeholder: str) -> None:
    rows, parsed = _read(f"2024/01/05(金)\n09:15\t山田\t{placeholder}\n09:16\t山田\tおはよう\n")
    assert [r[2] for r in rows] == ["おはよう"] and parsed.skipped == 1


def test_cr_only_line_ends_are_line_breaks() -> None:
    rows, parsed = _read(APPENDED.replace("\n", "\r"))
    assert rows == _read(APPENDED)[0] and parsed.rejects == []
    assert parsed.records[-1]["source_ref"] == "x.txt#L17"
