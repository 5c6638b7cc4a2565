"""The records naming a person -> how the user knows them: family, colleague or friend, from evidence.

How close someone is (omoide.reflect.relationships: the bond) says nothing of where they
come from: a colleague one works with every day has a strong bond and is no friend for it.
The circle is read from what the records naming the person say and where they were said,
English and Japanese:

- family: a kinship word tied to the name ("my sister Mina", "Mina, my sister", "姉のミナ",
  "ミナは妹"); one such record is enough, as nobody writes it of a colleague. The kin must be
  the user's: "Peter's sister" names Peter's family, and a chat line Peter speaks ("Peter: my
  sister says …") speaks of his, so neither makes Peter family;
- colleague: a message in a work workspace (Slack: its refs are the only ones anchored
  `#ts=`, omoide.ingest.sources.slack), or work words in a record naming them (standup,
  sprint, review, release, migration, team, 会議, 打ち合わせ, ペアプロ …);
- friend: a message in a personal messenger (WhatsApp, LINE, Telegram) without work words,
  or social words in a record naming them (drinks, dinner, ramen, birthday, helping them move,
  飲み, ご飯 …). A time word ("last weekend") is no meeting: "Mina moved to Berlin last
  weekend" says where she lives, not that the user saw her.

Someone can be both a colleague and a friend: the circles are ranked, family first, then by
how many records speak of each (colleague on a tie: drinks with the team are still work's
circle); no evidence, no circle. `circles_held` keeps every circle that enough records speak
of (family from one, another from MIN_RECORDS and at least MIN_SHARE of the first's count),
so a colleague met for ramen and birthdays is both, and one stray word makes nobody a friend. Word lists are short and explicit: a circle nobody wrote
down is not guessed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

FAMILY, COLLEAGUE, FRIEND = "family", "colleague", "friend"
CIRCLES = (FAMILY, COLLEAGUE, FRIEND)
WORK_CHAT_KINDS = frozenset({"slack"})
PERSONAL_CHAT_KINDS = frozenset({"whatsapp", "line", "telegram"})
# A second circle is held when at least this many records, and this share of the first
# circle's count, speak of it: one "dinner" among forty work records is no friendship.
MIN_RECORDS = 3
MIN_SHARE = 0.25
_I = re.IGNORECASE

_KIN = (
    r"mother|mom|mum|father|dad|sister|brother|wife|husband|son|daughter|aunt|uncle|cousin"
    r"|niece|nephew|grandma|grandpa|grandmother|grandfather|parents?|sibling|partner"
)
_KIN_JA = r"母|父|姉|兄|妹|弟|妻|夫|娘|息子|祖母|祖父|叔母|伯母|叔父|伯父|いとこ|従姉妹|従兄弟|お母さん|お父さん|お姉ちゃん|お兄ちゃん"
_WORK = re.compile(
    r"\b(?:meetings?|stand-?ups?|sprints?|retros?|retrospective|planning|reviews?|demo(?:ed|s)?"
    r"|releases?|deploy(?:ed|s|ment)?|migrations?|roadmap|deadline|tickets?|pull\s+requests?|PRs?"
    r"|team(?:mates?)?|projects?|clients?|customers?|office|manager|boss|colleagues?"
    r"|co-?workers?|1:1|one-on-one|pair(?:ing|ed)?|onboarding|interview(?:ed|s)?)\b"
    r"|会議|打ち合わせ|打合せ|ミーティング|定例|朝会|スプリント|レビュー|リリース|デモ|移行|締め?切り?"
    r"|案件|仕事|職場|会社|出社|同僚|上司|部下|顧客|チーム|プロジェクト|ペアプロ|面接",
    _I,
)
_SOCIAL = re.compile(
    r"\b(?:drinks?|dinner|beers?|ramen|part(?:y|ies)|birthday|movies?|films?|concerts?|hik(?:e|ing)"
    r"|trips?|vacation|holidays?|brunch|karaoke|wedding|game\s+night|hang\s+out|pub|izakaya"
    r"|lunch|coffee|housewarming|presents?|gifts?)\b"
    r"|\bhelp(?:ed|ing|s)?\b[^.\n]{0,30}\bmov(?:e|ed|ing)\b|\bmoving\s+(?:boxes|day|van)\b"
    r"|飲み|ご飯|夕飯|遊び|遊ぼ|遊ん|誕生日|映画|旅行|カラオケ|結婚式|ラーメン|居酒屋|引っ越しの手伝い",
    _I,
)


# A chat line's speaker label ("↑ Peter: …", "Aiko: …"), as the chat memories write them.
_SPEAKER = re.compile(r"^\s*[↑↓]?\s*([^:\n]{1,40}):\s")


def _family_line(line: str, name: str) -> bool:
    """One line + a name it holds -> does it tie one of the user's kinship words to that name?"""
    n = re.escape(name)
    patterns = (
        rf"\bmy\s+(?:{_KIN})\s+@?{n}\b",
        # Apposition only ("Mina, my sister"): "Peter: my sister says" is Peter speaking.
        rf"(?<!\w)@?{n}\s*(?:,|\(|\s[-–—])\s*(?:who\s+is\s+)?my\s+(?:{_KIN})\b",
        rf"(?<!\w)@?{n}\s+is\s+my\s+(?:{_KIN})\b",
        rf"(?:{_KIN_JA})の{n}",
        rf"{n}(?:さん|ちゃん|くん)?(?:は|が|、)?(?:私の|僕の|俺の|うちの)?(?:{_KIN_JA})(?:です|だ|。|$)",
    )
    return any(re.search(p, line, _I) for p in patterns)


