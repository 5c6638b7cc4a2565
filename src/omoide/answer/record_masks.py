"""A day's events + what a question matches (omoide.answer.matching's Target and key terms) -> which records match: by words, an activity's verb in its sense, a conversation partner, the person's own records, the pages seen; and the words of a record quoted."""

from __future__ import annotations

import re

import pandas as pd

from omoide.answer.matching import KANA, WORD, Target, holds, key_terms, latin_forms, stem
from omoide.answer.names import bare, meant
from omoide.core.kinds import ASSISTANT_CHAT_KINDS, CHAT_SOURCE_KINDS, OWN_SPEAKER, is_bot
from omoide.text import japanese

_I = re.IGNORECASE


def record_text(events: pd.DataFrame) -> pd.Series:
    """Events -> the words each is matched on: its text, title and URL."""
    return (
        events["text"].fillna("").astype(str)
        + " \n "
        + events["title"].fillna("").astype(str)
        + " \n "
        + events["url"].fillna("").astype(str)
    )


def word_mask(events: pd.DataFrame, terms: tuple[str, ...] | list[str]) -> pd.Series:
    """Events + key terms -> the records whose text, title or URL holds them all."""
    if not terms:
        return pd.Series(False, index=events.index)
    text = record_text(events)
    verdicts = {t: holds(t, terms) for t in text.unique()}
    return text.map(verdicts).astype(bool)


def partner_names(events: pd.DataFrame, who: str) -> list[str]:
    """Events + a person as asked ("Peter", "ピーター", "ミナさん") -> the names these records know them
    by (omoide.answer.names.meant over the chats' speakers and conversations and the notes'
    mentions), or the name as asked when none is meant."""
    chat = events["source"].astype(str).isin(CHAT_SOURCE_KINDS)
    seen = [*events.loc[chat, "actor"].dropna(), *events.loc[chat, "title"].dropna()]
    if "entities" in events:
        seen += [n for ents in events["entities"] if ents is not None for n in ents]
    known = dict.fromkeys(str(n) for n in seen if isinstance(n, str) and n.strip())
    return meant(who, known) or [bare(who)]


# A noun "run" something else owns ("the CI run", "last night's run failed", "test run", "run
# #123") is not the person's run: the word before says whose or what kind, the word after numbers it.
_OWNERS = frozenset(
    "ci cd test tests build job jobs pipeline cron workflow nightly dry batch trial script "
    "deploy deployment release migration benchmark bench training export import backup".split()
)
_NUMBERED = re.compile(r"\s*(?:#\s*\d+|no\.\s*\d+|\d+\b|id\b)", _I)
_SEEN_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)


def in_sense(text: str, verb: str, bare: bool = True) -> bool:
    """Text + an activity's verb stem ('run') (+ whether its bare form may count) -> does the text say
    it as the person's activity? A past or -ing form (ran, running), or (when `bare`) the bare word
    not owned by something else."""
    words = list(_SEEN_WORD.finditer(text))
    for i, m in enumerate(words):
        word = m[0].casefold()
        if stem(word) != verb:
            continue
        if word not in (verb, verb + "s"):
            return True  # ran, running: a past or an -ing is the doing
        if not bare:
            continue
        before = words[i - 1][0].casefold() if i else ""
        owned = before.endswith(("'s", "’s")) or before in _OWNERS
        if not owned and not _NUMBERED.match(text, m.end()):
            return True
    return False


def activity_mask(
    events: pd.DataFrame, terms: tuple[str, ...] | list[str], bare: bool = True
) -> pd.Series:
    """Events + an activity's key terms (its verb first) (+ whether its bare form counts) -> the records
    holding them with the verb in its sense ("the CI run" is no run). A page or window title's bare
    "run" is a command or a noun ("uv run", "Run #42"), so there only a past or -ing form counts."""
    held = word_mask(events, terms)
    verb = _verb_of(terms)
    if verb is None:
        return held
    text = record_text(events)
    verdicts = {t: _in_sense_any(t, verb, bare) for t in text[held].unique()}
    return held & text.map(lambda t: verdicts.get(t, False)).astype(bool)


