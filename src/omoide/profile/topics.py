"""A memory row -> its topics: the entities it names, and the web place a session was spent on.

What a topic is for the profile (core interests, the openness signal): something the person
spends attention on. Two kinds of web hosts are not that, and are kept in this one place:

- **Navigation: tools used to get somewhere.** Search engines (google.<tld>, bing.com,
  duckduckgo.com, …), sign-in and single-sign-on pages (accounts.google.com,
  login.microsoftonline.com, auth.<site>, *.okta.com, …) and URL shorteners (t.co, bit.ly,
  …). The rule: a host in NAVIGATION_HOSTS or under one of them; a bare search-engine host
  (first label in SEARCH_ENGINES, so google.co.jp but not docs.google.com); or a host of
  three labels or more whose first label is in NAVIGATION_LABELS (search.brave.com,
  login.example.org). A session row names its host and page titles, not its URLs (those stay
  in the lake's sessions), so the rule is by host: a site's own search page is that site.
  New-tab and browser pages (chrome://newtab) have no dotted host and are never topics.
- **Code hosts: where the person works, not what on.** github.com, gitlab.com, … are the
  workshop; the interest is the project. A session there yields the projects its page
  titles name, as GitHub and GitLab write them ("… · kumo-labs/warelay · GitHub", "… · group
  / project · GitLab", "owner/repo: description"), by the project's name (`warelay`), so it
  joins the `@warelay` the person writes; a session whose titles name no project yields none.

App names (kitty, Code, Slack) are tools rather than topics, so only places that look like
web hosts count.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Hosts that only take a person somewhere else (a host here covers its subdomains).
NAVIGATION_HOSTS = frozenset(
    {
        # URL shorteners and link redirectors
        "t.co",
        "bit.ly",
        "goo.gl",
        "tinyurl.com",
        "ow.ly",
        "buff.ly",
        "lnkd.in",
        "is.gd",
        "rb.gy",
        "t.ly",
        "cutt.ly",
        "tiny.cc",
        "shorturl.at",
        "l.facebook.com",
        "lm.facebook.com",
        "out.reddit.com",
        # sign-in and single sign-on providers
        "okta.com",
        "auth0.com",
        "onelogin.com",
        "appleid.apple.com",
        "login.live.com",
        "microsoftonline.com",
        # search engines reached under another label
        "html.duckduckgo.com",
        "lite.duckduckgo.com",
    }
)
# First label of a bare search-engine host: google.com, google.de, bing.com, duckduckgo.com, …
SEARCH_ENGINES = frozenset(
    {
        "google",
        "bing",
        "duckduckgo",
        "ecosia",
        "startpage",
        "qwant",
        "kagi",
        "yandex",
        "baidu",
    }
)
# First label of a host of three labels or more that searches or signs in for a site.
NAVIGATION_LABELS = frozenset(
    {
        "search",
        "login",
        "logon",
        "signin",
        "auth",
        "sso",
        "oauth",
        "accounts",
        "account",
        "id",
        "idp",
        "passport",
    }
)
# Where people keep code: the projects named in their titles are the topics, not the host.
CODE_HOSTS = frozenset({"github.com", "gitlab.com", "bitbucket.org", "codeberg.org"})

_SESSION = re.compile(r"^\d{2}:\d{2}–\d{2}:\d{2} (.+?) \(\d+ min\)(?:: (.*))?$", re.S)
# A project path as a title segment: "owner/repo" (GitHub) or "group / sub / project" (GitLab).
_PROJECT = re.compile(r"[\w.-]+(?: ?/ ?[\w.-]+)+")
_LEADING = re.compile(r"^(?:GitHub - )?([\w.-]+/[\w.-]+)(?::|$)")


def session_place(content: str) -> str | None:
    """A session record's line ("HH:MM–HH:MM place (N min): ...") -> the place, or None."""
    match = _SESSION.match(content)
    return match.group(1) if match else None


def is_navigation(host: str) -> bool:
    """A web host -> is it a tool used to get somewhere (search, sign-in, shortener)?"""
    host = host.strip().casefold().rstrip(".").removeprefix("www.")
    if any(host == h or host.endswith("." + h) for h in NAVIGATION_HOSTS):
        return True
    labels = host.split(".")
    if len(labels) >= 2 and labels[0] in SEARCH_ENGINES:
        # google.com, google.co.jp: the engine itself; docs.google.com has another first label.
        return True
    return len(labels) >= 3 and labels[0] in NAVIGATION_LABELS


def projects(titles: str) -> list[str]:
    """A code-host session's titles ("; "-joined) -> the names of the projects they name, in order."""
    found: list[str] = []
    for title in titles.split("; "):
        paths = [s for s in title.split(" · ") if _PROJECT.fullmatch(s.strip())]
        leading = _LEADING.match(title)
        if leading:
            paths.append(leading.group(1))
        for path in paths:
            name = path.replace(" ", "").rstrip("/").rsplit("/", 1)[-1]
            if re.search(r"[^\W\d_]", name):  # "1/2" is a page count, not a project
                found.append(name)
    return list(dict.fromkeys(found))


def web_topics(content: str) -> list[str]:
    """A session record's line -> the web topics it gives: its host, its projects, or none."""
    match = _SESSION.match(content)
    if not match:
        return []
    place, titles = match.group(1), match.group(2) or ""
    if "." not in place or " " in place or is_navigation(place):
        return []
    if place.casefold().removeprefix("www.") in CODE_HOSTS:
        return projects(titles)
    return [place]


def row_topics(kind: str, entities: Iterable[str] | None, content: str) -> list[str]:
    """A memory's kind, entities and content -> its topics: entities, and a session's web topics."""
    web = web_topics(content) if kind == "session" else []
    return list(dict.fromkeys([*(entities if entities is not None else []), *web]))
