"""Count, which days and compare on real lake parquet: distinct occurrences of the thing done, each cited, the larger figure first."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pandas as pd
import pytest

from omoide.answer.ask import ask
from omoide.answer.occurrences import occurrences
from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.core.settings import get_settings
from omoide.store.lake import merge_events
from tests.unit.answer.test_empty_and_forgotten import SITE, _friday
from tests.unit.answer.test_overview_and_when import _events

TZ = "Europe/Berlin"
NOW = datetime(2026, 11, 25, 10, tzinfo=UTC)  # a Wednesday
ME = "Aiko"


def _note(day: date, n: int, text: str, at: str | None = None, kind: str = "note") -> dict:
    """A daily note's line: at 'HH:MM' local (as the notes source times a timed line), else the day's midnight."""
    ts = day_bounds(day, TZ)[0] + (pd.Timedelta(at + ":00") if at else pd.Timedelta(0))
    return {
        "event_id": f"n-{day}-{n}",
        "ts": f"{ts:%Y-%m-%dT%H:%M}Z",
        "source": "notes",
        "source_name": "notes",
        "event_type": kind,
        "title": f"{day} > Log",
        "text": text,
        "source_ref": f"/home/sources/notes/{day}.md#L{n}",
    }


def _chat(n: int, ts: str, actor: str, text: str, title: str = "Peter") -> dict:
    """A chat message at UTC `ts` in the conversation `title`."""
    return {
        "event_id": f"c{n}",
        "ts": ts,
        "source": "chat",
        "source_name": "chat",
        "event_type": "chat",
        "actor": actor,
        "title": title,
        "text": text,
        "source_ref": f"/home/sources/chat.jsonl#L{n}",
    }


def _visit(n: int, ts: str, title: str, url: str) -> dict:
    """A browser history visit at UTC `ts`."""
    return {
        "event_id": f"v{n}",
        "ts": ts,
        "source": "firefox",
        "source_name": "firefox",
        "event_type": "visit",
        "title": title,
        "url": url,
        "source_ref": f"/home/places.sqlite#moz_historyvisits.id={n}",
    }


def _write(lake: Path, rows: list[dict]) -> None:
    """Rows -> the lake, each on its local day, one part per source."""
    frame = _events(rows)
    for (day, source), part in frame.groupby(
        [frame["ts"].dt.tz_convert(TZ).dt.date, frame["source"]]
    ):
        merge_events(lake, day, source, schemas.conform(part, schemas.EVENTS))


@pytest.fixture
def runs(omoide_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home in Berlin whose lake holds two runs in November, one in October, and words that only look like runs."""
    monkeypatch.setenv("OMOIDE_TIMEZONE", TZ)
    lake = get_settings().lake_dir
    nov3, nov10, nov14, oct30 = (
        date(2026, 11, 3),
        date(2026, 11, 10),
        date(2026, 11, 14),
        date(2026, 10, 30),
    )
    _write(
        lake,
        [
            _note(oct30, 4, "Ran 5 km before work", "08:00"),
            _note(nov3, 4, "Morning run along the canal, 6 km", "07:10"),
            _chat(1, "2026-11-03T06:55Z", ME, "Back from my run! Coffee?"),
            _chat(2, "2026-11-03T07:05Z", "Peter", "Sure, 9 at the usual place"),
            _note(nov10, 9, "Rain all day.\nRan 10 km anyway, soaked.\n雨の中を走った。"),
            # A question to an assistant is a topic; a Retain line restates a day; neither is a run.
            _chat(3, "2026-11-12T10:00Z", ME, "Why does my cron job run twice?", "assistant"),
            _note(nov14, 20, "B I ran a spike on LanceDB.", kind="retain"),
            _visit(1, "2026-11-15T09:00Z", "Best running shoes 2026", "https://shoes.example/run"),
            _visit(2, "2026-11-15T09:10Z", "Trail shoes compared", "https://shoes.example/trail"),
            _visit(3, "2026-11-15T09:50Z", "Shoe sizes", "https://shoes.example/sizes"),
            _visit(4, "2026-11-16T18:00Z", "Sale: shoes", "https://shoes.example/sale"),
            _chat(4, "2026-11-20T20:00Z", "Peter", "Ramen on Saturday?"),
        ],
    )
    return omoide_home


def _asked(question: str) -> dict:
    """A question asked of the home on NOW -> `omoide ask --json`'s object."""
    return ask(question, get_settings(), NOW, lambda _: []).to_json()