def _verb_of(terms: tuple[str, ...] | list[str]) -> str | None:
    """Key terms -> the activity's verb to read in its sense: the first English term, or a Japanese
    subject's verb; None for a host or a Japanese subject without one."""
    if not terms or "." in terms[0]:
        return None
    if not KANA.search(terms[0]):
        return terms[0]
    return next((t for t in terms if KANA.search(t) and japanese.is_verb(t)), None)


def _in_sense_any(text: str, verb: str, bare: bool) -> bool:
    """A record's text + a verb (English stem or Japanese word) + whether its bare form counts -> is
    the verb said as the person's activity? A Japanese verb in a Japanese record is; in English its
    one-word glosses are read as an English verb is."""
    if not KANA.search(verb):
        return in_sense(text, verb, bare)
    if verb in text or (KANA.search(text) and verb in japanese.content_words(text)):
        return True
    words = {stem(w) for w in WORD.findall(text)}
    return any(
        in_sense(text, f[0], bare) if len(f) == 1 else all(s in words for s in f)
        for f in latin_forms(verb)
    )


def english_verb(t: Target) -> str:
    """A target -> its activity's English verb stem: its first term when Latin, a Japanese verb's
    first one-word gloss (走る -> 'run'), or ''."""
    verb = _verb_of(t.terms) or ""
    if not KANA.search(verb):
        return verb if verb.isascii() and verb.isalpha() else ""
    words = (WORD.findall(g) for g in japanese.glosses(verb))
    return next((stem(w[0]) for w in words if len(w) == 1), "")


def talk_mask(events: pd.DataFrame, who: str) -> pd.Series:
    """Events + a name as asked -> chat messages by them, or in a conversation with them (under any name it means)."""
    lows = [n.casefold() for n in partner_names(events, who)]
    chat = events["source"].astype(str).isin(CHAT_SOURCE_KINDS)

    def named(value: object) -> bool:
        v = str(value).casefold() if isinstance(value, str) else ""
        return any(v == low or v.startswith(low + " ") or v.split(" ")[0] == low for low in lows)

    return chat & (events["actor"].map(named) | events["title"].map(named)).astype(bool)


def named_mask(events: pd.DataFrame, who: str) -> pd.Series:
    """Events + a name as asked -> the records naming them, under any name it means ('ピーター' finds 'Peter')."""
    out = pd.Series(False, index=events.index)
    for name in partner_names(events, who):
        out |= word_mask(events, key_terms(name))
    return out


def own_mask(events: pd.DataFrame, user_name: str, with_retain: bool = True) -> pd.Series:
    """Events + the person's name -> their own records: note lines (and `## Retain` lines) and the
    messages they wrote to people (what they asked an AI assistant is a topic, not something they did)."""
    kinds = ("note", "retain") if with_retain else ("note",)
    notes = (events["source"] == "notes") & events["event_type"].isin(kinds)
    speakers = {OWN_SPEAKER, user_name.casefold()} - {""}
    actor = events["actor"].map(lambda a: isinstance(a, str) and a.casefold() in speakers)
    source = events["source"].astype(str)
    to_people = source.isin(CHAT_SOURCE_KINDS) & ~source.isin(ASSISTANT_CHAT_KINDS)
    to_people &= ~events["title"].map(is_bot).astype(bool)
    return notes | (to_people & actor.astype(bool))


def seen_mask(events: pd.DataFrame) -> pd.Series:
    """Events -> the pages and windows the person had open (visits, web and window events)."""
    return events["event_type"].isin(("visit", "web", "window"))


def quoted_line(text: str, terms: tuple[str, ...] | list[str]) -> str:
    """A record's text + key terms -> its line holding them (a paragraph quotes the line that matched,
    in the subject's language when it can), one line."""
    lines = [line for line in text.splitlines() if line.strip()]
    # A Japanese subject quotes the record's Japanese line when it has one that matched.
    if any(KANA.search(t) for t in terms):
        lines = [x for x in lines if KANA.search(x)] + [x for x in lines if not KANA.search(x)]
    for line in lines:
        if terms and holds(line, terms):
            return " ".join(line.split())
    return " ".join(text.split())
