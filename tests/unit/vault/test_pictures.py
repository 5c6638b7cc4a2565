"""The day and week pictures: real PNG files, the same bytes for the same input, DST days, away time, empty days."""

from __future__ import annotations

import stat
import subprocess
import sys
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import matplotlib.image as mpimg
import pandas as pd
import pytest

from omoide.core import schemas
from omoide.memory.blocks import Block
from omoide.vault import pictures

TZ = "Europe/Berlin"
BERLIN = ZoneInfo(TZ)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _local(day: date, hh: int, mm: int = 0, fold: int = 0) -> pd.Timestamp:
    return pd.Timestamp(
        datetime(day.year, day.month, day.day, hh, mm, tzinfo=BERLIN, fold=fold)
    ).tz_convert("UTC")


def _events(rows: list[tuple[str, pd.Timestamp, float, str, str]]) -> pd.DataFrame:
    """[(event_type, UTC start, seconds, app, title)] -> a frame in the lake's events schema."""
    frame = pd.DataFrame(
        [
            {
                "event_id": f"e{i}",
                "ts": ts,
                "duration_s": secs,
                "source": "activitywatch",
                "source_name": "activitywatch",
                "event_type": kind,
                "app": app,
                "title": title,
                "source_ref": f"aw#{i}",
                "recorded_at": ts,
            }
            for i, (kind, ts, secs, app, title) in enumerate(rows)
        ]
    )
    return schemas.conform(frame, schemas.EVENTS)


def _block(
    day: date,
    start: tuple[int, int],
    end: tuple[int, int],
    kind: str,
    label: str,
    topic: str | None = None,
) -> Block:
    s, e = _local(day, *start), _local(day, *end)
    return Block(
        block_id=f"b-{kind}-{start}",
        start=s,
        end=e,
        active_s=(e - s).total_seconds(),
        kind=kind,
        label=label,
        topic=topic,
        apps=("Code",),
        sites=(),
        people=(),
        entities=(),
        note=None,
        refs=(),
        session_ids=(),
    )


DAY = date(2026, 11, 20)


def _workday(day: date = DAY) -> tuple[list[Block], pd.DataFrame]:
    """A morning at the computer: coding, a meeting, an hour away at lunch, messages after."""
    blocks = [
        _block(day, (8, 0), (11, 0), "coding", "working on warelay", "warelay"),
        _block(day, (11, 0), (12, 0), "meeting", "sync fix demo with a colleague", "sync"),
        _block(day, (13, 0), (13, 20), "messages", "answering the team channel", "team"),
    ]
    events = _events(
        [
            ("afk", _local(day, 9), 3 * 3600.0, "afk", "not-afk"),
            ("afk", _local(day, 12), 3600.0, "afk", "afk"),
            ("afk", _local(day, 13), 1200.0, "afk", "not-afk"),
            (
                "window",
                _local(day, 9),
                2 * 3600.0,
                "Code",
                "lance.py - warelay - Visual Studio Code",
            ),
            ("window", _local(day, 11), 3600.0, "zoom", "Zoom Meeting"),
            ("window", _local(day, 13), 1200.0, "Slack", "warelay-dev (Channel) - Slack"),
        ]
    )
    return blocks, events


def test_day_picture_is_a_small_png_read_back_with_its_size(tmp_path: Path) -> None:
    blocks, events = _workday()
    path = tmp_path / "vault" / "memory" / "2026-11-20.png"
    assert pictures.draw_day(path, DAY, TZ, blocks, events) is True
    data = path.read_bytes()
    assert data.startswith(PNG_MAGIC)
    assert len(data) < 60_000
    image = mpimg.imread(path)
    assert image.shape[1] == 1000  # 10 inches at 100 dpi
    assert image.shape[0] > 200


def test_day_picture_same_input_same_bytes_and_left_alone(tmp_path: Path) -> None:
    blocks, events = _workday()
    path = tmp_path / "day.png"
    assert pictures.draw_day(path, DAY, TZ, blocks, events) is True
    first = path.read_bytes()
    assert pictures.draw_day(path, DAY, TZ, blocks, events) is False
    assert path.read_bytes() == first
    assert pictures.day_png(DAY, TZ, blocks, events) == first
    # A changed day is redrawn.
    assert pictures.draw_day(path, DAY, TZ, blocks[:1], events) is True


