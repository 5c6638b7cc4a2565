"""A matched record + what the question asks was done -> does it say that was done, not a plan, a contact or another sense of its verb?

Matching (`omoide.answer.matching`) finds the records holding an activity's words; this reads
the clause that holds them, as a person writes it:

- a plan is not the thing done: a clause about a later day ("tomorrow", "next week", "on
  Thursday" in a note of another weekday, "will", "going to", "plan to", "need to"; 明日, 来週,
  予定, 〜つもり, 〜たい), or a line headed by one ("Next week: … dentist on Thursday"), unless it
  says the thing in the past ("Ran 5 km, tomorrow a rest day"). A message answering one about
  a later day ("Ramen tomorrow?" -> "Long run first") is a plan too. A plan for later the same
  day ("dashi tonight") is left: the day is the unit, and that day is the one meant;
- a contact with X is not going to X: "Called the dentist", "booked the dentist", 歯医者に電話
  (unless the question asks for that verb);
- an English verb in another sense: a thing's doing ("the index build is still running", "the
  store runs", "Staging ran out of disk"), an idiom ("out of the running", "ran out of", "ran
  into"), or a thing run ("ran a LanceDB spike", "running the tests").

Records of a conversation partner or of something seen are left as matched.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

import pandas as pd

from omoide.answer.matching import KANA, Target, holds, key_terms, stem
from omoide.core.days import zone
from omoide.core.kinds import CHAT_SOURCE_KINDS
from omoide.text import japanese

_I = re.IGNORECASE
_DAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_LATER = (
    r"tomorrow|tmrw|the\s+day\s+after|next\s+(?:week|month|year|time|weekend|" + _DAY + r")"
    r"|in\s+(?:a|one|two|three|\d+)\s+(?:days?|weeks?|months?)|upcoming|later\s+this\s+week"
)
# "next week's tests" names a thing of a later day, not when the clause happens.
_NOT_OWNED = r"(?!['’]s\b)"
# Words saying a clause is about later than it was written.
_FUTURE = re.compile(
    r"\b(?:"
    + _LATER
    + r")\b"
    + _NOT_OWNED
    + r"|\bwill\b|\bwon['’]t\b|\bshall\b|\b(?:i|we|you)['’]ll\b|\bgonna\b"
    r"|\bplan(?:s|ned|ning)?\s+to\b|\b(?:want|wants|wanted|hope|hoping|intend|intends|need|needs"
    r"|have|has)\s+to\b|\bshould\b|\bscheduled\s+for\b|^\s*(?:plans?|todo|to-?do)\s*:",
    _I,
)
# "going to" before a verb is the future; before a place ("going to the dentist") it is going.
_GOING_TO = re.compile(r"\b(?:going|gonna)\s+to\s+(?!the\b|a\b|an\b|my\b|our\b|his\b|her\b)[a-z]")
_WEEKDAY = re.compile(r"\b(?:on|this|by|until|till|before)\s+(" + _DAY + r")s?\b", _I)
# A line or sentence headed by a later time ("Next week: …", "Tomorrow, …") is about it all.
_HEADER = re.compile(r"^\W*(?:" + _LATER + r")\s*[:,\-–—]", _I)
_TODAY = re.compile(r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening)|now|just)\b", _I)
_FUTURE_JA = re.compile(
    r"明日|あした|明後日|あさって|来週|来月|来年|今度の|予定(?!通り|どおり)|つもり|"
    r"[ぁ-ん](?:たい|よう|ましょう)(?:[。！、]|$)"
)
_HEADER_JA = re.compile(r"^(?:明日|あした|来週|来月|来年|今度)(?:は|に|の)?[、，:：]")
_WEEKDAY_JA = re.compile(r"([月火水木金土日])曜日?(?:に|まで|から|は)")
_PAST_JA = re.compile(r"(?:た|だ|ました|でした)(?:[。！、]|$)")
_JA_DAYS = "月火水木金土日"
# Forms that say the thing was done whatever time words stand beside them.
_PAST_DONE = frozenset("went had was were did".split())
_CONTACT = re.compile(
    r"\b(?:call(?:ed|ing)?|phon(?:e|ed|ing)|rang|ring(?:ing)?|e-?mail(?:ed|ing)?|text(?:ed|ing)?"
    r"|messag(?:e|ed|ing)|wr(?:ote|ite)\s+to|(?:re)?book(?:ed|ing)?|reschedul(?:e|ed|ing)"
    r"|cancel(?:l?ed|l?ing)?|postpon(?:e|ed|ing)|confirm(?:ed|ing)?"
    r"|(?:made|make|got)\s+an?\s+appointment\s+(?:with|at))\b",
    _I,
)
_CONTACT_JA = re.compile(r"電話|予約|メール|連絡|問い合わせ|キャンセル")
_CLAUSE = re.compile(r"(?<=[.!?;。！？])\s*|(?<=[,:、，：])\s*|\s+[–—]\s+")
_SENTENCE = re.compile(r"(?<=[.!?;。！？])\s+|(?<=[。！？])")
_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?|\d+|[^\w\s]", re.UNICODE)
# Before an English verb: words that leave the person its subject ("then ran", "also running").
_SKIP = frozenset(
    "also then just still finally again already first later today yesterday quickly actually "
    "only even not never always usually really".split()
)
_JOIN = frozenset("and then but so before after when while because until or".split())
_SELF = frozenset("i we".split())
_BE_THIRD = frozenset("is are isn't aren't 's ’s been being keeps kept".split())
_BE_PAST = frozenset("was were wasn't weren't".split())
_BE_SELF = frozenset("am 'm ’m".split())
# Before a plural noun ("my runs", "two long runs", "Sunday walks"): the person's own.
_NOUN_BEFORE = frozenset(
    "my our your his her their the these those two three four five six seven eight nine ten "
    "both all some few several many more most other first last long short easy hard slow fast "
    "quick morning evening night lunch weekend daily weekly tempo interval trail recovery team "
    "office work birthday leaving farewell holiday group club family".split()
    + _DAYS
)
# Irregular simple pasts that are no participle: "X ran" has X for its subject.
_PASTS = frozenset(
    "ran made went ate swam rode drove flew wrote saw took gave got slept bought met paid left "
    "spoke sang began found sent spent built kept sold told thought felt won lost caught brought "
    "taught did had".split()
)
_SIMPLE_PAST = frozenset("ran swam rode went ate drove flew wrote sang began gave took saw".split())
# What a person runs or does that is no activity of theirs ("ran a LanceDB spike").
_THINGS = frozenset(
    "test tests spike spikes benchmark benchmarks numbers script scripts job jobs query queries "
    "migration migrations experiment experiments build builds pipeline pipelines suite check checks "
    "command commands code program programs model models eval evals analysis simulation sweep "
    "container containers server servers update updates install backup backups report reports "
    "errand errands meeting meetings workshop session sessions show company team business campaign "
    "survey poll ci linter cron notebook bath risk tab".split()
)
_OBJECT_LEAD = frozenset("a an the my our this that these those some another its".split())
# The verbs whose object can be such a thing, a process rather than the person's activity.
_RUNS_THINGS = frozenset(("run",))
_PREPOSITIONS = frozenset("with for in on at along to from through around by of into".split())
# Senses of a verb that are not the activity: a stem -> patterns of its idioms.
_IDIOMS: dict[str, re.Pattern[str]] = {
    "run": re.compile(
        r"\b(?:in|out\s+of)\s+the\s+running\b|\b(?:run|runs|ran|running)\s+(?:out|into|low|late"
        r"|short|behind|over|by|for\s+(?:office|president|mayor|election))\b|\bin\s+the\s+long"
        r"\s+run\b|\bon\s+the\s+run\b|\b(?:dry|trial|test)[\s-]+run\b|\bup\s+and\s+running\b"
        r"|\brunning\s+(?:total|joke|gag|costs?|commentary|order|time|shoes?|gear|watch|jacket|tights"
        r"|socks|belt|vest|app)\b|\brun-(?:down|up|time)\b",
        _I,
    ),
    "walk": re.compile(r"\bwalk(?:s|ed|ing)?\s+(?:\w+\s+)?through\b|\bwalk-?through\b", _I),
    "swim": re.compile(r"\bswimming\s+in\s+(?!the\s+(?:lake|sea|pool|river))", _I),
    "cook": re.compile(r"\bcook(?:s|ed|ing)?\s+up\b|\bcook(?:ed|ing)?\s+the\s+books\b", _I),
}


def _clauses(sentence: str) -> list[str]:
    """A sentence -> its clauses (split at commas, colons and dashes)."""
    return [c for c in _CLAUSE.split(sentence) if c and c.strip()]


def _weekday_later(clause: str, day: date) -> bool:
    """A clause + the day it was written -> does it name another weekday than that day's (so a later one)?"""
    named = [_DAYS.index(m.casefold()) for m in _WEEKDAY.findall(clause)]
    named += [_JA_DAYS.index(m) for m in _WEEKDAY_JA.findall(clause)]
    return any(n != day.weekday() for n in named)


