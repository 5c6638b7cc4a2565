"""The words a question asks with, by kind (English and Japanese): what tells its kind, and what comes off to leave its subject.

`omoide.answer.question` tries the kinds in turn; each rule here is one family of phrasings,
not a list of questions: "how many times / how often", 何回 / 何度 (count); "which / what days
did I", どの日 / 何日に (which_days); "what did X say about Y", XはYについて何と言って (said_by);
"who is X", Xって誰 / Xはどんな人 (who); "what did I promise", "what do I have to do", 約束 /
やること (commitments); "what did I decide", 何に決めた (decision); "did I …?", 〜した？ (did).
They are kept here, apart from the modules that answer, so that sorting a question imports none
of those (nor pandas).
"""

from __future__ import annotations

import re

_I = re.IGNORECASE

COUNT = re.compile(
    r"\bhow\s+(?:many\s+times|often|frequently)\b|\b(?:number|count)\s+of\s+times\b"
    r"|\bhow\s+many\s+days\s+(?:did|have|had|was|were)\s+(?:i|we)\b"
    r"|\bhow\s+many\s+(?!hours?\b|minutes?\b|days?\b)[\w.\-]+(?:\s+[\w.\-]+){0,2}?\s+(?:did|have|had)\s+(?:i|we)\b",
    _I,
)
COUNT_JA = re.compile(r"何回|何度|幾度|回数|頻度|何日間")
WHICH_DAYS = re.compile(
    r"\b(?:which|what)\s+(?:days?|dates?)\s+(?:did|do|have|had|was|were)\s+(?:i|we)\b"
    r"|\b(?:list|name|show)\s+(?:me\s+)?the\s+days\b|^\s*the\s+days\s+(?:when\s+|that\s+)?(?:i|we)\b",
    _I,
)
WHICH_DAYS_JA = re.compile(
    r"どの日|何日(?:に|と)|何曜日に|何日(?:ですか|でしたか|だった|だっけ)?[?？]?\s*$"
    r"|(?:た|だ)日は(?:いつ|何日)"
)
SAID_BY = re.compile(
    r"\bwhat\s+(?:did|has|had|have|does|do|was|were)\s+(?P<who>(?!(?:we|you|it|they|that|this)\b)\S+(?:\s+\S+){0,2}?)"
    r"\s+(?:been\s+)?(?:say|said|saying|tell\s+me|told\s+me|telling\s+me|write|wrote|writing|written|mention(?:ed)?|think)\b"
    r"(?:\s+(?:about|of|on|regarding|concerning)\s+(?P<topic>.+?))?\s*[?.!]*\s*$"
    r"|\bdid\s+(?P<who2>(?!(?:i|we|you|it|they)\b)\S+(?:\s+\S+){0,2}?)\s+(?:say|mention|tell\s+me|write)\s+"
    r"(?:anything|something)\s+(?:about|of|on)\s+(?P<topic2>.+?)\s*[?.!]*\s*$",
    _I,
)
SAID_BY_JA = re.compile(
    r"^(?P<who>.+?)(?:は|が|って)(?:(?P<topic>.+?)(?:について|のこと(?:を|で|について)?|に関して|の話(?:を|で)?)(?:は|、)?)?"
    r"(?:何|なん|なに)(?:と|て|か)(?:言|話|書|い)"
)
_NOT_A_SPEAKER_JA = frozenset({"誰", "だれ"})
# "京都について何を書いた": no speaker named is the person themself.
_OWN_WORDS_JA = re.compile(
    r"^(?:(?:私|僕|俺|自分|わたし|ぼく)(?:は|が))?(?P<topic>.+?)(?:について|のこと(?:を|で)?|に関して)"
    r"(?:は|、)?(?:何|なに|なん)(?:を|て|と|か)?(?:書|言|話|メモ)"
)
_NOT_A_NAME_JA = frozenset({"私", "僕", "俺", "自分", "わたし", "ぼく", "おれ", "誰", "だれ"})
WHO = re.compile(r"^\s*who\s*(?:is|was|'s|’s)\s+(?P<name>.+?)\s*[?.!]*\s*$", _I)
# What follows "who is" when it asks no one's name: "who is coming", "who was at the retro".
_NOT_A_NAME = re.compile(
    r"^(?:the|a|an|my|your|our|his|her|their|this|that|these|those|there|here|it|at|in|on|with"
    r"|from|to|for|going|coming|still|also|not|never|always|free|online|available|next|responsible)\b"
    r"|\w+ing\b",
    _I,
)
WHO_JA = re.compile(
    r"^(?P<name>.+?)[、,\s]*(?:って|とは|というのは|ってのは|は)(?:誰|だれ|どなた|何者|どんな人|どういう人)"
    r"(?:ですか|でしたか|なの|なん(?:だ|です)(?:っけ|か)?|だっけ|だったっけ|でしたっけ|か)?[?？。]*\s*$"
)
# Words after the name that only say how it is asked: "who is Peter again / exactly?".
_WHO_AFTER = re.compile(
    r"(?:[\s,]+(?:again|exactly|actually|anyway|then|now|really|precisely|though))+[\s?.!]*$", _I
)
COMMITMENTS = re.compile(
    r"\b(?:i|we)\s+(?:still\s+)?(?:have\s+|had\s+)?(?:promise[ds]?|promising|commit(?:ted)?\s+to|agreed\s+to|owe)\b"
    r"|\bmy\s+(?:promises|commitments|to-?dos?|tasks|open\s+items)\b"
    r"|\bwhat\s+(?:do|did|must|should)\s+(?:i|we)\s+(?:still\s+)?(?:have|need|got)\s+to\s+do\b"
    r"|\bwhat(?:'s|’s|\s+is)\s+on\s+my\s+(?:plate|list|to-?do(?:\s+list)?)\b|\bto-?do\s+list\b"
    r"|\bwhat\s+am\s+i\s+supposed\s+to\s+do\b"
    r"|\bwhat\s+did\s+i\s+(?:say|tell\s+\w+)\s+(?:i|i'd|i’d)\s+(?:would|will|'d|’d)?\s*do\b"
    r"|\bi\s+agree(?:d)?\s+to\b|\bmy\s+plans\b|\bwhat\s+am\s+i\s+(?:planning|going)\s+to\s+do\b",
    _I,
)
COMMITMENTS_JA = re.compile(
    r"約束|やること|やるべきこと|やらなきゃ|やらなければ|しなきゃ|しなければ(?:ならない|いけない)"
    r"|しないといけない|TODO|ToDo|タスク|(?:する|やる)予定|の予定は|予定は何|ことになっている"
)

