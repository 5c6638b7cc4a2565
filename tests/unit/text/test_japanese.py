"""omoide.text.japanese: content words, romaji readings and English glosses of Japanese words."""

from __future__ import annotations

import subprocess
import sys

import pytest

from omoide.text.japanese import content_words, glosses, is_name, is_verb, romaji


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("11月に走ったのは何回ですか", ["走る"]),
        ("親子丼を何回作った？", ["親子丼", "作る"]),
        ("母と電話したのはどの日ですか", ["母", "電話"]),
        ("初めて出汁を作ったのはいつですか", ["出汁", "作る"]),
        ("ピーターは旅館について何と言っていましたか", ["ピーター", "旅館", "言う"]),
        ("静かな旅館で寝てしまった", ["静か", "旅館", "寝る"]),
    ],
)
def test_content_words_are_dictionary_forms_without_grammar_or_question_words(
    text: str, words: list[str]
) -> None:
    assert content_words(text) == words


def test_content_words_of_text_without_japanese() -> None:
    assert content_words("") == []


@pytest.mark.parametrize(
    ("word", "first"),
    [("走る", ["run"]), ("歯医者", ["dentist"]), ("母", ["mother"]), ("出汁", ["dashi"])],
)
def test_glosses_are_the_first_senses_english(word: str, first: list[str]) -> None:
    assert glosses(word) == first


def test_glosses_keep_every_gloss_of_the_first_sense_only() -> None:
    assert glosses("旅館")[:2] == ["ryokan", "traditional inn"]
    assert "pretext" not in glosses("出汁")
    assert glosses("ないないないない") == []


@pytest.mark.parametrize(
    ("word", "latin"),
    [
        ("京都", "kyoto"),
        ("大阪", "osaka"),
        ("東京", "tokyo"),
        ("旅館", "ryokan"),
        ("ラーメン", "ramen"),
    ],
)
def test_romaji_writes_long_vowels_once(word: str, latin: str) -> None:
    assert romaji(word) == latin


def test_the_module_loads_nothing_at_import_and_never_brings_prefect() -> None:
    code = (
        "import sys, omoide.text.japanese as ja; "
        "loaded = 'sudachipy' in sys.modules or 'jamdict_data' in sys.modules; "
        "ja.content_words('走った'); ja.glosses('走る'); "
        "print(loaded, any(m.split('.')[0] == 'prefect' for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_a_name_is_told_from_a_common_noun() -> None:
    assert is_name("ピーター") and is_name("ミナ") and is_name("田中") and is_name("Peter")
    assert not is_name("母") and not is_name("上司")


def test_a_verb_is_told_from_a_noun() -> None:
    assert is_verb("走る") and is_verb("作る")
    assert not is_verb("旅館") and not is_verb("静か")


def test_a_name_jmdict_lacks_is_spelled_as_jmnedict_spells_it() -> None:
    from omoide.answer.matching import holds, latin_forms
    from omoide.text.japanese import glosses

    assert glosses("ピーター")[0] == "Peter" and glosses("ベルリン") == ["Berlin"]
    # So a Japanese question about Peter finds the English note that names him.
    assert holds("Ramen with @Peter in Kreuzberg", ("ピーター", "ラーメン"))
    # An English compound gloss names its thing by its last word: 通話 "telephone call" is a call.
    assert ("cal",) in latin_forms("通話")
    assert holds("Video call with my parents in Osaka", ("両親", "ビデオ", "通話"))
