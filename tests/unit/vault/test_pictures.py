"""The day and week pictures: real PNG files, the same bytes for the same day, a day with nothing still drawn."""

from __future__ import annotations

import stat
from datetime import date
from pathlib import Path

import pandas as pd

from omoide.core import schemas
from omoide.memory.blocks import Block
from omoide.vault.pictures import draw_day, draw_week

TZ = "Europe/Berlin"
PNG = b"\x89PNG\r\n\x1a\n"


def _events() -> pd.DataFrame:
    """-> a morning of window events and an away span, in the lake's events schema."""
    rows = [
        (
            "window",
            "Code",
            "sync.py - warelay - Visual Studio Code",
            "2026-11-20T08:40:00Z",
            1800.0,
        ),
        ("window", "zoom", "Zoom Meeting", "2026-11-20T09:30:00Z", 3600.0),
        ("afk", "afk", "afk", "2026-11-20T10:30:00Z", 900.0),
        ("window", "Slack", "warelay-dev (Channel) - Slack", "2026-11-20T10:45:00Z", 600.0),
    ]
    frame = pd.DataFrame(
        [
            {
                "event_id": f"e{i}",
                "event_type": kind,
                "app": app,
                "title": title,
                "ts": pd.Timestamp(ts),
                "duration_s": dur,
                "source_ref": f"aw.json#{i}",
            }
            for i, (kind, app, title, ts, dur) in enumerate(rows)
        ]
    )
    return schemas.conform(frame, schemas.EVENTS)


def _block() -> Block:
    """-> one meeting block over the Zoom call."""
    return Block(
        block_id="b1",
        start=pd.Timestamp("2026-11-20T09:30:00Z"),
        end=pd.Timestamp("2026-11-20T10:30:00Z"),
        active_s=3600.0,
        kind="meeting",
        label="demo of the sync fix with Mina",
        topic="warelay",
        apps=("zoom",),
        sites=(),
        people=("Mina",),
        entities=("Mina", "warelay"),
        note=None,
        refs=("aw.json#1",),
        session_ids=("s1",),
    )


def test_a_day_is_a_small_png_written_once_and_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "2026-11-20.png"
    assert draw_day(path, date(2026, 11, 20), TZ, [_block()], _events())
    data = path.read_bytes()
    assert data.startswith(PNG) and len(data) < 60_000
    assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0
    # The same day again: the same bytes, nothing written.
    assert not draw_day(path, date(2026, 11, 20), TZ, [_block()], _events())
    assert path.read_bytes() == data


def test_an_empty_day_and_a_long_dst_day_are_still_drawn(tmp_path: Path) -> None:
    empty = tmp_path / "empty.png"
    assert draw_day(empty, date(2026, 10, 25), TZ, [], _events().iloc[0:0])
    assert empty.read_bytes().startswith(PNG)


def test_a_week_is_stacked_hours_per_day(tmp_path: Path) -> None:
    days = [date(2026, 11, 16) + pd.Timedelta(days=i) for i in range(7)]
    per_day = {d: [("coding", 3 * 3600.0), ("meeting", 3600.0)] for d in days[:5]}
    path = tmp_path / "2026-W47.png"
    assert draw_week(path, days, per_day)
    assert path.read_bytes().startswith(PNG)
    assert not draw_week(path, days, per_day)
