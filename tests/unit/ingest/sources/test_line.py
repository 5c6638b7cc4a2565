"""LINE's text export ("[LINE] Chat history with …") read through `collect`: Japanese and English
headers, date lines in either order, tab and space layouts, 12- and 24-hour times, placeholders
and notices kept out of the person's messages, the local day, damaged lines."""

from __future__ import annotations

from datetime import date, time
from pathlib import Path

import pandas as pd
import pytest

from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.ingest.sources import collect
from omoide.ingest.sources.chat_export import Reading
from omoide.ingest.sources.line import _clock, _date, parse_talk
from tests.unit.ingest.sources.chat_exports import (
    DAY,
    END,
    FIXTURES,
    LINE_DESKTOP,
    LINE_ISSUE,
    LINE_JA,
    LINE_MOM,
    LINE_PHOTO,
    LINE_UK,
    NOW,
    START,
    TZ,
    export_source,
    shown_rows,
)


def test_line_japanese_export_gives_the_local_days_messages_and_names_the_user() -> None:
    out = collect(export_source("line", LINE_JA, user_name="佐藤健"), START, END, NOW)
    assert shown_rows(out.events) == [
        ("11-20 07:30:00.000000", "山田花子", "山田花子", "おはよう", "talk_ja.txt#L8"),
        ("11-20 07:30:00.000001", "山田花子", "佐藤健", "おはよう！", "talk_ja.txt#L9"),
        (
            "11-20 07:31:00.000000",
            "山田花子",
            "佐藤健",
            "今日は京都に行く\n旅館は東山のほう\n夜に電話するね",
            "talk_ja.txt#L11",
        ),
    ]  # a sticker (L10), the unsent-message notice (L14) and a call (L15) are no one's words
    assert out.rejects == [] and list(out.events.columns) == schemas.EVENTS.names
    schemas.to_table(out.events, schemas.EVENTS)
    assert set(out.events["event_type"]) == {"chat"} and set(out.events["app"]) == {"chat"}
    assert set(out.events["source"]) == {"line"} and set(out.events["source_name"]) == {"line"}


def test_line_english_exports_us_and_dot_dates_and_12_hour_times() -> None:
    out = collect(export_source("line", FIXTURES / "line", user_name="ken sato"), START, END, NOW)
    english = [r for r in shown_rows(out.events) if r[1] in ("Project Team", "Mom")]
    assert (
        english
        == [
            ("11-20 07:05:00.000000", "Mom", "Mom", "Did you eat breakfast?", "mom_en.txt#L5"),
            (
                "11-20 07:40:00.000000",
                "Mom",
                "ken sato",
                "Yes, rice and miso soup",
                "mom_en.txt#L6",
            ),
            ("11-20 09:15:00.000000", "Project Team", "Alice", "Morning!", "team_en.txt#L7"),
            (
                "11-20 09:15:00.000001",
                "Project Team",
                "ken sato",
                "Morning.\nRunning late, 10 min",
                "team_en.txt#L8",
            ),
            (
                "11-20 18:40:00.000000",
                "Project Team",
                "ken sato",
                "Shipped. Drinks at 7?",
                "team_en.txt#L12",
            ),
            ("11-20 22:30:00.000000", "Mom", "Mom", "Good night", "mom_en.txt#L7"),
        ]
    )  # "Bob joined the group" (L10) has no speaker: a notice; Bob's "[Sticker]" (L11) a placeholder


def test_line_window_keeps_only_the_local_day() -> None:
    source = export_source("line", FIXTURES / "line")
    before = collect(source, *day_bounds(date(2026, 11, 19), TZ), NOW)
    assert [(r[0], r[4]) for r in shown_rows(before.events)] == [
        ("11-19 22:04:00.000000", "team_en.txt#L5"),
        ("11-19 23:50:00.000000", "talk_ja.txt#L5"),
    ]  # L6, a sticker, is nobody's words
    after = collect(source, *day_bounds(date(2026, 11, 21), TZ), NOW)
    assert [(r[0], r[4]) for r in shown_rows(after.events)] == [
        ("11-21 00:10:00.000000", "talk_ja.txt#L17")
    ]


