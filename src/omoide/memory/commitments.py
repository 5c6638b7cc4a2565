"""The person's own words -> the commitments in them: what they promised, planned or have to do, to whom, and by when.

Read from the person's own chat messages and note items only (the caller picks them,
`omoide.memory.commitment_rows`). A commitment is one of these forms, in a sentence that asks
nothing, names no condition and reports no one else:

- English, a promise or plan in the first person: "I'll …", "I will …", "I shall …", "I'm
  going to / gonna / planning to …", "I plan / intend to …", "let me …", "I promise (to / that)
  …", and one made earlier: "I promised Peter I'd …", "I told Peter I'd …", "I said I'd …";
  a to-do: "I need to / have to / must / 've got to / gotta …", "I'll have to …", "remind me
  (on Friday) to …";
- Japanese (`omoide.memory.commitments_ja`): 〜するね / 〜するよ / 〜するから, 〜します, 〜しておく /
  〜しとく, 〜するつもり / 〜する予定, 約束 (する, した, ね); a to-do: 〜しなきゃ, 〜しなくちゃ,
  〜しないと, 〜しなければ;
- a note item "- [ ] …" (open) or "- [x] …" (done: the one commitment known kept), "TODO: …",
  "やること：…", and every item under a heading named TODO, To do, Tasks, やること or タスク.

Not commitments: a question ("will you …?", "should I …", "shall I …", 送ろうか, 行くの？); a
hypothetical or hedge ("if", "unless", "maybe", "might", "would", "could", "should", "I hope",
もし, なら, 〜れば, かも, たぶん, 〜と思う); a negation ("I won't", "I'll never", "I'm not going
to"; a promise *not* to do a thing stays one: "I promise I won't tell"); words that do nothing
("I'll see", "I'll think about it", "let me know", "let me think", "I have to say", "I have to
go", "I'll be late", 分かるよ, あるよ); someone else's: a sentence saying who told it ("Peter said
…", `omoide.memory.memory_types.told_by`), a line led by a known speaker's name ("Mina: I'll
bring cake"), a Japanese sentence with another subject (ペーターが来るね, 雨が降るよ); and anything
in quotation marks ("…", “…”, 「…」, 『…』).

Each commitment keeps its action as written (from its cue to the next cue or the sentence's
end, in Japanese the sentence less its closing particles), to whom (`_whom`), and when it is
due (`omoide.memory.plan_dates`, from the action's own time words, else the sentence's).
Whether a promise was kept later is not read: only a ticked note item says it was.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from omoide.memory.commitments_ja import japanese_action
from omoide.memory.memory_types import told_by
from omoide.memory.plan_dates import Span, due_span
from omoide.memory.terms import has_cjk

ACTION_CHARS = 160  # an action longer than this is cut, '…' where cut


@dataclass(frozen=True)
class Commitment:
    """One commitment: the action as written, to whom, the [start, end) it is due (UTC) if said, and True when known kept."""

    action: str
    to: tuple[str, ...] = ()
    due: Span | None = None
    kept: bool | None = None


_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|「[^」]*」|『[^』]*』")
_SENTENCE_END = re.compile(r"\n+|(?<=[.!?])\s+|(?<=[。！？])")
_BOX = re.compile(r"^\s*\[(?P<mark>[ xX])\]\s+(?P<rest>\S.*)", re.S)
_TODO_PREFIX = re.compile(
    r"^\s*(?:TODO|To-?do|ToDo|やること|タスク)\s*[:：\-–]\s*(?P<rest>\S.*)", re.S | re.I
)
TODO_HEADINGS = frozenset(
    {"todo", "todos", "to do", "to-do", "to-dos", "tasks", "やること", "タスク"}
)

_EN_CUE = re.compile(
    r"(?<![\w'])(?:"
    r"(?P<todo>I\s*'ll\s+(?:have|need)\s+to|I\s+will\s+(?:have|need)\s+to"
    r"|I\s+(?:need|have|got)\s+to|I\s*'ve\s+got\s+to|I\s+must|I(?:\s*'ve)?\s+gotta"
    r"|remind\s+me(?:\s+[^.!?]{0,40}?)?\s+to)"
    r"|(?P<earlier>I\s+(?:promised|told)\s+@?\w[\w.\-]*\s+(?:that\s+)?I\s*(?:'d|\s+would)"
    r"|I\s+said\s+I\s*(?:'d|\s+would)|I\s+promised(?:\s+@?\w[\w.\-]*)?\s+to)"
    r"|(?P<promise>I\s+promise(?:\s+(?:to|that))?)"
    r"|(?P<will>I\s*'ll|I\s+will|I\s+shall|I\s*'?m\s+(?:going\s+to|gonna|planning\s+(?:to|on))"
    r"|I\s+am\s+(?:going\s+to|gonna|planning\s+(?:to|on))|I\s+(?:plan|intend)\s+to)"
    r"|(?P<let>let\s+me)"
    r")(?=\s)",
    re.IGNORECASE,
)
_GOING_TO = re.compile(r"going\s+to$", re.IGNORECASE)
_PLACE = re.compile(r"(?:the|a|an|my|our|his|her|their|this|that|some)\b|[A-Z]")
_NEGATED = re.compile(r"^(?:not|never|n't)\b", re.IGNORECASE)
# What follows a cue and does nothing: per cue, the starts of its action that are no act.
_IDLE = {
    "will": re.compile(
        r"^(?:see|think|guess|bet|pass|miss|survive|manage|admit|say|wait\s+and\s+see"
        r"|take\s+(?:that|it)\s+as|tell\s+you\s+what|be\b(?!\s+(?:there|back|home|on\s+time"
        r"|ready|in\s+touch)\b)|have\b(?!\s+(?:it|this|that|them|everything)\b))",
        re.IGNORECASE,
    ),
    "let": re.compile(
        r"^(?:know|see|think|guess|rephrase|clarify|explain|be|say|put|get\s+this|tell\s+you"
        r"|ask\s+you|in|out|go|through)\b",
        re.IGNORECASE,
    ),
    "todo": re.compile(
        r"^(?:say|admit|confess|agree|laugh|ask\s+you|know|understand|wonder|be\s+honest"
        r"|(?:go|run|leave|sleep|rest|eat)(?:\s+(?:now|soon))?[\s,.!]*$)",
        re.IGNORECASE,
    ),
}
_HEDGE = re.compile(
    r"\b(?:if|unless|maybe|perhaps|might|probably|possibly|whether|would|could|should|hope"
    r"|wish|suppose|supposing|wonder|in\s+case)\b",
    re.IGNORECASE,
)
_ASKS = re.compile(
    r"[?？]\s*$|^\s*(?:shall|should|can|could|may|will|would|do|did|am)\s+I\b", re.IGNORECASE
)
_LED_BY = re.compile(r"^\s*@?(?P<who>[^\s:：]{1,24})\s*[:：]\s")
_TRAIL = re.compile(r"(?:[\s,;:.!?…]+|\b(?:and|but|so|then|please)\b)+$", re.IGNORECASE)
_SYMBOLS = re.compile(r"[^\w\s.,!?'’\-()\[\]/&:;%#@+]+$")

# To whom: an @mention, a name before a Japanese honorific, a capitalised name after a verb of
# doing for someone or after with/for, or after "to" following a verb of giving or telling.
_MENTION = re.compile(r"(?<![\w@])@(?P<n>\w[\w\-]*(?:\.\w[\w\-]*)*)")
# A name is one script's run (ミナ, 田中, Mina): 明日ミナさん is ミナ.
_HONORIFIC = re.compile(
    r"(?P<n>[ァ-ヴー]{1,12}|[一-龯々]{1,6}|[A-Za-z]{1,20})(?:さん|くん|君|ちゃん|先生|先輩|様|氏)"
)
_NAME = r"(?P<n>[A-Z][a-z][\w\-]*(?:\s+[A-Z][a-z][\w\-]*)?)"
_FOR_PERSON = re.compile(
    r"\b(?i:tell|call|text|e-?mail|mail|ask|meet|see|help|pay|visit|remind|thank|invite|message"
    r"|ping|show|give|send|promised?|told|join|pick\s+up|with|for)\s+@?" + _NAME
)
_TO_PERSON = re.compile(
    r"\b(?i:send|give|show|hand|pay|lend|mail|e-?mail|write|explain|return|talk|speak|reply"
    r"|apologi[sz]e|introduce|pass)\b[^.!?]*?\bto\s+@?" + _NAME
)
_NOT_NAMES = frozenset(
    "I You He She They We It Him Her Them Me Us The A An My Your This That Monday Tuesday "
    "Wednesday Thursday Friday Saturday Sunday January February March April May June July "
    "August September October November December Christmas Easter Thanksgiving Halloween New "
    "Today Tomorrow Tonight".split()
)


def _sentences(text: str) -> list[str]:
    """Text -> its sentences (lines and sentence ends), quotations taken out."""
    bare = _QUOTED.sub(" ", text.replace("’", "'"))
    return [s.strip() for s in _SENTENCE_END.split(bare) if s and s.strip()]


def _cut(action: str) -> str:
    """An action -> one line without trailing conjunctions, marks and emoji, at most ACTION_CHARS."""
    out = " ".join(action.split())
    out = _SYMBOLS.sub("", out)
    out = _TRAIL.sub("", out).strip()
    return out if len(out) <= ACTION_CHARS else out[: ACTION_CHARS - 1].rstrip() + "…"


def _named(text: str, name: str) -> bool:
    """Text + a name -> whether the text names it (whole words; a CJK name as a substring)."""
    if has_cjk(name):
        return name in text
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.IGNORECASE) is not None


def _whom(sentence: str, names: Collection[str], partner: str | None) -> tuple[str, ...]:
    """A sentence + the day's known names + the chat's partner -> the people the commitment is to."""
    found = [m["n"].rstrip(".-") for m in _MENTION.finditer(sentence)]
    found += [m["n"] for m in _HONORIFIC.finditer(sentence)]
    found += [n for n in names if n and _named(sentence, n)]
    for pattern in (_FOR_PERSON, _TO_PERSON):
        found += [m["n"] for m in pattern.finditer(sentence) if m["n"].split()[0] not in _NOT_NAMES]
    people = list(dict.fromkeys(f for f in found if f and f not in _NOT_NAMES))
    if not people and partner:
        people = [partner]
    return tuple(people)


def _led_by_other(sentence: str, names: Collection[str]) -> bool:
    """A sentence + the day's known names -> is it another speaker's line ('Mina: I'll …')?"""
    m = _LED_BY.match(sentence)
    return m is not None and m["who"].casefold() in {n.casefold() for n in names}


def _english(sentence: str) -> tuple[list[str], str]:
    """An English sentence of the person's -> the action of each commitment in it, and the words before the first ('Tomorrow I'll …')."""
    cues = list(_EN_CUE.finditer(sentence))
    if not cues or _ASKS.search(sentence):
        return [], ""
    # A hedge counts outside the cues: "would" is part of "I said I'd / I would".
    if _HEDGE.search(_outside(sentence, cues)):
        return [], ""
    found: list[str] = []
    for i, m in enumerate(cues):
        end = cues[i + 1].start() if i + 1 < len(cues) else len(sentence)
        action = sentence[m.end() : end].strip()
        group = next(g for g in ("todo", "earlier", "promise", "will", "let") if m[g])
        if group not in ("promise", "earlier") and _NEGATED.search(action):
            continue
        idle = _IDLE.get(group)
        if idle is not None and idle.search(action):
            continue
        if group == "will" and _GOING_TO.search(m.group()) and _PLACE.match(action):
            action = f"go to {action}"  # "I'm going to the dentist": a place, not a verb
        action = _cut(action)
        if re.search(r"\w", action):
            found.append(action)
    return found, sentence[: cues[0].start()]


def _outside(sentence: str, cues: list[re.Match[str]]) -> str:
    """A sentence + its cue matches -> the sentence without the cues' own words."""
    out, at = [], 0
    for m in cues:
        out.append(sentence[at : m.start()])
        at = m.end()
    return " ".join([*out, sentence[at:]])


def _item(text: str, heading: str | None) -> tuple[str, bool | None] | None:
    """A note item's text + its heading path -> (the to-do, kept) when it is a to-do item, else None."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    box = _BOX.match(first)
    if box:
        return box["rest"], (True if box["mark"] in "xX" else None)
    todo = _TODO_PREFIX.match(first)
    if todo:
        return todo["rest"], None
    section = (heading or "").split(" > ")[-1].strip().casefold()
    if section in TODO_HEADINGS and first:
        return first, None
    return None


def commitments(
    text: str,
    said_at: datetime,
    tz: str,
    *,
    heading: str | None = None,
    names: Collection[str] = (),
    partner: str | None = None,
) -> list[Commitment]:
    """The person's own message or note item + when said + timezone (+ its heading, the day's known names, the chat's partner) -> its commitments."""
    item = _item(text, heading)
    if item is not None:
        action, kept = item
        action = _cut(action)
        if not re.search(r"\w", action):
            return []
        return [
            Commitment(action, _whom(action, names, partner), due_span(action, said_at, tz), kept)
        ]
    found: list[Commitment] = []
    for sentence in _sentences(text):
        if told_by(sentence) or _led_by_other(sentence, names):
            continue
        actions, lead = _english(sentence)
        if not actions and has_cjk(sentence):
            lead = sentence
            ja = japanese_action(sentence, due_span(lead, said_at, tz) is not None)
            actions = [_cut(ja)] if ja else []
        if not actions:
            continue
        to = _whom(sentence, names, partner)
        around = due_span(lead, said_at, tz)
        found += [Commitment(a, to, due_span(a, said_at, tz) or around) for a in actions]
    return found
