"""What to forget: selectors -> the lake records they match, the days they touch, the strings to scan for.

Every selector resolves to records (lake events): a domain, a URL prefix, a text, an entity,
a day, a source, or a memory (the records it was made from). Selectors given together must
all hold. The records that describe what was selected (the window watcher's record of a
forgotten page, see `omoide.forget.describe`) go with it. Everything else omoide holds is
derived from records, so the cascade starts there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import pandas as pd

from omoide.core.errors import OmoideError
from omoide.forget.describe import Described, described, describing_mask, under_domain
from omoide.forget.matcher import Matcher, Needle
from omoide.store.lake import read_events, read_facts, stage_days

# A forgotten record's title, URL or text shorter than this is not scanned for: "ok" or
# "Home" is in every file. The selector's own text always is.
MIN_NEEDLE = 8
TEXT_FIELDS = ("title", "url", "text")

__all__ = ["MIN_NEEDLE", "Needle", "NothingSelected", "Selection", "Selector", "select_records"]


class NothingSelected(OmoideError):
    """forget was given no selector at all (it never forgets everything by accident)."""


@dataclass(frozen=True)
class Selector:
    """The `omoide forget` options: which records to take back."""

    since: date | None = None
    until: date | None = None
    source: str | None = None
    domain: str | None = None
    url: str | None = None
    entity: str | None = None
    memory: str | None = None
    match: str | None = None

    def __post_init__(self) -> None:
        if all(v in (None, "") for v in vars(self).values()):
            raise NothingSelected(
                "forget needs a selector: --day/--since/--until, --source, --domain, --url, "
                "--entity, --memory or --match"
            )


@dataclass
class Selection:
    """Selector -> the matching lake events (with their `day`), the days touched, the scan needles.

    The needles (every distinct title, URL and text of the forgotten records) live in memory
    only: what is written down is the tombstones' keyed hashes.
    """

    events: pd.DataFrame
    days: list[date]
    needles: list[Needle]
    described: Described = field(default_factory=Described)
    # Per day, the memory rows made from it or quoting it (filled by the cascade, once).
    memories: dict[date, set[str]] | None = None

    def __post_init__(self) -> None:
        self.matcher = Matcher(self.needles)


def _word(name: str) -> re.Pattern[str]:
    """Name -> a case-insensitive whole-word pattern for it."""
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)


def _domain_mask(events: pd.DataFrame, domain: str) -> pd.Series:
    """Events + domain -> rows whose URL's host is the domain or a subdomain, or whose title names it.

    Window-focus records of a browser carry no URL, only the window title ("… - example.com -
    Chrome"), so a host-shaped mention in the title counts too.
    """
    d = domain.strip().lower().strip(".")
    named = re.compile(rf"(?<![\w.-])(?:[\w-]+\.)*{re.escape(d)}(?![\w-])", re.IGNORECASE)
    titled = events["title"].fillna("").str.contains(named)
    # A note or chat line naming the site ("the recipe on justonecookbook.com/oyakodon") too.
    quoted = events["text"].fillna("").str.contains(named)
    under = events["url"].map(lambda u: under_domain(u, d)).astype(bool)
    return (under | titled | quoted).astype(bool)


def _text_mask(events: pd.DataFrame, text: str) -> pd.Series:
    """Events + text -> rows whose title, URL or text contains it (any case)."""
    mask = pd.Series(False, index=events.index)
    for col in TEXT_FIELDS:
        mask |= events[col].fillna("").str.contains(text, case=False, regex=False)
    return mask


def _entity_mask(events: pd.DataFrame, name: str, refs: set[str]) -> pd.Series:
    """Events + entity name + refs of memories about it -> rows by, with, about or behind it."""
    pattern = _word(name)
    low = name.strip().lower()
    mask = events["source_ref"].isin(refs)
    for col in ("actor", "title"):
        mask |= events[col].fillna("").str.strip().str.lower() == low
    for col in TEXT_FIELDS:
        mask |= events[col].fillna("").str.contains(pattern)
    mask |= events["entities"].map(
        lambda es: es is not None and any(str(e).lstrip("@").lower() == low for e in es)
    )
    return mask.astype(bool)


def _memory_refs(
    lake_dir: Path, days: list[date], memory_id: str | None, entity: str | None
) -> set[str]:
    """Lake facts -> the source refs of the memory with this id, or of the memories about the entity."""
    refs: set[str] = set()
    low = (entity or "").lower()
    for day in days:
        facts = read_facts(lake_dir, day)
        if facts.empty:
            continue
        if memory_id:
            chosen = facts[facts["memory_id"] == memory_id]
        else:
            chosen = facts[
                facts["entities"].map(
                    lambda es: es is not None and any(str(e).lstrip("@").lower() == low for e in es)
                )
            ]
        for rs in chosen["source_refs"]:
            refs.update(rs if rs is not None else [])
    return refs


def _in_range(day: date, selector: Selector) -> bool:
    """Day + selector -> True when the selector's day range holds it."""
    return (selector.since is None or day >= selector.since) and (
        selector.until is None or day <= selector.until
    )


def _selected(events: pd.DataFrame, day: date, selector: Selector, refs: set[str]) -> pd.Series:
    """A day's events + selector (+ refs of the memories it names) -> the rows it selects itself."""
    mask = pd.Series(_in_range(day, selector), index=events.index)
    if selector.source:
        mask &= (events["source_name"] == selector.source) | (events["source"] == selector.source)
    if selector.domain:
        mask &= _domain_mask(events, selector.domain)
    if selector.url:
        mask &= events["url"].fillna("").str.startswith(selector.url)
    if selector.match:
        mask &= _text_mask(events, selector.match)
    if selector.entity:
        mask &= _entity_mask(events, selector.entity, refs)
    if selector.memory:
        mask &= events["source_ref"].isin(refs)
    return mask.astype(bool)


def select_records(lake_dir: Path, selector: Selector) -> Selection:
    """Lake + selector -> every stored event it matches or that describes what it matches, the days they fall on, the scan needles.

    Every day is read, also outside the range: the scan may only look for what no kept
    record says as well, and a page title names a forgotten page only if no kept page has it.
    """
    all_days = stage_days(lake_dir, "events")
    refs: set[str] = set()
    if selector.memory or selector.entity:
        refs = _memory_refs(lake_dir, all_days, selector.memory, selector.entity)
    days: dict[date, tuple[pd.DataFrame, pd.Series]] = {}
    for day in all_days:
        events = read_events(lake_dir, day)
        if not events.empty:
            days[day] = (events, _selected(events, day, selector, refs))
    what = Described()
    if not selector.source:
        what = described(
            [e.loc[m] for e, m in days.values()],
            [e.loc[~m] for e, m in days.values()],
            selector.domain,
        )
    chosen, kept = [], []
    for day, (events, mask) in days.items():
        if _in_range(day, selector) and (what.pages or what.sites or what.quoted):
            mask = mask | describing_mask(events, what)
        chosen.append(events.loc[mask].assign(day=day.isoformat()))
        kept.append(events.loc[~mask, list(TEXT_FIELDS)])
    found = pd.concat(chosen, ignore_index=True) if chosen else pd.DataFrame(columns=["day"])
    rest = pd.concat(kept, ignore_index=True) if kept else pd.DataFrame(columns=list(TEXT_FIELDS))
    touched = sorted({date.fromisoformat(d) for d in found["day"]})
    return Selection(found, touched, needles(selector, found, rest, what), what)


def needles(
    selector: Selector, found: pd.DataFrame, rest: pd.DataFrame, what: Described | None = None
) -> list[Needle]:
    """Selector + the forgotten and the kept events (+ the site's names) -> the strings no file may hold afterwards.

    The selector's own text always counts; then every distinct title, URL and text of the
    forgotten records, and the forgotten site's names, that is long enough to mean something
    and that no kept record contains (a kept page may share a title), longest first.
    """
    out = [Needle(t) for t in (selector.domain, selector.url, selector.match) if t]
    if selector.entity:
        out.append(Needle(selector.entity, word=True))
    sites = what.sites if what is not None else frozenset()
    candidates: set[str] = {s for s in sites if len(s) >= MIN_NEEDLE}
    for col in TEXT_FIELDS:
        if col in found:
            candidates.update(v for v in found[col].dropna().astype(str) if len(v) >= MIN_NEEDLE)
    taken = {n.text.lower() for n in out}
    fresh = sorted({c for c in candidates if c.lower() not in taken}, key=lambda t: (-len(t), t))
    # One pass over every kept text (each distinct value once) finds the candidates it holds.
    kept_text = "\x1f".join(
        v for col in TEXT_FIELDS if col in rest for v in rest[col].dropna().astype(str).unique()
    )
    shared = Matcher([Needle(c) for c in fresh]).in_text(kept_text) if fresh else set()
    seen: set[str] = set()
    for i, text in enumerate(fresh):
        if i not in shared and text.lower() not in seen:
            out.append(Needle(text))
            seen.add(text.lower())
    return out
