"""The IPIP-50 questionnaire: Goldberg's (1992) Big-Five factor markers, their key and scoring.

Public domain (International Personality Item Pool, https://ipip.ori.org/newPermission.htm).
Items, their order and their keys follow ipip.ori.org's "Possible Questionnaire Format for
Administering the 50-Item Set of IPIP Big-Five Factor Markers"
(https://ipip.ori.org/New_IPIP-50-item-scale.htm) and the item key
(https://ipip.ori.org/newBigFive5broadKey.htm): the factors cycle I..V through the list
(1 Extraversion, 2 Agreeableness, 3 Conscientiousness, 4 Emotional Stability,
5 Intellect/Imagination), each item is + or − keyed, answers are on a 5-point scale.
Texts and keys were checked against the ipip.ori.org key page (Factor I and II 10-item scales,
verbatim) and against two independent transcriptions of the numbered 50-item form (the
Umuzi-org/ACN-syllabus "IPIP Big-Five Factor Markers" scoring sheet, which cites the
ipip.ori.org form, and a TypeScript transcription keyed by factor I..V with ES for
Emotional Stability); all three agree on factor and key for every item.

Scoring per the published key: a + keyed item scores its answer, a − keyed item 6 − answer;
a factor's score is the mean over its ten items, mapped to [0,1] as (mean − 1) / 4. Factor
IV is published as Emotional Stability; omoide reports Neuroticism, its opposite pole
(1 − the Emotional Stability score). The quiz runner takes a prompt function, so the
terminal I/O stays in the CLI.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from omoide.core.errors import OmoideError
from omoide.core.ids import stable_id
from omoide.profile.bigfive import Analysis, BigFive

Factor = Literal[
    "extraversion", "agreeableness", "conscientiousness", "emotional_stability", "intellect"
]

# Factor order as published: item n belongs to factor (n - 1) % 5.
FACTORS: tuple[Factor, ...] = (
    "extraversion",
    "agreeableness",
    "conscientiousness",
    "emotional_stability",
    "intellect",
)

SCALE = (
    "Very Inaccurate",
    "Moderately Inaccurate",
    "Neither Accurate Nor Inaccurate",
    "Moderately Accurate",
    "Very Accurate",
)

INSTRUCTIONS = (
    "Describe yourself as you generally are now, not as you wish to be in the future. "
    "Describe yourself as you honestly see yourself, in relation to other people you know "
    "of the same sex as you are, and roughly your same age. For each statement answer "
    "1 = Very Inaccurate, 2 = Moderately Inaccurate, 3 = Neither Accurate Nor Inaccurate, "
    "4 = Moderately Accurate, 5 = Very Accurate."
)


@dataclass(frozen=True)
class Item:
    """One questionnaire item: its number on the form, text, factor and key (+1 or -1)."""

    number: int
    text: str
    factor: Factor
    keyed: Literal[1, -1]


def _items(rows: tuple[tuple[str, Literal[1, -1]], ...]) -> tuple[Item, ...]:
    """(text, key) rows in form order -> numbered items with their factor."""
    return tuple(
        Item(number=i + 1, text=text, factor=FACTORS[i % 5], keyed=key)
        for i, (text, key) in enumerate(rows)
    )


ITEMS: tuple[Item, ...] = _items(
    (
        ("Am the life of the party.", 1),
        ("Feel little concern for others.", -1),
        ("Am always prepared.", 1),
        ("Get stressed out easily.", -1),
        ("Have a rich vocabulary.", 1),
        ("Don't talk a lot.", -1),
        ("Am interested in people.", 1),
        ("Leave my belongings around.", -1),
        ("Am relaxed most of the time.", 1),
        ("Have difficulty understanding abstract ideas.", -1),
        ("Feel comfortable around people.", 1),
        ("Insult people.", -1),
        ("Pay attention to details.", 1),
        ("Worry about things.", -1),
        ("Have a vivid imagination.", 1),
        ("Keep in the background.", -1),
        ("Sympathize with others' feelings.", 1),
        ("Make a mess of things.", -1),
        ("Seldom feel blue.", 1),
        ("Am not interested in abstract ideas.", -1),
        ("Start conversations.", 1),
        ("Am not interested in other people's problems.", -1),
        ("Get chores done right away.", 1),
        ("Am easily disturbed.", -1),
        ("Have excellent ideas.", 1),
        ("Have little to say.", -1),
        ("Have a soft heart.", 1),
        ("Often forget to put things back in their proper place.", -1),
        ("Get upset easily.", -1),
        ("Do not have a good imagination.", -1),
        ("Talk to a lot of different people at parties.", 1),
        ("Am not really interested in others.", -1),
        ("Like order.", 1),
        ("Change my mood a lot.", -1),
        ("Am quick to understand things.", 1),
        ("Don't like to draw attention to myself.", -1),
        ("Take time out for others.", 1),
        ("Shirk my duties.", -1),
        ("Have frequent mood swings.", -1),
        ("Use difficult words.", 1),
        ("Don't mind being the center of attention.", 1),
        ("Feel others' emotions.", 1),
        ("Follow a schedule.", 1),
        ("Get irritated easily.", -1),
        ("Spend time reflecting on things.", 1),
        ("Am quiet around strangers.", -1),
        ("Make people feel at ease.", 1),
        ("Am exacting in my work.", 1),
        ("Often feel blue.", -1),
        ("Am full of ideas.", 1),
    )
)

# Published factor -> (omoide trait, sign): Emotional Stability is Neuroticism's far pole.
FACTOR_TRAIT = {
    "intellect": ("openness", 1),
    "conscientiousness": ("conscientiousness", 1),
    "extraversion": ("extraversion", 1),
    "agreeableness": ("agreeableness", 1),
    "emotional_stability": ("neuroticism", -1),
}
QUIZ_METHOD = "ipip-50"
ASK_ATTEMPTS = 3


def score_answers(answers: Mapping[int, int]) -> BigFive:
    """IPIP-50 answers {item number: 1..5} -> Big Five scores, (mean − 1) / 4 per factor."""
    numbers = {item.number for item in ITEMS}
    missing = sorted(numbers - set(answers))
    extra = sorted(set(answers) - numbers)
    bad = sorted(n for n, a in answers.items() if type(a) is not int or not 1 <= a <= 5)
    if missing or extra or bad:
        raise OmoideError(
            "the IPIP-50 answer sheet needs every item 1..50 answered with an integer 1..5"
            + (f"; missing items {missing}" if missing else "")
            + (f"; unknown items {extra}" if extra else "")
            + (f"; out-of-range answers at items {bad}" if bad else "")
        )
    sums: dict[str, list[int]] = {}
    for item in ITEMS:
        answer = answers[item.number]
        sums.setdefault(item.factor, []).append(answer if item.keyed == 1 else 6 - answer)
    scores = {}
    for factor, keyed in sums.items():
        trait, sign = FACTOR_TRAIT[factor]
        unit = (sum(keyed) / len(keyed) - 1.0) / 4.0
        scores[trait] = round(unit if sign == 1 else 1.0 - unit, 4)
    return BigFive(**scores)


def item_prompt(number: int) -> str:
    """Item number -> the question shown to the user."""
    item = ITEMS[number - 1]
    scale = ", ".join(f"{i} = {label}" for i, label in enumerate(SCALE, start=1))
    return f"{item.number}/{len(ITEMS)}. I... {item.text}  ({scale})"


def quiz_answers(ask: Callable[[str], int]) -> dict[int, int]:
    """A prompt function (question -> answer) -> all 50 answers, each re-asked until 1..5."""
    answers: dict[int, int] = {}
    for item in ITEMS:
        question = item_prompt(item.number)
        for _ in range(ASK_ATTEMPTS):
            answer = ask(question)
            if type(answer) is int and 1 <= answer <= 5:
                answers[item.number] = answer
                break
            question = f"Please answer with a whole number from 1 to 5. {item_prompt(item.number)}"
        else:
            raise OmoideError(f"no answer 1..5 for item {item.number} after {ASK_ATTEMPTS} tries")
    return answers


def run_quiz(ask: Callable[[str], int]) -> BigFive:
    """A prompt function -> the user's IPIP-50 Big Five scores."""
    return score_answers(quiz_answers(ask))


def quiz_analysis(answers: Mapping[int, int], now: datetime) -> Analysis:
    """A full answer sheet + time -> the questionnaire analysis, with the answers as provenance."""
    scores = score_answers(answers)
    sheet = {str(n): answers[n] for n in sorted(answers)}
    return Analysis(
        analysis_id=stable_id("bigfive", "quiz", QUIZ_METHOD, json.dumps(sheet)),
        source="quiz",
        method=QUIZ_METHOD,
        analyzed_at=now,
        scores=scores,
        confidence=1.0,  # every item answered; says nothing about how candid the answers were
        provenance={"answers": sheet},
    )