def _said_done(clause: str, verb: str) -> bool:
    """A clause + the activity's verb stem -> does it say it in the past (ran, cooked, went, had)?"""
    for m in _TOKEN.finditer(clause):
        w = m[0].casefold()
        if w in _PAST_DONE:
            return True
        if verb and stem(w) == verb and (w.endswith("ed") or w in _PASTS):
            return True
    return bool(KANA.search(clause) and _PAST_JA.search(clause))


def is_plan(clause: str, day: date, verb: str = "", headed: bool = False) -> bool:
    """A clause + the day it was written (+ the verb asked of, whether a later time heads it) -> is it about a later day?"""
    later = (
        headed
        or bool(_FUTURE.search(clause) or _GOING_TO.search(clause))
        or bool(_FUTURE_JA.search(clause))
        or _weekday_later(clause, day)
    )
    return later and not _said_done(clause, verb)


def is_contact(clause: str, t: Target) -> bool:
    """A clause + the target -> does it contact the thing ('Called the dentist', 歯医者に電話) rather than do it?"""
    for m in _CONTACT.finditer(clause):
        if stem(m[0].split()[0]) in t.terms:
            continue
        after, before = clause[m.end() :], clause[: m.start()]
        if holds(" ".join(after.split()[:6]), t.terms) or holds(
            " ".join(before.split()[-2:]), t.terms
        ):
            return True
    ja = _CONTACT_JA.search(clause)
    return bool(ja and ja[0] not in t.words and holds(clause, t.terms))


