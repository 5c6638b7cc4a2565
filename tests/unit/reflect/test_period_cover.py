"""A period's page covers its period: every day of a week and week of a month, no window title, no cut word, a week picture."""

from __future__ import annotations

import functools
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pandas as pd

from omoide.memory.window_titles import is_title, title_set
from omoide.reflect.period_highlights import (
    candidates,
    shortened,
    whole_line,
)
from omoide.reflect.periods import month_of, period_digest, units_of, week_of
from omoide.vault.period_pages import picture_path, week_picture, write_period_page
from tests.fakes import memory_row

NOW = datetime(2026, 12, 1, 8, tzinfo=UTC)
rec = functools.partial(memory_row, now=NOW)
W47 = week_of(date(2026, 11, 18))
NOVEMBER = month_of(date(2026, 11, 1))


# Made-up words, each used once, so no two lines are near-duplicates by accident.
WORDS = [f"{a}{b}{c}" for a in "bdgkmprstvz" for b in "aeiou" for c in ("lan", "rix", "mob", "tel")]


def _note(day: str, n: int, text: str) -> dict:
    """A day + a line number + text -> a note record as summarize writes it."""
    ref = f"sources/notes/{day}.md#L{n}"
    return rec(f"n{day}{n}", text, day=day, source=ref, source_refs=[f"/h/{ref}"])


def _busy_first_days(days: list[str], busy: int) -> tuple[pd.DataFrame, dict]:
    """Days + how many of the first are busy -> rows and highlight lines where the busy days' lines are all about one thing (so they rank first)."""
    rows, lines, fresh = [], {}, iter(WORDS)
    for i, day in enumerate(days):
        words = [" ".join(next(fresh) for _ in range(3)) for _ in range(6 if i < busy else 1)]
        # The busy days' lines share a subject, so the centroid ranks them first.
        texts = [f"Vector sync {w}" if i < busy else f"Watered {w}" for w in words]
        rows += [_note(day, 10 + k, t) for k, t in enumerate(texts)]
        lines[day] = [(f"vault/memory/{day}.md#L{19 + k}", t) for k, t in enumerate(texts)]
    return pd.DataFrame(rows), lines


def test_every_day_of_a_week_with_something_has_a_highlight():
    days = [(W47.since + timedelta(days=i)).isoformat() for i in range(7)]
    rows, lines = _busy_first_days(days, busy=4)  # Monday to Thursday would fill the list
    digest = period_digest(W47, days, rows, lines, [], [])
    per_day = Counter(h.day for h in digest.highlights)
    assert sorted(per_day) == days and len(digest.highlights) == 8
    assert [h.day for h in digest.highlights] == sorted(h.day for h in digest.highlights)


def test_every_week_of_a_month_is_represented_by_its_share_of_the_days():
    days = [(NOVEMBER.since + timedelta(days=i)).isoformat() for i in range(20)]
    rows, lines = _busy_first_days(days, busy=8)  # 1–8 November would take the whole list
    digest = period_digest(NOVEMBER, days, rows, lines, [], [])
    units = units_of(NOVEMBER, days)
    per_week = Counter(units[h.day] for h in digest.highlights)
    # 1 November is the only day of W44; W45 and W46 have 7 days each, W47 five (to the 20th).
    assert per_week == {"2026-W44": 1, "2026-W45": 4, "2026-W46": 4, "2026-W47": 3}


def test_a_line_its_day_page_cut_is_made_whole_from_its_record():
    day = "2026-11-15"
    said = (
        "Sunday, 15 November 2026 > Weekly review: Next week [2026-11-16/2026-11-22]: "
        "LanceDB decision on Friday, dentist on Thursday, book the Kyoto flights. Then rest."
    )
    rows = pd.DataFrame([_note(day, 9, said)])
    cut = "Next week: LanceDB decision on Friday, dentist on Thursday, book the Kyoto fligh…"
    (c,) = candidates(rows, {day: [(f"vault/memory/{day}.md#L19", cut)]})
    # The omoide date annotation is not the person's words; the sentence ends where it ended.
    assert (
        c.text
        == "Next week: LanceDB decision on Friday, dentist on Thursday, book the Kyoto flights."
    )
    assert c.kind == "note" and c.refs == (f"/h/sources/notes/{day}.md#L9",)


