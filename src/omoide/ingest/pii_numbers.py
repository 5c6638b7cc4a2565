"""Is a number a card or a phone: the checks behind `omoide.ingest.pii`'s number detectors.

Candidates come from the regexes in `pii_patterns`; these checks decide, with `stdnum.luhn`
for cards and `phonenumbers` for phones, after ruling out shapes that are dates (with a time
too), SSNs, ISBNs, years, amounts and versions.
"""

from __future__ import annotations

import re
from functools import lru_cache

import phonenumbers
from stdnum import luhn

from omoide.ingest.pii_patterns import EXTENSION, PHONE_REGIONS

# A date and a time of day written with dots, a space between: the two parts' separators
# differ, which no phone number's do.
_DATE_TIME = re.compile(r"(\d{1,2})\.(\d{1,2})\.(?:\d{2}|\d{4}) (\d{1,2})\.(\d{2})(?:\.(\d{2}))?")


def is_card(digits: str) -> bool:
    """Digit string -> True if it is a Luhn-valid 12-19 digit card number."""
    if digits[0] == "1" and len(digits) != 15:
        # Only UATP issues cards starting with 1 (15 digits); 13-, 16- and 19-digit runs
        # starting with 1 are epoch milli-, micro- and nanoseconds.
        return False
    if len(digits) == 13 and digits[0] != "4":
        return False  # only Visa issued 13-digit cards; 978/979... is an ISBN-13
    return 12 <= len(digits) <= 19 and len(set(digits)) > 1 and luhn.is_valid(digits)


def _digit_groups(number: str) -> list[str]:
    """Phone candidate -> its digit groups, in order."""
    return re.findall(r"\d+", number)


def _date_and_time(number: str) -> bool:
    """Phone candidate -> True for a dotted date and time ("13.06.18 21.25.15", Finnish and German)."""
    found = _DATE_TIME.fullmatch(number)
    if found is None:
        return False
    d, mo, h, mi, s = (int(g or 0) for g in found.groups())
    return 1 <= d <= 31 and 1 <= mo <= 12 and h <= 23 and mi <= 59 and s <= 59


def _other_number_shape(groups: list[str], number: str) -> bool:
    """Digit groups -> True for shapes that are dates, SSNs, years or thousands, not phones."""
    if _date_and_time(number):
        return True
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
    if len(groups) >= 4 and sizes[-1] == 1 and "-" in number:
        return True  # ISBN 0-306-40615-2: a one-digit check group ends no phone number
    if "." in number and "(" not in number:
        # 1.299.000 is an amount; 10.0.19041.1 a version; 01.84.17.61.18 a French phone.
        if all(s == 3 for s in sizes[1:]) or min(sizes) < 2:
            return True
    return False


@lru_cache(maxsize=65536)
def is_phone(number: str, before: str) -> bool:
    """Phone candidate and the character before it -> True if it is a phone number."""
    main = EXTENSION.sub("", number)
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
    if not 7 <= n_digits <= 13 or _other_number_shape(groups, main):
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