def _prev(tokens: list[str], i: int) -> tuple[str, int]:
    """Tokens + a position -> the word before it that is not an adverb ('' at a clause's start), and where."""
    j = i - 1
    while j >= 0 and tokens[j] in _SKIP:
        j -= 1
    return (tokens[j], j) if j >= 0 else ("", -1)


def _runs_a_thing(tokens: list[str], i: int) -> bool:
    """Tokens + a verb's position -> is its object a thing run ('ran a LanceDB spike', 'running the tests')?"""
    j = i + 1
    if j < len(tokens) and tokens[j] in _OBJECT_LEAD:
        j += 1
    # The object's words up to a preposition or a stop: "a LanceDB spike with 200k embeddings".
    for w in tokens[j : j + 3]:
        if w in _THINGS:
            return True
        if not w.isalnum() or w in _PREPOSITIONS:
            return False
    return False


def _form_in_sense(tokens: list[str], i: int, verb: str) -> bool:
    """Tokens + the position of a form of the verb -> is it the person doing it?"""
    word = tokens[i]
    before, at = _prev(tokens, i)
    start = before == "" or not before.isalnum() and before not in ("'s", "’s") or before in _JOIN
    if word == verb and before.endswith(("'s", "’s")):
        return False  # "last night's run": someone else's, or a thing's
    if word in _SIMPLE_PAST and not (start or before in _SELF):
        return False  # "Staging ran …": something else did
    if word.endswith("ing"):
        if before in _BE_THIRD or before.endswith(("'s", "’s")):
            return False  # "the build is still running"
        if before in _BE_PAST and _prev(tokens, at)[0] not in _SELF:
            return False
    elif word != verb and word in (verb + "s", verb + "es"):
        if not (start or before in _NOUN_BEFORE or before.isdigit()):
            return False  # "the sync store runs": a third person's verb
    return verb not in _RUNS_THINGS or not _runs_a_thing(tokens, i)


def verb_in_sense(clause: str, verb: str) -> bool:
    """A clause + an English activity's verb stem -> does some form of it say the person doing it?"""
    idiom = _IDIOMS.get(verb)
    spans = [m.span() for m in idiom.finditer(clause)] if idiom else []
    matches = list(_TOKEN.finditer(clause))
    tokens = [m[0].casefold() for m in matches]
    found = False
    for i, m in enumerate(matches):
        if not tokens[i].isalpha() or stem(tokens[i]) != verb:
            continue
        found = True
        if any(a <= m.start() < b for a, b in spans):
            continue
        if _form_in_sense(tokens, i, verb):
            return True
    return not found  # the verb is in another clause of the line: this one says nothing against it


def _english_verbs(t: Target) -> tuple[str, ...]:
    """A target -> its activity's English verb stems: its first term when Latin and the subject's
    own first word (a looser target has let its verb go), a Japanese verb's one-word glosses."""
    first = t.terms[0] if t.terms else ""
    if first.isascii() and first.isalpha():
        return (first,) if key_terms(t.words)[:1] == [first] else ()
    verbs = [g for term in t.terms if japanese.is_verb(term) for g in japanese.glosses(term)]
    return tuple(dict.fromkeys(stem(g) for g in verbs if g.isascii() and g.isalpha()))


