"""A comparison ("more time on github.com or on lancedb.github.io", "did I run more in October or November", XとYのどちら) -> its two things, or its one thing in two periods.

English: a word of degree (more, less, longer, fewer …) and an alternative (or, than, vs); the
question is split at the alternative. When both halves name a time ("in October" … "November":
the second takes the first's preposition), it compares one thing in two periods; otherwise two
things in the question's one window. Japanese: どちら / どっち after "AとB(の)": periods when A
and B are both times, else two things. The measure is time when the question asks of time
(time, long, hours, 時間, 長く), else how many times.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from omoide.answer.asking import count_subject, tidy, tidy_ja
from omoide.memory.time_words import TimeWindow, time_window, without_time_words

_I = re.IGNORECASE
DEGREE = re.compile(r"\b(?:more|less|longer|shorter|fewer|most|least|oftener)\b", _I)
_ALTERNATIVE = re.compile(r"\s+(?:or|than|(?-i:vs)\.?|versus)\s+", _I)  # "VS Code" is no "vs"
DEGREE_JA = re.compile(r"どちら|どっち")
_PAIR_JA = re.compile(
    r"^(?P<a>.*?)(?:と|か、?|、)(?P<b>.*?)(?:の|では|で|は|、)?\s*(?:どちら|どっち)(?P<tail>.*)$"
)
ASKS_TIME = re.compile(
    r"\btime\b|\blong(?:er)?\b|\bhours?\b|\bminutes?\b|時間|長く|長い|長かった|何分", _I
)
# "was I more on github.com or in zoom": more *on* or *in* a thing is more time there.
_MORE_ON = re.compile(
    r"\b(?:more|less)\s+(?:on|in|at|using)\b(?!\s+(?:the\s+)?(?:week|month|year|day)\b)", _I
)
# "was I on Slack more on Monday or Tuesday", "did I use zoom more": being on or using a thing is time.
_BEING_ON = re.compile(
    r"\b(?:was|were)\s+(?:i|we)\s+(?:on|in|at)\s+\S+|\b(?:did|do)\s+(?:i|we)\s+use\b"
    r"|使(?:った|う|いました|ってた|っていた)",
    _I,
)
_PREPOSITION = re.compile(r"^(in|on|during|over)\s", _I)
# Words around the things compared: "did I spend more time on", "was it", "more".
_AROUND = frozenset(
    "did do does have had was were is are i we it spend spent use used be been go went more less "
    "longer shorter fewer most least time times much on in at with using doing the a an of my "
    "which what often".split()
)
_HEDGE_JA = re.compile(r"たくさん|多く|よく|長く|長い|多い|多かった|時間を?|の方|ほう")
# A Japanese comparison's shared verb after どちら: its particle, then the verb ("とよく話した").
_TAIL_VERB_JA = re.compile(r"^(?P<particle>[とにをで])(?P<verb>.*[\u3040-\u9fff].*)$")
_PREPOSITIONS = frozenset("with to on in at for from about".split())
_LATIN = re.compile(
    r"[A-Za-z0-9](?:[A-Za-z0-9_.\-]|\s(?=[A-Za-z0-9]))*[A-Za-z0-9]"
)  # "Hacker News" whole
_RUN_JA = re.compile(r"[\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff]{2,}")


@dataclass(frozen=True)
class Comparison:
    """What a question compares: two things in one window, or one thing in two windows."""

    subjects: tuple[str, ...]
    windows: tuple[TimeWindow, ...] = ()
    time: bool = False


def _thing(words: str) -> str:
    """One half of an English comparison -> the thing it names, without the words around it."""
    tokens = tidy(words).split()
    while tokens and tokens[0].casefold().strip(",:") in _AROUND:
        tokens.pop(0)
    while tokens and tokens[-1].casefold().strip(",:?") in _AROUND:
        tokens.pop()
    return tidy(" ".join(tokens))


def _thing_ja(words: str, time: bool) -> str:
    """One side of a Japanese comparison -> the thing it names (for time: a site, app or title word)."""
    out = _HEDGE_JA.sub("", words)
    if time:
        found = _LATIN.findall(out) or _RUN_JA.findall(out)
        return found[0] if found else tidy_ja(out)
    return count_subject(tidy_ja(out))


def _windows(left: str, right: str, tz: str, now: datetime) -> tuple[TimeWindow, TimeWindow] | None:
    """Two halves of a question -> their two different windows, the second taking the first's preposition."""
    a = time_window(left, tz, now)
    if a is None:
        return None
    b = time_window(right, tz, now)
    prep = _PREPOSITION.match(a.phrase)
    if b is None and prep:
        b = time_window(f"{prep.group(1)} {right}", tz, now)
        if b is not None:
            b = TimeWindow(b.start, b.end, b.phrase.removeprefix(f"{prep.group(1)} "))
    if b is None or (a.start, a.end) == (b.start, b.end):
        return None
    return a, b


