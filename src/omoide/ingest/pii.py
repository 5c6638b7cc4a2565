"""Find and redact personal data in one string: e-mails, cards, phones, IPs, URL secrets.

Regexes only propose candidates; each candidate is then checked by the library that knows
the format (``ipaddress``, ``phonenumbers``, ``stdnum.luhn``), so look-alikes such as
Luhn-invalid numbers, versions, dates, times and out-of-range addresses stay intact.
"""

from __future__ import annotations

import ipaddress
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Collection
from functools import lru_cache
from typing import NamedTuple

import phonenumbers
from stdnum import luhn

EMAIL = "email"
CARD = "card"
PHONE = "phone"
IP = "ip"
URL_SECRET = "url_secret"
TYPES = (EMAIL, CARD, PHONE, IP, URL_SECRET)

REDACTED = "[REDACTED]"
TOKENS = {EMAIL: "[EMAIL]", CARD: "[CARD]", PHONE: "[PHONE]", IP: "[IP]", URL_SECRET: REDACTED}

# National numbers written without a country code are accepted when valid in one of these;
# bare digit runs only when valid in the first (the default region).
PHONE_REGIONS = (
    "US", "GB", "DE", "FR", "IT", "ES", "NL", "BE", "CH", "AT",
    "SE", "NO", "DK", "FI", "PL", "PT", "BR", "AU", "IN", "JP",
)  # fmt: skip

# Screens, one per detector group, in the regex syntax RE2 (pyarrow) and `re` share. Each is
# a superset of what its detectors find, so sanitize can screen whole columns in C++ and
# run only the detectors whose screen matched.
SECRETS, EMAILS, NUMBERS, IPS = "secrets", "emails", "numbers", "ips"
SCREENS = {
    SECRETS: r"(?i:token|secret|passw|pwd|sess|sid|code|key|auth|sig|cfid|credential)[\w.-]*="
    r"|/\(|@",
    EMAILS: r"@",
    NUMBERS: r"\d(?:[ ().+-]{0,3}\d){6}",  # seven digits: the least a phone or card holds
    IPS: r"\d\.\d{1,3}\.\d{1,3}\.\d|::|[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){7}",
}
PREFILTER = "|".join(f"(?:{screen})" for screen in SCREENS.values())
_NUMBERS = re.compile(SCREENS[NUMBERS], re.ASCII)  # RE2 classes are ASCII too

# Detectors start with a literal or a character class and check what precedes it with a
# two-char lookbehind: `re` then skips ahead to candidates instead of trying every position.
# An e-mail is found from its "@domain.tld"; the local part is read backwards from the "@".
_EMAIL_DOMAIN = re.compile(r"@(?:[^\W_][\w-]*\.)+(?:xn--[\w-]+|[^\W\d_]{2,63})(?![\w-]|\.[^\W_])")
_IPV4 = re.compile(r"\d(?<![\w.]\d)\d{0,2}(?:\.\d{1,3}){3}(?!\w|\.\d)", re.ASCII)
_IPV6 = re.compile(r"[0-9A-Fa-f:](?<![\w:.].)[0-9A-Fa-f:.]*+(?!\w)", re.ASCII)
_CARD = re.compile(
    r"\d(?<![\w.,+-]\d)(?:"
    r"\d{3}(?P<s1>[ -])\d{6}(?P=s1)\d{4,5}"  # Amex / Diners 4-6-5, 4-6-4
    r"|\d{3}(?P<s2>[ -])\d{4}(?:(?P=s2)\d{4}){1,2}(?:(?P=s2)\d{1,4})?"  # 4-4-4-4(-n)
    r"|\d{11,18})(?!\w|[.,]\d)",
    re.ASCII,
)
_PHONE = re.compile(
    r"[+(\d](?<![\w+./@-].)(?<!\d,.)"  # not inside a word, path, address or 1,234,567
    r"(?:(?<=\+)(?:\(\d{1,5}\)|\d+)|(?<=\()\d{1,5}\)|(?<=\d)\d*)"
    r"(?:[ .-]?\(\d{1,5}\)|(?<=\))[ ]?\d+|[ .-]\d+)*+"
    r"(?:[ ]?(?:x|ext\.?|\#)[ ]?\d{1,6})?"
    r"(?![\w@]|[:/,]\d)",
    re.ASCII,
)
_EXTENSION = re.compile(r"[ ]?(?:x|ext\.?|#)[ ]?\d{1,6}$")

# Query, fragment, form or path (`;jsessionid=`) parameters whose value is a credential:
# exact names, and names ending in a credential word (public_key, CFTOKEN, X-Amz-Signature).
_SECRET_NAME = re.compile(
    r"sid|session|code|key|pwd|auth|sig|cfid|authorization|aspsessionid\w*"
    r"|[\w.-]*?(?:token|secret|passw(?:or)?d|sessid|session_?id|signature|credential"
    r"|[_-]key|apikey|accesskey|accesskeyid|secretkey|privatekey)",
    re.IGNORECASE,
)
# A parameter is found from its "=value"; the name is read backwards from the "=".
_VALUE = re.compile(r"=(?P<value>[^\s&#;?\"'<>]+)")
_USERINFO = re.compile(r"://(?<=[\w+.-]://)(?P<ui>[^\s/?#@\[\]<>\"']+)@")  # after a scheme
# ASP.NET cookieless session ids: 24 chars of [a-z0-5] in a path segment, `/(id)/` or `/(S(id))/`.
_ASPNET = re.compile(r"(?<=/\()(?:[A-Za-z]\()?(?P<id>[a-z0-5]{24})(?=\)\)?/)")
_TRAILING_PUNCT = ".,:;!)]}'\""

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


