"""Records that describe what is forgotten: the window-watcher's view of a forgotten page or site, a note quoting its title.

A browser visit has a URL; the window watcher's record of the same minute has only the
window's title ("How to Make Dashi • Just One Cookbook — Mozilla Firefox"). So once the
selector has found the pages (records with a URL), these are forgotten with them:

- window-watcher records whose title is one of those pages' titles, alone or followed by a
  separator and the app's name;
- for a domain, window-watcher records whose title has the site's name as one of its parts
  (the name that ends several of the domain's page titles and no other site's);
- notes and chat lines quoting one of those titles verbatim when it is long enough to be that
  page's and nothing else's (`QUOTED_TITLE` characters).

A page title that a kept page also has ("Home", "Sign in") names no page: nothing is
forgotten by it. `--source` limits a forget to that source's own records, so nothing is
added then.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from omoide.forget.matcher import Matcher, Needle
from omoide.ingest import titles
from omoide.ingest.sanitize import host_of

# A title quoted in a note or chat counts from this length: "Settings" is anyone's word.
QUOTED_TITLE = 20
MIN_PAGE_TITLE = 8


@dataclass(frozen=True)
class Described:
    """What the selected pages are known by: their titles and, for a domain, its site's names (normalised)."""

    pages: frozenset[str] = frozenset()
    sites: frozenset[str] = frozenset()
    quoted: list[str] = field(default_factory=list)  # the page titles a text may quote


def _page_titles(events: pd.DataFrame) -> set[str]:
    """Events -> the normalised titles of those that are web pages (they have a URL)."""
    pages = events[events["url"].notna() & events["title"].notna()]
    return {titles.normal(t) for t in pages["title"].astype(str).unique()}


def under_domain(url: object, domain: str) -> bool:
    """URL + domain -> is its host the domain or a subdomain?"""
    host = host_of(url) if isinstance(url, str) else None
    return host is not None and (host == domain or host.endswith("." + domain))


def described(found: list[pd.DataFrame], kept: list[pd.DataFrame], domain: str | None) -> Described:
    """Selected and kept events -> the page titles and site names that describe only what is selected."""
    mine = set().union(*map(_page_titles, found)) if found else set()
    others = set().union(*map(_page_titles, kept)) if kept else set()
    pages = {t for t in mine - others if len(t) >= MIN_PAGE_TITLE}
    sites: set[str] = set()
    if domain:
        d = domain.strip().lower().strip(".")
        elsewhere = [
            e.loc[~e["url"].map(lambda u: under_domain(u, d)).astype(bool)]
            for e in kept
            if not e.empty
        ]
        sites = titles.site_names(
            mine, set().union(*map(_page_titles, elsewhere)) if elsewhere else ()
        )
    quoted = sorted(t for t in pages if len(t) >= QUOTED_TITLE)
    return Described(frozenset(pages), frozenset(sites), quoted)


def describing_mask(events: pd.DataFrame, what: Described) -> pd.Series:
    """A day's events + what describes the selection -> the rows that describe it (window titles, quoting texts)."""
    mask = pd.Series(False, index=events.index)
    if events.empty:
        return mask
    if what.pages or what.sites:
        window = events["event_type"].astype(str) == "window"
        verdicts = {
            t: titles.names_page(t, what.pages) or titles.names_site(t, what.sites)
            for t in events.loc[window, "title"].dropna().astype(str).unique()
        }
        mask |= window & events["title"].map(verdicts).fillna(False).astype(bool)
    if what.quoted:
        matcher = Matcher([Needle(t, word=True) for t in what.quoted])
        texts = events["text"].dropna().astype(str)
        quoting = {t: bool(matcher.in_text(t)) for t in texts.unique()}
        mask |= events["text"].map(quoting).fillna(False).astype(bool)
    return mask.astype(bool)
