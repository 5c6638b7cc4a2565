"""A question -> what kind of answer it asks for, the time window it names and what it is about (rules, English and Japanese).

Four kinds, tried in this order:

- `time_spent`: "how much time / how long … on X", "how many hours", "…に何時間", "どのくらい…使った";
- `when`: "when did I last / first …", "when was the last time …", "the last time I …", "最後に…
  のはいつ", "初めて…したのはいつ"; any other "when did/was …" and "いつ" ask for the latest;
- `overview`: "what did I do", "what was I doing / up to / working on", "what happened",
  "summary / recap", "何をした", "何してた", "どうだった" — with a time window; without one it is
  a lookup (there is no period to roll up);
- `lookup`: everything else (answered by recall, the standing fact first).

The window comes from `omoide.memory.time_words` ("yesterday", "last week", 先週, "on Friday");
the subject is what is left once the asking words and the time words are taken out
("how much time did I spend on github.com on Friday" -> "github.com").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from omoide.memory.time_words import TimeWindow, time_window, without_time_words

KINDS = ("overview", "time_spent", "when", "lookup")
_I = re.IGNORECASE

_TIME_SPENT = re.compile(
    r"\bhow\s+(?:much\s+(?:time|of\s+my\s+time)|long|many\s+(?:hours|minutes))\b"
    r"|\btime\s+(?:did|have|had)\s+i\s+spen[dt]\b|\bspent\s+(?:on|in|at|with)\b",
    _I,
)
_TIME_SPENT_JA = re.compile(
    r"何時間|何分|(?:どのくらい|どれくらい|どれだけ|どの位).*(?:時間|使|見|い|や)"
)
_WHEN = re.compile(
    r"\bwhen\s+(?:did|was|were|have|had|do)\b|\b(?:the\s+)?(?:last|first)\s+time\s+(?:i|we)\b",
    _I,
)
_WHEN_JA = re.compile(r"いつ")
_FIRST = re.compile(r"\bfirst\b|最初|初めて|はじめて", _I)
_OVERVIEW = re.compile(
    r"\bwhat\s+(?:did|have|had)\s+i\s+(?:do|done|been\s+doing|work(?:ed)?\s+on|get\s+up\s+to)\b"
    r"|\bwhat\s+was\s+i\s+(?:doing|up\s+to|working\s+on)\b|\bwhat\s+(?:happened|went\s+on)\b"
    r"|\bhow\s+was\s+(?:my\s+)?(?:day|week|month)\b"
    r"|\b(?:summar(?:y|ise|ize)|recap|overview|review)\b",
    _I,
)
_OVERVIEW_JA = re.compile(
    r"何を?し|なにを?し|何があった|何をやっ|どうだった|どんな(?:日|一日|週|月)|まとめ|振り返"
)

# What a question says around its subject, taken off to leave the subject itself.
_ASKING = [
    re.compile(p, _I)
    for p in (
        r"^\s*(?:how\s+(?:much\s+(?:time|of\s+my\s+time)|long|many\s+(?:hours|minutes))"
        r"(?:\s+(?:did|do|have|had|was|were)\s+i)?(?:\s+(?:spend|spent|been|be|use|used|work|worked))?"
        r"(?:\s+(?:time))?)\s*(?:on|in|at|with|using|for)?\s+",
        r"^\s*(?:when\s+(?:did|was|were|have|had|do)\s+(?:i|we)|(?:the\s+)?(?:last|first)\s+time\s+(?:i|we))"
        r"(?:\s+(?:last|first))?\s+",
        r"^\s*when\s+was\s+the\s+(?:last|first)\s+time\s+(?:i|we)\s+",
    )
]
_ASKING_JA = re.compile(
    r"(?:に|で|を|は)?(?:何時間|何分|どのくらい|どれくらい|どれだけ|どの位).*$"
    r"|(?:のは|は)?いつ.*$|^(?:最後に|最初に|初めて|はじめて)"
)
_TRAILING = re.compile(r"[\s?？!！。.,、]+$")


@dataclass(frozen=True)
class Question:
    """A question sorted: its kind, the window its time words name, its subject, whether it asks for the first time."""

    text: str
    kind: str
    window: TimeWindow | None
    subject: str
    first: bool = False


def _subject(text: str, kind: str) -> str:
    """Question without its time words + its kind -> what it is about."""
    out = text.strip()
    if kind in ("time_spent", "when"):
        for pattern in _ASKING:
            out = pattern.sub("", out, count=1)
        out = _ASKING_JA.sub("", out).strip()
        out = re.sub(r"^(?:最後に|最初に|初めて|はじめて)", "", out)
        out = re.sub(r"^(?:に|で|を|は)", "", out)
    return _TRAILING.sub("", out).strip()


def classify(text: str, tz: str, now: datetime) -> Question:
    """Question + timezone + now -> its kind, the window it names, its subject."""
    window = time_window(text, tz, now)
    rest = without_time_words(text, window) if window else text
    if _TIME_SPENT.search(text) or _TIME_SPENT_JA.search(text):
        kind = "time_spent"
    elif _WHEN.search(text) or _WHEN_JA.search(text):
        kind = "when"
    elif window is not None and (_OVERVIEW.search(text) or _OVERVIEW_JA.search(text)):
        kind = "overview"
    else:
        kind = "lookup"
    first = kind == "when" and bool(_FIRST.search(text))
    return Question(text, kind, window, _subject(rest, kind), first)