def test_pictures_are_owner_only_like_the_vault(tmp_path: Path) -> None:
    blocks, events = _workday()
    path = tmp_path / "memory" / "day.png"
    pictures.draw_day(path, DAY, TZ, blocks, events)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["day.png"]  # no temp file left


def test_day_picture_rows_blocks_presence_and_apps_by_time() -> None:
    blocks, events = _workday()
    fig = pictures.day_figure(DAY, TZ, blocks, events)
    ax = fig.axes[0]
    rows = [t.get_text() for t in ax.get_yticklabels()]
    assert rows == ["blocks", "at the computer", "Code", "zoom", "Slack"]
    assert ax.get_xlim() == (0.0, 24.0)
    assert "3 h 20 min at the computer" in ax.get_title(loc="left")
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["meeting", "coding", "messages", "at the computer", "away (AFK)"]


def test_block_labels_only_where_they_fit_never_cut() -> None:
    blocks, events = _workday()
    fig = pictures.day_figure(DAY, TZ, blocks, events)
    labels = [t.get_text() for t in fig.axes[0].texts]
    # Three hours hold the label, one hour only the topic, twenty minutes nothing.
    assert labels == ["working on warelay", "sync"]


def test_a_block_of_an_instant_still_shows() -> None:
    run = _block(DAY, (10, 30), (10, 30), "offline", "ran 8 km", "run")
    ax = pictures.day_figure(DAY, TZ, [run], schemas.empty(schemas.EVENTS)).axes[0]
    (path,) = ax.collections[0].get_paths()
    assert (path.get_extents().x0, path.get_extents().x1) == pytest.approx((10.5, 10.6))
    assert [t.get_text() for t in ax.get_legend().get_texts()][0] == "offline"


def test_away_time_is_drawn_hatched_where_the_afk_watcher_said_away() -> None:
    blocks, events = _workday()
    ax = pictures.day_figure(DAY, TZ, blocks, events).axes[0]
    hatched = [c for c in ax.collections if c.get_hatch()]
    assert len(hatched) == 1
    (path,) = hatched[0].get_paths()
    extent = path.get_extents()
    assert (extent.x0, extent.x1) == pytest.approx((12.0, 13.0))
    # The not-afk periods around it are the "at the computer" bar.
    active = [c for c in ax.collections if not c.get_hatch() and len(c.get_paths()) == 2]
    spans = sorted((p.get_extents().x0, p.get_extents().x1) for p in active[0].get_paths())
    assert spans == pytest.approx([(9.0, 12.0), (13.0, 13 + 1 / 3)])


def test_app_time_is_cut_to_the_time_at_the_computer() -> None:
    day = DAY
    events = _events(
        [
            ("afk", _local(day, 10), 3600.0, "afk", "not-afk"),
            ("afk", _local(day, 11), 3600.0, "afk", "afk"),
            # A window left open over lunch counts only while the person was there.
            ("window", _local(day, 10), 2 * 3600.0, "Code", "main.py - Visual Studio Code"),
        ]
    )
    ax = pictures.day_figure(day, TZ, [], events).axes[0]
    code_row = ax.collections[-1]
    (path,) = code_row.get_paths()
    assert (path.get_extents().x0, path.get_extents().x1) == pytest.approx((10.0, 11.0))


def test_empty_day_is_still_a_picture_that_says_so(tmp_path: Path) -> None:
    empty = schemas.empty(schemas.EVENTS)
    fig = pictures.day_figure(DAY, TZ, [], empty)
    assert [t.get_text() for t in fig.axes[0].texts] == ["no activity recorded on this day"]
    path = tmp_path / "empty.png"
    assert pictures.draw_day(path, DAY, TZ, [], empty) is True
    assert path.read_bytes().startswith(PNG_MAGIC)
    assert mpimg.imread(path).shape[1] == 1000
    # A frame without the lake's columns (nothing read at all) is an empty day too.
    assert pictures.day_png(DAY, TZ, [], pd.DataFrame()) == path.read_bytes()


