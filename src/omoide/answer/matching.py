"""A question's subject -> what it matches in the lake's records: its key words, a conversation partner, the person's own records or what they saw.

The thing done is matched, not the words the question asks it with:

- asking verbs of seeing or going ("visit", "read", "look at", "watch", "go to", 見た, 行った,
  読んだ …) come off the subject's start ("when did I last visit seriouseats.com" matches
  records holding "seriouseats.com"); the subject is then something seen, and pages count as
  much as notes;
- any other subject is an activity ("book the ryokan", "cook", 出汁を作った): the person's own
  notes and messages answer before the pages and windows they had open;
- "talk / chat / write … to or with X", "Xと話した": chat messages X wrote, or written in a
  conversation with X (either side), X under every name it means (omoide.answer.names, as
  said-by and who match it: ピーター is Peter);
- an activity's verb is matched in its sense: a past or -ing form ("ran", "running") is the
  doing, its bare word ("my run") too unless something else owns it ("the CI run", "last
  night's run failed", "test run", "run #123"); in a page or window title, where a bare "run" is
  a command ("uv run"), only the past or -ing form counts;
- a key word matches a record's word of the same stem ("running", "ran" and "runs" are "run";
  "Booked!" is "book");
- a Japanese subject's key words are its content words (omoide.text.japanese: 親子丼を作った ->
  親子丼, 作る), each matched in either language: as written (in its dictionary form: 走った
  holds 走る), by its romaji (京都 -> "Kyoto") or by an English gloss (走る -> "Ran 10 km");
- "Xと電話した" names a partner only when X is a person (母と電話した is about 母 and 電話).

The tests a day's records are put to (by words, by an activity's verb, a partner, one's own
records, pages seen) are omoide.answer.record_masks.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from omoide.answer.names import HONORIFICS, bare, meant
from omoide.text import japanese

_I = re.IGNORECASE
_TALK = re.compile(
    r"\b(?:talk(?:ed|ing)?|chat(?:ted|ting)?|spoke|speak(?:ing)?|message[sd]?|text(?:ed)?|"
    r"call(?:ed)?|wr(?:ote|ite)|heard|hear)\b(?!\s+about\b)(?:\s+(?:to|with|from))?\s+(?P<who>.+)$",
    _I,
)
_TALK_JA = re.compile(r"^(?P<who>.+?)(?:と|に|から)(?:話|チャット|連絡|電話|メッセージ|会)")
# Verbs of seeing ("read", "look at", "watch" …): what was seen is the subject, and the pages
# and windows that showed it count as much as the person's notes.
_SEEN = re.compile(
    r"^(?:read(?:ing)?|look(?:ed|ing)?\s+(?:at|up|into|for)|check(?:ed|ing)?(?:\s+out)?"
    r"|open(?:ed|ing)?|see|saw|seen|seeing|watch(?:ed|ing)?|brows(?:e|ed|ing)"
    r"|search(?:ed|ing)?(?:\s+for)?|googl(?:e|ed|ing))\s+",
    _I,
)
# Verbs of going or talking about: taken off too, the rest an activity unless it names a site.
_GOING = re.compile(
    r"^(?:(?:re)?visit(?:ed|ing)?|(?:go|went|been|going|get|got)\s+to"
    r"|(?:talk(?:ed)?|think|thought|hear(?:d)?|learn(?:ed|t)?|ask(?:ed)?)\s+about)\s+",
    _I,
)
# The verb "go" before an activity ("go running", "went swimming") says nothing of it.
# "go for a run", "went on a walk", "have a swim": the activity is the noun.
_GO = re.compile(
    r"^(?:(?:go|goes|went|gone|going)\s+(?=\w+ing\b)"
    r"|(?:go|goes|went|gone|going)\s+(?:for|on)\s+(?:a|an|my)\s+(?:\w+\s+)?(?=\w+$)"
    r"|(?:have|had|has|do|did)\s+(?:a|an|my)\s+(?=\w+$))",
    _I,
)
_SEEN_JA = re.compile(
    r"(?:を|で)?(?:見|観|読|調べ|検索し|開い|開け|ひらい|チェックし)(?:た|て|る|ました|ます|んだ)?$"
)
_GOING_JA = re.compile(
    r"(?:に|へ|を)?(?:行|訪|訪ね|聞)(?:った|って|く|いた|ねた|れた|ました|きました)?$"
)
_STOP = frozenset(
    "i me my we our you the a an to of on in at for with did do does was were is are be been "
    "have has had last first time times ever that this it about more much many often".split()
)
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?|\d+", re.UNICODE)
_JA_RUN = re.compile(r"[\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff]{2,}|[A-Za-z0-9][\w.\-]+")
# A verb or adjective written as one kanji and its kana ending (走った, 作る): its kanji.
_JA_STEM = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff](?=[\u3040-\u309f])")
KANA = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_HOST = re.compile(r"(?:[a-z0-9-]+\.)+[a-z]{2,}", _I)
_SENTENCE_END = re.compile(r"[。！？!?\n]+")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’\-]*")
# A reading shorter than this is too often an English word or a laugh ("hi", "haha").
ROMAJI_MIN = 5
# A gloss of more words than this explains the word rather than naming it.
GLOSS_WORDS = 3
# English verbs whose past or participle no suffix rule reaches: the past -> the present.
_IRREGULAR = {
    **dict.fromkeys(("ran",), "run"),
    **dict.fromkeys(("went", "gone", "goes", "going"), "go"),
    **dict.fromkeys(("did", "done", "does", "doing"), "do"),
    **{"ate": "eat", "eaten": "eat", "made": "make", "bought": "buy", "met": "meet"},
    **{"swam": "swim", "swum": "swim", "rode": "ride", "ridden": "ride", "drove": "drive"},
    **{"driven": "drive", "flew": "fly", "flown": "fly", "wrote": "write", "written": "write"},
    **{"saw": "see", "seen": "see", "took": "take", "taken": "take", "gave": "give"},
    **{"given": "give", "got": "get", "gotten": "get", "slept": "sleep", "taught": "teach"},
    **{"caught": "catch", "brought": "bring", "paid": "pay", "left": "leave", "spoke": "speak"},
    **{"spoken": "speak", "sang": "sing", "sung": "sing", "began": "begin", "begun": "begin"},
    **{"found": "find", "sent": "send", "spent": "spend", "built": "build", "kept": "keep"},
    **{"sold": "sell", "told": "tell", "thought": "think", "felt": "feel", "won": "win"},
    **{"lost": "lose"},
}
_VOWELS = frozenset("aeiou")


@dataclass(frozen=True)
class Target:
    """What a subject matches: its key terms, the person talked with, whether it was seen (pages count) and names a site."""

    terms: tuple[str, ...]
    partner: str | None = None
    seen: bool = False
    site: bool = False
    words: str = ""  # the subject as matched, without its asking verb


def stem(word: str) -> str:
    """English word -> its stem: lower case, one ending off (-ing, -ed, -es, -s), a final y as i,
    a doubled consonant single, a final e off; irregular pasts as their present ('ran' -> 'run')."""
    w = _IRREGULAR.get(word.casefold(), word.casefold())
    for ending in ("ing", "ed", "es", "s"):
        if w.endswith(ending) and len(w) - len(ending) >= 3:
            w = w[: -len(ending)]
            break
    if w.endswith("y") and len(w) >= 3:
        w = w[:-1] + "i"
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in _VOWELS and w[-1].isalpha():
        w = w[:-1]
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w


def key_terms(subject: str) -> list[str]:
    """Subject -> the words a record must hold (stems of English words; a Japanese subject's hosts,
    Latin words and content words in their dictionary form)."""
    if KANA.search(subject):
        hosts = [h.casefold() for h in _HOST.findall(subject)]
        rest = _HOST.sub(" ", subject)
        latin = [stem(w) for w in _LATIN_WORD.findall(rest) if w.casefold() not in _STOP]
        words = japanese.content_words(_LATIN_WORD.sub(" ", rest))
        found = list(dict.fromkeys(hosts + latin + words))
        if found:
            return found
        runs = [t.casefold() for t in _JA_RUN.findall(subject)]
        return runs or _JA_STEM.findall(subject)[:1]
    hosts = [h.casefold() for h in _HOST.findall(subject)]
    rest = _HOST.sub(" ", subject)
    return hosts + [stem(w) for w in WORD.findall(rest) if w.casefold() not in _STOP]


@lru_cache(maxsize=4096)
def latin_forms(term: str) -> tuple[tuple[str, ...], ...]:
    """A Japanese term -> the ways a Latin-letter record writes it, each the stems it must hold all
    of: its romaji reading (long enough to be no English word), each short English gloss."""
    out: list[tuple[str, ...]] = []
    reading = japanese.romaji(term)
    if len(reading) >= ROMAJI_MIN and reading.isascii() and reading.isalpha():
        out.append((stem(reading),))
    for gloss in japanese.glosses(term):
        stems = tuple(stem(w) for w in WORD.findall(gloss) if w.casefold() not in _STOP)
        if stems and len(stems) <= GLOSS_WORDS:
            out.append(stems)
            # An English compound names its thing by its last word: a "telephone call" is a
            # call, "Chinese-style noodles" noodles (not so a verb's gloss: "look at").
            if len(stems) == 2 and not japanese.is_verb(term):
                out.append(stems[-1:])
    return tuple(dict.fromkeys(out))


def _holds_japanese(term: str, text: str, words: set[str]) -> bool:
    """A Japanese term + a record's text + its word stems -> does the record say it, in either language?"""
    if len(term) >= 2 and term in text:
        return True
    if KANA.search(text) and term in japanese.content_words(text):
        return True
    return any(all(s in words for s in form) for form in latin_forms(term))


