"""A person's W facts -> the one that stands for each attribute (where they live, their team, employer, role, age, a plan), with the fact it replaced; and the attribute a question asks about.

Each fact speaks of at most one attribute, found by its words (English and Japanese), the
first that matches in this order: a plan (looking for, wants to, plans to, 探して, 予定 …:
a plan of where to live is not where someone lives), age (turned 34, 34 years old, 34歳), team
(team, department, チーム, 部署, 異動), employer (works at / for, company, joined, 会社, 入社),
role (leads, manages, in charge of, role, 担当) and home (lives, moved, flat, 住んで, 引っ越).
Of each attribute the latest fact stands; the latest earlier one that says something else is
what it replaced, and earlier ones saying the same (their words a subset of the other's) only
tell since when. Facts of no attribute stand until the reflection's validity says a later one
replaced them. A reflection whose model judged the facts is followed as it stands: its verdict
reads more than these words.

A question asks about an attribute by the same kind of words: "where does X live", "what team
is X on", "how old is X", "where does X work"; a Japanese question by its content words'
English glosses (omoide.text.japanese: 住む -> live, チーム -> team, 何歳 -> how old).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from omoide.answer.person_records import Fact

_I = re.IGNORECASE
PLAN = "plan"
AGE, TEAM, EMPLOYER, ROLE, HOME = "age", "team", "employer", "role", "home"
# A fact's attribute: the first pattern that matches (a team someone moved to is no home).
ATTRIBUTES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        AGE,
        re.compile(r"\bturn(?:ed|s)\s+\d+|\b\d+\s*years?[\s-]old\b|\baged?\s+\d+|\d+\s*[歳才]", _I),
    ),
    (TEAM, re.compile(r"\b(?:teams?|department|division|squad)\b|チーム|部署|部門|異動", _I)),
    (
        EMPLOYER,
        re.compile(
            r"\bwork(?:s|ed|ing)?\s+(?:at|for)\b|\b(?:company|employer|employed|hired|joined|quit)\b"
            r"|会社|勤め|勤務|入社|転職|退職|就職",
            _I,
        ),
    ),
    (
        ROLE,
        re.compile(
            r"\b(?:lead(?:s|ing)?|heads?|manag(?:es|ing)|runs|role|job|position|title|promoted)\b"
            r"|\bin\s+charge\b|\bresponsible\s+for\b|担当|役割|リーダー|責任者",
            _I,
        ),
    ),
    (
        HOME,
        re.compile(
            r"\b(?:lives?|lived|living|resides?|moved|moves|moving|relocat\w*|flat|flat-?share"
            r"|apartment|house|address|home)\b|住ん|住み|住む|住まい|引っ越|在住|転居|住所",
            _I,
        ),
    ),
)
# A fact that says what someone seeks or means to do, not what is so.
_PLAN = re.compile(
    r"\b(?:looking|searching|hunting)\s+for\b|\b(?:wants?|plans?|planning|hopes?|hoping|intends?"
    r"|considering)\s+to\b|\b(?:wants|considering|thinking\s+(?:about|of))\b"
    r"|探して|探し中|予定|つもり|したい|検討",
    _I,
)
# What a question asks of a person -> the attributes that answer it, the best first.
ASKED: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = (
    ((AGE,), re.compile(r"\bhow\s+old\b|\bage\b|\baged\b|\byears?[\s-]old\b", _I)),
    ((TEAM,), re.compile(r"\b(?:teams?|department|division|squad)\b", _I)),
    (
        (HOME,),
        re.compile(r"\b(?:live[sd]?|living|resid\w*|address|dwell\w*|inhabit)\b", _I),
    ),
    (
        (EMPLOYER, TEAM),
        re.compile(
            r"\b(?:company|employer|employed|firm|affiliation|workplace)\b|place\s+of\s+work", _I
        ),
    ),
    (
        (ROLE, TEAM),
        re.compile(
            r"\b(?:role|job|position|title|duties|occupation)\b|\bin\s+charge\b|\bresponsible\b"
            r"|\bwork(?:s|ing)?\s+on\b|\bwhat\s+does\s+\S+\s+do\b",
            _I,
        ),
    ),
    ((EMPLOYER, TEAM, ROLE), re.compile(r"\bwork(?:s|ing)?\b", _I)),
)
_WORD = re.compile(r"\w{3,}")
_STOP = frozenset(
    "the and for from with that this into onto over its his her their our your has have had"
    " was were are will would about after before than then there here now new".split()
)
# The glosses a Japanese word's first senses give (later senses stray: いる -> "shoot").
GLOSSES_READ = 3


@dataclass(frozen=True)
class Standing:
    """A fact that stands: its latest saying, its attribute (None: none found), since when it holds, and the fact it replaced."""

    fact: Fact
    attribute: str | None
    since: datetime
    replaced: Fact | None = None


def attribute_of(text: str) -> str | None:
    """A fact's words -> the attribute it speaks of ('plan:home' for a plan of one), or None."""
    found = next((name for name, pattern in ATTRIBUTES if pattern.search(text)), None)
    if _PLAN.search(text):
        return f"{PLAN}:{found}" if found else PLAN
    return found


