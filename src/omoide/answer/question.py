"""A question -> what kind of answer it asks for, the time window it names and what it is about (rules, English and Japanese).

Kinds, tried in this order (the first that matches wins):

- `compare`: "more time on X or Y", "did I run more in October or November", "XとYのどちら"
  (`omoide.answer.alternatives`): two things in one window, or one thing in two windows;
- `count`: "how many times", "how often", "how many days did I", 何回, 何度, 回数, 頻度;
- `time_spent`: "how much time / how long … on X", "how many hours", "…に何時間", "どのくらい…使った";
- `which_days`: "which / what days did I …", "list the days I …", どの日, 何日に;
- `when`: "when did I last / first …", "when was the last time …", "the last time I …", "最後に…
  のはいつ", "初めて…したのはいつ"; any other "when did/was …" and "いつ" ask for the latest;
- `decision`: "what did I decide about X", "which store did we pick", "何に決めた", 決定
  (`omoide.answer.decisions`): `subject` what it was about;
- `did`: a yes-or-no question of a thing done: "did I talk to Mina yesterday", "have I been
  running this week", 昨日ミナと話した？ (no question word) (`omoide.answer.did`);
- `said_by`: "what did Peter say / tell me / write about X", "did Peter say anything about X",
  "ピーターは旅館について何と言っていましたか": `speaker` the person, `subject` the topic;
- `commitments`: "what did I promise (Peter)", "what do I have to do", "my to-dos", 約束, やること:
  `subject` to whom or about what ("" for all);
- `who`: "who is Mina", "ミナって誰", "ミナはどんな人": `subject` the name;
- `overview`: "what did I do", "what was I doing / up to / working on", "what happened",
  "summary / recap", "何をした", "何してた", "どうだった" — with a time window; without one it is
  a lookup (there is no period to roll up);
- `part_of_day`: an overview (or a question of no other kind) whose window is hours of a day:
  "this morning", "the afternoon of 11 November", "between 14:00 and 16:00", 11月17日の午後, 昨日の夜
  (`omoide.answer.day_parts`);
- `lookup`: everything else (answered by recall, the standing fact first).

The window comes from `omoide.memory.time_words` ("yesterday", "last week", 先週, "on Friday"),
narrowed to the hours a part of the day names; the subject is what is left once the asking
words and the time words are taken out ("how much time did I spend on github.com on Friday" ->
"github.com"). The answer's language comes from the question (`omoide.answer.language`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from omoide.answer import asking
from omoide.answer.alternatives import comparison
from omoide.answer.day_parts import is_part_of_day, narrowed
from omoide.answer.language import Lang, language_of
from omoide.memory.time_words import TimeWindow, time_window

KINDS = (
    "overview",
    "time_spent",
    "when",
    "lookup",
    "count",
    "which_days",
    "compare",
    "part_of_day",
    "said_by",
    "who",
    "commitments",
    "decision",
    "did",
)
_I = re.IGNORECASE

_TIME_SPENT = re.compile(
    r"\bhow\s+(?:much\s+(?:time|of\s+my\s+time)|long|many\s+(?:hours|minutes))\b"
    r"|\btime\s+(?:did|have|had)\s+i\s+spen[dt]\b|\bspent\s+(?:on|in|at|with)\b",
    _I,
)
_TIME_SPENT_JA = re.compile(
    r"何時間|何分|(?:どのくらい|どれくらい|どれだけ|どの位).*(?:時間|使|見|い|や)"
    r"|時間(?:は|の)?(?:合計|全部|トータル|全体)?(?:で|は)?(?:どのくらい|どれくらい|どれだけ|どの位)"
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
    r"|\bhow\s+was\s+(?:my\s+)?(?:day|week|month|morning|afternoon|evening|night)\b"
    r"|\b(?:summar(?:y|ise|ize)|recap|overview|review)\b",
    _I,
)
_OVERVIEW_JA = re.compile(
    r"何を?し|なにを?し|何があった|何をやっ|どうだった|どんな(?:日|一日|週|月)|まとめ|振り返"
)

# What a time or when question says around its subject, taken off to leave the subject itself.
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
    r"|(?:のは|は)?いつ.*$|(?:最後に|最初に|初めて|はじめて)"
)


@dataclass(frozen=True)
class Question:
    """A question sorted: its kind, the window its time words name, its subject, whether it asks for the first time,
    the answer's language, who said it (said_by), the things compared and the periods compared (compare)."""

    text: str
    kind: str
    window: TimeWindow | None
    subject: str
    first: bool = False
    lang: Lang = "en"
    speaker: str = ""
    subjects: tuple[str, ...] = ()
    windows: tuple[TimeWindow, ...] = ()


