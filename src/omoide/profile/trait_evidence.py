"""The user's own texts + a trait -> the texts that speak of that trait: the profile's evidence.

A score may rest on activity signals (how regular the day starts are, how much time goes to
talking apps), but what a page quotes for a trait must be something the person wrote or
said that is about it: "I went for a run before work" for health, "Helped @Peter move" for
agreeableness. So evidence is chosen from own words only (notes, the user's chat lines,
B and O facts, omoide.profile.bigfive.own_texts), never a window title or a web page's
title (a session, a calendar page, a CI artifact), and only a text holding one of the
trait's cues, English and Japanese. The cues are short, general lists of what each trait
is about in the IPIP items' terms (openness: curiosity, learning, art, travel;
conscientiousness: planning, finishing, order; extraversion: meeting and talking to people;
agreeableness: warmth and help; neuroticism: worry and calm), never names from any one
person's data. A feeling said of someone else ("he is exhausted") is not the user's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Protocol

_I = re.IGNORECASE
OWN_EVIDENCE_KINDS = frozenset({"note", "chat", "B", "O"})

TRAIT_CUES: dict[str, re.Pattern[str]] = {
    "openness": re.compile(
        r"\b(?:curious|curiosity|learn(?:ed|ing|t)?|stud(?:y|ied|ying)|read(?:ing)?|article|book"
        r"|novel|poem|museum|gallery|exhibition|art|music|concert|explor(?:e|ed|ing)"
        r"|tri(?:ed|es)\s+(?:a\s+)?new|new\s+(?:recipe|idea|language)|idea|language|lesson|course"
        r"|travel(?:l?ing|led)?|trip|compar(?:e|ed|ing)|experiment(?:ed|ing)?)\b"
        r"|勉強|学ん|学ぶ|読ん|読む|記事|美術|音楽|旅行|新しい|試し|興味|好奇心",
        _I,
    ),
    "conscientiousness": re.compile(
        r"\b(?:plan(?:ned|ning|s)?|schedul(?:e|ed|ing)|organi[sz](?:e|ed|ing)|prepar(?:e|ed|ing)"
        r"|finish(?:ed|ing)?|shipped|deliver(?:ed)?|deadline|on\s+time|checklist|to-?do|booked"
        r"|runbook|wrote\s+(?:up|the)|review(?:ed)?|tid(?:y|ied)|routine|habit|streak|every\s+day"
        r"|budget|sorted\s+out|done)\b"
        r"|予定|計画|準備|予約|締め切り|片付け|整理|終わった|終わらせ|毎日|習慣",
        _I,
    ),
    "extraversion": re.compile(
        r"\b(?:met|meet(?:ing)?\s+(?:up|with|friends)|dinner|lunch\s+with|drinks|party|parties"
        r"|talked|chatted|call(?:ed)?\s+with|video\s+call|presented|presentation|demo(?:ed)?"
        r"|all-hands|friends|together|hang(?:ing)?\s+out|celebrat(?:e|ed|ion)|karaoke|ramen\s+with)\b"
        r"|飲み|会った|会う|話した|発表|パーティー|友達|一緒",
        _I,
    ),
    "agreeableness": re.compile(
        r"\b(?:thank(?:s|ful)?|grateful|appreciat(?:e|ed)|help(?:ed|ing|s)?|kind(?:ly)?|congrats"
        r"|congratulations|sorry|apolog(?:y|ies|ise|ize|ised|ized)|happy\s+birthday|present\s+for"
        r"|gift|support(?:ed)?|generous|care(?:d)?\s+for|welcome)\b"
        r"|ありがとう|感謝|助け|手伝|おめでとう|ごめん|すみません|プレゼント",
        _I,
    ),
    "neuroticism": re.compile(
        r"\b(?:worr(?:y|ied|ies)|anxious|anxiety|stress(?:ed|ful)?|nervous|upset|afraid|scared"
        r"|overwhelmed|exhausted|tired|frustrat(?:ed|ing)|sad|lonely|panic(?:ked)?|restless"
        r"|insomnia|calm|relaxed|relaxing|rested|peaceful|serene|refreshed|content\s+with)\b"
        r"|不安|心配|疲れ|ストレス|緊張|落ち込|イライラ|眠れ|穏やか|リラックス|ほっと|嬉しい|楽しい",
        _I,
    ),
}
# A feeling said of someone else: "he is exhausted", "Peter was worried".
_THIRD_PERSON = re.compile(r"\b(?:he|she|they)\s+(?:is|was|were|are|feels?|felt|seems?)\b", _I)
# What a window or web page's title looks like when it is pasted or stored as text: a session
# line ("07:12–07:13 wanikani.com (1 min): …") or a title of separated parts ("a - b - c").
_SESSION_LINE = re.compile(r"^\s*\d{1,2}:\d{2}\s*[–-]\s*\d{1,2}:\d{2}\s")
_TITLE_PARTS = re.compile(r"\S\s[-–—|·]\s\S")
_FEELING_TRAITS = frozenset({"neuroticism"})


class Text(Protocol):
    """What the chooser needs of an own text: its id, kind, words and importance."""

    memory_id: str
    kind: str
    text: str
    importance: float


def looks_like_title(text: str) -> bool:
    """A text -> does it read as a window or page title (a session line, or parts split by ` - `)?"""
    if _SESSION_LINE.match(text):
        return True
    return len(_TITLE_PARTS.findall(text)) >= 2


def about_trait(text: str, trait: str) -> bool:
    """A text + a Big Five trait -> does the text speak of that trait (holds its cue, and a feeling is the user's)?"""
    cues = TRAIT_CUES.get(trait)
    if cues is None or looks_like_title(text) or not cues.search(text):
        return False
    return trait not in _FEELING_TRAITS or not _THIRD_PERSON.search(text)


def trait_evidence(texts: Iterable[Text], trait: str, limit: int = 10) -> list[str]:
    """Own texts (kind, text, importance) + a trait -> the ids of those about it, most important first, each memory once."""
    found = [t for t in texts if t.kind in OWN_EVIDENCE_KINDS and about_trait(t.text, trait)]
    # Stable sort: among equals the earlier text stays first.
    found.sort(key=lambda t: -float(t.importance))
    return list(dict.fromkeys(t.memory_id for t in found))[:limit]


def on_trait(ids: Sequence[str], texts: Iterable[Text], trait: str) -> list[str]:
    """Evidence ids (an LLM's or a stored analysis's) + own texts + a trait -> those ids whose text is own words about it."""
    good = {
        t.memory_id for t in texts if t.kind in OWN_EVIDENCE_KINDS and about_trait(t.text, trait)
    }
    return [i for i in ids if i in good]
