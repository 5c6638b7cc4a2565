"""A Japanese subject matches the person's records in either language (omoide.answer.matching)."""

from __future__ import annotations

import pandas as pd
import pytest

from omoide.answer.matching import holds, is_person, key_terms, looser, target
from omoide.answer.record_masks import activity_mask, english_verb


def test_a_japanese_subjects_key_terms_are_its_content_words() -> None:
    assert key_terms("親子丼を作った") == ["親子丼", "作る"]
    assert key_terms("走った") == ["走る"]
    assert key_terms("Slackを使った") == ["slack", "使う"]
    assert target("github.comを見た").terms == ("github.com",)  # the verb of seeing is off


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("走った後のコーヒーは最高。", ["走る"]),  # as written, in its dictionary form
        ("- 08:30 Ran 10 km along the canal", ["走る"]),  # its gloss "run", by its stem
        ("- 20:15 Booked the ryokan in Higashiyama", ["旅館", "予約"]),  # ryokan; booking
        ("Looked at Kyoto in April", ["京都"]),  # its romaji reading
        ("- 08:00 Dentist, Dr. Weber: check-up", ["歯医者"]),
        ("Cooked oyakodon for the first time", ["親子丼"]),
    ],
)
def test_a_japanese_term_matches_a_record_in_either_language(text: str, terms: list[str]) -> None:
    assert holds(text, terms)


def test_every_term_still_has_to_be_matched() -> None:
    assert not holds("Ran 10 km along the canal", ["走る", "京都"])
    assert not holds("冷凍しておいた出汁も少し入れた。", ["出汁", "作る"])
    assert holds("Made a big pot of dashi", ["出汁", "作る"])


def test_english_matching_is_as_it_was() -> None:
    assert key_terms("cook oyakodon") == ["cook", "oyakodon"]
    assert holds("Cooked oyakodon", ["cook", "oyakodon"])
    assert not holds("親子丼を作った", ["cook", "oyakodon"])


def test_x_to_denwa_names_a_partner_only_when_x_is_a_person() -> None:
    assert target("母と電話した").partner is None
    assert target("母と電話した").terms == ("母", "電話")
    assert target("ピーターと話した").partner == "ピーター"
    assert target("ミナさんと話した").partner == "ミナさん"
    assert is_person("ピーター", ["Peter", "Mina"])
    assert not is_person("母", ["Peter", "Mina"])
    assert not is_person("ジョン", ["Peter", "Mina"])  # a name no one in the home has


def test_a_japanese_subject_lets_its_verb_go_when_nothing_matched() -> None:
    loose = looser(target("出汁を作った"))
    assert loose is not None and loose.terms == ("出汁",)
    assert looser(target("走った")) is None


def test_a_japanese_verbs_gloss_is_read_in_its_sense() -> None:
    events = pd.DataFrame(
        {
            "text": ["Ran 5 km in the Tiergarten", "the CI run failed", "雨の中を走った。"],
            "title": [None, None, None],
            "url": [None, None, None],
        }
    )
    assert activity_mask(events, ("走る",)).tolist() == [True, False, True]


def test_a_japanese_subjects_terms_stand_in_one_sentence() -> None:
    # What was made is the 親子丼; the 出汁 is in the next sentence.
    assert not holds("初めて親子丼を作った。月曜日の出汁のおかげでおいしかった。", ["出汁", "作る"])
    assert holds("今日は初めて出汁を作った。思ったより簡単！", ["出汁", "作る"])
    assert holds("Cooked oyakodon. With Monday's dashi", ["cook", "dashi"])  # English as it was


def test_an_activitys_english_verb_in_either_language() -> None:
    assert english_verb(target("走った")) == "run"
    assert english_verb(target("食べた")) == "eat"
    assert english_verb(target("cook oyakodon")) == "cook"
    assert english_verb(target("歯医者に行った")) == ""  # no verb left: going is taken off