def measures_time(text: str, periods: bool) -> bool:
    """A comparison + whether it compares periods -> does it compare time rather than how often?"""
    return bool(
        ASKS_TIME.search(text) or (not periods and _MORE_ON.search(text)) or _BEING_ON.search(text)
    )


def comparison(text: str, tz: str, now: datetime) -> Comparison | None:
    """Question + timezone + now -> what it compares, or None when it compares nothing."""
    time = bool(ASKS_TIME.search(text))
    if DEGREE_JA.search(text):
        return _comparison_ja(text, tz, now, time)
    split = _ALTERNATIVE.search(text)
    if not DEGREE.search(text) or split is None:
        return None
    left, right = text[: split.start()], text[split.end() :]
    periods = _windows(left, right, tz, now)
    if periods is not None:
        subject = _thing(without_time_words(left, periods[0]))
        return Comparison((subject,), periods, time) if subject else None
    window = time_window(text, tz, now)
    if window is not None:
        left, right = (without_time_words(half, window) for half in (left, right))
    # "which did I spend more time on: X or Y": the things follow the colon or comma.
    left = re.split(r"[:,]", left)[-1]
    a, b = _thing(left), _thing(right)
    time = measures_time(text, False)
    if a and b and not time:
        a, b = _shared_verb(left, a, b)
    return Comparison((a, b), (), time) if a and b else None


def _shared_verb(left: str, a: str, b: str) -> tuple[str, str]:
    """The left half of a count comparison + its two things -> both with the verb they share.

    "did I talk more with Peter or with Mina" -> talk with Peter, talk with Mina; "did I cook
    more oyakodon or ramen" -> cook oyakodon, cook ramen; "did I talk to Peter more or to Mina"
    -> talk to Peter, talk to Mina.
    """
    a = tidy(" ".join(w for w in a.split() if not DEGREE.fullmatch(w)))
    degree = DEGREE.search(left)
    verb = _thing(left[: degree.start()]) if degree else ""
    b_words = b.split()
    if not verb or verb.casefold() == a.casefold():
        if not b_words or b_words[0].casefold() not in _PREPOSITIONS:
            return a, b
        words = a.split()
        at = next((i for i, w in enumerate(words) if w.casefold() in _PREPOSITIONS), 0)
        verb = " ".join(words[:at])
    if not verb or b.casefold().startswith(verb.casefold()):
        return a, b
    own = b_words[0].casefold() in _PREPOSITIONS
    # "talk more with Peter or Mina": the second takes the first's preposition too.
    prep = next(
        (w for w in a.split()[len(verb.split()) :][:1] if w.casefold() in _PREPOSITIONS), ""
    )
    return a, tidy(f"{verb} {b}" if own or not prep else f"{verb} {prep} {b}")


def _comparison_ja(text: str, tz: str, now: datetime, time: bool) -> Comparison | None:
    """A Japanese question with どちら / どっち -> what it compares, or None."""
    m = _PAIR_JA.match(text.strip())
    if m is None:
        return None
    a_window, b_window = time_window(m["a"], tz, now), time_window(m["b"], tz, now)
    if a_window and b_window and (a_window.start, a_window.end) != (b_window.start, b_window.end):
        # The thing may follow the second period ("月曜日と火曜日、Slackを長く使ったのはどっち").
        after = without_time_words(m["b"], b_window).strip(" 、")
        subject = _thing_ja(m["tail"], time) or _thing_ja(after, time)
        return Comparison((subject,), (a_window, b_window), time) if subject else None
    window = time_window(text, tz, now)
    rest = without_time_words(text, window) if window else text
    pair = _PAIR_JA.match(rest.strip())
    if pair is None:
        return None
    a, b = (_thing_ja(tidy_ja(pair[g]), time) for g in ("a", "b"))
    # "ピーターとミナのどちらとよく話した": both sides take the verb after どちら (と話した).
    shared = _TAIL_VERB_JA.match(_HEDGE_JA.sub("", pair["tail"]).strip(" ?？。!！"))
    if shared and not time and a and b:
        a, b = (f"{side}{shared['particle']}{shared['verb']}" for side in (a, b))
    return Comparison((a, b), (), time) if a and b else None