def test_dst_autumn_day_has_25_hours_and_puts_the_second_2am_after_the_first() -> None:
    day = date(2026, 10, 25)  # Europe/Berlin: 03:00 CEST -> 02:00 CET
    events = _events(
        [
            ("afk", _local(day, 2, 30, fold=0), 600.0, "afk", "not-afk"),
            ("afk", _local(day, 2, 30, fold=1), 600.0, "afk", "not-afk"),
            ("window", _local(day, 2, 30, fold=1), 600.0, "kitty", "btop"),
        ]
    )
    ax = pictures.day_figure(day, TZ, [], events).axes[0]
    assert ax.get_xlim() == (0.0, 25.0)
    assert "25 h" in ax.get_title(loc="left")
    (path,) = ax.collections[-1].get_paths()  # kitty: the second 02:30 is 3.5 h after midnight
    assert path.get_extents().x0 == pytest.approx(3.5)
    ticks = dict(zip(ax.get_xticks(), (t.get_text() for t in ax.get_xticklabels()), strict=True))
    assert ticks[0.0] == "00:00" and ticks[4.0] == "03:00" and ticks[25.0] == "24:00"


def test_dst_spring_day_has_23_hours() -> None:
    day = date(2026, 3, 29)
    ax = pictures.day_figure(day, TZ, [], schemas.empty(schemas.EVENTS)).axes[0]
    assert ax.get_xlim() == (0.0, 23.0)
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks == [
        "00:00",
        "03:00",
        "06:00",
        "09:00",
        "12:00",
        "15:00",
        "18:00",
        "21:00",
        "24:00",
    ]


def test_events_outside_the_local_day_are_left_out() -> None:
    events = _events(
        [
            ("afk", _local(DAY, 23), 2 * 3600.0, "afk", "not-afk"),  # runs past midnight
            ("window", _local(DAY, 23), 2 * 3600.0, "Code", "late.py"),
        ]
    )
    ax = pictures.day_figure(DAY, TZ, [], events).axes[0]
    (path,) = ax.collections[-1].get_paths()
    assert (path.get_extents().x0, path.get_extents().x1) == pytest.approx((23.0, 24.0))
    assert "1 h 00 min at the computer" in ax.get_title(loc="left")


WEEK = [date(2026, 11, 16) + timedelta(days=i) for i in range(7)]


def test_week_picture_stacks_hours_per_day_per_activity(tmp_path: Path) -> None:
    per_day = {
        WEEK[0]: [("coding", 3 * 3600.0), ("meeting", 3600.0)],
        WEEK[2]: [("coding", 1800.0)],
        WEEK[6]: [("cooking", 2 * 3600.0)],
    }
    fig = pictures.week_figure(WEEK, per_day)
    ax = fig.axes[0]
    bars = {(round(p.get_x() + p.get_width() / 2), p.get_facecolor()): p for p in ax.patches}
    assert len(ax.patches) == 7 * 3  # one bar per day per activity (zero-high where absent)
    heights = [[p.get_height() for p in c.patches] for c in ax.containers]
    assert [c.get_label() for c in ax.containers] == ["coding", "cooking", "meeting"]
    assert heights[0] == pytest.approx([3, 0, 0.5, 0, 0, 0, 0])
    assert heights[1] == pytest.approx([0, 0, 0, 0, 0, 0, 2])
    assert heights[2][0] == pytest.approx(1) and ax.containers[2].patches[
        0
    ].get_y() == pytest.approx(3)
    assert bars
    assert [t.get_text() for t in ax.get_xticklabels()][0] == "Mon\n16 Nov"
    path = tmp_path / "week.png"
    assert pictures.draw_week(path, WEEK, per_day) is True
    assert pictures.draw_week(path, WEEK, per_day) is False
    data = path.read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) < 60_000
    assert mpimg.imread(path).shape[1] == 700


def test_week_picture_sums_the_tail_as_other() -> None:
    names = [f"activity {i}" for i in range(12)]
    per_day = {WEEK[0]: [(n, 3600.0 * (12 - i)) for i, n in enumerate(names)]}
    ax = pictures.week_figure(WEEK, per_day).axes[0]
    labels = [c.get_label() for c in ax.containers]
    assert labels == [*names[: pictures.MAX_ACTIVITIES], "other"]
    assert ax.containers[-1].patches[0].get_height() == pytest.approx(3 + 2 + 1)


def test_empty_week_is_still_a_picture_that_says_so(tmp_path: Path) -> None:
    ax = pictures.week_figure(WEEK, {}).axes[0]
    assert [t.get_text() for t in ax.texts] == ["no activity recorded this week"]
    path = tmp_path / "week.png"
    assert pictures.draw_week(path, WEEK, {}) is True
    assert path.read_bytes().startswith(PNG_MAGIC)


def test_importing_the_module_does_not_import_matplotlib() -> None:
    code = "import sys, omoide.vault.pictures; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
