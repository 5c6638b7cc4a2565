"""Page and window titles -> the parts they are made of: the page's own title, the site's name, the app's.

A browser window's title is its page's title with the browser's name after a separator
("How to Make Dashi • Just One Cookbook — Mozilla Firefox"), and a page's title usually ends
with its site's name after one ("… • Just One Cookbook"). Forget uses these parts to find the
window-watcher records that describe a forgotten page or site, which carry no URL.
Titles are compared case-folded, with runs of whitespace as one space.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

# " - ", " — ", " – ", " | ", " • ", " · ", " :: " between spaces: a hyphen inside a word
# ("Higashiyama-ku") or a colon after one ("Re: plans") does not separate.
SEPARATOR = re.compile(r"\s+(?:[|•·—–]|-{1,2}|::)\s+")
# A site's name is taken only from what ends several of its pages' titles, and is this long:
# one page's last part may be anything ("… - Part 2").
MIN_SITE_PAGES = 2
MIN_SITE_LEN = 4


def normal(title: str) -> str:
    """Title -> case-folded, runs of whitespace as one space (the form titles are compared in)."""
    return " ".join(title.split()).casefold()


def segments(title: str) -> list[str]:
    """Title -> its parts between separators, normalised ("a • b — c" -> ["a", "b", "c"])."""
    return [s for s in SEPARATOR.split(normal(title)) if s]


def heads(title: str) -> list[str]:
    """Title -> its leading parts up to each separator, and itself, normalised ("a • b — c" -> ["a", "a • b", "a • b — c"])."""
    text = normal(title)
    return [text[: m.start()] for m in SEPARATOR.finditer(text) if m.start() > 0] + [text]


def names_page(title: str, pages: set[str] | frozenset[str]) -> bool:
    """Window title + normalised page titles -> True when it is one of them, or one of them then a separator (the app's name)."""
    return bool(pages) and any(h in pages for h in heads(title))


def names_site(title: str, sites: set[str] | frozenset[str]) -> bool:
    """Title + normalised site names -> True when one of its parts is one of them."""
    return bool(sites) and any(s in sites for s in segments(title))


def site_names(page_titles: Iterable[str], other_titles: Iterable[str]) -> set[str]:
    """A site's page titles + other sites' page titles -> the site's names: what ends several of its titles and no other site's.

    "Oyakodon • Just One Cookbook" and "How to Make Dashi • Just One Cookbook" give
    "just one cookbook"; a last part that another site's titles also hold ("Home", "Login")
    names no site.
    """
    last = Counter()
    for title in set(map(normal, page_titles)):
        parts = segments(title)
        if len(parts) >= 2:
            last[parts[-1]] += 1
    taken = {s for t in other_titles for s in segments(t)}
    return {
        s
        for s, n in last.items()
        if n >= MIN_SITE_PAGES and len(s) >= MIN_SITE_LEN and s not in taken
    }
