"""An overview of a period ("what did I do yesterday / last week / in November") -> read from the smallest digest page that covers it.

Pages: a day `vault/memory/YYYY-MM-DD.md`, a week `vault/memory/weekly/YYYY-Www.md` (ISO week), a
month `vault/memory/monthly/YYYY-MM.md`. One day is its day page; a window inside one ISO week
is that week's page, inside one month that month's page; a longer window takes the month pages
it spans. When the chosen page does not exist yet (no reflection since), the window's day
pages answer instead. Each sentence of the answer cites the page line it came from; a kept
`## Retain` line cites the note line it quotes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from omoide.answer.cite import Citation, shown
from omoide.answer.language import Lang, day_text, language_of, nothing_recorded
from omoide.vault.page_reader import PageLine, page_sections

MAX_HIGHLIGHTS = 6
MAX_KEPT = 3
MAX_DAYS_LISTED = 7
SUMMARY_CHARS = 320
_RETAIN = re.compile(
    r"^[WBOS](?:\([^)]*\))?(?:\s+@[\w.\-]+)*\s*:?\s*(?P<text>.*?)\s+—\s+from\s+`(?P<ref>[^`]+)`"
)
_LINK = re.compile(r"\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]")


@dataclass(frozen=True)
class Page:
    """A digest page: its file and the period it covers (inclusive local days)."""

    path: Path
    first: date
    last: date


def day_page(vault_dir: Path, day: date) -> Page:
    """Vault + day -> its daily page."""
    return Page(vault_dir / "memory" / f"{day.isoformat()}.md", day, day)


def week_page(vault_dir: Path, day: date) -> Page:
    """Vault + a day -> the page of its ISO week."""
    year, week, weekday = day.isocalendar()
    first = day - timedelta(days=weekday - 1)
    return Page(
        vault_dir / "memory" / "weekly" / f"{year}-W{week:02d}.md", first, first + timedelta(days=6)
    )


def month_page(vault_dir: Path, day: date) -> Page:
    """Vault + a day -> the page of its month."""
    first = day.replace(day=1)
    last = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    return Page(vault_dir / "memory" / "monthly" / f"{first:%Y-%m}.md", first, last)


def page_label(page: Page, lang: Lang = "en") -> str:
    """Page -> how an answer names its period: 'Friday, 20 November 2026', 'The week 2026-W47', 'November 2026' / '2026年第47週' …"""
    if page.first == page.last:
        return day_text(page.first, lang)
    if page.path.parent.name == "weekly":
        year, week, _ = page.first.isocalendar()
        return f"{year}年第{week}週" if lang == "ja" else f"The week {year}-W{week:02d}"
    return f"{page.first.year}年{page.first.month}月" if lang == "ja" else f"{page.first:%B %Y}"


def _days(first: date, last: date) -> list[date]:
    """Inclusive range -> its days."""
    return [first + timedelta(days=i) for i in range((last - first).days + 1)]


def pages_for(vault_dir: Path, first: date, last: date) -> list[Page]:
    """Vault + an inclusive window of local days -> the smallest existing pages that cover it (day pages as the fallback)."""
    if first == last:
        page = day_page(vault_dir, first)
        return [page] if page.path.exists() else []
    if first.isocalendar()[:2] == last.isocalendar()[:2]:
        chosen = [week_page(vault_dir, first)]
    elif (first.year, first.month) == (last.year, last.month):
        chosen = [month_page(vault_dir, first)]
    else:
        months = sorted({(d.year, d.month) for d in _days(first, last)})
        chosen = [month_page(vault_dir, date(y, m, 1)) for y, m in months]
    if all(p.path.exists() for p in chosen):
        return chosen
    return [p for p in (day_page(vault_dir, d) for d in _days(first, last)) if p.path.exists()]


def _cite(page: Page, line: PageLine, home: Path, day: date | None = None) -> Citation:
    """Page + one of its lines -> the citation of that line (its day: the page's, or the day it names)."""
    return Citation(shown(f"{page.path}#L{line.line}", home), (day or page.first).isoformat())


def _linked_day(text: str, page: Page) -> date | None:
    """A page line -> the day its `[[YYYY-MM-DD]]` link names, when inside the page's period."""
    for name in _LINK.findall(text):
        try:
            day = date.fromisoformat(name.strip())
        except ValueError:
            continue
        if page.first <= day <= page.last:
            return day
    return None


def _in_period(day: str, page: Page) -> date | None:
    """A day as written + a page -> that day when inside the page's period."""
    try:
        d = date.fromisoformat(day)
    except ValueError:
        return None
    return d if page.first <= d <= page.last else None


def _clean(text: str) -> str:
    """A page line -> plain words: wiki links as their names, block ids and trailing citations off."""
    text = re.sub(r"\s+\^[\w-]+$", "", text)
    text = re.sub(r"\s+—\s+from\s+`[^`]*`.*$", "", text)
    text = re.sub(r"\s*\(\[\[[^\]]+\]\]\)$", "", text)
    return _LINK.sub(lambda m: m.group(1), text).strip()


def _sentences(text: str, limit: int) -> str:
    """Text -> its whole sentences that fit in `limit` characters (at least the first, cut)."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    end = max(cut.rfind(". "), cut.rfind("。"))
    return cut[: end + 1] if end > 0 else cut[: limit - 1] + "…"


def _first_section(sections: dict[str, list[PageLine]], *names: str) -> list[PageLine]:
    """Sections + names to try -> the lines of the first one the page has."""
    for name in names:
        if sections.get(name):
            return sections[name]
    return []


# What the answer itself says around the pages' own lines; the lines that quote the person's notes and
# chats stay as written (in 「」 in Japanese).
_WORDS = {
    "en": {
        "highlights": "Highlights: ",
        "sep": "; ",
        "end": ".",
        "noted": "You noted: ",
        "lead": ": ",
        "quote": "{}",
        "kept_sep": " ",
        "kept_end": "",
    },
    "ja": {
        "highlights": "ハイライト：",
        "sep": "、",
        "end": "。",
        "noted": "メモ：",
        "lead": "：",
        "quote": "「{}」",
        "kept_sep": "、",
        "kept_end": "。",
    },
}


def read_page(page: Page, home: Path, lang: Lang = "en") -> tuple[list[str], list[Citation]]:
    """A digest page -> the sentences an overview takes from it, and their citations."""
    sections = page_sections(page.path)
    sentences: list[str] = []
    cites: list[Citation] = []
    summary = _first_section(sections, "Summary")
    if summary:
        said = " ".join(_clean(s.text) for s in summary)
        if lang == "ja":
            # The summary is omoide's own template, so a Japanese answer says its figures.
            from omoide.answer.summary_ja import summary_ja

            said = summary_ja(said) or said
        sentences.append(_sentences(said, SUMMARY_CHARS))
        cites.append(_cite(page, summary[0], home))
    highlights = _first_section(sections, "Highlights")[:MAX_HIGHLIGHTS]
    if highlights:
        # Here, not at the top: the renderers' module pulls LanceDB in, which `omoide ask` about
        # time or a date would otherwise load for nothing.
        from omoide.vault.period_pages import highlight_parts

        # A week's or month's highlight names the day it came from (vault.period_pages).
        parts = [highlight_parts(h.text) for h in highlights]
        texts = [p.text if p else _clean(h.text) for p, h in zip(parts, highlights, strict=True)]
        words = _WORDS[lang]
        joined = words["sep"].join(_quoted(t.rstrip(" .。"), lang) for t in texts)
        sentences.append(words["highlights"] + joined + words["end"])
        cites += [
            _cite(page, h, home, _in_period(p.day, page) if p else _linked_day(h.text, page))
            for p, h in zip(parts, highlights, strict=True)
        ]
    kept = [
        (m["text"], m["ref"], line)
        for line in _first_section(sections, "Retain")
        if (m := _RETAIN.match(line.text))
    ][:MAX_KEPT]
    if kept:
        words = _WORDS[lang]
        quoted = [words["quote"].format(text) for text, _, _ in kept]
        sentences.append(words["noted"] + words["kept_sep"].join(quoted) + words["kept_end"])
        cites += [Citation(shown(ref, home), page.first.isoformat()) for _, ref, _ in kept]
    return sentences, cites


def overview(
    vault_dir: Path, home: Path, first: date, last: date, lang: Lang = "en"
) -> tuple[str, list[Citation], str]:
    """Vault + home + an inclusive window of local days (+ the answer's language) -> the answer's text, its citations, what it was read from."""
    pages = pages_for(vault_dir, first, last)
    if len(pages) > MAX_DAYS_LISTED:
        pages = _busiest(pages, MAX_DAYS_LISTED)
    parts: list[str] = []
    cites: list[Citation] = []
    for page in pages:
        sentences, cited = read_page(page, home, lang)
        if not sentences:
            continue
        named = len(pages) > 1 or page.first != page.last
        lead = page_label(page, lang) + _WORDS[lang]["lead"] if named else ""
        parts.append(lead + " ".join(sentences))
        cites += cited
    if not parts:
        # No page, or pages with nothing the pipeline wrote: an empty line would read as an answer.
        return nothing_recorded(first, last, lang), [], "none"
    kinds = {"weekly": "week page", "monthly": "month page"}
    basis = kinds.get(pages[0].path.parent.name, "day pages" if len(pages) > 1 else "day page")
    return "\n".join(parts), cites, basis


def _busiest(pages: Sequence[Page], n: int) -> list[Page]:
    """Day pages -> the n largest (the most recorded), in day order."""
    sized = sorted(pages, key=lambda p: p.path.stat().st_size, reverse=True)[:n]
    return sorted(sized, key=lambda p: p.first)


def _quoted(text: str, lang: Lang) -> str:
    """A highlight + the answer's language -> it as the answer says it: quoted when written in the other language."""
    if lang == "en" and language_of(text) == "ja":
        return f"“{text}”"
    return _WORDS[lang]["quote"].format(text)
