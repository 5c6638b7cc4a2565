"""Find and redact personal data in one string: e-mails, cards, phones, IPs, credentials.

Regexes (`pii_patterns`) only propose candidates; each candidate is then checked by the
library that knows the format (``ipaddress``, ``phonenumbers`` and ``stdnum.luhn`` via
`pii_numbers`), so look-alikes such as Luhn-invalid numbers, epoch timestamps, ISBNs,
versions, dates, times and out-of-range addresses stay intact. Credentials are URL
parameters, URL userinfo and tokens of a known shape (JWT, GitHub, Slack, AWS, ...).
"""

from __future__ import annotations

import ipaddress
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Collection
from typing import NamedTuple

from omoide.ingest.pii_numbers import is_card, is_phone
from omoide.ingest.pii_patterns import (
    ASPNET,
    CARD_CANDIDATE,
    EMAIL_DOMAIN,
    EMAILS,
    FILE_SUFFIXES,
    IPS,
    IPV4,
    IPV6,
    NUMBERS,
    NUMBERS_SCREEN,
    PHONE_CANDIDATE,
    PHONE_REGIONS,
    PREFILTER,
    QUOTED_LOCAL_MAX,
    SCREENS,
    SECRET_NAME,
    SECRETS,
    TOKEN,
    TRAILING_PUNCT,
    USERINFO,
    VALUE,
)

__all__ = [
    "CARD",
    "EMAIL",
    "IP",
    "PHONE",
    "PHONE_REGIONS",
    "PREFILTER",
    "SCREENS",
    "TOKENS",
    "TYPES",
    "URL_SECRET",
    "Span",
    "candidate_patterns",
    "find_pii",
    "redact_text",
]

EMAIL = "email"
CARD = "card"
PHONE = "phone"
IP = "ip"
URL_SECRET = "url_secret"  # credentials: URL parameters and userinfo, and known token formats
TYPES = (EMAIL, CARD, PHONE, IP, URL_SECRET)

REDACTED = "[REDACTED]"
TOKENS = {EMAIL: "[EMAIL]", CARD: "[CARD]", PHONE: "[PHONE]", IP: "[IP]", URL_SECRET: REDACTED}

_PRIORITY = {URL_SECRET: 0, EMAIL: 1, CARD: 2, IP: 3, PHONE: 4}


class Span(NamedTuple):
    """A detected piece of personal data: [start, end) in the text and its type."""

    start: int
    end: int
    type: str


class _Hit(NamedTuple):
    """A span plus how much of it redaction keeps."""

    start: int
    end: int
    type: str
    keep: int  # leading characters kept on redaction (`token=` of `token=abc`)


def _run_start(text: str, end: int, extra: str) -> int:
    """Text, end index, allowed punctuation -> start of the word-like run ending at `end`."""
    start = end
    while start and (text[start - 1].isalnum() or text[start - 1] in extra):
        start -= 1
    return start


def _tokens(text: str) -> list[_Hit]:
    """Text -> hits for credentials with a known shape (JWT, GitHub, Slack, AWS, Stripe...)."""
    hits = []
    for m in TOKEN.finditer(text):
        if m.group("sk") and not _mixed(m.group("sk")):
            continue  # a bare `sk-` also starts slugs such as sk-learn-tutorial-part-2
        keep = 0
        if m.group("scheme"):
            cred = m.group("cred")
            # A bare "bearer" is a word too; without the header name, ask for a token's shape.
            if "authorization" not in m.group("scheme").lower() and not (
                len(cred) >= 16 and _mixed(cred, upper=False)
            ):
                continue
            keep = m.start("cred") - m.start()
        hits.append(_Hit(m.start(), m.end(), URL_SECRET, keep))
    return hits


def _mixed(value: str, *, upper: bool = True) -> bool:
    """Token candidate -> True if it mixes digits and letters (and cases) as random keys do."""
    return (
        any(c.isdigit() for c in value)
        and any(c.islower() for c in value)
        and (any(c.isupper() for c in value) or not upper)
    )


