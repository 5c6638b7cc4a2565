"""Activity blocks on a hand-made day of real-format events: kinds, labels, people, offline lines, the lake rows."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pandas as pd

from omoide.core import schemas
from omoide.memory.active_time import active_time
from omoide.memory.block_rows import block_records, blocks_frame, blocks_of
from omoide.memory.blocks import block_memory_id, day_blocks
from omoide.memory.day_story import block_text
from omoide.store.lake import read_blocks, write_blocks

DAY = date(2026, 11, 20)
TZ = "Europe/Berlin"
NOW = datetime(2026, 11, 21, 8, tzinfo=UTC)


def _at(hhmm: str) -> pd.Timestamp:
    return pd.Timestamp(f"2026-11-20 {hhmm}", tz=TZ).tz_convert("UTC")


def _ev(i: int, hhmm: str, kind: str, dur: float = 0.0, **kw: object) -> dict[str, object]:
    return {
        "event_id": f"e{i}",
        "ts": _at(hhmm),
        "duration_s": dur,
        "source": kw.pop("source", "activitywatch"),
        "source_name": "t",
        "event_type": kind,
        "source_ref": f"ref{i}",
        "recorded_at": NOW,
        **kw,
    }


def _day() -> pd.DataFrame:
    """A morning meeting, coding, a lunch away with a timed note, browsing recipes in the evening."""
    rows = [_ev(0, "09:00", "afk", 4 * 3600, app="afk", title="not-afk")]
    n = 1
    for start, minutes, app, titles in (
        ("09:30", 60, "zoom", ["Zoom Meeting"]),
        (
            "10:30",
            90,
            "Code",
            ["sync.py - warelay - Visual Studio Code", "aiko@kaze: ~/src/warelay"],
        ),
    ):
        t = _at(start)
        for k in range(minutes):
            title = titles[k % len(titles)]
            rows.append(
                {
                    **_ev(
                        n,
                        "00:00",
                        "window",
                        60.0,
                        app="kitty" if "@" in title else app,
                        title=title,
                    ),
                    "ts": t,
                }
            )
            t += pd.Timedelta(minutes=1)
            n += 1
    rows.append(_ev(n, "19:00", "afk", 3600, app="afk", title="not-afk"))
    t = _at("19:00")
    for k in range(60):
        title = "Oyakodon (Chicken and Egg Bowl) • Just One Cookbook — Mozilla Firefox"
        rows.append(
            {**_ev(n + 1 + k, "00:00", "window", 60.0, app="firefox", title=title), "ts": t}
        )
        t += pd.Timedelta(minutes=1)
    n += 100
    rows += [
        _ev(
            n,
            "09:30",
            "note",
            source="notes",
            title="Log",
            text="Sprint planning with @Mina and @Peter",
            entities=["Mina", "Peter"],
        ),
        _ev(
            n + 1,
            "14:00",
            "note",
            source="notes",
            title="Log",
            text="Helped @Peter move his boxes",
            entities=["Peter"],
        ),
        _ev(
            n + 2,
            "00:00",
            "note",
            source="notes",
            title="日記",
            text="an untimed line",
            entities=[],
        ),
        _ev(
            n + 3,
            "10:05",
            "chat",
            source="chat",
            title="Mina",
            actor="Mina",
            text="see you at the demo",
        ),
        _ev(n + 4, "10:06", "chat", source="chat", title="Peter", actor="Peter", text="ramen?"),
    ]
    return schemas.conform(pd.DataFrame(rows), schemas.EVENTS)


def _sessions() -> pd.DataFrame:
    return schemas.empty(schemas.SESSIONS)


def test_blocks_of_a_day_name_what_was_done_with_whom() -> None:
    events = _day()
    blocks = day_blocks(events, _sessions(), DAY, TZ)
    kinds = [b.kind for b in blocks]
    assert kinds == ["meeting", "coding", "offline", "browsing"], [
        block_text(b, TZ) for b in blocks
    ]
    meeting, coding, away, cooking = blocks
    # the timed note line names the block it was written in, its @names are its people
    assert meeting.label == "Sprint planning with Mina and Peter"
    assert set(meeting.people) >= {"Mina", "Peter"}
    assert meeting.note == "Sprint planning with @Mina and @Peter"
    assert coding.apps[0] == "Code"
    # a block's active time is the time at the computer inside its span (active_time's arithmetic)
    assert coding.active_s == active_time(events, coding.start, coding.end).seconds
    assert away.label == "Helped Peter move his boxes" and away.people == ("Peter",)
    assert away.active_s == 0.0
    assert cooking.topic == "cooking"
    line = block_text(meeting, TZ)
    assert line.startswith("09:30–10:30 Sprint planning with Mina and Peter (meeting · zoom"), line
    # no label is a raw window title
    titles = set(events["title"].dropna())
    assert not any(b.label in titles for b in blocks)


def test_blocks_are_deterministic_rows_of_the_lake_and_memories(tmp_path) -> None:
    blocks = day_blocks(_day(), _sessions(), DAY, TZ)
    again = day_blocks(_day(), _sessions(), DAY, TZ)
    assert [b.block_id for b in blocks] == [b.block_id for b in again]
    path = write_blocks(tmp_path, DAY, blocks_frame(blocks, DAY, NOW))
    stamp = path.stat().st_mtime_ns
    write_blocks(tmp_path, DAY, blocks_frame(again, DAY, datetime(2026, 11, 22, tzinfo=UTC)))
    assert path.stat().st_mtime_ns == stamp  # an unchanged day writes no byte
    assert blocks_of(read_blocks(tmp_path, DAY)) == blocks
    rows = block_records(blocks, DAY, TZ, NOW)
    assert list(rows["kind"].unique()) == ["block"]
    assert list(rows["memory_id"]) == [block_memory_id(b) for b in blocks]
    assert rows["content"].iloc[0] == block_text(blocks[0], TZ)


def _screen(
    *stretches: tuple[str, int, list[tuple[str, str, str | None]]], step: float = 60.0
) -> pd.DataFrame:
    """(start, minutes, a cycle of (app, title, url) `step` seconds each) -> a day of focused windows (and their pages)."""
    rows = [_ev(0, "09:00", "afk", 12 * 3600, app="afk", title="not-afk")]
    for start, minutes, cycle in stretches:
        for k in range(int(minutes * 60 / step)):
            app, title, url = cycle[k % len(cycle)]
            ts = _at(start) + pd.Timedelta(seconds=k * step)
            rows.append({**_ev(len(rows), "00:00", "window", step, app=app, title=title), "ts": ts})
            if url:
                page = {**_ev(len(rows), "00:00", "web", step, app="Google Chrome", url=url)}
                rows.append({**page, "title": title.rsplit(" - ", 1)[0], "ts": ts})
    return schemas.conform(pd.DataFrame(rows), schemas.EVENTS)


def test_the_project_in_every_title_is_the_backdrop_and_the_pages_name_the_block() -> None:
    code = ("Code", "store.py - warelay - Visual Studio Code", None)
    lance = [
        ("Google-chrome", "Merge insert - LanceDB - Google Chrome", "https://lancedb.github.io/m"),
        (
            "Google-chrome",
            "Full-text search - LanceDB - Google Chrome",
            "https://lancedb.github.io/f",
        ),
    ]
    pr = (
        "Google-chrome",
        "Fix sync by mina · kumo/warelay - Google Chrome",
        "https://github.com/k",
    )
    events = _screen(
        ("09:00", 150, [code] * 14 + [lance[0]] + [code] * 14 + [lance[1]]),
        ("13:00", 240, [code, code, code, pr]),
        ("18:00", 180, [("firefox", "Kyoto in April - japan-guide.com - Mozilla Firefox", None)]),
    )
    morning = day_blocks(events, _sessions(), DAY, TZ)[0]
    # warelay is on screen all day: it is not what the morning was about, LanceDB's docs are
    assert morning.kind == "coding" and morning.topic != "warelay"
    assert "LanceDB" in morning.label, morning.label


def test_a_fifth_of_the_time_in_chat_makes_an_hour_messages() -> None:
    cycle = (
        [("Slack", "general (Channel) - Kumo Labs - Slack", None)] * 4
        + [("Google-chrome", "Pull requests · warelay - Google Chrome", "https://github.com/p")] * 9
        + [("Code", "cli.py - warelay - Visual Studio Code", None)] * 4
        + [("obsidian", "2026-11-20 - vault - Obsidian", None)] * 3
    )
    # chat is a fifth of each five minutes, the browser 45 %: the browser is open all along
    events = _screen(("09:00", 120, [cycle[(k * 7) % 20] for k in range(20)]), step=15.0)
    assert [b.kind for b in day_blocks(events, _sessions(), DAY, TZ)] == ["messages"]


def test_a_news_site_for_15_minutes_inside_an_evening_is_not_a_block_of_its_own() -> None:
    kyoto = ("firefox", "Kyoto - japan-guide.com - Mozilla Firefox", None)
    news = ("firefox", "Hacker News - Mozilla Firefox", "https://news.ycombinator.com/")
    events = _screen(("19:00", 60, [kyoto]), ("20:00", 15, [news]), ("20:15", 45, [kyoto]))
    blocks = day_blocks(events, _sessions(), DAY, TZ)
    assert [(b.kind, b.topic) for b in blocks] == [("reading", "Kyoto")], [
        block_text(b, TZ) for b in blocks
    ]
