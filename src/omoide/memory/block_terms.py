"""Window titles -> the words a stretch of screen time was about, and the named activity a few sites and words stand for.

A block is named by the words that set it apart from the rest of the day: a word's seconds
in the block, weighted by how rare it is among the day's active slots (inverse document
frequency), so the workspace or the browser in every title ("Kumo Labs", "Google Chrome")
never names a block, and a project's docs read for an hour do. Some pastimes are told by
their sites and words rather than by a name in the titles (a recipe site is cooking, a run
tracker is running); ACTIVITIES names those, after ActivityWatch's default categories
(regexes over app and title per category), and wins when it holds a large share of the
block's titled time.
"""

from __future__ import annotations

import re
from collections import Counter

# Words of the programs' own chrome and of the web's furniture: never what a stretch was about.
UI_WORDS = frozenset(
    """
    google chrome mozilla firefox safari edge brave chromium search results visual studio code
    slack channel threads dm obsidian vault zoom meeting workplace github gitlab pull request
    requests issue issues docs doc document documentation dashboard dashboards actions
    com org net www http https html localhost api new tab untitled updated prices home page
    the and for with from your you how what why when where this that are was not but into
    about via its all our out one two use using get set
    """.split()
)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9+#]+[A-Za-z0-9+#]|[\u3040-\u30ff\u4e00-\u9fff]{2,}")
# A named activity -> the words and site names that tell of it (lower-case, whole words).
ACTIVITIES: dict[str, frozenset[str]] = {
    "cooking": frozenset(
        "recipe recipes cookbook cooking cook kitchen kochen rezept rezepte chefkoch cookpad "
        "seriouseats allrecipes bbcgoodfood epicurious レシピ クックパッド 料理".split()
    ),
    "running": frozenset(
        "run running runner runners marathon strava komoot garmin jogging parkrun".split()
    ),
    "news": frozenset(
        "news nachrichten tagesschau heise spiegel zeit bbc nytimes guardian reuters "
        "ycombinator hacker ニュース".split()
    ),
    "Japanese": frozenset(
        "jisho wanikani kanji hiragana katakana japanese 日本語 やさしい日本語".split()
    ),
}


def title_words(title: object) -> list[str]:
    """A window or page title -> its words as written, without file names, UI words and numbers."""
    if not isinstance(title, str):
        return []
    text = re.sub(r"\S+\.\w{1,4}\b|\S*/\S*|#\d+|v\d+(\.\d+)*", " ", title)
    return [w for w in _WORD.findall(text) if w.lower() not in UI_WORDS]


def site_words(site: object) -> list[str]:
    """A host -> its distinctive name parts (lancedb.github.io -> lancedb, github)."""
    if not isinstance(site, str) or not site:
        return []
    parts = site.lower().split(".")[:-1]
    return [
        p for p in parts if p not in UI_WORDS and len(p) > 2 and p not in ("blog", "docs", "en")
    ]


def activity_of(words: list[str]) -> str | None:
    """A title's or site's lower-case words -> the named activity they tell of, or None."""
    for name, vocab in ACTIVITIES.items():
        if any(w in vocab for w in words):
            return name
    return None


def display(words: list[str]) -> dict[str, str]:
    """Words as written -> each lower-case word's most common spelling (LanceDB, Kyoto)."""
    seen: dict[str, Counter[str]] = {}
    for w in words:
        seen.setdefault(w.lower(), Counter())[w] += 1
    return {k: c.most_common(1)[0][0] for k, c in seen.items()}