def _url_secrets(text: str) -> list[_Hit]:
    """Text -> hits for credential parameters, URL userinfo, ASP.NET sessions and tokens."""
    hits = _tokens(text)
    for m in VALUE.finditer(text) if "=" in text else ():
        name_start = _run_start(text, m.start(), "_.-")
        value = m.group("value")
        if value.startswith(REDACTED) or not SECRET_NAME.fullmatch(text, name_start, m.start()):
            continue
        value = value.rstrip(TRAILING_PUNCT)
        if value:
            keep = m.start("value") - name_start
            hits.append(_Hit(name_start, m.start("value") + len(value), URL_SECRET, keep))
    if "@" in text and "://" in text:
        for m in USERINFO.finditer(text):
            if m.group("ui") != REDACTED:
                hits.append(_Hit(m.start("ui"), m.end("ui"), URL_SECRET, 0))
    if "/(" in text:
        hits.extend(_Hit(m.start("id"), m.end("id"), URL_SECRET, 0) for m in ASPNET.finditer(text))
    return hits


_RARE_ATEXT = "!#$*/^`{|}~"


def _escaped(text: str, index: int, floor: int) -> bool:
    """Text, an index and a floor -> True if an odd run of backslashes precedes that char."""
    run = 0
    while index - run - 1 >= floor and text[index - run - 1] == "\\":
        run += 1
    return run % 2 == 1


def _local_part_start(text: str, at: int) -> int:
    """Text and the index of an address's "@" -> start of its local part (``at`` if none)."""
    if at and text[at - 1] == '"':
        # A quoted local part ("john doe"@example.com) runs back to its opening quote.
        floor = max(0, at - QUOTED_LOCAL_MAX - 2)
        opening = text.rfind('"', floor, at - 1)
        while opening > floor and _escaped(text, opening, floor):
            opening = text.rfind('"', floor, opening)
        if opening >= 0 and not _escaped(text, opening, floor) and "\n" not in text[opening:at]:
            return opening
        return at
    start = at
    while start:
        c = text[start - 1]
        # An apostrophe belongs to the name only between letters (o'brien@, not 'john@).
        if (
            c.isalnum()
            or c in "_.%+-"
            or (c == "'" and start - 1 and text[start - 2].isalnum() and start < at)
        ):
            start -= 1
        else:
            break
    if start and text[start - 1] in _RARE_ATEXT:
        # RFC 5322 allows !#$*/^`{|}~ too ($A12345@, !def!xyz%abc@), but they also end paths
        # and markup: take them only when the run starts a word, minus leading markup.
        ext = start
        while ext and (text[ext - 1].isalnum() or text[ext - 1] in _RARE_ATEXT + "_.%+-"):
            ext -= 1
        if not ext or text[ext - 1].isspace() or text[ext - 1] in "<([,;\"'":
            start = ext
            while start < at and text[start] in "*`~|/":
                start += 1
    while start < at and text[start] == ".":
        start += 1
    return start


def _emails(text: str) -> list[_Hit]:
    """Text -> e-mail address hits (dotted and IP-literal domains, quoted local parts)."""
    hits = []
    for m in EMAIL_DOMAIN.finditer(text) if "@" in text else ():
        if m.group("literal"):
            try:
                ipaddress.ip_address(m.group("literal").removeprefix("IPv6:"))
            except ValueError:
                continue
        elif m.group("tld").lower() in FILE_SUFFIXES:
            continue  # icon@2x.png is a file name
        start = _local_part_start(text, m.start())
        if start == m.start():
            continue
        if text[start : m.start()] == "git" and text.startswith(":", m.end()):
            continue  # git@github.com:org/repo.git is an SSH remote, not a mailbox
        hits.append(_Hit(start, m.end(), EMAIL, 0))
    return hits


def _cards(text: str) -> list[_Hit]:
    """Text -> Luhn-valid card number hits (plain, or in groups split by spaces/dashes)."""
    hits = []
    for m in CARD_CANDIDATE.finditer(text):
        groups = re.split(r"[ -]", m.group(0))
        # A fifth group may be a neighbouring number rather than the end of the card.
        while True:
            if is_card("".join(groups)):
                length = sum(map(len, groups)) + len(groups) - 1
                hits.append(_Hit(m.start(), m.start() + length, CARD, 0))
                break
            if len(groups) < 4:
                break
            groups = groups[:-1]
    return hits