# A Japanese time question's asking words and its verb of using, wherever they stand: the
# thing timed may come before them (Slackを何時間使った) or after (何時間Slackを使った).
_HOW_LONG_JA = re.compile(
    r"(?:合計|全部|トータル|全体)?(?:で|は)?"
    r"(?:何時間|何分|(?:どのくらい|どれくらい|どれだけ|どの位|どんだけ)(?:の)?(?:\s*時間)?)"
)
_USING_JA = re.compile(
    r"(?:[をにではが]\s*)*(?:時間\s*を?\s*)?(?:使|見|い|居|や|費や|過ご|かけ|掛け|作業|仕事)\S*$"
)
_EDGE_JA = re.compile(r"^(?:[はにでをが、]\s*)+|(?:\s*[はにでをが、])+$")


_WHEN_FIRST_JA = re.compile(r"^\s*(?:最後に|最初に|初めて|はじめて)?いつ(?:頃|ごろ)?(?:に|、)?")


def _time_subject_ja(text: str) -> str:
    """A Japanese time question without its time words -> the thing timed ('はSlackを何時間使った？' -> 'Slack')."""
    out = re.sub(r"[?？!！。]+$", "", text.strip())
    out = _HOW_LONG_JA.sub(" ", out)
    out = re.sub(r"\s*(?:ですか|でしたか|でした|です|か)$", "", out.strip())
    out = _USING_JA.sub("", out.strip())
    return _EDGE_JA.sub("", " ".join(out.split())).strip()


def _subject(text: str, kind: str) -> str:
    """Question without its time words + its kind -> what it is about."""
    out = text.strip()
    if kind == "time_spent" and _HOW_LONG_JA.search(out):
        return asking.tidy(_time_subject_ja(out))
    if kind == "when" and _WHEN_FIRST_JA.match(out):
        # いつ before the thing ("いつ走った？", "最後にいつ出汁を作った"): the thing follows it.
        out = _WHEN_FIRST_JA.sub("", out, count=1)
        return asking.tidy(asking.tidy_ja(out))
    if kind in ("time_spent", "when"):
        for pattern in _ASKING:
            out = pattern.sub("", out, count=1)
        out = _ASKING_JA.sub("", out).strip()
        out = re.sub(r"^(?:に|で|を|は)", "", out)
    return asking.tidy(out)


def _without(text: str, phrases: tuple[str, ...]) -> str:
    """Question + the words that named its window -> the question without them, spaces tidied."""
    for phrase in phrases:
        if phrase and phrase in text:
            text = text.replace(phrase, " ", 1)
    return re.sub(r"\s+([?？!！.,、。])", r"\1", " ".join(text.split())).strip(" ,、")


def classify(text: str, tz: str, now: datetime, answer_language: str = "auto") -> Question:
    """Question + timezone + now (+ the `answer_language` setting) -> its kind, the window it names, its subject."""
    lang = language_of(text, answer_language)
    narrow = narrowed(text, time_window(text, tz, now), tz, now)
    window = narrow.window
    rest = _without(text, narrow.phrases)
    compared = comparison(text, tz, now)
    if compared is not None:
        first_window = compared.windows[0] if compared.windows else window
        subject = " / ".join(compared.subjects)
        return Question(
            text,
            "compare",
            first_window,
            subject,
            False,
            lang,
            "",
            compared.subjects,
            compared.windows,
        )
    if asking.COUNT.search(text) or asking.COUNT_JA.search(text):
        return Question(text, "count", window, asking.count_subject(rest), lang=lang)
    if _TIME_SPENT.search(text) or _TIME_SPENT_JA.search(text):
        return Question(text, "time_spent", window, _subject(rest, "time_spent"), lang=lang)
    if asking.WHICH_DAYS.search(text) or asking.WHICH_DAYS_JA.search(text):
        return Question(text, "which_days", window, asking.which_days_subject(rest), lang=lang)
    if _WHEN.search(text) or _WHEN_JA.search(text):
        first = bool(_FIRST.search(text))
        return Question(text, "when", window, _subject(rest, "when"), first, lang)
    if asking.asks_decision(text):
        return Question(text, "decision", window, asking.decision_topic(rest), lang=lang)
    said = asking.said_by_parts(rest)
    if said is not None:
        return Question(text, "said_by", window, said[1], lang=lang, speaker=said[0])
    if asking.COMMITMENTS.search(text) or asking.COMMITMENTS_JA.search(text):
        return Question(text, "commitments", window, asking.commitment_subject(rest), lang=lang)
    name = asking.who_name(rest)
    if name is not None:
        return Question(text, "who", window, name, lang=lang)
    part = is_part_of_day(window)
    if asking.asks_yes_no(text) and not _OVERVIEW.search(text) and not part:
        return Question(text, "did", window, asking.did_subject(rest), lang=lang)
    if window is not None and (_OVERVIEW.search(text) or _OVERVIEW_JA.search(text)):
        return Question(
            text, "part_of_day" if part else "overview", window, _subject(rest, ""), lang=lang
        )
    return Question(
        text, "part_of_day" if part else "lookup", window, _subject(rest, ""), lang=lang
    )
