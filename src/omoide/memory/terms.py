"""Terms for the extractive digest in any script: words where text is spaced, CJK bigrams where not.

Chinese and Japanese are written without spaces (Korean spaces whole phrases), so a `\\w+`
tokenizer turns a sentence into one or two long tokens that never match anything. The
standard remedy in IR, and what Lucene's CJKAnalyzer does, is overlapping character bigrams
over every run of Han, Hiragana, Katakana and Hangul: 東京駅 -> 東京, 京駅. A run of a single
character is kept as that character. Text is NFKC-normalised first, as CJKAnalyzer's width
filter does, so full-width Latin (ＬａｎｃｅＤＢ) and half-width katakana (ｶﾀｶﾅ) match their usual forms.
"""

from __future__ import annotations

import re
import unicodedata

# Python's `re` has no script classes (\p{Han}); the `regex` package has them but is no
# dependency of omoide, so the CJK blocks are listed here (after NFKC, so no width variants):
# 々〆〇 and Hangzhou numerals, Hiragana (with its sound marks), Katakana with ー but not the
# ・ that separates words, Katakana extensions, Han (URO, Ext A, compatibility, the
# supplementary ideographic planes), Hangul jamo and syllables.
_CJK_CHARS = (
    "\u3005-\u3007\u3021-\u3029\u3038-\u303c"
    "\u3041-\u3096\u3099-\u309f"
    "\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff"
    "\u1100-\u11ff\u3131-\u318e\ua960-\ua97f\uac00-\ud7a3\ud7b0-\ud7ff"
)
_CJK_RUN = f"[{_CJK_CHARS}]+"
# A CJK run, or a run of other word characters (a CJK character ends it: "LanceDBに" splits).
_RUN = re.compile(f"({_CJK_RUN})|[^\\W{_CJK_CHARS}]+")
MIN_WORD = 3  # shorter spaced words are mostly function words ("of", "to", "is")


_HAS_CJK = re.compile(f"[{_CJK_CHARS}]")


def has_cjk(text: str) -> bool:
    """Text -> whether it holds a Chinese, Japanese or Korean character (such text has no spaces)."""
    return _HAS_CJK.search(unicodedata.normalize("NFKC", text)) is not None


def _runs(text: str) -> list[tuple[str, bool]]:
    """Text -> its NFKC lower-case runs in order, each with whether it is CJK."""
    norm = unicodedata.normalize("NFKC", text).lower()
    return [(m.group(0), m.group(1) is not None) for m in _RUN.finditer(norm)]


def bigrams(run: str) -> list[str]:
    """A CJK run -> its overlapping character bigrams (the character itself for a run of one)."""
    return [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]


def terms(text: str) -> list[str]:
    """Text -> lower-case terms in order: spaced words of 3+ characters and CJK bigrams."""
    out: list[str] = []
    for run, cjk in _runs(text):
        if cjk:
            out += bigrams(run)
        elif len(run) >= MIN_WORD:
            out.append(run)
    return out


def word_count(text: str) -> int:
    """Text -> about how many content words it has: spaced words of 3+ characters, CJK by length."""
    # A CJK run of n characters makes n-1 bigrams but holds fewer words: Japanese words
    # (particles included) run to roughly two characters, so two characters count as one word
    # and a length threshold means about the same for a Japanese note as for an English one.
    return sum(
        max(1, len(run) // 2) if cjk else int(len(run) >= MIN_WORD) for run, cjk in _runs(text)
    )
