"""Said by: the speaker's own chat messages about the topic, newest first, quoted and cited; never another person's line; a name in katakana finds the configured one."""

from __future__ import annotations

from pathlib import Path

from omoide.answer.names import meant, sounds_like
from omoide.answer.said_by import said_by_answer
from tests.unit.answer.person_days import NOW, THURSDAY, Asked, build, window

RYOKAN_BOOKED = "“Booked the ryokan in Higashiyama for April” (Thursday, 12 November 2026 at 10:00)"
RYOKAN_PHOTOS = "“Drinks tonight? The ryokan photos are up.” (Wednesday, 11 November 2026 at 17:55)"


def _said(speaker: str, topic: str, lang: str = "en", **kw: object) -> Asked:
    """A said-by question."""
    return Asked(
        "what did they say", "said_by", kw.get("window"), topic, lang=lang, speaker=speaker
    )


def test_the_speakers_own_lines_about_the_topic_newest_first(omoide_home: Path) -> None:
    settings = build(omoide_home)
    got = said_by_answer(_said("Peter", "the ryokan"), settings, NOW)
    assert got.kind == "said_by" and got.basis == "lake"
    assert got.answer == f"Peter said about “the ryokan”: {RYOKAN_BOOKED}; {RYOKAN_PHOTOS}."
    # Aiko's “The ryokan looks great” is in the same conversation, and never Peter's.
    assert "looks great" not in got.answer
    assert [(c.source, c.day) for c in got.citations] == [
        ("whatsapp/Peter.txt#L5", "2026-11-12"),
        ("whatsapp/Peter.txt#L3", "2026-11-11"),
    ]
    # A window keeps the lines said in it.
    thursday = window(THURSDAY, "00:00", "23:59")
    only = said_by_answer(_said("Peter", "ryokan", window=thursday), settings, NOW)
    assert only.answer == f"Peter said about “ryokan”: {RYOKAN_BOOKED}."
    assert only.window == (THURSDAY, THURSDAY)


def test_a_katakana_name_and_a_japanese_answer(omoide_home: Path) -> None:
    settings = build(omoide_home)
    got = said_by_answer(_said("ピーターさん", "ryokan", "ja"), settings, NOW)
    assert got.answer.startswith(
        "ピーターが「ryokan」について言ったこと：「Booked the ryokan in Higashiyama for April」"
        "（2026年11月12日（木）10:00）、「Drinks tonight? The ryokan photos are up.」"
    )
    assert len(got.citations) == 2
    # Lines near the topic (half its words: ryokan and book-) when none holds all of them.
    near = said_by_answer(_said("Peter", "ryokan booking in Kyoto"), settings, NOW)
    assert near.answer == (
        f"Closest to “ryokan booking in Kyoto” in what Peter wrote: {RYOKAN_BOOKED}."
    )
    assert [c.source for c in near.citations] == ["whatsapp/Peter.txt#L5"]
    far = said_by_answer(_said("Peter", "dentist appointment in Kyoto"), settings, NOW).answer
    assert far == (
        "Peter never spoke of “dentist appointment in Kyoto” in the chats "
        "(searched 3 messages of Peter's for: dentist, appointment, kyoto)."
    )


def test_a_speaker_who_never_spoke_of_it_or_never_spoke_is_said_so(omoide_home: Path) -> None:
    settings = build(omoide_home)
    never = said_by_answer(_said("Mina", "the ryokan"), settings, NOW)
    assert never.answer == (
        "Mina never spoke of “the ryokan” in the chats (searched 1 message of Mina's for: ryokan)."
    )
    assert never.citations == [] and not never.matched
    ja = said_by_answer(_said("ミナ", "旅館", "ja"), settings, NOW).answer
    assert (
        ja
        == "ミナが「旅館」について話したメッセージはありません（ミナのメッセージ1件から「旅館」を探しました）。"
    )
    nobody = said_by_answer(_said("Quillon", "the ryokan"), settings, NOW)
    assert nobody.answer == "No chat message by Quillon is recorded." and nobody.citations == []
    assert said_by_answer(_said("クイロン", "旅館", "ja"), settings, NOW).answer == (
        "チャットに「クイロン」の発言は記録されていません。"
    )
    # The person's own words, asked as "I".
    mine = said_by_answer(_said("I", "ryokan"), settings, NOW).answer
    assert mine.startswith("You said about “ryokan”: “The ryokan looks great, and the onsen too”")
    assert said_by_answer(_said("", "ryokan"), settings, NOW).answer.startswith("Say whose words")


def test_katakana_names_sound_like_the_latin_ones() -> None:
    for kana, latin in (
        ("ピーター", "Peter"),
        ("ミナ", "Mina"),
        ("ジョン", "John"),
        ("シュミット", "Peter Schmidt"),
    ):
        assert sounds_like(kana, latin), (kana, latin)
    assert not sounds_like("ピーター", "Pietro") and not sounds_like("マイク", "Mina")
    assert meant("ピーター", ["Peter", "Peter Schmidt", "Mina"]) == ["Peter", "Peter Schmidt"]
    assert meant("@mina's", ["Peter", "Mina"]) == ["Mina"]
    # Two different people the katakana could be: neither.
    assert meant("ピーター", ["Peter", "Pete Tong"]) == []


def test_what_i_wrote_is_my_messages_and_my_notes(omoide_home: Path) -> None:
    settings = build(omoide_home)
    got = said_by_answer(_said("I", "the storage migration"), settings, NOW)
    # My answer to Mina's question about it, then my note line (timed); her words only as
    # what I answered.
    assert got.answer == (
        "You said about “the storage migration”: “On it after the standup” (Wednesday, "
        "11 November 2026 at 16:07, in reply to “Can you review the storage migration PR?”); "
        "“Sprint planning with @Mina: the storage migration is the goal” (Wednesday, "
        "11 November 2026 at 08:30)."
    )
    plants = said_by_answer(_said("私", "plants", "ja"), settings, NOW).answer
    # A note line dated by its day only is said without a clock time.
    assert (
        plants
        == "あなたが「plants」について言ったこと：「Water the plants」（2026年11月11日（水））。"
    )


def test_a_japanese_question_with_no_speaker_asks_of_the_persons_own_words() -> None:
    from omoide.answer.asking import said_by_parts

    assert said_by_parts("京都について何を書いた？") == ("私", "京都")
    assert said_by_parts("私は旅館のことを何て言ってた？") == ("私", "旅館")
    assert said_by_parts("ピーターは旅館について何と言っていましたか") == ("ピーター", "旅館")


def test_an_answer_to_a_question_about_the_topic_is_about_it_too(omoide_home: Path) -> None:
    settings = build(omoide_home)
    # Aiko's "Can't tonight" answers Peter's question about drinks two minutes before.
    got = said_by_answer(_said("I", "drinks"), settings, NOW)
    assert got.answer == (
        "You said about “drinks”: “Can't tonight” (Wednesday, 11 November 2026 at 17:57, "
        "in reply to “Drinks tonight? The ryokan photos are up.”)."
    )
    # An answer to a statement is only near its topic: shown when nothing holds every word.
    lunch = said_by_answer(_said("Peter", "the onsen"), settings, NOW)
    assert lunch.answer.startswith("Closest to “the onsen” in what Peter wrote:")
    assert "“Lunch at 13:00?”" in lunch.answer and "in reply to “The ryokan looks great" in (
        lunch.answer
    )