# -- subjects: what comes off the question -------------------------------------------------
_COUNT_ASKING = re.compile(
    r"^\s*(?:how\s+(?:many\s+times|often|frequently|many\s+days)|(?:the\s+)?(?:number|count)\s+of\s+times)"
    r"(?:\s+(?:did|do|does|have|had|was|were)\s+(?:i|we))?(?:\s+been)?\s+",
    _I,
)
_COUNT_THINGS = re.compile(
    r"^\s*how\s+many\s+(?P<thing>[\w.\-]+(?:\s+[\w.\-]+){0,2}?)\s+(?:did|have|had)\s+(?:i|we)(?:\s+\w+)?(?P<rest>.*)$",
    _I,
)
_WHICH_DAYS_ASKING = re.compile(
    r"^\s*(?:on\s+|in\s+)?(?:which|what)\s+(?:days?|dates?)\s+(?:did|do|have|had|was|were)\s+(?:i|we)\s+"
    r"|^\s*(?:list|name|show)\s+(?:me\s+)?the\s+days\s+(?:when\s+|on\s+which\s+|that\s+)?(?:i|we)?\s*"
    r"|^\s*the\s+days\s+(?:when\s+|that\s+)?(?:i|we)\s+",
    _I,
)
_TOTAL = re.compile(r"\s*(?:in\s+total|so\s+far|altogether|overall)\s*$", _I)
_COUNTERS_JA = re.compile(
    r"(?:を|は|に|で)?(?:何回|何度|幾度)(?:くらい|ぐらい)?|(?:の)?回数|(?:どのくらいの|どれくらいの)?頻度で?|何日間"
)
_DAYS_JA = re.compile(
    r"(?:のは|は)?(?:どの日|何日|何曜日)(?:に|と|ですか|でしたか|だった|だっけ)?[?？]?|日付"
    r"|(?<=[ただ])日は(?:いつ|何日)(?:ですか|でしたか|だった|だっけ)?[?？]?"
)
_ME_JA = re.compile(r"^(?:私|僕|俺|自分|わたし|ぼく)(?:は|が)")
_PARTICLE_JA = re.compile(r"^(?:に|で|を|は|が|と|の|、)+")
_ENDING_JA = re.compile(
    r"(?:のは|の)?(?:ましたか|ました|ましたっけ|ますか|ます|ですか|でしたか|でした|です|だった|だっけ|よね|か|っけ)*[?？。!！\s]*$"
)
_QUESTION_END_JA = re.compile(r"(?:か|っけ|よね)*[?？。!！\s]*$")
_COMMITMENT_ASKING = re.compile(
    r"^\s*what\s+(?:did|do|have|had)\s+(?:i|we)\s+(?:still\s+)?(?:promise[ds]?|commit(?:ted)?\s+to|agree(?:d)?|owe)"
    r"(?:\s+to\s+do\b)?(?:\s+(?:to|for|about|with))?\s*"
    r"|^\s*what\s+(?:do|did|must|should)\s+(?:i|we)\s+(?:still\s+)?(?:have|need|got)\s+to\s+do\s*(?:for|about|with)?\s*"
    r"|^\s*what(?:'s|’s|\s+is)\s+on\s+my\s+(?:plate|list|to-?do(?:\s+list)?)\s*(?:for|about)?\s*"
    r"|^\s*(?:show\s+me\s+)?my\s+(?:promises|commitments|to-?dos?|tasks|open\s+items)\s*(?:to|for|with|about)?\s*"
    r"|^\s*what\s+did\s+i\s+(?:say|tell\s+\w+)\s+(?:i|i'd|i’d)\s+(?:would|will|'d|’d)?\s*do\s*(?:for|about|with)?\s*"
    r"|^\s*what\s+(?:are|were)\s+my\s+plans\s*(?:for|about|with)?\s*"
    r"|^\s*what\s+am\s+i\s+(?:planning|going)\s+to\s+do\s*(?:for|about|with)?\s*",
    _I,
)
_TOLD = re.compile(r"^\s*what\s+did\s+i\s+tell\s+(?P<who>\w+)\s+(?:i|i'd|i’d)\b", _I)
_COMMITMENT_TO_JA = re.compile(r"^(?P<who>.+?)(?:に|と|への|との)(?:何を?)?(?:約束|やる|する)")
_TRAILING = re.compile(r"[\s?？!！。.,、]+$")


