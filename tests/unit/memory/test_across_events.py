"""Which questions gather several events (and so spread their results over sittings)."""

from __future__ import annotations

import pytest

from omoide.memory.across_events import across_events


@pytest.mark.parametrize(
    "question",
    [
        "How many fitness classes do I attend in a typical week?",
        "How often does Melanie go to the beach with her kids?",
        "What is the total number of goals and assists I have?",
        "How long did the two books take me combined?",
        "How much faster did I run the 5K compared to last year?",
        "Which device did I set up first, the thermostat or the mesh router?",
        "What is the order of the concerts I went to?",
        "Which platform did I gain the most followers on?",
        "What subject have Caroline and Melanie both painted?",
        "What states has Maria vacationed at?",
        "Which instruments does Tim play?",
        "去年は何回京都に行った？",
        "今月読んだ本はいくつ？",
        "どちらが先だった？ 引っ越しと転職を比べて",
        # the state now or the last time: the latest beside the earlier accounts
        "What type of vehicle model am I currently working on?",
        "Is Peter still at Google?",
        "When did I last go climbing?",
        "What was the latest book Tim read?",
        "今はどこに住んでいる？",
        "最後にジムに行ったのはいつ？",
    ],
)
def test_questions_that_count_compare_or_order_events(question: str) -> None:
    assert across_events(question)


@pytest.mark.parametrize(
    "question",
    [
        "What breed is my dog?",
        "Where does my sister Emily live?",
        "When did Caroline go to the LGBTQ support group?",
        "What did Melanie realize after the charity race?",  # one event, named by another
        "When did Nate win his first video game tournament?",  # "first" of one thing
        "What kind of meal did John make with his family?",
        "What class is Peter taking?",  # a singular in -ss is no plural
        "京都の宿はどこ？",
        "What did I do last week?",  # a time word, not the last of several
        "今日は何をした？",
        "",
    ],
)
def test_questions_about_one_thing(question: str) -> None:
    assert not across_events(question)
