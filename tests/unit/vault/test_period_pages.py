"""Week and month pages in the vault: the fixed layout, citations a reader can take apart, the user's text kept."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from omoide.memory.day_summary import DaySummary, Fact
from omoide.memory.day_summary import Highlight as DayHighlight
from omoide.reflect.period_highlights import Highlight
from omoide.reflect.periods import Mention, PeriodDigest, month_of, week_of
from omoide.vault.daily import write_daily
from omoide.vault.period_pages import (
    day_highlights,
    highlight_line,
    highlight_parts,
    period_pages,
    period_path,
    write_period_page,
)

W47 = week_of(date(2026, 11, 18))
NOVEMBER = month_of(date(2026, 11, 18))
DAYS = ["2026-11-18", "2026-11-20"]
FACT = Highlight(
    "Mina and I demoed the warelay sync fix.",
    "2026-11-20",
    "Retain",
    "sources/notes/2026-11-20.md#L24",
    ("/h/sources/notes/2026-11-20.md#L24",),
    "B",
    0.9,
    "171403d005ea1e7219239efb358cd118",
)
NOTE = Highlight(
    "Standup: @Mina saw missing events after midnight",
    "2026-11-18",
    "Highlights",
    "vault/memory/2026-11-18.md#L19",
    ("/h/sources/notes/2026-11-18.md#L12",),
    "note",
    0.7,
)


def _digest(period=W47, days=DAYS, summary="Week 47 of 2026: two days.") -> PeriodDigest:
    return PeriodDigest(
        period=period,
        days=list(days),
        summary=summary,
        highlights=[NOTE, FACT] if days else [],
        time=[("Code", 9 * 3600.0), ("github.com", 1500.0)] if days else [],
        mentions=[Mention("peter", "Peter", 20, True), Mention("warelay", "warelay", 10, False)],
        weeks=[W47] if period.kind == "month" else [],
    )


def test_a_week_page_has_the_fixed_layout_and_its_summary_line(tmp_path: Path):
    written = write_period_page(tmp_path, _digest())
    assert written.path == tmp_path / "memory" / "weekly" / "2026-W47.md" and written.changed
    lines = written.path.read_text(encoding="utf-8").splitlines()
    assert lines[written.summary_line - 1] == "Week 47 of 2026: two days."
    text = "\n".join(lines)
    assert text.startswith(
        "---\nperiod: 2026-W47\nsince: '2026-11-16'\nuntil: '2026-11-22'\ndays:\n- '2026-11-18'\n"
        "- '2026-11-20'\ntags:\n- omoide\n- weekly\nbackend: embedded\nmodel: extractive-period-v1\n---\n"
    )
    headings = [line for line in lines if line.startswith("#")]
    assert headings == [
        "## Summary",
        "### Highlights",
        "### Time",
        "### People and projects",
        "### Days",
    ]
    assert (
        "- Standup: @Mina saw missing events after midnight "
        "([[2026-11-18#Highlights]] · `vault/memory/2026-11-18.md#L19`)" in lines
    )
    assert (
        "- Mina and I demoed the warelay sync fix. "
        "([[2026-11-20#^m171403d005]] · `sources/notes/2026-11-20.md#L24`)" in lines
    )
    assert "- Code: 540 min" in lines and "- github.com: 25 min" in lines
    assert "- [[peter|Peter]] (person): 20 memories" in lines
    assert "- [[warelay|warelay]]: 10 memories" in lines
    assert lines[-3:] == [
        "- [[2026-11-18]] Wednesday",
        "- [[2026-11-20]] Friday",
        "<!-- omoide:end -->",
    ]


def test_a_month_page_links_its_days_and_weeks_and_an_empty_section_keeps_its_heading(
    tmp_path: Path,
):
    path = write_period_page(tmp_path, _digest(NOVEMBER, summary="November 2026.")).path
    assert path == tmp_path / "memory" / "monthly" / "2026-11.md"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert "- omoide" in lines and "- monthly" in lines
    assert lines[-4:] == ["### Weeks", "", "- [[2026-W47]] 16–22 November", "<!-- omoide:end -->"]
    empty = write_period_page(tmp_path, _digest(week_of(date(2026, 11, 9)), days=[]))
    text = empty.path.read_text(encoding="utf-8")
    assert "days: []" in text
    assert "### Highlights\n\n### Time\n\n### People and projects\n\n- [[peter" in text
    assert text.endswith("### Days\n<!-- omoide:end -->\n")


def test_a_highlight_line_is_taken_apart_into_text_day_anchor_and_citation():
    parts = highlight_parts(highlight_line(FACT))
    assert parts is not None
    assert (parts.text, parts.day, parts.anchor, parts.source) == (
        "Mina and I demoed the warelay sync fix.",
        "2026-11-20",
        "^m171403d005",
        "sources/notes/2026-11-20.md#L24",
    )
    bare = highlight_parts("Paired (again) with Mina ([[2026-11-18#Highlights]])")
    assert bare is not None and (bare.text, bare.source) == ("Paired (again) with Mina", None)
    assert highlight_parts("- a line the user wrote") is None


def test_rewriting_keeps_the_users_text_and_front_matter_and_the_same_page_writes_nothing(
    tmp_path: Path,
):
    path = period_path(tmp_path, W47)
    path.parent.mkdir(parents=True)
    path.write_text(
        "---\nmood: good\ntags: [review]\nperiod: stale\n---\n# My week\n\nMy own review.\n",
        encoding="utf-8",
    )
    first = write_period_page(tmp_path, _digest())
    text = path.read_text(encoding="utf-8")
    assert "mood: good" in text and "- review\n- omoide\n- weekly" in text and "stale" not in text
    assert text.index("My own review.") < text.index("<!-- omoide:begin")
    with path.open("a", encoding="utf-8") as f:
        f.write("\nA line after the block.\n")
    before = path.read_bytes()
    again = write_period_page(tmp_path, _digest())
    assert not again.changed and path.read_bytes() == before
    assert again.summary_line == first.summary_line
    changed = write_period_page(tmp_path, _digest(summary="Week 47 of 2026: rewritten."))
    after = path.read_text(encoding="utf-8")
    assert changed.changed and "rewritten" in after and "A line after the block." in after
    assert after.count("<!-- omoide:begin") == 1 and "My own review." in after


def test_a_days_highlights_are_read_from_its_page_with_their_lines(tmp_path: Path):
    summary = DaySummary(
        day="2026-11-20",
        backend="embedded",
        model="extractive-digest-v1",
        summary="Friday.",
        highlights=[DayHighlight("Demo of the sync fix"), DayHighlight("Decision: LanceDB")],
        facts=[
            Fact(
                "B",
                "Demoed it.",
                (),
                1.0,
                0.9,
                ("n#L1",),
                "2026-11-20T09:00:00+00:00",
                "retain",
                "f1",
            )
        ],
    )
    written = write_daily(tmp_path, summary, [("s1", "09:00–10:00 Code (60 min): x")], "d1")
    lines = written.path.read_text(encoding="utf-8").splitlines()
    found = day_highlights(written.path)
    assert [t for _, t in found] == ["Demo of the sync fix", "Decision: LanceDB"]
    assert all(lines[n - 1] == f"- {t}" for n, t in found)
    assert day_highlights(tmp_path / "missing.md") == []


def test_the_pages_present_are_listed_with_their_periods(tmp_path: Path):
    write_period_page(tmp_path, _digest())
    write_period_page(tmp_path, _digest(NOVEMBER))
    (tmp_path / "memory" / "weekly" / "notes.md").write_text("mine", encoding="utf-8")
    assert [(p.name, path.name) for p, path in period_pages(tmp_path)] == [
        ("2026-W47", "2026-W47.md"),
        ("2026-11", "2026-11.md"),
    ]
    assert period_pages(tmp_path / "nothing") == []
