"""Shared by the chat-export reader tests: the fixtures' paths, the day under test, and small helpers.

The fixtures under tests/fixtures/chat_exports follow each format's public shape (see each
reader's docstring for the source it was checked against); damaged copies are made in the tests.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from omoide.core.days import day_bounds
from omoide.core.settings import SourceConfig
from tests.conftest import FIXTURES as CONFTEST_FIXTURES

FIXTURES = CONFTEST_FIXTURES / "chat_exports"
LINE_JA = FIXTURES / "line" / "talk_ja.txt"
LINE_EN = FIXTURES / "line" / "team_en.txt"
LINE_MOM = FIXTURES / "line" / "mom_en.txt"
# Issue 31's layouts: the English export whose every message was quarantined, a Japanese
# phone export with placeholders, a day-first (British) group, the Windows app's "Save chat".
LINE_ISSUE = FIXTURES / "line" / "peter_en.txt"
LINE_PHOTO = FIXTURES / "line" / "photo_ja.txt"
LINE_UK = FIXTURES / "line" / "family_uk.txt"
LINE_DESKTOP = FIXTURES / "line" / "[LINE] Chat with Bob.txt"
SLACK = FIXTURES / "slack"
CHATGPT = FIXTURES / "chatgpt" / "conversations.json"
CLAUDE = FIXTURES / "claude" / "conversations.json"
DISCORD = FIXTURES / "discord"
GUILD = DISCORD / "Kyoto Trip - Text Channels - planning [1176000000000000002].json"
DM = DISCORD / "Direct Messages - Private - aiko.m [1176000000000000010].json"
NOW = datetime(2026, 11, 21, 3, 0, tzinfo=UTC)
TZ = "Asia/Tokyo"
DAY = date(2026, 11, 20)
START, END = day_bounds(DAY, TZ)


def export_source(kind: str, path: Path, user_name: str = "", timezone: str = TZ) -> SourceConfig:
    """Kind + path (+ user name, zone) -> the SourceConfig Settings would give."""
    return SourceConfig(kind=kind, path=path, name=kind, timezone=timezone, user_name=user_name)


def shown_rows(df: pd.DataFrame) -> list[tuple[str, str, str, str, str]]:
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


def write_json(path: Path, doc: Any) -> Path:
    """Path + JSON document -> the path, the document written there."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path
