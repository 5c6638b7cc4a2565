"""A name asked in Japanese reaches the records that write it in Latin letters: when and count match ピーター as Peter, as speaker, partner or the one named."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from omoide.core.settings import get_settings
from tests.unit.answer.test_count_and_compare import ME, TZ, _asked, _chat, _note, _write


@pytest.fixture
def talks(omoide_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home whose week 2026-W48 holds three conversations with Peter, and an untimed note naming him later."""
    monkeypatch.setenv("OMOIDE_TIMEZONE", TZ)
    _write(
        get_settings().lake_dir,
        [
            _chat(1, "2026-11-23T09:00Z", "Peter", "Coffee?"),
            _chat(2, "2026-11-23T09:05Z", ME, "Yes, 10 at the usual place"),
            _chat(3, "2026-11-24T12:00Z", ME, "Lunch later?"),
            _chat(4, "2026-11-24T21:10Z", "Peter", "The oyakodon photo looks amazing"),
            _chat(5, "2026-11-24T20:00Z", "Mina", "Berlin is cold", title="Mina"),
            _note(date(2026, 11, 25), 3, "Peter moved to the platform team."),
        ],
    )
    return omoide_home


def test_a_japanese_name_counts_the_conversations_the_english_one_does(talks: Path) -> None:
    english = _asked("how many times did I talk to Peter this week")
    japanese = _asked("今週ピーターと何回話した？")
    assert english["answer"].startswith("3 times")
    assert japanese["answer"].startswith("2026年第48週（11月23日〜29日）に3回（ピーターとの会話）")
    assert japanese["citations"] == english["citations"]
    assert _asked("今週ミナさんと何回話した？")["answer"].startswith(
        "2026年第48週（11月23日〜29日）に1回"
    )


def test_a_japanese_name_finds_the_last_chat_not_a_note_that_names_him(talks: Path) -> None:
    english = _asked("when did I last talk to Peter")
    japanese = _asked("最後にピーターと話したのはいつ？")
    assert english["when"] == japanese["when"] and japanese["when"].startswith("2026-11-24T22:10")
    assert japanese["answer"] == (
        "最後は2026年11月24日（火）22:10です：「Peter: The oyakodon photo looks amazing」。"
    )


def test_a_katakana_name_that_could_be_two_people_is_not_guessed(
    omoide_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OMOIDE_TIMEZONE", TZ)
    _write(
        get_settings().lake_dir,
        [
            _chat(1, "2026-11-23T09:00Z", "Peter", "Coffee?"),
            _chat(2, "2026-11-23T10:00Z", "Pieter", "Tea?", title="Pieter"),
        ],
    )
    got = _asked("今週ピーターと何回話した？")
    assert got["citations"] == []
