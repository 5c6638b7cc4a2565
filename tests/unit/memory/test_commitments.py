"""Commitments in the person's own words: the forms that are one (English, Japanese, note items), the ones that are not, to whom and when due."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from omoide.memory.commitments import commitments
from omoide.memory.plan_dates import due_span
from omoide.memory.said_dates import date_label

TZ = "Europe/Berlin"
SAID = datetime(2026, 11, 19, 10, 0, tzinfo=UTC)  # a Thursday


def _one(text: str, **kw: object) -> tuple[str, tuple[str, ...], str | None, bool | None]:
    found = commitments(text, SAID, TZ, **kw)  # type: ignore[arg-type]
    assert len(found) == 1, (text, found)
    c = found[0]
    return c.action, c.to, date_label(*c.due, TZ) if c.due else None, c.kept


@pytest.mark.parametrize(
    ("text", "action", "due"),
    [
        (
            "Sure, I'll help you move the boxes on Saturday!",
            "help you move the boxes on Saturday",
            "2026-11-21",
        ),
        ("I will send the deck by Friday.", "send the deck by Friday", "2026-11-20"),
        ("I’m going to the dentist tomorrow", "go to the dentist tomorrow", "2026-11-20"),
        ("I'm gonna book the table tonight", "book the table tonight", "2026-11-19"),
        (
            "Let me check and get back to you next week",
            "check and get back to you next week",
            "2026-11-23/2026-11-29",
        ),
        ("I promise I won't tell anyone", "I won't tell anyone", None),
        ("I need to renew my passport next month", "renew my passport next month", "2026-12"),
        ("I have to finish the report by Monday", "finish the report by Monday", "2026-11-23"),
        (
            "remind me to water the plants this weekend",
            "water the plants this weekend",
            "2026-11-21/2026-11-22",
        ),
        ("Tomorrow I'll call the bank", "call the bank", "2026-11-20"),
        ("I'll send it on 25 November", "send it on 25 November", "2026-11-25"),
        ("I'll pay you back in March", "pay you back in March", "2027-03"),
        ("I'll be there at 7", "be there at 7", None),
        ("I plan to repaint the fence", "repaint the fence", None),
    ],
)
def test_english_promises_plans_and_to_dos(text: str, action: str, due: str | None) -> None:
    assert _one(text)[0::2] == (action, due)


@pytest.mark.parametrize(
    "text",
    [
        "Will you come on Saturday?",
        "Should I bring wine",
        "Shall I book it",
        "If it rains, I'll stay home",
        "Maybe I'll join later",
        "I might call you tomorrow",
        "I hope I'll finish it",
        "I won't make it tonight",
        "I'll never forget that",
        "I'm not going to the party",
        "I'll be late",
        "I'll see",
        "I'll think about it",
        "Let me know when you're free",
        "Let me think",
        "I have to go",
        "I have to say, that was great",
        "I must admit it was fun",
        "Peter will bring the cake",
        "Peter said I'll get the tickets",
        "She wrote “I will call you tomorrow” on the card",
        'He texted "I\'ll be there"',
        "Mina: I'll bring the salad",
        "You'll love it",
        "We'll see",
        "I need you to call me",
        "Called the dentist about the filling appointment",
    ],
)
def test_english_that_is_no_commitment(text: str) -> None:
    assert commitments(text, SAID, TZ, names=["Mina"]) == []


def test_two_commitments_in_one_sentence_each_keep_their_own_due() -> None:
    found = commitments("I'll call Peter and I'll book the table for Friday", SAID, TZ)
    assert [c.action for c in found] == ["call Peter", "book the table for Friday"]
    assert found[0].due is None and date_label(*found[1].due, TZ) == "2026-11-20"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "action", "due"),
    [
        ("明日資料送るね", "明日資料送る", "2026-11-20"),
        ("了解、あとで電話するよ！", "あとで電話する", None),
        ("確認します", "確認します", None),
        ("明日の会議に出ます", "明日の会議に出ます", "2026-11-20"),
        ("予約しておくね", "予約しておく", None),
        ("チケット買っとく", "チケット買っとく", None),
        ("来週京都に行く予定", "来週京都に行く予定", "2026-11-23/2026-11-29"),
        ("レポート出さなきゃ", "レポート出さなきゃ", None),
        ("金曜までに出さないと", "金曜までに出さないと", "2026-11-20"),
        ("土曜に手伝うって約束した", "土曜に手伝うって約束した", "2026-11-21"),
        ("来週末に掃除する", "来週末に掃除する", "2026-11-28/2026-11-29"),
        ("私が持っていくね", "私が持っていく", None),
    ],
)
def test_japanese_promises_plans_and_to_dos(text: str, action: str, due: str | None) -> None:
    assert _one(text)[0::2] == (action, due)


@pytest.mark.parametrize(
    "text",
    [
        "明日行く？",
        "送ろうか",
        "手伝おうか",
        "時間があったら手伝うね",
        "もし晴れたら行くね",
        "たぶん行く",
        "行けるかも",
        "行くと思う",
        "雨が降るよ",
        "ペーターが来るね",
        "ペーターさんによると明日来るらしい",
        "分かるよ",
        "あるよ",
        "ありがとうね",
        "いいね！",
        "毎日走る",
        "昨日行った",
        "約束してね",
        "この語は川を意味します",
        "よろしくお願いします",
        "ミナは「明日送るね」と言った",
    ],
)
def test_japanese_that_is_no_commitment(text: str) -> None:
    assert commitments(text, SAID, TZ) == []


def test_note_items_are_to_dos_and_a_ticked_one_is_kept() -> None:
    assert _one("[ ] call the dentist") == ("call the dentist", (), None, None)
    assert _one("[x] book flights") == ("book flights", (), None, True)
    assert _one("TODO: pay rent by Monday")[0::2] == ("pay rent by Monday", "2026-11-23")
    assert _one("やること：年賀状を書く")[0] == "年賀状を書く"
    assert _one("buy milk", heading="Friday > TODO")[0] == "buy milk"
    assert _one("牛乳を買う", heading="木曜日 > やること")[0] == "牛乳を買う"
    assert commitments("buy milk", SAID, TZ, heading="Friday > Log") == []


def test_to_whom_is_the_person_named_else_the_chat_partner() -> None:
    known = ["Mina", "team"]
    assert _one("I will send Mina the deck", names=known, partner="Peter")[1] == ("Mina",)
    assert _one("I'll send the deck to @Aiko", partner="Peter")[1] == ("Aiko",)
    assert _one("I promised Kenji I'd help him move")[1] == ("Kenji",)
    assert _one("I'll tell the team tomorrow", names=known)[1] == ("team",)
    assert _one("I'll do it on Saturday", partner="Peter")[1] == ("Peter",)
    assert _one("ペーターさんに資料送るね", partner="Mina")[1] == ("ペーター",)
    # A place after "to" is no one: only a verb of giving or telling names a person there.
    assert _one("I'm going to Kyoto next month")[1] == ()
    # A note names no one unless its sentence does.
    assert _one("[ ] call the dentist")[1] == ()


def test_a_due_date_looks_ahead_from_when_it_was_said() -> None:
    def due(text: str) -> str | None:
        span = due_span(text, SAID, TZ)
        return date_label(*span, TZ) if span else None

    assert due("on Thursday") == "2026-11-26"  # said on a Thursday: the next one
    assert due("this Wednesday") == "2026-11-25"  # this week's is over: the coming one
    assert due("on 18 November") == "2027-11-18"  # yesterday's date: next year's
    assert due("土曜日に") == "2026-11-21"
    assert due("来週の月曜") == "2026-11-23"
    assert due("週末") == "2026-11-21/2026-11-22"
    assert due("photos from yesterday") is None
    assert due("what we did last week") is None
    assert due("先週の写真") is None
    assert due("later") is None