def _verb_here(clause: str, verbs: tuple[str, ...]) -> str:
    """A clause + the activity's verb stems -> the one it says ('' when none, or in Japanese)."""
    if not verbs or KANA.search(clause):
        return ""
    stems = {stem(m[0]) for m in _TOKEN.finditer(clause) if m[0].isalpha()}
    return next((v for v in verbs if v in stems), verbs[0] if len(verbs) == 1 else "")


def said_done(text: str, t: Target, day: date, replies_to_later: bool = False) -> bool:
    """A record's text + the target + its local day (+ whether it answers a message about a later day) -> does it say the thing was done?"""
    verbs = _english_verbs(t)
    lines = [line for line in text.splitlines() if line.strip()]
    checked = False
    for line in lines:
        headed = replies_to_later or bool(_HEADER.match(line) or _HEADER_JA.match(line))
        for sentence in _SENTENCE.split(line):
            if not sentence.strip():
                continue
            sentence_headed = headed or bool(_HEADER.match(sentence) or _HEADER_JA.match(sentence))
            clauses = _clauses(sentence)
            holding = [c for c in clauses if holds(c, t.terms)]
            if not holding and holds(sentence, t.terms):
                holding = [sentence]
            for clause in holding:
                checked = True
                verb = _verb_here(clause, verbs)
                if is_plan(clause, day, verb, sentence_headed) or is_contact(clause, t):
                    continue
                if verb and not verb_in_sense(clause, verb):
                    continue
                return True
    if not checked and holds(text, t.terms):
        # The words are spread over lines: read the record as one clause.
        flat = " ".join(text.split())
        verb = _verb_here(flat, verbs)
        return not (is_plan(flat, day, verb) or is_contact(flat, t)) and (
            not verb or verb_in_sense(flat, verb)
        )
    return False


def _about_later(text: str, day: date) -> bool:
    """A message + its day -> does it speak of a later day ('Ramen tomorrow?', 明日は？)?"""
    if _TODAY.search(text):
        return False
    return bool(
        re.search(r"\b(?:" + _LATER + r")\b", text, _I) or _weekday_later(text, day)
    ) or bool(re.search(r"明日|あした|来週|来月|今度", text))


def _replies_to_later(events: pd.DataFrame, days: pd.Series, gap: timedelta) -> pd.Series:
    """Events + their local days + a sitting's gap -> for each chat message, does it answer the other side's message about a later day?"""
    out = pd.Series(False, index=events.index)
    chat = events[events["source"].astype(str).isin(CHAT_SOURCE_KINDS)]
    for _, talk in chat.sort_values("ts", kind="stable").groupby("title", sort=False):
        prev = None
        for i, row in talk.iterrows():
            if prev is not None and prev["actor"] != row["actor"] and row["ts"] - prev["ts"] < gap:
                said = str(prev["text"]) if isinstance(prev["text"], str) else ""
                out[i] = not _TODAY.search(str(row["text"])) and _about_later(said, days[i])
            prev = row
    return out


def done_mask(
    events: pd.DataFrame,
    matched: pd.Series,
    t: Target,
    tz: str,
    gap: timedelta = timedelta(minutes=30),
) -> pd.Series:
    """Events + the ones matched + a target + timezone (+ a sitting's gap) -> the matched ones saying
    the thing was done (all matched, for a partner or something seen)."""
    if t.partner or t.seen or t.site or not t.terms or events.empty or not matched.any():
        return matched
    days = events["ts"].map(lambda ts: ts.astimezone(zone(tz)).date())
    later = _replies_to_later(events, days, gap)
    out = pd.Series(False, index=events.index)
    for i in events.index[matched.to_numpy()]:
        text, title = events.at[i, "text"], events.at[i, "title"]
        said = (
            text if isinstance(text, str) and text else str(title) if isinstance(title, str) else ""
        )
        out[i] = said_done(said, t, days[i], bool(later[i]))
    return out


_LATER_TODAY = re.compile(
    r"\b(?:tonight|later\s+today|this\s+(?:evening|afternoon)|after\s+work)\b|今夜|今晩|今日の夜|あとで|後で",
    re.IGNORECASE,
)


def later_today(records: pd.DataFrame) -> pd.Series:
    """Records -> which of them announce the thing for later that day ("… tonight", 今夜)."""
    return records["text"].map(lambda t: bool(isinstance(t, str) and _LATER_TODAY.search(t)))
