"""LINE's text export ("[LINE] Chat history with …") read through `collect`: Japanese and English
headers, date lines, 12-hour times, the local day, damaged lines."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.ingest.sources import collect
from omoide.ingest.sources.line import _date
from tests.unit.ingest.sources.chat_exports import (
    DAY,
    END,
    FIXTURES,
    LINE_JA,
    LINE_MOM,
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
        ("11-20 07:30:00.000002", "山田花子", "佐藤健", "[スタンプ]", "talk_ja.txt#L10"),
        (
            "11-20 07:31:00.000000",
            "山田花子",
            "佐藤健",
            "今日は京都に行く\n旅館は東山のほう\n夜に電話するね",
            "talk_ja.txt#L11",
        ),
        ("11-20 21:05:00.000000", "山田花子", "山田花子", "☎ 通話時間 0:07", "talk_ja.txt#L15"),
    ]  # the unsent-message notice (L14) is no one's message
    assert out.rejects == [] and list(out.events.columns) == schemas.EVENTS.names
    schemas.to_table(out.events, schemas.EVENTS)
    assert set(out.events["event_type"]) == {"chat"} and set(out.events["app"]) == {"chat"}
    assert set(out.events["source"]) == {"line"} and set(out.events["source_name"]) == {"line"}


def test_line_english_exports_us_and_dot_dates_and_12_hour_times() -> None:
    out = collect(export_source("line", FIXTURES / "line", user_name="ken sato"), START, END, NOW)
    english = [r for r in shown_rows(out.events) if r[1] in ("Project Team", "Mom")]
    assert english == [
        ("11-20 07:05:00.000000", "Mom", "Mom", "Did you eat breakfast?", "mom_en.txt#L5"),
        ("11-20 07:40:00.000000", "Mom", "ken sato", "Yes, rice and miso soup", "mom_en.txt#L6"),
        ("11-20 09:15:00.000000", "Project Team", "Alice", "Morning!", "team_en.txt#L7"),
        (
            "11-20 09:15:00.000001",
            "Project Team",
            "ken sato",
            "Morning.\nRunning late, 10 min",
            "team_en.txt#L8",
        ),
        ("11-20 09:20:00.000000", "Project Team", "Bob", "[Sticker]", "team_en.txt#L11"),
        (
            "11-20 18:40:00.000000",
            "Project Team",
            "ken sato",
            "Shipped. Drinks at 7?",
            "team_en.txt#L12",
        ),
        ("11-20 22:30:00.000000", "Mom", "Mom", "Good night", "mom_en.txt#L7"),
    ]  # "Bob joined the group" (L10) has no speaker: a notice, not a message


def test_line_window_keeps_only_the_local_day() -> None:
    source = export_source("line", FIXTURES / "line")
    before = collect(source, *day_bounds(date(2026, 11, 19), TZ), NOW)
    assert [(r[0], r[4]) for r in shown_rows(before.events)] == [
        ("11-19 22:04:00.000000", "team_en.txt#L5"),
        ("11-19 23:50:00.000000", "talk_ja.txt#L5"),
        ("11-19 23:58:00.000000", "talk_ja.txt#L6"),
    ]
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
    ("line", "expected"),
    [
        ("2024/01/05(金)", date(2024, 1, 5)),
        ("2024/1/5（金）", date(2024, 1, 5)),
        ("2018/04/16(Mon)", date(2018, 4, 16)),
        ("2024.01.05 Friday", date(2024, 1, 5)),
        ("Fri, 01/05/2024", date(2024, 1, 5)),  # month first, as the US export writes
        ("Wed, 01/05/2024", date(2024, 5, 1)),  # only day first fits a Wednesday
        ("2024/01/05(月)", None),  # the weekday does not fit: text, not a date line
        ("2024/01/05", None),
        ("Friday", None),
    ],
)
def test_line_date_lines(line: str, expected: date | None) -> None:
    assert _date(line) == expected


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
    assert len(out.events) == 5  # every good message of the day is still read


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