def holds(text: str, terms: tuple[str, ...] | list[str]) -> bool:
    """Text + key terms -> does it hold every one (a Latin term as a word's stem, a host as written,
    a Japanese term as written or in its dictionary form, by its romaji or an English gloss)?
    A Japanese subject's terms must stand in one sentence or line: in 親子丼を作った。…出汁のおかげで
    what was made is no 出汁."""
    if len(terms) > 1 and any(KANA.search(t) for t in terms):
        return any(_holds_all(x, terms) for x in _SENTENCE_END.split(text) if x.strip())
    return _holds_all(text, terms)


def _holds_all(text: str, terms: tuple[str, ...] | list[str]) -> bool:
    """Text + key terms -> does each stand anywhere in it?"""
    low = text.casefold()
    words = {stem(w) for w in WORD.findall(text)}
    return all(
        _holds_japanese(t, text, words) if KANA.search(t) else t in words or ("." in t and t in low)
        for t in terms
    )


def without_asking_verb(subject: str) -> tuple[str, bool]:
    """Subject -> it without a leading verb of seeing or going, and whether it asks about something seen."""
    text = subject.strip()
    for pattern, seen in ((_SEEN, True), (_GOING, False), (_SEEN_JA, True), (_GOING_JA, False)):
        cut = pattern.sub("", text, count=1).strip()
        if cut != text and cut:
            return cut, seen
    return _GO.sub("", text).strip(), False


