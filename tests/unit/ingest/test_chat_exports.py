"""Chat exports people have (LINE, ChatGPT, Claude, DiscordChatExporter) read through `collect`.

The fixtures under tests/fixtures/chat_exports follow each format's public shape (see each
reader's docstring for the source it was checked against); damaged copies are made here.
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.core.errors import SourceError
from omoide.core.ids import stable_id
from omoide.core.settings import SourceConfig, get_settings
from omoide.ingest.fingerprint import input_files
from omoide.ingest.sources import collect
from omoide.ingest.sources.chat_export import epoch_time, iso_time
from omoide.ingest.sources.line import _date
from omoide.memory.records import chat_records
from tests.conftest import FIXTURES as CONFTEST_FIXTURES

FIXTURES = CONFTEST_FIXTURES / "chat_exports"
LINE_JA = FIXTURES / "line" / "talk_ja.txt"
LINE_EN = FIXTURES / "line" / "team_en.txt"
LINE_MOM = FIXTURES / "line" / "mom_en.txt"
CHATGPT = FIXTURES / "chatgpt" / "conversations.json"
CLAUDE = FIXTURES / "claude" / "conversations.json"
DISCORD = FIXTURES / "discord"
GUILD = DISCORD / "Kyoto Trip - Text Channels - planning [1176000000000000002].json"
DM = DISCORD / "Direct Messages - Private - aiko.m [1176000000000000010].json"
NOW = datetime(2026, 11, 21, 3, 0, tzinfo=UTC)
TZ = "Asia/Tokyo"
DAY = date(2026, 11, 20)
START, END = day_bounds(DAY, TZ)


def _source(kind: str, path: Path, user_name: str = "", timezone: str = TZ) -> SourceConfig:
    """Kind + path (+ user name, zone) -> the SourceConfig Settings would give."""
    return SourceConfig(kind=kind, path=path, name=kind, timezone=timezone, user_name=user_name)


def _rows(df: pd.DataFrame) -> list[tuple[str, str, str, str, str]]:
    """Events -> (Tokyo time, title, speaker, text, ref file#part) in time order."""
    ordered = df.sort_values(["ts", "source_ref"])
    return [
        (
            r.ts.tz_convert(TZ).strftime("%m-%d %H:%M:%S.%f"),
            r.title,
            r.actor,
            r.text,
            r.source_ref.rsplit("/", 1)[-1],
        )
        for r in ordered.itertuples()
    ]


def _write_json(path: Path, doc: Any) -> Path:
    """Path + JSON document -> the path, the document written there."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


# --- LINE -------------------------------------------------------------------------------


def test_line_japanese_export_gives_the_local_days_messages_and_names_the_user() -> None:
    out = collect(_source("line", LINE_JA, user_name="佐藤健"), START, END, NOW)
    assert _rows(out.events) == [
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
    out = collect(_source("line", FIXTURES / "line", user_name="ken sato"), START, END, NOW)
    english = [r for r in _rows(out.events) if r[1] in ("Project Team", "Mom")]
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
    source = _source("line", FIXTURES / "line")
    before = collect(source, *day_bounds(date(2026, 11, 19), TZ), NOW)
    assert [(r[0], r[4]) for r in _rows(before.events)] == [
        ("11-19 22:04:00.000000", "team_en.txt#L5"),
        ("11-19 23:50:00.000000", "talk_ja.txt#L5"),
        ("11-19 23:58:00.000000", "talk_ja.txt#L6"),
    ]
    after = collect(source, *day_bounds(date(2026, 11, 21), TZ), NOW)
    assert [(r[0], r[4]) for r in _rows(after.events)] == [
        ("11-21 00:10:00.000000", "talk_ja.txt#L17")
    ]


def test_line_local_times_are_read_in_the_sources_timezone() -> None:
    berlin = collect(
        _source("line", LINE_JA, timezone="Europe/Berlin"), *day_bounds(DAY, "Europe/Berlin"), NOW
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
    out = collect(_source("line", damaged), START, END, NOW)
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
    out = collect(_source("line", tmp_path), START, END, NOW)
    assert [(r.ref, r.reason[:28]) for r in out.rejects] == [
        (str(tmp_path / "shopping.txt"), "not a LINE talk history: no "),
        (f"{typed}#L3", "line outside any message"),
    ]
    assert {r[1] for r in _rows(out.events)} == {"Family", "山田花子"}
    typed_rows = [r for r in _rows(out.events) if r[4].startswith("typed")]
    # A date typed inside a message is text: the day does not go back.
    assert [r[3] for r in typed_rows] == ["昨日の件\n2026/11/19(木)\nの続き", "OK"]


# --- ChatGPT ----------------------------------------------------------------------------


def test_chatgpt_export_reads_the_shown_branch_and_marks_the_user() -> None:
    out = collect(_source("chatgpt", CHATGPT.parent), START, END, NOW)
    title = "Quiet Kyoto ryokan area"
    assert _rows(out.events) == [
        (
            "11-20 07:30:01.500000",
            title,
            "me",
            "Which area of Kyoto is quiet for a ryokan stay?",
            "conversations.json#b1d5a6c2-0000-4000-8000-000000000003",
        ),
        (
            "11-20 07:31:00.250000",
            title,
            "assistant",
            "Higashiyama near Kodai-ji is quiet after 6 pm.",
            "conversations.json#d8f3a4b5-0000-4000-8000-000000000005",
        ),
        (
            "11-20 07:34:00.000000",
            title,
            "me",
            "This is the view from the room I booked. Is it Higashiyama?",
            "conversations.json#e9a4b5c6-0000-4000-8000-000000000006",
        ),
        (
            "11-20 07:35:02.500000",
            title,
            "assistant",
            "Yes: that is the Yasaka pagoda, so you are in Higashiyama.",
            "conversations.json#f0b5c6d7-0000-4000-8000-000000000007",
        ),
    ]  # not the regenerated-away answer, the hidden system message or the image part
    assert out.rejects == [] and set(out.events["source"]) == {"chatgpt"}
    named = collect(_source("chatgpt", CHATGPT, user_name="Ken"), START, END, NOW)
    assert sorted(set(named.events["actor"])) == ["Ken", "assistant"]
    later = collect(_source("chatgpt", CHATGPT), *day_bounds(date(2026, 11, 21), TZ), NOW)
    # the tool call (recipient "python") and the tool's output are no one's words
    assert [r[3] for r in _rows(later.events)] == [
        "Plot 8200, 10400 and 6100 steps as a bar chart.",
        "Here is the chart: Tuesday was your best day.",
    ]


def test_chatgpt_damaged_messages_and_corrupt_exports_are_rejects(tmp_path: Path) -> None:
    doc = json.loads(CHATGPT.read_text("utf-8"))
    mapping = doc[0]["mapping"]
    mapping["b1d5a6c2-0000-4000-8000-000000000003"]["message"]["create_time"] = "yesterday"
    mapping["f0b5c6d7-0000-4000-8000-000000000007"]["message"]["create_time"] = 500_000_000.0
    del doc[0]["current_node"]  # without it, every node is read, branches included
    good = _write_json(tmp_path / "good" / "conversations.json", doc)
    bad = tmp_path / "bad" / "conversations.json"
    bad.parent.mkdir()
    bad.write_bytes(CHATGPT.read_bytes()[:2000])  # a download cut short
    _write_json(tmp_path / "other" / "conversations.json", {"conversations": []})
    out = collect(_source("chatgpt", tmp_path), START, END, NOW)
    assert [(r.ref, r.reason.split(" at line")[0]) for r in out.rejects] == [
        (str(bad), "invalid JSON"),
        (
            f"{good}#b1d5a6c2-0000-4000-8000-000000000003",
            "'create_time': missing or non-numeric timestamp",
        ),
        (
            f"{good}#f0b5c6d7-0000-4000-8000-000000000007",
            "impossible timestamp 1985-11-05T00:53:20+00:00 (before 1990)",
        ),
        (
            str(tmp_path / "other" / "conversations.json"),
            "not a ChatGPT export: not a list of conversations",
        ),
    ]
    assert [r[3] for r in _rows(out.events)] == [
        "Try Arashiyama.",
        "Higashiyama near Kodai-ji is quiet after 6 pm.",
        "This is the view from the room I booked. Is it Higashiyama?",
    ]


def test_chatgpt_a_looping_branch_ends(tmp_path: Path) -> None:
    doc = json.loads(CHATGPT.read_text("utf-8"))
    root = doc[0]["mapping"]["aaa1b2c3-0000-4000-8000-000000000001"]
    root["parent"] = doc[0]["current_node"]  # parent pointers that go round
    out = collect(_source("chatgpt", _write_json(tmp_path / "c.json", doc)), START, END, NOW)
    assert len(out.events) == 4 and out.rejects == []


@pytest.mark.parametrize(
    ("read", "value", "expected"),
    [
        (iso_time, "2026-11-20T08:02:11.123+09:00", datetime(2026, 11, 19, 23, 2, 11, 123000, UTC)),
        (
            iso_time,
            "1970-01-01T00:16:41.0000000+00:00",
            datetime(1970, 1, 1, 0, 16, 41, tzinfo=UTC),
        ),
        (iso_time, "2026-11-20T08:02:11", "timestamp without timezone"),
        (iso_time, "9999-12-31T23:59:59-05:00", "timestamp out of range"),
        (iso_time, 1795127400, "missing or non-text timestamp"),
        (epoch_time, 1795127400.5, datetime(2026, 11, 19, 22, 30, 0, 500000, UTC)),
        (epoch_time, "1795127400", "missing or non-numeric timestamp"),
        (epoch_time, float("nan"), "timestamp out of range"),
        (epoch_time, 1e300, "timestamp out of range"),
    ],
)
def test_export_times(read: Any, value: object, expected: object) -> None:
    assert read(value) == expected


# --- Claude -----------------------------------------------------------------------------


def test_claude_export_reads_text_blocks_and_marks_the_human() -> None:
    out = collect(_source("claude", CLAUDE, user_name="Ken Sato"), START, END, NOW)
    title, ref = "Packing list for Kyoto", "conversations.json#1a2b3c4d-0000-4000-8000-00000000e00"
    assert _rows(out.events) == [
        (
            "11-20 08:10:02.118265",
            title,
            "Ken Sato",
            "What should I pack for three nights in Kyoto in late November?",
            f"{ref}1",
        ),
        (
            "11-20 08:10:20.550120",
            title,
            "assistant",
            "Let me check the forecast first.\nLayers: 6-14 °C, so a light down jacket and a scarf.",
            f"{ref}2",
        ),
        (
            "11-20 08:16:30.004871",
            title,
            "Ken Sato",
            "Here is my itinerary; anything missing?",
            f"{ref}3",
        ),
        (
            "11-20 08:16:41.503310",
            title,
            "assistant",
            "Comfortable shoes: Arashiyama means a lot of walking.",
            f"{ref}4",
        ),
    ]  # tool use and results, the "not supported" placeholder and attachments are left out
    later = collect(_source("claude", CLAUDE.parent), *day_bounds(date(2026, 11, 21), TZ), NOW)
    assert [(r[1], r[2]) for r in _rows(later.events)] == [(None, "me"), (None, "assistant")]


def test_claude_damaged_messages_are_rejects_and_old_exports_use_text(tmp_path: Path) -> None:
    doc = json.loads(CLAUDE.read_text("utf-8"))
    messages = doc[0]["chat_messages"]
    messages[0]["sender"] = "robot"
    messages[1]["created_at"] = "2026-11-20 08:10:20"
    del messages[2]["content"]  # an older export: only `text`
    doc.append("not a conversation")
    path = _write_json(tmp_path / "conversations.json", doc)
    out = collect(_source("claude", path), START, END, NOW)
    ref = f"{path}#1a2b3c4d-0000-4000-8000-00000000e00"
    assert [(r.ref, r.reason) for r in out.rejects] == [
        (f"{ref}1", "unknown sender 'robot'"),
        (f"{ref}2", "'created_at': timestamp without timezone"),
        (f"{path}#conversation-2", "conversation is not an object"),
    ]
    assert [r[3] for r in _rows(out.events)] == [
        "Here is my itinerary; anything missing?",
        "Comfortable shoes: Arashiyama means a lot of walking.",
    ]


# --- DiscordChatExporter ----------------------------------------------------------------


def test_discord_export_reads_channels_and_direct_messages() -> None:
    out = collect(_source("discord", DISCORD, user_name="KenSato"), START, END, NOW)
    assert _rows(out.events) == [
        (
            "11-20 08:02:11.123000",
            "Kyoto Trip #planning",
            "KenSato",
            "Booked the ryokan in Higashiyama for Friday.",
            f"{GUILD.name}#1309000000000000002",
        ),
        (
            "11-20 08:05:40.500000",
            "Kyoto Trip #planning",
            "Aiko",
            "Nice, send me the address",
            f"{GUILD.name}#1309000000000000003",
        ),
        (
            "11-20 21:30:00.000000",
            "aiko.m",
            "Aiko",
            "Did you get the train tickets?",
            f"{DM.name}#1309000000000000021",
        ),
        (
            "11-20 21:31:15.250000",
            "aiko.m",
            "KenSato",
            "Yes, both seats on the 9:03 Nozomi.",
            f"{DM.name}#1309000000000000022",
        ),
    ]  # not the "joined the server" notice, nor the message that is only a picture
    by_nickname = collect(_source("discord", GUILD, user_name="ken"), START, END, NOW)
    assert by_nickname.events["actor"].tolist()[:1] == ["ken"]
    strangers = collect(_source("discord", DM), START, END, NOW)
    assert sorted(strangers.events["actor"]) == ["Aiko", "Ken"]


def test_discord_damaged_messages_and_other_json_are_rejects(tmp_path: Path) -> None:
    doc = json.loads(GUILD.read_text("utf-8"))
    doc["messages"][1]["timestamp"] = "2026-11-20T08:02:11"
    doc["messages"][2]["author"] = None
    path = _write_json(tmp_path / "planning.json", doc)
    _write_json(tmp_path / "settings.json", {"theme": "dark"})
    (tmp_path / "empty.json").write_bytes(b"")
    out = collect(_source("discord", tmp_path), START, END, NOW)
    assert [(r.ref, r.reason) for r in out.rejects] == [
        (str(tmp_path / "empty.json"), "invalid JSON at line 1 col 1: Expecting value"),
        (f"{path}#1309000000000000002", "'timestamp': timestamp without timezone"),
        (f"{path}#1309000000000000003", "message without text 'content' and an 'author'"),
        (
            str(tmp_path / "settings.json"),
            "not a DiscordChatExporter export: no top-level 'messages' list",
        ),
    ]
    assert out.events.empty


# --- all kinds --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["line", "chatgpt", "claude", "discord"])
def test_a_missing_export_is_a_source_error(kind: str, tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such"):
        collect(_source(kind, tmp_path / "nowhere"), START, END, NOW)


@pytest.mark.parametrize(
    ("kind", "path"),
    [("line", LINE_JA), ("chatgpt", CHATGPT), ("claude", CLAUDE), ("discord", GUILD)],
)
def test_event_ids_are_the_same_on_every_read_and_for_a_later_export(
    kind: str, path: Path, tmp_path: Path
) -> None:
    first = collect(_source(kind, path), START, END, NOW).events
    again = collect(_source(kind, path), START, END, NOW).events
    assert first["event_id"].tolist() == again["event_id"].tolist() and first["event_id"].is_unique
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    shutil.copy(path, tmp_path / "old" / path.name)
    shutil.copy(path, tmp_path / "new" / path.name)  # the same history, exported again
    both = collect(_source(kind, tmp_path), START, END, NOW).events
    assert sorted(both["event_id"]) == sorted(first["event_id"])  # read twice, kept once
    if kind == "chatgpt":
        row = first.iloc[0]
        assert row["event_id"] == stable_id(
            "chatgpt",
            "chatgpt",
            "6740a1b2-0000-4000-8000-0000000000c1",
            row["source_ref"].split("#")[1],
        )


def test_settings_give_chat_exports_the_zone_and_the_users_name(omoide_home: Path) -> None:
    (omoide_home / "omoide.toml").write_text(
        'timezone = "Asia/Tokyo"\nuser_name = "Ken Sato"\n'
        '[[sources]]\nkind = "line"\npath = "line"\ntimezone = "Europe/Berlin"\n'
        '[[sources]]\nkind = "chatgpt"\npath = "chatgpt"\n'
        '[[sources]]\nkind = "claude"\npath = "claude/conversations.json"\n'
        '[[sources]]\nkind = "discord"\npath = "discord"\n'
        '[[sources]]\nkind = "chat"\npath = "chats"\n',
        encoding="utf-8",
    )
    sources = {s.kind: s for s in get_settings().sources}
    assert sources["line"].timezone == "Europe/Berlin"
    assert {sources[k].timezone for k in ("chatgpt", "claude", "discord")} == {"Asia/Tokyo"}
    assert {sources[k].user_name for k in ("line", "chatgpt", "claude", "discord")} == {"Ken Sato"}
    # Other kinds are dumped as before, so their cache keys do not change.
    assert sources["chat"].timezone is None and "timezone" not in sources["chat"].model_dump_json()
    (omoide_home / "omoide.toml").write_text(
        '[[sources]]\nkind = "line"\npath = "x"\ntimezone = "Mars/Base"\n', encoding="utf-8"
    )
    with pytest.raises(ValueError, match="unknown timezone"):
        get_settings()


def test_day_keys_follow_the_export_files(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES, tmp_path / "x")
    (tmp_path / "x" / "chatgpt" / "chat.html").write_text("<html></html>", encoding="utf-8")
    files = {
        kind: [p.name for p in input_files(_source(kind, tmp_path / "x" / kind), DAY)]
        for kind in ("line", "chatgpt", "claude", "discord")
    }
    assert files == {
        "line": ["mom_en.txt", "talk_ja.txt", "team_en.txt"],
        "chatgpt": ["conversations.json"],
        "claude": ["conversations.json"],
        "discord": [DM.name, GUILD.name],
    }


def test_an_ai_chats_title_is_no_chat_partner() -> None:
    ai = collect(_source("chatgpt", CHATGPT), START, END, NOW).events
    friends = collect(_source("line", LINE_JA), START, END, NOW).events
    records = chat_records(pd.concat([ai, friends], ignore_index=True), DAY, NOW)
    entities = {tuple(e) for e in records["entities"]}
    assert entities == {(), ("山田花子",)}


@pytest.mark.slow
def test_omoide_backfill_reads_every_export_kind(tmp_path: Path) -> None:
    from omoide.store.lake import read_events
    from tests.fakes import run_cli

    home = tmp_path / "home"
    shutil.copytree(FIXTURES, home / "exports")
    (home / "omoide.toml").write_text(
        'timezone = "Asia/Tokyo"\nuser_name = "Ken Sato"\n'
        '[[sources]]\nkind = "line"\npath = "exports/line"\n'
        '[[sources]]\nkind = "chatgpt"\npath = "exports/chatgpt"\n'
        '[[sources]]\nkind = "claude"\npath = "exports/claude/conversations.json"\n'
        '[[sources]]\nkind = "discord"\npath = "exports/discord"\n',
        encoding="utf-8",
    )
    r = run_cli("backfill", "--start", str(DAY), "--end", str(DAY), home=home, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    events = read_events(home / "lake", DAY)
    assert events.groupby("source").size().to_dict() == {
        "chatgpt": 4,
        "claude": 4,
        "discord": 4,
        "line": 12,
    }
    assert set(events["event_type"]) == {"chat"}
    mine = events[events["actor"] == "Ken Sato"]
    assert mine.groupby("source").size().to_dict() == {"chatgpt": 2, "claude": 2, "line": 3}
    refs = set(events["source_ref"])
    assert str(home / "exports/line/talk_ja.txt#L11") in refs
    assert str(home / "exports/discord" / f"{GUILD.name}#1309000000000000002") in refs
    assert not (home / "quarantine").exists() or not any((home / "quarantine").rglob("*.*"))
    found = run_cli("recall", "旅館は東山", "--json", "--now", "2026-11-21", home=home)
    assert found.returncode == 0, found.stderr[-3000:]
    top = json.loads(found.stdout)[:3]
    assert any("旅館は東山のほう" in x["content"] and "talk_ja.txt#L" in x["source"] for x in top)
