"""Every chat export kind (LINE, ChatGPT, Claude, DiscordChatExporter): missing exports, stable
event ids, settings, day keys, and `omoide backfill` reading them all."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from omoide.core.errors import SourceError
from omoide.core.ids import stable_id
from omoide.core.settings import get_settings
from omoide.ingest.fingerprint import input_files
from omoide.ingest.sources import collect
from omoide.memory.records import chat_records
from tests.unit.ingest.sources.chat_exports import (
    CHATGPT,
    CLAUDE,
    DAY,
    DM,
    END,
    FIXTURES,
    GUILD,
    LINE_JA,
    NOW,
    START,
    export_source,
)


@pytest.mark.parametrize("kind", ["line", "chatgpt", "claude", "discord"])
def test_a_missing_export_is_a_source_error(kind: str, tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such"):
        collect(export_source(kind, tmp_path / "nowhere"), START, END, NOW)


@pytest.mark.parametrize(
    ("kind", "path"),
    [("line", LINE_JA), ("chatgpt", CHATGPT), ("claude", CLAUDE), ("discord", GUILD)],
)
def test_event_ids_are_the_same_on_every_read_and_for_a_later_export(
    kind: str, path: Path, tmp_path: Path
) -> None:
    first = collect(export_source(kind, path), START, END, NOW).events
    again = collect(export_source(kind, path), START, END, NOW).events
    assert first["event_id"].tolist() == again["event_id"].tolist() and first["event_id"].is_unique
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    shutil.copy(path, tmp_path / "old" / path.name)
    shutil.copy(path, tmp_path / "new" / path.name)  # the same history, exported again
    both = collect(export_source(kind, tmp_path), START, END, NOW).events
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
        kind: [p.name for p in input_files(export_source(kind, tmp_path / "x" / kind), DAY)]
        for kind in ("line", "chatgpt", "claude", "discord")
    }
    assert files == {
        "line": [
            "[LINE] Chat with Bob.txt",
            "family_uk.txt",
            "mom_en.txt",
            "peter_en.txt",
            "photo_ja.txt",
            "talk_ja.txt",
            "team_en.txt",
        ],
        "chatgpt": ["conversations.json"],
        "claude": ["conversations.json"],
        "discord": [DM.name, GUILD.name],
    }


def test_an_ai_chats_title_is_no_chat_partner() -> None:
    ai = collect(export_source("chatgpt", CHATGPT), START, END, NOW).events
    friends = collect(export_source("line", LINE_JA), START, END, NOW).events
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
        "line": 9,  # 12 before issue 31: two stickers and a call record were read as words
    }
    assert set(events["event_type"]) == {"chat"}
    mine = events[events["actor"] == "Ken Sato"]
    assert mine.groupby("source").size().to_dict() == {"chatgpt": 2, "claude": 2, "line": 3}
    refs = set(events["source_ref"])
    # Written relative to the home, so the home can move (omoide.core.refs).
    assert "exports/line/talk_ja.txt#L11" in refs
    assert f"exports/discord/{GUILD.name}#1309000000000000002" in refs
    assert not (home / "quarantine").exists() or not any((home / "quarantine").rglob("*.*"))
    found = run_cli("recall", "旅館は東山", "--json", "--now", "2026-11-21", home=home)
    assert found.returncode == 0, found.stderr[-3000:]
    top = json.loads(found.stdout)[:3]
    assert any("旅館は東山のほう" in x["content"] and "talk_ja.txt#L" in x["source"] for x in top)


# --- encodings, binary files, empty folders and damaged JSON (text_files, json_salvage) -----

KINDS = [("line", LINE_JA), ("chatgpt", CHATGPT), ("claude", CLAUDE), ("discord", GUILD)]
PATTERNS = {"line": "*.txt", "chatgpt": "conversations.json", "claude": "conversations.json"}


def _texts(kind: str, path: Path) -> list[tuple[object, ...]]:
    """An export -> its events' (time, actor, text) in order."""
    events = collect(export_source(kind, path), START, END, NOW).events
    return sorted(zip(events["ts"], events["actor"], events["text"], strict=True))


@pytest.mark.parametrize(("kind", "path"), KINDS)
def test_exports_in_utf16_or_utf32_with_a_bom_are_read(
    kind: str, path: Path, tmp_path: Path
) -> None:
    want = _texts(kind, path)
    assert want
    for codec in ("utf-16", "utf-32"):
        copy = tmp_path / codec / path.name
        copy.parent.mkdir()
        copy.write_bytes(path.read_text(encoding="utf-8").encode(codec))
        assert _texts(kind, copy) == want


@pytest.mark.parametrize(("kind", "path"), KINDS)
def test_a_database_where_an_export_should_be_is_one_reject(
    kind: str, path: Path, tmp_path: Path
) -> None:
    import sqlite3

    fake = tmp_path / path.name
    db = sqlite3.connect(fake)
    db.executescript("CREATE TABLE m(text TEXT); INSERT INTO m VALUES ('hi');")
    db.commit()
    db.close()
    out = collect(export_source(kind, fake), START, END, NOW)
    assert out.events.empty
    assert [(r.ref, r.reason) for r in out.rejects] == [(str(fake), "not text: an SQLite database")]


@pytest.mark.parametrize("kind", ["line", "chatgpt", "claude", "discord"])
def test_a_folder_without_any_export_is_a_source_error(kind: str, tmp_path: Path) -> None:
    (tmp_path / "readme.md").write_text("exports go here\n")
    with pytest.raises(SourceError, match="in this folder") as err:
        collect(export_source(kind, tmp_path), START, END, NOW)
    assert err.value.path == str(tmp_path)
    assert PATTERNS.get(kind, "*.json") in err.value.reason


@pytest.mark.parametrize(
    ("kind", "path", "marker", "lost"),
    [
        ("chatgpt", CHATGPT, "6740a1b2-0000-4000-8000-0000000000c2", "conversation-1"),
        ("claude", CLAUDE, "0d9f1c2e-0000-4000-8000-00000000c002", "conversation-1"),
        ("discord", GUILD, "1309000000000000003", "message-2"),
    ],
)
def test_a_damaged_byte_costs_only_the_record_it_is_in(
    kind: str, path: Path, marker: str, lost: str, tmp_path: Path
) -> None:
    raw = path.read_bytes()
    at = raw.index(marker.encode()) + len(marker)  # just after the id: break its closing quote
    damaged = tmp_path / path.name
    damaged.write_bytes(raw[:at] + b"\x01" + raw[at + 1 :])
    whole = collect(export_source(kind, path), START, END, NOW).events
    out = collect(export_source(kind, damaged), START, END, NOW)
    assert [
        r.ref.rsplit("#", 1)[1] for r in out.rejects if r.reason.startswith("damaged JSON")
    ] == [lost]
    # Every other record lands (the day's ChatGPT and Claude messages are in the first
    # conversation, so damage to the second costs none of them).
    others = whole.loc[~whole["source_ref"].str.contains(marker), "event_id"]
    assert set(out.events["event_id"]) == set(others) != set()
