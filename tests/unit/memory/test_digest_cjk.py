"""The extractive digest on Japanese: CJK bigram terms, and highlights ranked by what a day shares."""

from __future__ import annotations

import pandas as pd

from omoide.core import schemas
from omoide.memory.summarize import summarize_day
from omoide.memory.terms import terms, word_count

from .conftest import DAY, TZ, _event

# A day planning a Kyoto trip: the plan names most of what the other notes say. Before CJK
# bigrams, the lines with the most punctuation won (each clause was one term of its own).
PLAN = "京都旅行の予定：新幹線で京都駅へ行き、清水寺と金閣寺を回る"
NOTES = [
    "京都旅行の新幹線を予約した",
    "京都旅行の新幹線を予約しました",  # a near-copy of the line above
    "京都旅行で行く寺を調べた：清水寺と金閣寺",
    PLAN,
    "お昼はカレー、デザートはプリン、食後にコーヒー、夜は早く寝た",  # long, but off the day's topic
    "歯医者に電話して予約を取った",
    "了解です",  # too short to stand for the day
]


def _japanese_day() -> pd.DataFrame:
    """() -> the day's note paragraphs as sanitized events."""
    rows = [
        _event(i, f"2026-11-20T{8 + i:02d}:00:00Z", "note", title="金曜日 > ログ", text=t)
        for i, t in enumerate(NOTES)
    ]
    return schemas.conform(pd.DataFrame(rows), schemas.EVENTS)


def test_terms_are_words_in_spaced_text_and_bigrams_in_japanese():
    assert terms("Moved the vectors to LanceDBに移行した") == [
        "moved",
        "the",
        "vectors",
        "lancedb",
        "に移",
        "移行",
        "行し",
        "した",
    ]


def test_a_lone_cjk_character_is_its_own_term_and_punctuation_splits_runs():
    assert terms("猫、東京駅。") == ["猫", "東京", "京駅"]
    # ・ separates the words of a foreign name; ー belongs to the word.
    assert terms("グスタフ・マーラー") == ["グス", "スタ", "タフ", "マー", "ーラ", "ラー"]


def test_full_and_half_width_forms_match_the_usual_ones():
    assert (
        terms("ＬａｎｃｅＤＢ ｶﾀｶﾅ")
        == terms("LanceDB カタカナ")
        == ["lancedb", "カタ", "タカ", "カナ"]
    )


def test_word_count_counts_two_cjk_characters_as_a_word():
    assert word_count("Called the dentist") == 3
    assert word_count("歯医者に電話した") == 4
    assert word_count("了解です") == 2


def test_highlights_of_a_japanese_day_lead_with_the_line_it_shares_most_with():
    s = summarize_day(_japanese_day(), schemas.empty(schemas.SESSIONS), DAY, TZ, None)
    texts = [h.text for h in s.highlights]
    assert texts[0] == PLAN
    assert s.highlights[0].refs == (f"/notes/2026-11-20.md#L{NOTES.index(PLAN)}",)
    # The near-copy shares most of its bigrams with its twin: only one of them is shown.
    assert sum(t.startswith("京都旅行の新幹線を予約") for t in texts) == 1
    assert texts.index(NOTES[4]) > texts.index(NOTES[2])  # off topic, though it has more to say
    assert "了解です" not in texts


def test_a_long_mixed_paragraph_is_shown_to_a_sentence_end_not_cut_inside_one():
    english = "The fix was small; the test that reproduces the midnight case is what matters."
    paragraph = f"{english} 京都の旅館を予約した！楽しみ。"
    events = schemas.conform(
        pd.DataFrame([_event(0, "2026-11-20T08:00:00Z", "note", title="Thoughts", text=paragraph)]),
        schemas.EVENTS,
    )
    s = summarize_day(events, schemas.empty(schemas.SESSIONS), DAY, TZ, None)
    # 90 characters to the Japanese sentence's end: the English one is whole, nothing is cut
    assert [h.text for h in s.highlights] == [english]