def test_line_local_times_are_read_in_the_sources_timezone() -> None:
    berlin = collect(
        export_source("line", LINE_JA, timezone="Europe/Berlin"),
        *day_bounds(DAY, "Europe/Berlin"),
        NOW,
    )
    first = berlin.events.sort_values("ts").iloc[0]
    assert first["ts"] == pd.Timestamp("2026-11-20T06:30:00Z") and first["text"] == "おはよう"


@pytest.mark.parametrize(
    ("line", "day_first", "expected"),
    [
        ("2024/01/05(金)", False, (date(2024, 1, 5), True)),
        ("2024/1/5（金）", False, (date(2024, 1, 5), True)),
        ("2018/04/16(Mon)", False, (date(2018, 4, 16), True)),
        ("2024.01.05 Friday", False, (date(2024, 1, 5), True)),
        ("2024年1月5日(金曜日)", False, (date(2024, 1, 5), True)),
        ("2026/1/30周五", False, (date(2026, 1, 30), True)),
        ("2024/01/05", False, (date(2024, 1, 5), True)),  # no weekday: nothing to contradict
        ("2024-01-05", False, (date(2024, 1, 5), True)),
        ("2024/01/05(月)", False, (date(2024, 1, 5), False)),  # a date line, its weekday wrong
        (
            "Fri, 01/05/2024",
            False,
            (date(2024, 1, 5), True),
        ),  # month first, as the US export writes
        ("Wed, 01/05/2024", True, (date(2024, 5, 1), True)),  # day first, the file decided
        ("Wed, 01/05/2024", False, (date(2024, 1, 5), False)),
        ("Tues, 03/14/2023", True, (date(2023, 3, 14), True)),  # 14 is no month
        ("16/02/2024", False, (date(2024, 2, 16), True)),  # 16 is no month
        ("Mon, 12/03/2017", False, (date(2017, 12, 3), False)),  # issue 31's export
        ("2024/01/05 hello", False, None),  # "hello" is no weekday: text
        ("Friday", False, None),
        ("12/2024", False, None),
    ],
)
def test_line_date_lines(line: str, day_first: bool, expected: tuple[date, bool] | None) -> None:
    assert _date(line, day_first) == expected


@pytest.mark.parametrize(
    ("hour", "minute", "marker", "expected"),
    [
        (16, 46, None, time(16, 46)),
        (4, 46, "PM", time(16, 46)),
        (12, 5, "AM", time(0, 5)),
        (12, 5, "PM", time(12, 5)),
        (9, 15, "p.m.", time(21, 15)),
        (4, 46, "午後", time(16, 46)),
        (0, 30, "午前", time(0, 30)),  # the Japanese 12-hour clock counts from 0
        (9, 5, "下午", time(21, 5)),
        (24, 10, None, time(0, 10)),  # Java's "kk" clock: midnight's hour written as 24
        (25, 0, None, None),
        (13, 0, "PM", None),
        (9, 60, None, None),
    ],
)
def test_line_clocks(hour: int, minute: int, marker: str | None, expected: time | None) -> None:
    assert _clock(hour, minute, marker) == expected


def _day(path: Path, day: date, user: str = "Ken Sato") -> tuple[list[tuple[str, ...]], list]:
    """A LINE export + a Tokyo day -> its shown rows and rejects."""
    out = collect(export_source("line", path, user_name=user), *day_bounds(day, TZ), NOW)
    return shown_rows(out.events), out.rejects


def test_issue_31_english_export_with_a_full_width_colon_and_12_hour_tab_lines_lands() -> None:
    rows, rejects = _day(LINE_ISSUE, date(2017, 12, 3))
    # 33 messages: 29 words and 4 placeholders ([Sticker], [Photo] twice, [Video]).
    assert rejects == [] and len(rows) == 29
    assert {r[1] for r in rows} == {"Peter"} and {r[2] for r in rows} == {"Peter", "Ken Sato"}
    assert rows[0] == (
        "12-03 09:02:00.000000",
        "Peter",
        "Peter",
        "Morning! Are we still on for the Kamakura trip?",
        "peter_en.txt#L5",
    )
    noon = next(r for r in rows if r[3] == "Queue is long, 20 min")
    assert noon[0] == "12-03 12:05:00.000000"  # 12:05 PM is just after noon
    assert rows[-1] == (
        "12-03 16:46:00.000000",
        "Peter",
        "Ken Sato",
        "Let's do Nikko next month",
        "peter_en.txt#L38",
    )
    both = [r for r in rows if r[4] == "peter_en.txt#L23"]
    assert [r[3] for r in both] == [
        "Yes, then Hasedera.\nThe hydrangea path is closed in December though"
    ]
    assert not {"[Photo]", "[Sticker]", "[Video]"} & {r[3] for r in rows}