def _url_secrets(text: str) -> list[_Hit]:
    """Text -> hits for credential parameters, URL userinfo and ASP.NET session paths."""
    hits = []
    for m in _VALUE.finditer(text) if "=" in text else ():
        name_start = _run_start(text, m.start(), "_.-")
        value = m.group("value")
        if value.startswith(REDACTED) or not _SECRET_NAME.fullmatch(text, name_start, m.start()):
            continue
        value = value.rstrip(_TRAILING_PUNCT)
        if value:
            keep = m.start("value") - name_start
            hits.append(_Hit(name_start, m.start("value") + len(value), URL_SECRET, keep))
    if "@" in text and "://" in text:
        for m in _USERINFO.finditer(text):
            if m.group("ui") != REDACTED:
                hits.append(_Hit(m.start("ui"), m.end("ui"), URL_SECRET, 0))
    if "/(" in text:
        hits.extend(_Hit(m.start("id"), m.end("id"), URL_SECRET, 0) for m in _ASPNET.finditer(text))
    return hits


def _emails(text: str) -> list[_Hit]:
    """Text -> e-mail address hits."""
    hits = []
    for m in _EMAIL_DOMAIN.finditer(text) if "@" in text else ():
        start = _run_start(text, m.start(), "_.%+-")
        while start < m.start() and text[start] == ".":
            start += 1
        if start < m.start():
            hits.append(_Hit(start, m.end(), EMAIL, 0))
    return hits


def _is_card(digits: str) -> bool:
    """Digit string -> True if it is a Luhn-valid 12-19 digit card number."""
    return 12 <= len(digits) <= 19 and len(set(digits)) > 1 and luhn.is_valid(digits)


def _cards(text: str) -> list[_Hit]:
    """Text -> Luhn-valid card number hits (plain, or in groups split by spaces/dashes)."""
    hits = []
    for m in _CARD.finditer(text):
        groups = re.split(r"[ -]", m.group(0))
        # A fifth group may be a neighbouring number rather than the end of the card.
        while True:
            if _is_card("".join(groups)):
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
    for m in _IPV4.finditer(text):
        try:
            ipaddress.IPv4Address(m.group(0))
        except ValueError:
            continue
        hits.append(_Hit(m.start(), m.end(), IP, 0))
    # A full IPv6 address has seven colons, six before an embedded IPv4, or "::".
    if "::" in text or text.count(":") >= 6:
        for m in _IPV6.finditer(text):
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


def _digit_groups(number: str) -> list[str]:
    """Phone candidate -> its digit groups, in order."""
    return re.findall(r"\d+", number)


def _looks_like_other_number(groups: list[str], number: str) -> bool:
    """Digit groups -> True for shapes that are dates, SSNs, years or thousands, not phones."""
    sizes = [len(g) for g in groups]
    if len(groups) == 3:
        first, second, last = (int(g) for g in groups)
        years = range(1900, 2100)
        if sizes[0] == 4 and first in years and 1 <= second <= 12:  # 2021-05-21
            return True
        if sizes[2] == 4 and last in years and first <= 31 and second <= 31:  # 5-20-2021
            return True
        if sizes == [3, 2, 4] and "(" not in number:  # US social security number
            return True
    if len(groups) > 1 and all(len(g) == 4 and int(g) in range(1900, 2100) for g in groups):
        return True
    if "." in number and "(" not in number:
        # 1.299.000 is an amount; 10.0.19041.1 a version; 01.84.17.61.18 a French phone.
        if all(s == 3 for s in sizes[1:]) or min(sizes) < 2:
            return True
    return False


@lru_cache(maxsize=65536)
def _is_phone(number: str, before: str) -> bool:
    """Phone candidate and the character before it -> True if it is a phone number."""
    main = _EXTENSION.sub("", number)
    groups = _digit_groups(main)
    n_digits = sum(len(g) for g in groups)
    if main.startswith(("+", "00")):
        if not 8 <= n_digits <= 17:
            return False
        international = "+" + main.lstrip("+")[2 if main.startswith("00") else 0 :]
        try:
            parsed = phonenumbers.parse(international, None)
        except phonenumbers.NumberParseException:
            return False
        return phonenumbers.is_possible_number(parsed)
    if not 7 <= n_digits <= 13 or _looks_like_other_number(groups, main):
        return False
    if n_digits == 7 and [len(g) for g in groups] != [3, 4]:
        return False
    if len(groups) == 1 and "(" not in main:
        # A bare digit run is usually an id; in a URL path or parameter value it always is.
        if before in ("=", "/") or n_digits not in (10, 11):
            return False
        regions: tuple[str, ...] = PHONE_REGIONS[:1]
    else:
        regions = PHONE_REGIONS
    for region in regions:
        try:
            parsed = phonenumbers.parse(main, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(parsed):
            return True
    return False


def _phones(text: str) -> list[_Hit]:
    """Text -> phone number hits, validated by `phonenumbers`."""
    hits = []
    for m in _PHONE.finditer(text):
        number = m.group(0)
        if sum(map(str.isdigit, number)) < 7:
            continue
        before = text[m.start() - 1] if m.start() else ""
        if _is_phone(number, before):
            hits.append(_Hit(m.start(), m.end(), PHONE, 0))
    return hits


def _hits(text: str, screens: Collection[str] | None = None) -> list[_Hit]:
    """Text (and the screens it matched, if known) -> non-overlapping hits sorted by start."""
    if not text:
        return []
    if screens is None:
        # Cheap tests standing in for the screens; every detector gates itself further.
        screens = (
            (SECRETS, EMAILS, IPS, NUMBERS) if _NUMBERS.search(text) else (SECRETS, EMAILS, IPS)
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
    return [_EMAIL_DOMAIN, _CARD, _PHONE, _IPV4, _IPV6, _VALUE, _USERINFO, _ASPNET]


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