# -- decisions and yes-or-no questions (omoide.answer.decisions, omoide.answer.did) --------
DECISION = re.compile(
    r"\b(?:what|which|how)\b.*\b(?:decide[ds]?|decision|settle[ds]?\s+on|cho(?:o)?se|chose|pick(?:ed)?)\b",
    _I,
)
DECISION_JA = re.compile(
    r"何に決め|何を決め|どう決め|決めた(?:こと|の)?は|決定|決まった|どう(?:する|した)ことにし|何にすることにし"
)
# The asking words of an English decision question, taken out to leave its topic.
_DECISION_ASKING = re.compile(
    r"\b(?:what|which|how|did|do|does|have|has|had|was|were|is|are|i|we|they|you|about|on"
    r"|for|regarding|over|with|the|a|an|our|my|decide[ds]?|decision[s]?|settle[ds]?|choose"
    r"|chose|pick(?:ed)?)\b",
    _I,
)
_DECISION_ASKING_JA = re.compile(
    r"(?:について|に関して|のこと|で|は|を)?(?:結局|最終的に)?(?:何に|何を|どう|どれに)?"
    r"(?:決め|決定|決ま|(?:する|した)ことにし|することにし).*$"
)
YES_NO = re.compile(r"^\s*(?:did|have|had)\s+(?:i|we)\s+(?:ever\s+)?\w", _I)
_YES_NO_ASKING = re.compile(r"^\s*(?:did|have|had)\s+(?:i|we)\s+(?:ever\s+)?", _I)
# A Japanese question ending in a past verb with no question word of its own: 昨日ミナと話した？
YES_NO_JA = re.compile(
    r"(?:た|だ|ました)(?:か|っけ|の)?\s*[?？]\s*$|(?:ましたか|たっけ|だっけ)\s*$"
)
_QUESTION_WORD_JA = re.compile(r"何|なに|なん|いつ|どこ|誰|だれ|どの|どう|どれ|なぜ|どんな|いくつ")
_YES_NO_ASKING_JA = re.compile(r"(?:か|っけ|の)?\s*[?？]?\s*$")


def tidy(text: str) -> str:
    """Subject -> without trailing punctuation and spaces."""
    return _TRAILING.sub("", text).strip()