def test_a_count_is_one_a_day_from_the_persons_own_notes_and_messages(runs: Path) -> None:
    got = _asked("how many times did I go running in November")
    assert got["kind"] == "count" and got["window"] == {
        "since": "2026-11-01",
        "until": "2026-11-30",
    }
    assert got["answer"] == (
        "2 times in November 2026 (days your notes or messages say so): "
        "Tuesday, 3 November 2026 (“Morning run along the canal, 6 km”); "
        "Tuesday, 10 November 2026 (“Ran 10 km anyway, soaked.”)."
    )
    # The note line, not the message sent after the run, stands for the day.
    assert [(c["day"], c["source"]) for c in got["citations"]] == [
        ("2026-11-03", "/home/sources/notes/2026-11-03.md#L4"),
        ("2026-11-10", "/home/sources/notes/2026-11-10.md#L9"),
    ]
    for question in ("How often did I run in November?", "how many days did I run in November"):
        assert _asked(question)["answer"].startswith("2 times in November 2026")
    assert _asked("how often did I go running in October")["answer"].startswith(
        "1 time in October 2026"
    )
    days = _asked("which days did I run in November")
    assert days["kind"] == "which_days" and days["answer"].startswith("On 2 days in November 2026:")
    assert [c["day"] for c in days["citations"]] == ["2026-11-03", "2026-11-10"]
    # A Japanese question matches the records in either language (走る is "run") and is
    # answered in Japanese.
    ja = _asked("11月に何回走りましたか")
    assert ja["answer"] == (
        "2026年11月に2回（メモやメッセージにある日）：2026年11月3日（火）"
        "「Morning run along the canal, 6 km」、2026年11月10日（火）「雨の中を走った。」。"
    )
    days = _asked("11月のどの日に走った？")
    assert [c["day"] for c in days["citations"]] == ["2026-11-03", "2026-11-10"]


def test_what_is_not_there_is_said_with_where_it_looked(runs: Path) -> None:
    swim = _asked("how many times did I go swimming in November")
    assert swim["answer"] == (
        "No record in November 2026 matches “go swimming” (looked in notes, chats, pages and windows)."
    )
    assert swim["citations"] == [] and swim["basis"] == "none"
    assert _asked("which days did I run in September")["answer"] == (
        "Nothing was recorded in September 2026."
    )
    assert _asked("何回泳ぎましたか")["answer"] == (
        "「泳ぎ」に当てはまる記録はありません（メモ、チャット、ページ、ウィンドウを探しました）。"
    )


def test_pages_count_by_sitting_and_an_activity_only_pages_name_says_so(runs: Path) -> None:
    settings = get_settings()
    # 09:00 and 09:10 are one sitting, 09:50 another, the next day a third.
    visits = occurrences(settings.lake_dir, "visit shoes.example", None, TZ, ME)
    assert visits.basis == "seen" and len(visits.occurrences) == 3
    assert [o.at.hour for o in visits.occurrences] == [10, 10, 19]
    got = _asked("how often did I shop for shoes")
    assert got["answer"].startswith(
        "No note or message of yours mentions “shop for shoes”. Pages and windows name it 3 times "
        "(sittings with pages or windows naming it): Sunday, 15 November 2026 at 10:00"
    )
    talks = _asked("how many times did I talk to Peter")
    assert talks["answer"].startswith(
        "2 times (conversations with Peter): Tuesday, 3 November 2026 at 07:55"
    )
    assert [c["day"] for c in talks["citations"]] == ["2026-11-03", "2026-11-20"]


def test_compare_two_things_gives_both_figures_the_larger_first(omoide_home: Path) -> None:
    settings = get_settings()
    _friday(settings.lake_dir, omoide_home)
    saturday = datetime(2026, 11, 21, 10, tzinfo=UTC)
    got = ask(
        f"did I spend more time on {SITE} or in zoom on Friday", settings, saturday, lambda _: []
    ).to_json()
    assert got["kind"] == "compare" and got["minutes"] == 30.0
    assert got["answer"] == (
        f"More time on zoom: 30 min, against 20 min on {SITE} on Friday, 20 November 2026."
    )
    assert got["window"] == {"since": "2026-11-20", "until": "2026-11-20"}
    ja = ask(
        f"金曜日は{SITE}とzoomのどちらに長く時間を使いましたか", settings, saturday, lambda _: []
    )
    assert ja.answer == f"2026年11月20日（金）はzoomの方が長く、30分でした（{SITE}は20分）。"
    assert ja.minutes == 30.0
    neither = ask(
        "was I more on github.com or on gitlab.com on Friday", settings, saturday, lambda _: []
    )
    assert neither.answer.startswith("Neither github.com nor gitlab.com holds any record")
    assert neither.minutes is None and neither.citations == []


def test_compare_one_thing_in_two_periods_counts_each(runs: Path) -> None:
    got = _asked("did I run more in October or November")
    assert got["kind"] == "compare" and got["minutes"] is None
    assert got["answer"] == (
        "More often in November 2026 (run): 2 times, against 1 time in October 2026."
    )
    assert got["window"] == {"since": "2026-10-01", "until": "2026-11-30"}
    assert [c["day"] for c in got["citations"]] == ["2026-11-03", "2026-11-10", "2026-10-30"]
    ja = _asked("10月と11月のどちらでたくさん走りましたか")
    assert ja["answer"] == "2026年11月の方が多く、走りは2回でした（2026年10月は1回）。"
