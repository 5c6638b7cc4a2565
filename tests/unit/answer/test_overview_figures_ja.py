"""A Japanese overview says the digest template's own figures in Japanese; a model's summary and the person's quoted lines stay as written."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from omoide.answer.overview import overview
from omoide.memory.extractive_digest import day_figures
from omoide.reflect.entities import collect_entities
from omoide.reflect.periods import mentions, period_digest, period_figures
from tests.unit.reflect.test_periods import HIGHLIGHTS, W47, _day_rows

FRIDAY = date(2026, 11, 20)
# The sentence `embedded_digest` writes for the sample's Friday.
TEMPLATE = (
    "Friday 2026-11-20. 11.9 h at the computer (ActivityWatch, not AFK). 200 activity sessions "
    "between 07:11 and 22:49. Most time went to zoom (1.9 h), Code (1.7 h) and obsidian (1.3 h). "
    "Mentioned: Peter, Mina, warelay. 10 note paragraph(s) and 10 chat message(s) were written."
)
PAGE = """## Summary

{summary}

### Highlights

- Demo of the sync fix to the team with @Mina

## Retain

- W @Peter: Peter moved to the platform team. — from `{home}/sources/notes/2026-11-20.md#L22` · direct ^m5
"""


def _page(tmp_path: Path, summary: str) -> Path:
    """A tmp home + a summary -> the vault holding Friday's page with it."""
    vault = tmp_path / "vault"
    (vault / "memory").mkdir(parents=True, exist_ok=True)
    text = PAGE.format(summary=summary, home=tmp_path)
    (vault / "memory/2026-11-20.md").write_text(text, encoding="utf-8")
    return vault


def test_a_japanese_day_overview_says_the_templates_figures_in_japanese(tmp_path: Path) -> None:
    vault = _page(tmp_path, TEMPLATE)
    text, cites, _ = overview(vault, tmp_path, FRIDAY, FRIDAY, lang="ja")
    assert text.startswith(
        "2026年11月20日（金）：パソコンの前に11.9時間（ActivityWatch、離席を除く）。"
        "07:11〜22:49に200件の活動。最も長かったのは zoom（1.9時間）、Code（1.7時間）、"
        "obsidian（1.3時間）。話題に出たのは Peter、Mina、warelay。メモ10段落、チャット10件を書きました。"
    )
    for english in ("at the computer", "Most time", "Mentioned", "were written", "Friday"):
        assert english not in text
    # The person's own lines stay as written, quoted.
    assert "ハイライト：「Demo of the sync fix to the team with @Mina」。" in text
    assert "メモ：「Peter moved to the platform team.」。" in text
    english, en_cites, _ = overview(vault, tmp_path, FRIDAY, FRIDAY)
    assert english.startswith(TEMPLATE) and cites == en_cites  # English unchanged, same lines


def test_a_summary_no_template_wrote_stays_as_written(tmp_path: Path) -> None:
    model = "A calm Friday: the sync fix demoed, Peter off to the platform team."
    vault = _page(tmp_path, model)
    assert day_figures(model) is None and period_figures(model) is None
    text, _, _ = overview(vault, tmp_path, FRIDAY, FRIDAY, lang="ja")
    assert text.startswith(model)
    # A template sentence with words after it no pattern reads is no template's either.
    assert day_figures(TEMPLATE + " Then a nap.") is None


def test_the_figures_are_read_back_from_what_the_writers_write() -> None:
    f = day_figures(TEMPLATE)
    assert f is not None and (f.day, f.active, f.measured, f.sessions) == (
        FRIDAY,
        11.9 * 3600,
        "not AFK",
        200,
    )
    assert f.spent == (("zoom", 1.9 * 3600), ("Code", 1.7 * 3600), ("obsidian", 1.3 * 3600))
    assert (f.span, f.mentioned, f.written) == (
        ("07:11", "22:49"),
        ("Peter", "Mina", "warelay"),
        (10, 10),
    )

    rows = _day_rows()
    named = mentions(collect_entities(rows), rows, people=["Peter", "Mina"], me=[])
    spent = [("Code", 9 * 3600.0), ("github.com", 2 * 3600.0), ("zoom", 1800.0)]
    days = ["2026-11-18", "2026-11-19", "2026-11-20"]
    summary = period_digest(W47, days, rows, HIGHLIGHTS, spent, named, active=12 * 3600.0).summary
    p = period_figures(summary)
    assert p is not None and (p.days, p.active, p.spent) == (3, 12 * 3600.0, tuple(spent))
    assert (p.people, p.other, p.written) == (
        (("Mina", 2), ("Peter", 1)),
        (("warelay", 2),),
        (1, 2, 2),
    )


def test_a_japanese_week_overview_says_the_weeks_figures_in_japanese(tmp_path: Path) -> None:
    rows = _day_rows()
    named = mentions(collect_entities(rows), rows, people=["Peter", "Mina"], me=[])
    spent = [("Code", 9 * 3600.0), ("zoom", 1800.0)]
    days = ["2026-11-18", "2026-11-19", "2026-11-20"]
    summary = period_digest(W47, days, rows, HIGHLIGHTS, spent, named, active=12 * 3600.0).summary
    vault = tmp_path / "vault"
    (vault / "memory/weekly").mkdir(parents=True)
    (vault / "memory/weekly/2026-W47.md").write_text(f"## Summary\n\n{summary}\n", encoding="utf-8")
    text, _, basis = overview(vault, tmp_path, date(2026, 11, 16), date(2026, 11, 22), lang="ja")
    assert basis == "week page"
    assert text == (
        "2026年第47週：ページのある日は3日。パソコンの前に約12.0時間（離席を除く）。"
        "最も長かったのは Code（9.0時間）、zoom（30分）。人：Mina（2）、Peter（1）。"
        "プロジェクトと場所：warelay（2）。メモ1段落、チャット2件、残した事実2件を書きました。"
    )
    english = overview(vault, tmp_path, date(2026, 11, 16), date(2026, 11, 22))[0]
    assert english == f"The week 2026-W47: {summary}"


def test_a_japanese_day_overview_names_the_longest_blocks_and_with_whom(tmp_path: Path) -> None:
    blocks = (
        "Wednesday 2026-11-18. 11.9 h at the computer (ActivityWatch, not AFK). 8 blocks between "
        "00:10 and 22:29; the longest: Pairing with Mina on the fix (2.7 h) and Compared three "
        "ryokans (2.5 h). With Mina and Peter. 11 note paragraph(s) and 10 chat message(s) were written."
    )
    figures = day_figures(blocks)
    assert figures is not None and figures.people == ("Mina", "Peter")
    vault = _page(tmp_path, blocks.replace("Wednesday 2026-11-18", "Friday 2026-11-20"))
    text, _, _ = overview(vault, tmp_path, FRIDAY, FRIDAY, lang="ja")
    assert (
        "00:10〜22:29に8件の活動。長かった活動：「Pairing with Mina on the fix」（2.7時間）、"
        "「Compared three ryokans」（2.5時間）。一緒だった人：Mina、Peter。" in text
    ), text
    assert "longest" not in text and "With Mina" not in text