def test_without_its_record_a_cut_line_keeps_whole_sentences_or_whole_words():
    assert whole_line("Decided on Prefect. The retries and th…") == "Decided on Prefect."
    # The last word may be cut, so it goes; what is left says it was shortened.
    assert whole_line("Booked the table for the birthday dinner at eig…") == (
        "Booked the table for the birthday dinner at…"
    )
    assert whole_line("Too sh…") == ""
    assert whole_line("Not cut at all.") == "Not cut at all."


def test_a_long_line_is_shortened_at_a_sentence_or_a_word_never_inside_one():
    long = "First we moved the vectors. " + "Then " + "many more words " * 30
    assert shortened(long, 80) == "First we moved the vectors."
    words = "word " * 100
    out = shortened(words.strip(), 80)
    assert out.endswith("…") and out[:-1].split() == ["word"] * len(out[:-1].split())
    assert shortened("短い文。" * 100, 80).endswith("。")
    assert shortened("x" * 300, 80) == "x" * 300  # no boundary: not cut at all


def test_a_window_title_is_told_by_the_sessions_that_hold_it_never_a_highlight():
    day = "2026-11-17"
    titles = title_set([["● sync.py - warelay - Visual Studio Code", "Slack"], None, ["Zoom"]])
    rows = pd.DataFrame(
        [
            _note(day, 5, "Wrote sync.py tests in Slack's quiet hour"),
            rec(
                "s1",
                "08:40–09:40 Code (60 min): README.md - warelay - Visual Studio Code",
                kind="session",
                day=day,
                source=f"vault/memory/{day}.md#L40",
            ),
        ]
    )
    lines = [
        "● sync.py - warelay - Visual Studio Code",  # a title the lake's sessions hold
        "● sync.py - warelay - Visual Studio Code (12 min)",  # the same with a figure
        "README.md - warelay - Visual Studio Code",  # a line a session record holds
        "Wrote sync.py tests in Slack's quiet hour",  # a note naming an app: kept
    ]
    cands = candidates(rows, {day: [(f"p#L{n}", t) for n, t in enumerate(lines)]}, titles)
    assert [c.text for c in cands] == ["Wrote sync.py tests in Slack's quiet hour"]
    assert is_title("Zoom", titles) and not is_title("A Zoom call with Mina about the sync", titles)


def test_a_week_page_embeds_its_picture_beside_it_and_a_month_has_none(tmp_path: Path):
    days = ["2026-11-16", "2026-11-17"]
    rows, lines = _busy_first_days(days, busy=0)
    hours = {date(2026, 11, 16): [("Code", 3 * 3600.0), ("zoom", 1800.0)], date(2026, 11, 17): []}
    name = week_picture(tmp_path, W47, hours)
    assert name == "2026-W47.png"
    png = picture_path(tmp_path, W47)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size < 60_000
    before = png.stat().st_mtime_ns
    assert week_picture(tmp_path, W47, hours) == name and png.stat().st_mtime_ns == before
    digest = period_digest(W47, days, rows, lines, [], [])
    page = write_period_page(tmp_path, digest.__class__(**{**digest.__dict__, "picture": name}))
    text = page.path.read_text(encoding="utf-8")
    assert page.path.parent == png.parent and "### Picture\n\n![[2026-W47.png]]" in text
    # The summary stays the one line under its heading (its row cites it).
    assert text.splitlines()[page.summary_line - 1] == digest.summary
    assert week_picture(tmp_path, NOVEMBER, hours) is None
    assert not picture_path(tmp_path, NOVEMBER).exists()
    # A week whose days are gone keeps no picture of them.
    assert week_picture(tmp_path, W47, {}) is None and not png.exists()