def test_issue_31_japanese_placeholders_are_nobodys_words() -> None:
    rows, rejects = _day(LINE_PHOTO, date(2018, 4, 16), user="佐藤健")
    assert rejects == []
    assert (
        [(r[0][6:11], r[2], r[3]) for r in rows]
        == [
            ("08:12", "田中美咲", "おはよう、今日の打ち合わせ何時だっけ？"),
            ("08:15", "佐藤健", "14時から、渋谷のオフィス"),
            ("08:40", "田中美咲", "資料のPDF送るね"),
            ("12:31", "佐藤健", "ごめん、少し遅れるかも"),
            ("12:32", "田中美咲", "了解、先に始めておく"),
            ("18:06", "田中美咲", "今日の会議の録画です"),
        ]
    )  # [写真] [スタンプ] [ファイル] [ボイスメッセージ] [動画], the unsent notice and the call: none


def test_every_placeholder_and_notice_is_a_counted_system_line() -> None:
    words = ["[写真]", "[スタンプ]", "[動画]", "[ファイル]", "[ボイスメッセージ]", "[位置情報]"]
    words += ["[Photo]", "[Sticker]", "[File]", "[Video]", "[Voice message]", "[Location]"]
    lines = [f"09:{i:02d}\tPeter\t{w}" for i, w in enumerate(words)]
    lines += ["10:00\t\tPeter unsent a message.", "10:01\tPeter\t☎ Missed call"]
    lines += ["10:02\tPeter\t[Photo] of the sea"]  # words around a placeholder are words
    text = "[LINE] Chat history with Peter\n\nFri, 11/20/2026\n" + "\n".join(lines) + "\n"
    parsed = parse_talk(text.encode(), "x.txt", Reading("line", "", TZ))
    assert [r["text"] for r in parsed.records] == ["[Photo] of the sea"]
    assert parsed.skipped == len(words) + 2 and parsed.rejects == []


def test_day_first_exports_are_told_by_a_day_above_12_and_group_notices_skipped() -> None:
    rows, rejects = _day(LINE_UK, date(2024, 2, 16), user="ken sato")
    assert rejects == []
    assert rows == [
        ("02-16 19:02:00.000000", "Family", "Mum", "Dinner on Sunday at ours?", "family_uk.txt#L5"),
        (
            "02-16 19:10:00.000000",
            "Family",
            "ken sato",
            "Yes please, I'll bring dessert",
            "family_uk.txt#L6",
        ),
    ]  # the group renamed (L7) is a notice
    rows, _ = _day(LINE_UK, date(2024, 2, 17))
    assert [(r[0][:11], r[2], r[3]) for r in rows] == [
        ("02-17 08:31", "Dad", "The garden after the frost"),
        ("02-17 21:55", "Mum", "See you tomorrow,\nlove Mum"),
    ]


@pytest.mark.parametrize(
    ("dates", "expected"),
    [
        (["Tue, 03/04/2025"], date(2025, 3, 4)),  # the weekday fits month first only
        (["Thu, 03/04/2025"], date(2025, 4, 3)),  # ... day first only
        (["03/04/2025"], date(2025, 3, 4)),  # nothing decides: month first
        (["03/04/2025", "Mon, 13/01/2025"], date(2025, 4, 3)),  # a later 13 decides the file
    ],
)
def test_the_order_of_year_last_dates_is_decided_per_file(dates: list[str], expected: date) -> None:
    body = "\n".join(f"{d}\n09:00\tPeter\tday {i}" for i, d in enumerate(dates))
    text = f"[LINE] Chat history with Peter\nSaved on: 2025/06/01 10:00\n\n{body}\n"
    parsed = parse_talk(text.encode(), "x.txt", Reading("line", "", "UTC"))
    assert parsed.records[0]["ts"].date() == expected and parsed.rejects == []


