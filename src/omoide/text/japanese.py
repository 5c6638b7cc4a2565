"""Japanese text -> its content words, their romaji readings and their English glosses.

Kept libraries do the work: SudachiPy with sudachidict-core (split mode C, so 親子丼 and 歯医者
stay whole) tokenizes and gives each word's dictionary form and reading; jaconv writes a
reading in romaji; JMdict (the `jamdict-data` package's SQLite file, opened read-only) gives
a word's English glosses. Everything loads on first use and is kept for the process: nothing
is read at import and nothing goes to the network.
"""

from __future__ import annotations

import re
import sqlite3
from functools import cache, lru_cache

import jaconv

# Parts of speech that carry what a sentence is about (Sudachi's first POS field).
_CONTENT = frozenset(("名詞", "動詞", "形容詞", "形状詞"))
# Verbs that only carry grammar ("…した", "…がある", "…している", "…になった").
_LIGHT_VERBS = frozenset(("する", "ある", "いる", "なる", "為る", "有る", "在る", "居る", "成る"))
# Nouns that say when or how many, not what: 日, 今日, 後 (副詞可能), a counter after a number.
_TIME_NOUN = "副詞可能"
_COUNTER = "助数詞可能"
_KATAKANA_NAME = re.compile(r"^[\u30a0-\u30ff・]+$")
_LATIN_NAME = re.compile(r"^[A-Za-z][A-Za-z .'\-]*$")
_LONG_VOWEL = re.compile(r"(?<=o)[ou]|(?<=u)u")
_PAREN = re.compile(r"\s*[(（][^)）]*[)）]")
# The gloss lookup: the word's entries (as kanji or kana) -> their senses -> English glosses.
# CROSS JOIN keeps SQLite's join order and `+g.lang` keeps it off the lang index, which
# would otherwise scan every English gloss.
_GLOSSES = """
SELECT s.idseq, s.ID, g.text FROM (
  SELECT idseq FROM Kanji WHERE text = :w UNION SELECT idseq FROM Kana WHERE text = :w
) AS e CROSS JOIN Sense AS s ON s.idseq = e.idseq CROSS JOIN SenseGloss AS g ON g.sid = s.ID
WHERE +g.lang = 'eng' ORDER BY s.idseq, s.ID, g.rowid
"""


# A name JMdict does not hold (ピーター, ミナ, ベルリン) -> its English spellings in JMnedict, the
# names dictionary in the same file.
_NAME_GLOSSES = """
SELECT g.text FROM (
  SELECT idseq FROM NEKana WHERE text = :w UNION SELECT idseq FROM NEKanji WHERE text = :w
) AS e CROSS JOIN NETranslation AS t ON t.idseq = e.idseq CROSS JOIN NETransGloss AS g ON g.tid = t.ID
ORDER BY e.idseq, t.ID, g.rowid
"""
NAME_GLOSSES = 3  # a name's first spellings: ピーター is Peter or Petre, not every transcription


@cache
def _tokenizer():
    """-> the Sudachi tokenizer (core dictionary, split mode C), built once."""
    from sudachipy import Dictionary, SplitMode

    return Dictionary(dict="core").tokenizer(SplitMode.C)


@cache
def _jmdict() -> sqlite3.Connection:
    """-> a read-only connection to JMdict's SQLite file, opened once."""
    import jamdict_data

    return sqlite3.connect(
        f"file:{jamdict_data.JAMDICT_DB_PATH}?mode=ro", uri=True, check_same_thread=False
    )


def _question_word(form: str, pos: tuple[str, ...]) -> bool:
    """A word's dictionary form + POS -> is it a question word (何, いつ, どこ, 何回, 誰)?"""
    return pos[0] == "代名詞" or form.startswith("何")


@lru_cache(maxsize=1 << 16)
def _content(text: str) -> tuple[str, ...]:
    """Japanese text -> its content words' dictionary forms, in order, each once."""
    out: dict[str, None] = {}
    before: tuple[str, tuple[str, ...]] = ("", ("",))
    for m in _tokenizer().tokenize(text):
        form, pos = m.dictionary_form(), tuple(m.part_of_speech())
        prev_form, prev_pos = before
        before = (form, pos)
        if pos[0] not in _CONTENT or _question_word(form, pos) or pos[1] == "数詞":
            continue
        if pos[0] == "動詞" and (form in _LIGHT_VERBS or m.normalized_form() in _LIGHT_VERBS):
            continue
        # "…ている", "…てしまう": a verb after て is the sentence's grammar, not its content;
        # "について" / "につき" is a particle, whatever its verb.
        if pos[1] == "非自立可能" and prev_form in ("て", "で"):
            continue
        if pos[0] == "動詞" and form in ("つく", "付く") and prev_form == "に":
            continue
        if _TIME_NOUN in pos or (_COUNTER in pos and prev_pos[1] == "数詞"):
            continue
        out[form] = None
    return tuple(out)


def content_words(text: str) -> list[str]:
    """Japanese text -> the dictionary forms of its nouns, verbs, adjectives and proper nouns (no
    particles, auxiliaries, question words, counters, nor する/ある/いる/なる)."""
    return list(_content(text))


@cache
def _reading(word: str) -> str:
    """A word -> its reading in katakana (Sudachi's, token by token)."""
    return "".join(m.reading_form() for m in _tokenizer().tokenize(word))


def romaji(word: str) -> str:
    """A Japanese word -> its reading in lower-case romaji, long vowels as one (京都 -> 'kyoto',
    大阪 -> 'osaka', ラーメン -> 'ramen')."""
    latin = jaconv.kata2alphabet(jaconv.hira2kata(_reading(word))).replace("-", "")
    return _LONG_VOWEL.sub("", latin.casefold())


@cache
def _glosses(word: str) -> tuple[str, ...]:
    """A word -> the English glosses of its first sense in JMdict, cleaned."""
    rows = _jmdict().execute(_GLOSSES, {"w": word}).fetchall()
    if not rows:
        names = _jmdict().execute(_NAME_GLOSSES, {"w": word}).fetchall()
        return tuple(dict.fromkeys(_PAREN.sub("", n).strip() for (n,) in names[:NAME_GLOSSES]))
    first = rows[0][:2]
    out: dict[str, None] = {}
    for idseq, sid, text in rows:
        if (idseq, sid) != first:
            break
        clean = _PAREN.sub("", text).strip()
        clean = clean[3:] if clean.startswith("to ") else clean
        if clean:
            out[clean] = None
    return tuple(out)


def glosses(word: str) -> list[str]:
    """A Japanese word (dictionary form) -> the English glosses of its first sense (走る -> ['run'],
    歯医者 -> ['dentist']), 'to ' and parentheses taken off; a name JMdict lacks by its spellings
    in JMnedict (ピーター -> ['Peter', 'Petre']); [] when neither has the word."""
    return list(_glosses(word))


def is_name(word: str) -> bool:
    """A word -> whether it is written as a person's name: in katakana or Latin letters (ミナ,
    Peter), or one Sudachi reads as a name (田中); not 母 nor 上司."""
    if _KATAKANA_NAME.match(word) or _LATIN_NAME.match(word):
        return True
    found = list(_tokenizer().tokenize(word))
    return len(found) == 1 and tuple(found[0].part_of_speech()[1:3]) == ("固有名詞", "人名")


def is_verb(word: str) -> bool:
    """A word in its dictionary form -> whether it is one verb (走る, 作る; not 旅館 nor 静か)."""
    found = list(_tokenizer().tokenize(word))
    return len(found) == 1 and found[0].part_of_speech()[0] == "動詞"