def _ips(text: str) -> list[_Hit]:
    """Text -> IPv4 / IPv6 address hits, validated by `ipaddress`."""
    hits = []
    for m in IPV4.finditer(text):
        try:
            ipaddress.IPv4Address(m.group(0))
        except ValueError:
            continue
        hits.append(_Hit(m.start(), m.end(), IP, 0))
    # A full IPv6 address has seven colons, six before an embedded IPv4, or "::".
    if "::" in text or text.count(":") >= 6:
        for m in IPV6.finditer(text):
            candidate = m.group(0).rstrip(".")
            # A bare "::" is far more often a separator (`Home :: Forum`) than an address.
            if candidate.count(":") < 2 or not any(c.isalnum() for c in candidate):
                continue
            try:
                ipaddress.IPv6Address(candidate)
            except ValueError:
                continue
            hits.append(_Hit(m.start(), m.start() + len(candidate), IP, 0))
    return hits


def _phones(text: str) -> list[_Hit]:
    """Text -> phone number hits, validated by `phonenumbers`."""
    hits = []
    for m in PHONE_CANDIDATE.finditer(text):
        number = m.group(0)
        before = text[m.start() - 1] if m.start() else ""
        if sum(map(str.isdigit, number)) < 7:
            continue
        if not is_phone(number, before):
            # A number followed by a small count ("+1 415 555 0132 7 days") is tried without it.
            head, _, tail = number.rpartition(" ")
            if not (head and tail.isdigit() and len(tail) <= 2 and is_phone(head, before)):
                continue
            number = head
        hits.append(_Hit(m.start(), m.start() + len(number), PHONE, 0))
    return hits


def _hits(text: str, screens: Collection[str] | None = None) -> list[_Hit]:
    """Text (and the screens it matched, if known) -> non-overlapping hits sorted by start."""
    if not text:
        return []
    if screens is None:
        # Cheap tests standing in for the screens; every detector gates itself further.
        screens = (
            (SECRETS, EMAILS, IPS, NUMBERS)
            if NUMBERS_SCREEN.search(text)
            else (SECRETS, EMAILS, IPS)
        )
    found: list[_Hit] = []
    if SECRETS in screens:
        found += _url_secrets(text)
    if EMAILS in screens:
        found += _emails(text)
    if IPS in screens:
        found += _ips(text)
    if NUMBERS in screens:
        found += _cards(text) + _phones(text)
    if len(found) <= 1:
        return found
    # Greedy by priority; `starts`/`chosen` stay sorted so each overlap test is a bisection.
    starts: list[int] = []
    chosen: list[_Hit] = []
    for hit in sorted(found, key=lambda h: (_PRIORITY[h.type], h.start, -h.end)):
        i = bisect_right(starts, hit.start)
        if (i and chosen[i - 1].end > hit.start) or (i < len(chosen) and starts[i] < hit.end):
            continue
        starts.insert(i, hit.start)
        chosen.insert(i, hit)
    return chosen


def candidate_patterns() -> list[re.Pattern[str]]:
    """() -> the compiled regexes the detectors propose candidates with (for benchmarks)."""
    return [
        EMAIL_DOMAIN,
        CARD_CANDIDATE,
        PHONE_CANDIDATE,
        IPV4,
        IPV6,
        VALUE,
        USERINFO,
        ASPNET,
        TOKEN,
    ]


def find_pii(text: str) -> list[Span]:
    """Text -> spans of personal data found in it (type is one of TYPES)."""
    return [Span(h.start, h.end, h.type) for h in _hits(text)]


def redact_text(text: str, *, screens: Collection[str] | None = None) -> tuple[str, Counter[str]]:
    """Text (+ SCREENS known to match; None = all) -> (text with PII tokens, count per type)."""
    hits = _hits(text, screens)
    counts: Counter[str] = Counter()
    if not hits:
        return text, counts
    parts = []
    pos = 0
    for hit in hits:
        parts.append(text[pos : hit.start + hit.keep])
        parts.append(TOKENS[hit.type])
        pos = hit.end
        counts[hit.type] += 1
    parts.append(text[pos:])
    return "".join(parts), counts