def test_a_saved_on_date_above_12_decides_day_first() -> None:
    text = "Chat history with Peter\nSaved on：17/02/2024 22:10\n\n05/02/2024\n9:00 AM\tPeter\thi\n"
    parsed = parse_talk(text.encode(), "x.txt", Reading("line", "", "UTC"))
    assert parsed.records[0]["ts"].isoformat() == "2024-02-05T09:00:00+00:00"


def test_the_windows_apps_space_separated_layout() -> None:
    rows, rejects = _day(LINE_DESKTOP, date(2017, 9, 3))
    assert rejects == []
    assert rows == [
        (
            "09-03 16:23:00.000000",
            "Bob",
            "Bob",
            "Today I found something:\nApparently there is a Node package for parsing chats now!",
            "[LINE] Chat with Bob.txt#L2",
        ),
        ("09-03 16:25:00.000000", "Bob", "Ken Sato", "Whaaat", "[LINE] Chat with Bob.txt#L4"),
    ]  # "Bob joined the group" (L5) is a notice, his "[Sticker]" (L6) a placeholder
    rows, _ = _day(LINE_DESKTOP, date(2017, 9, 4))
    assert [(r[0][6:11], r[2], r[3]) for r in rows] == [
        ("09:05", "Ken Sato", "Morning, did you try it?"),
        ("09:07", "Bob", "Not yet"),
    ]


def test_line_damaged_lines_are_rejects_and_the_rest_is_read(tmp_path: Path) -> None:
    lines = LINE_JA.read_bytes().split(b"\n")
    lines[2:2] = [b"07:00\t\xe5\xb1\xb1\xe7\x94\xb0\tearly"]  # L3: a message before any date line
    lines[8:8] = [b"25:10\t\xe5\xb1\xb1\xe7\x94\xb0\ttoo late", b"\xff\xfe broken"]  # L9, L10
    damaged = tmp_path / "talk.txt"
    damaged.write_bytes(b"\n".join(lines))
    out = collect(export_source("line", damaged), START, END, NOW)
    offset = sum(len(line) + 1 for line in lines[:9])  # of the bad byte, in the file
    assert [(r.ref, r.reason) for r in out.rejects] == [
        (f"{damaged}#L10", f"invalid UTF-8 at byte offset {offset}"),
        (f"{damaged}#L3", "message before any date line"),
        (f"{damaged}#L9", "impossible time of day 25:10"),
    ]
    assert len(out.events) == 3  # every good message of the day is still read


def test_line_non_export_text_files_stray_lines_and_headerless_exports(tmp_path: Path) -> None:
    (tmp_path / "shopping.txt").write_text("milk\neggs\n", encoding="utf-8")
    headerless = tmp_path / "[LINE] Family.txt"
    headerless.write_text("".join(LINE_MOM.read_text("utf-8").splitlines(True)[3:]), "utf-8")
    typed = tmp_path / "typed.txt"
    typed.write_text(
        "[LINE] 山田花子とのトーク履歴\n\nstray\n2026/11/20(金)\n"
        '08:00\t佐藤健\t"昨日の件\n2026/11/19(木)\nの続き"\n08:01\t山田花子\tOK\n',
        encoding="utf-8",
    )
    out = collect(export_source("line", tmp_path), START, END, NOW)
    assert [(r.ref, r.reason[:28]) for r in out.rejects] == [
        (str(tmp_path / "shopping.txt"), "not a LINE talk history: no "),
        (f"{typed}#L3", "line outside any message"),
    ]
    assert {r[1] for r in shown_rows(out.events)} == {"Family", "山田花子"}
    typed_rows = [r for r in shown_rows(out.events) if r[4].startswith("typed")]
    # A date typed inside a message is text: the day does not go back.
    assert [r[3] for r in typed_rows] == ["昨日の件\n2026/11/19(木)\nの続き", "OK"]