def tidy_ja(text: str) -> str:
    """A Japanese subject -> without the asker's 私は, leading particles and polite endings."""
    out = _ME_JA.sub("", text.strip())
    out = _PARTICLE_JA.sub("", out)
    cut = tidy(_ENDING_JA.sub("", out))
    if not cut:
        return tidy(out)
    from omoide.text.japanese import content_words

    # 走りました without ました is 走り, a noun ("a run"): keep the ending the verb needs.
    if content_words(cut) != content_words(out):
        return tidy(_QUESTION_END_JA.sub("", out)) or tidy(out)
    return cut


def spoken_ja(subject: str) -> str:
    """A Japanese subject as asked -> as an answer names it, without its polite ending ('走りました' -> '走り')."""
    return re.sub(r"(?:ました|ます|でした|です)$", "", subject) or subject


def count_subject(rest: str) -> str:
    """A count question without its time words -> what is counted ('how many times did I go running' -> 'go running')."""
    things = _COUNT_THINGS.match(rest)
    if things and not _COUNT_ASKING.match(rest):
        out = " ".join(f"{things['thing']} {things['rest']}".split())
    else:
        out = _COUNT_ASKING.sub("", rest, count=1)
    out = _TOTAL.sub("", tidy(out))
    if out != rest.strip() and not _COUNTERS_JA.search(out):
        return tidy(out)
    return tidy_ja(_COUNTERS_JA.sub("", out))


def which_days_subject(rest: str) -> str:
    """A which-days question without its time words -> what happened on them."""
    out = _WHICH_DAYS_ASKING.sub("", rest, count=1)
    if out != rest:
        return tidy(out)
    return tidy_ja(_DAYS_JA.sub("", rest))


def said_by_parts(rest: str) -> tuple[str, str] | None:
    """A question without its time words -> (speaker, topic) when it asks what someone said, or None."""
    m = SAID_BY.search(rest)
    if m:
        who = m["who"] or m["who2"]
        return tidy(who), tidy(m["topic"] or m["topic2"] or "")
    j = SAID_BY_JA.search(rest.strip())
    if j and _PARTICLE_JA.sub("", j["who"]) not in _NOT_A_SPEAKER_JA:
        return tidy(_PARTICLE_JA.sub("", j["who"])), tidy(j["topic"] or "")
    own = _OWN_WORDS_JA.search(rest.strip())
    if own:
        return "私", tidy(own["topic"])
    return None


def who_name(rest: str) -> str | None:
    """A question without its time words -> the name it asks who is, or None."""
    m = WHO.match(rest)
    name = _WHO_AFTER.sub("", m["name"]) if m else ""
    if m and name and len(name.split()) <= 4 and not _NOT_A_NAME.match(name):
        return tidy(name)
    j = WHO_JA.match(rest.strip())
    if j and _PARTICLE_JA.sub("", j["name"]) not in _NOT_A_NAME_JA:
        return tidy(_PARTICLE_JA.sub("", j["name"]))
    return None


def commitment_subject(rest: str) -> str:
    """A commitments question without its time words -> to whom or about what ('' for all of them)."""
    told = _TOLD.match(rest)
    if told:
        return told["who"]
    cut = _COMMITMENT_ASKING.sub("", rest, count=1)
    if cut != rest:
        return tidy(cut)
    j = _COMMITMENT_TO_JA.match(rest.strip())
    return tidy(_PARTICLE_JA.sub("", j["who"])) if j else ""


def asks_decision(text: str) -> bool:
    """A question -> does it ask what was decided?"""
    return bool(DECISION.search(text) or DECISION_JA.search(text))


def decision_topic(rest: str) -> str:
    """A decision question without its time words -> what the decision was about."""
    out = rest.strip(" ?？。.!！")
    if DECISION_JA.search(out):
        out = _DECISION_ASKING_JA.sub("", out)
        return re.sub(r"^(?:、|は|を|で|に|について)+|(?:、|は|を|で|に|について)+$", "", out)
    return " ".join(_DECISION_ASKING.sub(" ", out).split()).strip(" ,")


def asks_yes_no(text: str) -> bool:
    """A question -> does it ask whether something was done?"""
    if YES_NO.search(text):
        return True
    return bool(YES_NO_JA.search(text)) and not _QUESTION_WORD_JA.search(text)


def did_subject(rest: str) -> str:
    """A yes-or-no question without its time words -> the thing asked of ('did I talk to Mina' -> 'talk to Mina')."""
    out = _YES_NO_ASKING.sub("", rest, count=1)
    if out != rest:
        out = re.sub(r"^been\s+(?=\w+ing\b)", "", out.strip(), flags=_I)
        return tidy(out)
    return tidy_ja(_YES_NO_ASKING_JA.sub("", rest.strip()))
