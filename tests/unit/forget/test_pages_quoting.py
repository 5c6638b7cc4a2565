"""A forget makes again the days whose pages quote what it forgets, a week's or a month's page included."""

from __future__ import annotations

from pathlib import Path

from omoide.forget.matcher import Matcher, Needle
from omoide.forget.purge import pages_quoting


def test_a_week_or_month_page_quoting_a_needle_makes_one_of_its_days_again(tmp_path: Path):
    memory = tmp_path / "vault" / "memory"
    (memory / "weekly").mkdir(parents=True)
    (memory / "monthly").mkdir()
    for day in ("2026-11-18", "2026-11-20", "2026-12-01"):
        (memory / f"{day}.md").write_text(f"# {day}\n", encoding="utf-8")
    (memory / "2026-11-20.md").write_text("Booked the Ryokan Hanaya for Kyoto\n", encoding="utf-8")
    (memory / "weekly" / "2026-W47.md").write_text("- Booked the Ryokan Hanaya\n", encoding="utf-8")
    (memory / "weekly" / "2026-W49.md").write_text("- Ryokan Hanaya again\n", encoding="utf-8")
    (memory / "monthly" / "2026-10.md").write_text(
        "- Ryokan Hanaya, no day left\n", encoding="utf-8"
    )
    (memory / "monthly" / "2026-11.md").write_text("- nothing to forget\n", encoding="utf-8")
    found = pages_quoting(memory, Matcher([Needle("ryokan hanaya")]))
    # The day page itself; the week of 16-22 November by its first day with a page (18); the
    # week of 30 November by 1 December; October has no day page, so nothing to make again.
    assert [d.isoformat() for d in found] == ["2026-11-18", "2026-11-20", "2026-12-01"]
    assert pages_quoting(tmp_path / "none", Matcher([Needle("ryokan hanaya")])) == []
