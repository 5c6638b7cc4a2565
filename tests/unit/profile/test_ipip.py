from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from omoide.core.errors import OmoideError
from omoide.profile.ipip import (
    FACTORS,
    ITEMS,
    SCALE,
    quiz_analysis,
    quiz_answers,
    run_quiz,
    score_answers,
)

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)


def test_fifty_items_ten_per_factor_in_published_order():
    assert [i.number for i in ITEMS] == list(range(1, 51))
    assert Counter(i.factor for i in ITEMS) == {f: 10 for f in FACTORS}
    # The form cycles factors I..V: item n belongs to factor (n - 1) % 5.
    assert all(i.factor == FACTORS[(i.number - 1) % 5] for i in ITEMS)
    assert len({i.text for i in ITEMS}) == 50
    assert len(SCALE) == 5


def test_keys_match_the_published_key():
    plus = Counter(i.factor for i in ITEMS if i.keyed == 1)
    minus = Counter(i.factor for i in ITEMS if i.keyed == -1)
    assert plus == {
        "extraversion": 5,
        "agreeableness": 6,
        "conscientiousness": 6,
        "emotional_stability": 2,
        "intellect": 7,
    }
    assert minus == {
        "extraversion": 5,
        "agreeableness": 4,
        "conscientiousness": 4,
        "emotional_stability": 8,
        "intellect": 3,
    }


def test_spot_items_from_the_form():
    by_number = {i.number: i for i in ITEMS}
    assert (by_number[1].text, by_number[1].keyed) == ("Am the life of the party.", 1)
    assert (by_number[4].text, by_number[4].keyed) == ("Get stressed out easily.", -1)
    assert (by_number[9].text, by_number[9].keyed) == ("Am relaxed most of the time.", 1)
    assert (by_number[38].text, by_number[38].keyed) == ("Shirk my duties.", -1)
    assert (by_number[50].text, by_number[50].factor) == ("Am full of ideas.", "intellect")


def test_all_fours_score_to_the_published_key_by_hand():
    # + keyed items score 4, − keyed 6 − 4 = 2; factors differ only in how many of each.
    scores = score_answers({n: 4 for n in range(1, 51)})
    # E: 5×4 + 5×2 = 30 → mean 3.0 → 0.5; A, C: 6×4 + 4×2 → 3.2 → 0.55;
    # Intellect: 7×4 + 3×2 → 3.4 → 0.6; Emotional Stability: 2×4 + 8×2 → 2.4 → 0.35,
    # so Neuroticism = 1 − 0.35 = 0.65.
    assert scores.as_dict() == pytest.approx(
        {
            "openness": 0.6,
            "conscientiousness": 0.55,
            "extraversion": 0.5,
            "agreeableness": 0.55,
            "neuroticism": 0.65,
        }
    )


def test_reverse_keyed_items_and_neuroticism_direction():
    sheet = {n: 3 for n in range(1, 51)}
    sheet[1] = 1  # "Am the life of the party." (+E) very inaccurate: E mean (1 + 9×3)/10 = 2.8
    sheet[6] = 1  # "Don't talk a lot." (−E) very inaccurate scores 6 − 1 = 5: E back to 3.0
    sheet[4] = 5  # "Get stressed out easily." (−ES) very accurate: ES mean 2.8 → N 0.55
    scores = score_answers(sheet)
    assert scores.extraversion == pytest.approx(0.5)
    assert scores.neuroticism == pytest.approx(0.55)
    assert (scores.openness, scores.agreeableness, scores.conscientiousness) == (0.5, 0.5, 0.5)


def test_extreme_sheet_hits_the_poles():
    sheet = {i.number: 5 if i.keyed == 1 else 1 for i in ITEMS}
    scores = score_answers(sheet)
    assert scores.as_dict() == {
        "openness": 1.0,
        "conscientiousness": 1.0,
        "extraversion": 1.0,
        "agreeableness": 1.0,
        "neuroticism": 0.0,  # every Emotional Stability answer at its stable pole
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({7: None}, "missing items [7]"),
        ({7: 0}, "out-of-range answers at items [7]"),
        ({7: 6}, "out-of-range answers at items [7]"),
        ({7: 3.5}, "out-of-range answers at items [7]"),
        ({7: True}, "out-of-range answers at items [7]"),
        ({51: 3}, "unknown items [51]"),
    ],
)
def test_invalid_sheets_are_rejected(change, message):
    sheet: dict[int, object] = {n: 3 for n in range(1, 51)}
    for n, a in change.items():
        if a is None:
            del sheet[n]
        else:
            sheet[n] = a
    with pytest.raises(OmoideError, match=message.replace("[", r"\[").replace("]", r"\]")):
        score_answers(sheet)  # type: ignore[arg-type]


def test_quiz_runner_with_a_scripted_ask_reasks_invalid_answers():
    script = iter([9, *[4] * 50])  # one bad answer to item 1, then 4 for everything
    asked: list[str] = []

    def ask(question: str) -> int:
        asked.append(question)
        return next(script)

    scores = run_quiz(ask)
    assert len(asked) == 51
    assert asked[0].startswith("1/50. I... Am the life of the party.")
    assert asked[1].startswith("Please answer with a whole number from 1 to 5.")
    assert scores == score_answers({n: 4 for n in range(1, 51)})


def test_quiz_gives_up_after_repeated_nonsense():
    with pytest.raises(OmoideError, match="item 1"):
        quiz_answers(lambda _q: 7)


def test_quiz_analysis_id_depends_on_answers_only():
    sheet = {n: 2 + n % 3 for n in range(1, 51)}
    a, b = quiz_analysis(sheet, NOW), quiz_analysis(sheet, NOW + timedelta(days=3))
    assert a.analysis_id == b.analysis_id
    assert (a.source, a.method, a.confidence) == ("quiz", "ipip-50", 1.0)
    assert a.provenance["answers"]["50"] == sheet[50]
    other = quiz_analysis({**sheet, 1: 5 if sheet[1] != 5 else 1}, NOW)
    assert other.analysis_id != a.analysis_id