def _words(text: str) -> set[str]:
    """A fact's words -> its key words, case-folded."""
    return {w for w in (m.casefold() for m in _WORD.findall(text)) if w not in _STOP}


def same_value(a: Fact, b: Fact) -> bool:
    """Two facts of one attribute -> whether they say the same (one's key words within the other's)."""
    x, y = _words(a.text), _words(b.text)
    return x <= y or y <= x


def standing(facts: Sequence[Fact], at: datetime) -> list[Standing]:
    """A person's W facts (oldest first) + a time -> the facts standing then, newest first, each with what it replaced."""
    seen = [f for f in facts if f.ts <= at]
    if any(f.method.startswith("llm:") for f in seen):
        return _as_judged(seen, at)
    by_attribute: dict[str, list[Fact]] = {}
    out: list[Standing] = []
    for f in seen:
        attribute = attribute_of(f.text)
        if attribute is None or attribute == PLAN:
            if f.replaced_by is None or (f.until is not None and f.until > at):
                out.append(Standing(f, attribute, f.ts))
        else:
            by_attribute.setdefault(attribute, []).append(f)
    for attribute, said in by_attribute.items():
        latest, since, replaced = said[-1], said[-1].ts, None
        for older in reversed(said[:-1]):
            if not same_value(older, latest):
                replaced = older
                break
            since = older.ts
        out.append(Standing(latest, attribute, since, replaced))
    # A fact said again in the same words stands once, as its latest saying.
    out.sort(key=lambda s: s.fact.ts, reverse=True)
    said_once = {}
    for s in out:
        said_once.setdefault(" ".join(s.fact.text.casefold().split()), s)
    return list(said_once.values())


def _as_judged(facts: Sequence[Fact], at: datetime) -> list[Standing]:
    """Facts a model judged (oldest first) + a time -> those standing then as the stored validity says, newest first."""
    before = {f.replaced_by: f for f in facts if f.replaced_by is not None}
    up = [f for f in facts if f.replaced_by is None or (f.until is not None and f.until > at)]
    return [Standing(f, attribute_of(f.text), f.ts, before.get(f.memory_id)) for f in up[::-1]]


def ordered(found: Sequence[Standing]) -> list[Standing]:
    """Standing facts -> those of an attribute first (newest first), then plans and the rest."""
    first = [s for s in found if s.attribute and not s.attribute.startswith(PLAN)]
    return first + [s for s in found if s not in first]


def asked_attributes(text: str) -> tuple[str, ...]:
    """A question's words (English, or a Japanese question's glosses) -> the attributes it asks about, the best first (() for none)."""
    return next((wanted for wanted, pattern in ASKED if pattern.search(text)), ())


def glossed(question: str) -> str:
    """A Japanese question -> its content words' English glosses and those of its 何 words (何歳 -> how old?), one text."""
    from omoide.text.japanese import content_words, glosses

    words = [*content_words(question), *re.findall(r"何[\u4e00-\u9fff]", question)]
    return "; ".join(g for w in words for g in glosses(w)[:GLOSSES_READ])


def answering(
    found: Sequence[Standing], wanted: Sequence[str]
) -> tuple[Standing, list[Standing]] | None:
    """Standing facts + the attributes asked, the best first -> the fact that answers, and the plans bearing on it (None: no fact of those)."""
    for attribute in wanted:
        best = next((s for s in found if s.attribute == attribute), None)
        if best is not None:
            plans = [s for s in found if s.attribute == f"{PLAN}:{attribute}"]
            return best, plans
    return None
