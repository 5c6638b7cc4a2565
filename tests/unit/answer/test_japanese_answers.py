"""The existing answers in Japanese: overview, time spent, lookup and forgotten say their own words in Japanese, quotes as written."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pandas as pd

from omoide.answer.forgotten import Forgotten, gone_text, left_out_text
from omoide.answer.lookup import BY_MEANING_ONLY_JA, lookup_answer
from omoide.answer.overview import overview
from omoide.answer.time_spent import time_spent_answer
from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.core.settings import get_settings
from omoide.store.lake import merge_events
from tests.unit.answer.test_empty_and_forgotten import FRIDAY, SITE, _aw, _friday
from tests.unit.answer.test_overview_and_when import DAY, WEEK
from tests.unit.answer.test_wording import _recalled

TZ = "UTC"


def test_an_overview_in_japanese_names_its_period_in_japanese_and_keeps_the_pages_words(
    tmp_path: Path,
) -> None:
    home, vault = tmp_path, tmp_path / "vault"
    (vault / "memory/weekly").mkdir(parents=True)
    (vault / "memory/2026-11-20.md").write_text(DAY.format(home=home), encoding="utf-8")
    text, cites, basis = overview(vault, home, FRIDAY, FRIDAY, lang="ja")
    assert basis == "day page"
    assert "ハイライト：「Demo of the sync fix to the team with @Mina」、「Decision:" in text
    assert "メモ：「Peter moved to the platform team.」。" in text
    assert cites == overview(vault, home, FRIDAY, FRIDAY)[1]  # the same lines cited

    (vault / "memory/weekly/2026-W47.md").write_text(WEEK, encoding="utf-8")
    text, _, basis = overview(vault, home, date(2026, 11, 18), date(2026, 11, 20), lang="ja")
    assert basis == "week page" and text.startswith("2026年第47週：Three days")
    assert text.endswith("ハイライト：「Shipped the warelay sync fix」。")

    text, cites, basis = overview(vault, home, date(2026, 11, 9), date(2026, 11, 15), lang="ja")
    assert text == "2026年第46週（11月9日〜15日）には何も記録されていません。"
    assert cites == [] and basis == "none"
    empty = overview(vault, home, date(2026, 10, 1), date(2026, 10, 31), lang="ja")[0]
    assert empty == "2026年10月には何も記録されていません。"


def test_time_spent_in_japanese_says_the_day_and_duration_the_japanese_way(
    omoide_home: Path,
) -> None:
    settings = get_settings()
    _friday(settings.lake_dir, omoide_home)
    friday = day_bounds(FRIDAY, TZ)
    text, minutes, cites, basis = time_spent_answer(settings.lake_dir, SITE, friday, TZ, "ja")
    assert minutes == 20.0 and basis == "activitywatch"
    assert text.startswith(f"2026年11月20日（金）、{SITE}に約20分（ActivityWatch：")
    assert (
        "About" not in text and cites == time_spent_answer(settings.lake_dir, SITE, friday, TZ)[2]
    )
    zoom = time_spent_answer(settings.lake_dir, "zoom", friday, TZ, "ja")[0]
    assert zoom.startswith("2026年11月20日（金）、アプリ zoomに約30分")

    none, minutes, cites, _ = time_spent_answer(settings.lake_dir, "github.com", friday, TZ, "ja")
    assert none.startswith(
        "2026年11月20日（金）、ActivityWatchにはgithub.comの時間の記録がありません"
    )
    assert minutes == 0.0 and cites == [] and "0分" not in none
    week = day_bounds(date(2026, 11, 23), TZ)[0], day_bounds(date(2026, 11, 29), TZ)[1]
    empty = time_spent_answer(settings.lake_dir, SITE, week, TZ, "ja")[0]
    assert empty == "2026年第48週（11月23日〜29日）には何も記録されていません。"
    # Two hours of zoom over two days: the Japanese duration, the days from … to.
    two_days = friday[0], day_bounds(date(2026, 11, 21), TZ)[1]
    assert time_spent_answer(settings.lake_dir, "zoom", two_days, TZ, "ja")[0].startswith(
        "2026年11月20日から2026年11月21日まで、アプリ zoomに約30分"
    )
    assert time_spent_answer(settings.lake_dir, "", friday, TZ, "ja")[0].startswith("何の時間")


def test_a_lookup_in_japanese_quotes_the_memories_as_written() -> None:
    text, cites, matched = lookup_answer([], lang="ja")
    assert text == "それに合う記憶はありません。" and cites == [] and not matched

    best = _recalled("Mina lives in Kyoto.", 0.4).model_copy(update={"valid_to": "2026-11-25"})
    other = _recalled("ミナは京都に引っ越した。", 0.2)
    text, cites, matched = lookup_answer([best, other], lang="ja")
    assert matched and len(cites) == 2
    assert text == (
        "「Mina lives in Kyoto.」（2026年11月25日以降は当てはまりません）（2026年11月20日）"
        " ほかに：「ミナは京都に引っ越した。」（2026年11月20日）"
    )
    # The English wording is as it was.
    english = lookup_answer([best, other])[0]
    assert english == (
        "Mina lives in Kyoto. (no longer so since 2026-11-25) (2026-11-20)"
        " Also: “ミナは京都に引っ越した。” (2026-11-20)"
    )
    near = lookup_answer([_recalled("Peter moved to the platform team.", 0.0)], lang="ja")[0]
    assert near == f"{BY_MEANING_ONLY_JA}「Peter moved to the platform team.」（2026年11月20日）"


def test_a_forget_is_said_in_japanese_with_the_japanese_date() -> None:
    gone = Forgotten("seriouseats.com", datetime(2026, 11, 21, 9, tzinfo=UTC))
    assert gone_text(gone, TZ, "ja") == (
        "2026年11月21日に「seriouseats.com」を忘れるよう頼まれたため、何も残っていません。"
    )
    assert left_out_text(gone, TZ, "ja").endswith("その分は除いています。")
    assert gone_text(gone, TZ) == (
        "You asked omoide to forget seriouseats.com on 21 November 2026; nothing of it is kept."
    )
    # The local day, not the UTC one.
    late = Forgotten("Quillon", datetime(2026, 11, 21, 20, tzinfo=UTC))
    assert left_out_text(late, "Asia/Tokyo", "ja").startswith("2026年11月22日に「Quillon」")


def test_an_app_asked_by_its_spoken_name_is_timed_as_activitywatch_names_it(
    omoide_home: Path,
) -> None:
    settings = get_settings()
    _friday(settings.lake_dir, omoide_home)
    code = [_aw("window", "2026-11-20T10:00", 15, "Code", "sync.py - warelay - Visual Studio Code")]
    merge_events(
        settings.lake_dir, FRIDAY, "aw", schemas.conform(pd.DataFrame(code), schemas.EVENTS)
    )
    friday = day_bounds(FRIDAY, TZ)
    for name in ("VS Code", "vscode"):
        minutes = time_spent_answer(settings.lake_dir, name, friday, TZ)[1]
        assert minutes == 15.0
    assert time_spent_answer(settings.lake_dir, "Emacs", friday, TZ)[1] == 0.0