def is_person(who: str, people: Collection[str] | None = None) -> bool:
    """A name as a Japanese question writes it (+ the names the home knows) -> is it a person: one
    of those known, or, without them, a name by its form (an honorific, katakana, Latin letters,
    a name Sudachi knows)? 母 and 上司 are no one's name."""
    name = bare(who)
    if not name or people is not None:
        return bool(name) and bool(meant(name, people or ()))
    return who.strip().endswith(HONORIFICS) or japanese.is_name(name)


def target(subject: str, people: Collection[str] | None = None) -> Target:
    """A question's subject (+ the names of the people the home knows) -> what it matches in the records."""
    m = _TALK.search(subject)
    if m is None and (ja := _TALK_JA.search(subject)):
        m = ja if is_person(ja["who"].strip(" ?？.。"), people) else None
    partner = m["who"].strip(" ?？.。") if m else None
    words, seen = (partner, False) if partner else without_asking_verb(subject)
    return Target(tuple(key_terms(words)), partner, seen, bool(_HOST.search(words)), words)


# A place or purpose the question adds that the record may leave out ("book the ryokan in Kyoto"
# finds "Booked the ryokan in Higashiyama"); company ("with Peter") is kept: it is the thing.
_QUALIFIER = re.compile(
    r"\s+(?:in|at|near|for|from|during)\s+(?:the\s+|my\s+|a\s+|an\s+)?[\w.\-'’]+(?:\s+[\w.\-'’]+)?\s*$",
    _I,
)


def unqualified(t: Target) -> Target | None:
    """An English target with a trailing place or purpose -> it without them, or None."""
    if t.partner or KANA.search(t.words):
        return None
    cut = _QUALIFIER.sub("", t.words)
    terms = tuple(key_terms(cut)) if cut != t.words else ()
    if not terms or terms == t.terms:
        return None
    return Target(terms, None, t.seen, t.site, cut)


def variants(t: Target) -> list[Target]:
    """A target -> it, then without its place or purpose, then without its verb: the strictest first."""
    out = [t]
    if (u := unqualified(t)) is not None:
        out.append(u)
    if (loose := looser(t)) is not None:
        out.append(loose)
    return out


def looser(t: Target) -> Target | None:
    """A target no record matched -> it without its first English term, or a Japanese subject
    without its verbs (the question's own verb: 'eat ramen' finds 'Ramen with Peter', 出汁を作った
    finds 'First try at dashi'), or None when nothing is left to drop."""
    if len(t.terms) < 2 or t.partner:
        return None
    if KANA.search(t.words):
        things = tuple(x for x in t.terms if not (KANA.search(x) and japanese.is_verb(x)))
        if not things or len(things) == len(t.terms):
            return None
        return Target(things, None, t.seen, t.site, t.words)
    return Target(t.terms[1:], None, t.seen, t.site, t.words)
