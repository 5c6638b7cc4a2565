"""Whether a question is about something the person asked omoide to forget -> what, and when, from the tombstones.

Tombstones hold keyed hashes, never the text (`omoide.ingest.tombstones`): the question's own
words are hashed the same way and looked up. A host it names (and each parent domain) against
the `domain` hashes, a URL's prefixes against `url`, and every run of its words against the
forgotten page titles, site names and the words a forget was asked with (`title`, `site`,
`term`). The longest match is the thing forgotten; it is shown as the question wrote it, so
nothing forgotten is shown that the person did not just type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from omoide.answer.language import Lang, date_text
from omoide.core.days import zone
from omoide.ingest import titles
from omoide.ingest.tombstones import forgotten_at, keyed, salt_of

_HOST = re.compile(r"(?<![\w.-])(?:[a-z0-9-]+\.)+[a-z]{2,}(?![\w-])", re.IGNORECASE)
_URL = re.compile(r"https?://\S+", re.IGNORECASE)
_EDGE = "\"'“”‘’「」『』()[]<>.,;:!?？！。、"
_POSSESSIVE = re.compile(r"['’]s$", re.IGNORECASE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
TEXT_KINDS = ("title", "site", "term")
# Runs of words longer than this are no title or name anyone forgot; a question's words past
# MAX_CHARS are not looked at (a pasted paragraph would otherwise cost thousands of hashes).
MAX_WORDS = 12
MAX_CHARS = 400


@dataclass(frozen=True)
class Forgotten:
    """Something a question names that was forgotten: as the question wrote it, and when the forget was recorded (UTC)."""

    what: str
    at: datetime


def _words(subject: str) -> list[str]:
    """Subject -> its words without the quotes and punctuation around them, an '@' or a possessive."""
    out = []
    for raw in subject[:MAX_CHARS].split():
        word = _POSSESSIVE.sub("", raw.strip(_EDGE).lstrip("@")).strip(_EDGE)
        if word:
            out.append(word)
    return out


def _runs(subject: str) -> list[str]:
    """Subject -> every run of up to MAX_WORDS of its words, and of a Japanese word its runs of characters."""
    words = _words(subject)
    runs = {
        " ".join(words[i:j])
        for i in range(len(words))
        for j in range(i + 1, min(len(words), i + MAX_WORDS) + 1)
    }
    for word in words:
        if _CJK.search(word):
            runs |= {word[i:j] for i in range(len(word)) for j in range(i + 2, len(word) + 1)}
    return sorted(runs, key=lambda r: (-len(r), r))


def _candidates(salt: bytes, subject: str) -> list[tuple[str, str, str]]:
    """Salt + subject -> (kind, keyed hash, the words as asked) for everything in it a tombstone could hold."""
    out: list[tuple[str, str, str]] = []
    for url in _URL.findall(subject[:MAX_CHARS]):
        url = url.rstrip(_EDGE)
        out += [("url", keyed(salt, url[:n]), url[:n]) for n in range(len(url), 0, -1)]
    for host in _HOST.findall(subject[:MAX_CHARS]):
        labels = host.lower().split(".")
        # A bare top-level domain ("com") names nothing anyone forgot.
        for i in range(len(labels) - 1):
            domain = ".".join(labels[i:])
            out.append(("domain", keyed(salt, domain), domain))
    for run in _runs(subject):
        hashed = keyed(salt, titles.normal(run))
        out += [(kind, hashed, run) for kind in TEXT_KINDS]
    return out


def forgotten(state_dir: Path, subject: str) -> Forgotten | None:
    """State folder + a question's subject -> the longest thing it names that was forgotten, or None."""
    if not subject.strip():
        return None
    when = forgotten_at(state_dir)
    if not when:
        return None
    hits = [
        Forgotten(shown, when[(kind, hashed)])
        for kind, hashed, shown in _candidates(salt_of(state_dir), subject)
        if (kind, hashed) in when
    ]
    return max(hits, key=lambda f: len(f.what), default=None)


def gone_text(found: Forgotten, tz: str, lang: Lang = "en") -> str:
    """Forgotten + timezone (+ the answer's language) -> the answer saying it was forgotten, and when."""
    day = date_text(found.at.astimezone(zone(tz)).date(), lang)
    if lang == "ja":
        return f"{day}に「{found.what}」を忘れるよう頼まれたため、何も残っていません。"
    return f"You asked omoide to forget {found.what} on {day}; nothing of it is kept."


def left_out_text(found: Forgotten, tz: str, lang: Lang = "en") -> str:
    """Forgotten + timezone (+ the answer's language) -> the sentence added to an answer from what was kept of it."""
    day = date_text(found.at.astimezone(zone(tz)).date(), lang)
    if lang == "ja":
        return f"{day}に「{found.what}」を忘れるよう頼まれたため、その分は除いています。"
    return f"You asked omoide to forget {found.what} on {day}: that is left out."