def _family(text: str, name: str) -> bool:
    """A record + a name it holds -> does it tie the user's kinship word to that name?"""
    for line in text.splitlines() or [text]:
        speaker = _SPEAKER.match(line)
        # What the person says of "my sister" is of their own sister, not of the user's.
        if speaker and speaker.group(1).strip().lstrip("@").casefold() == name.casefold():
            continue
        if _family_line(line[speaker.end() :] if speaker else line, name):
            return True
    return False


def circle_evidence(text: str, names: Iterable[str], chat_kind: str = "", ref: str = "") -> str:
    """One record naming a person (its text, the person's spellings, its chat source kind or its ref) -> the circle it speaks of, or ""."""
    spellings = [n for n in names if n]
    if any(_family(text, n) for n in spellings):
        return FAMILY
    if chat_kind in WORK_CHAT_KINDS or "#ts=" in ref or _WORK.search(text):
        return COLLEAGUE
    return FRIEND if chat_kind in PERSONAL_CHAT_KINDS or _SOCIAL.search(text) else ""


def circles_of(evidence: Iterable[str]) -> list[tuple[str, int]]:
    """The circles the records naming a person speak of -> each circle with its count, the one that names them first."""
    counts = Counter(e for e in evidence if e)
    order = {FAMILY: 0, COLLEAGUE: 1, FRIEND: 2}
    ranked = sorted(counts.items(), key=lambda kv: (kv[0] != FAMILY, -kv[1], order[kv[0]]))
    return [(c, n) for c, n in ranked if n]


def circles_held(evidence: Iterable[str]) -> list[str]:
    """The circles the records naming a person speak of -> every circle they are in, the first first (family from one record, the others from enough)."""
    ranked = circles_of(evidence)
    if not ranked:
        return []
    lead = max(n for c, n in ranked if c != FAMILY) if any(c != FAMILY for c, _ in ranked) else 0
    held = [
        c
        for i, (c, n) in enumerate(ranked)
        if c == FAMILY or i == 0 or (n >= MIN_RECORDS and n >= MIN_SHARE * lead)
    ]
    # Family or the first circle always; a lone other circle is held even from one record.
    return held


def circle_of(evidence: Iterable[str]) -> str:
    """The circles the records naming a person speak of -> how the user knows them first (family, colleague, friend, or "")."""
    ranked = circles_of(evidence)
    return ranked[0][0] if ranked else ""
