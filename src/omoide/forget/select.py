"""What to forget: selectors -> the lake records they match, the days they touch, the strings to scan for.

Every selector resolves to records (lake events): a domain, a URL prefix, a text, an entity,
a day, a source, or a memory (the records it was made from). Everything else omoide holds is
derived from records, so the cascade starts there. Selectors given together must all hold.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pandas as pd

from omoide.core.errors import OmoideError
from omoide.ingest.sanitize import host_of
from omoide.store.lake import read_events, read_facts, stage_days

# Distinctive strings of the forgotten records the receipt also scans for (besides the
# selector's own text); the longest first. More would cost scan time, not certainty.
MAX_RECORD_NEEDLES = 50
MIN_NEEDLE = 8
TEXT_FIELDS = ("title", "url", "text")


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


@dataclass(frozen=True)
class Needle:
    """A string the receipt's byte scan must not find; `word` ones match as a whole word."""

    text: str
    word: bool = False


@dataclass
class Selection:
    """Selector -> the matching lake events (with their `day`), the days touched, the scan needles."""

    events: pd.DataFrame
    days: list[date]
    needles: list[Needle]


def _word(name: str) -> re.Pattern[str]:
    """Name -> a case-insensitive whole-word pattern for it."""
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)


def _domain_mask(events: pd.DataFrame, domain: str) -> pd.Series:
    """Events + domain -> rows whose URL's host is the domain or a subdomain, or whose title names it.

    Window-focus records of a browser carry no URL, only the window title ("… - example.com -
    Chrome"), so a host-shaped mention in the title counts too.
    """
    d = domain.strip().lower().strip(".")

    def hit(url: object) -> bool:
        host = host_of(url) if isinstance(url, str) else None
        return host is not None and (host == d or host.endswith("." + d))

    named = re.compile(rf"(?<![\w.-])(?:[\w-]+\.)*{re.escape(d)}(?![\w-])", re.IGNORECASE)
    titled = events["title"].fillna("").str.contains(named)
    return (events["url"].map(hit).astype(bool) | titled).astype(bool)


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


def select_records(lake_dir: Path, selector: Selector) -> Selection:
    """Lake + selector -> every stored event it matches, the days they fall on, the scan needles.

    Every day is read, also outside the range: the scan may only look for what no kept
    record says as well.
    """
    all_days = stage_days(lake_dir, "events")
    refs: set[str] = set()
    if selector.memory or selector.entity:
        refs = _memory_refs(lake_dir, all_days, selector.memory, selector.entity)
    chosen, kept = [], []
    for day in all_days:
        events = read_events(lake_dir, day)
        if events.empty:
            continue
        mask = pd.Series(_in_range(day, selector), index=events.index)
        if selector.source:
            mask &= (events["source_name"] == selector.source) | (
                events["source"] == selector.source
            )
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
        chosen.append(events.loc[mask].assign(day=day.isoformat()))
        kept.append(events.loc[~mask, list(TEXT_FIELDS)])
    found = pd.concat(chosen, ignore_index=True) if chosen else pd.DataFrame(columns=["day"])
    rest = pd.concat(kept, ignore_index=True) if kept else pd.DataFrame(columns=list(TEXT_FIELDS))
    touched = sorted({date.fromisoformat(d) for d in found["day"]})
    return Selection(found, touched, needles(selector, found, rest))


def needles(selector: Selector, found: pd.DataFrame, rest: pd.DataFrame) -> list[Needle]:
    """Selector + the forgotten and the kept events -> the strings no file may hold afterwards.

    The selector's own text always counts; of the forgotten records' titles, URLs and texts,
    those no kept record contains (a kept page may share a title) and long enough to mean
    something, longest first.
    """
    out = [Needle(t) for t in (selector.domain, selector.url, selector.match) if t]
    if selector.entity:
        out.append(Needle(selector.entity, word=True))
    candidates: set[str] = set()
    for col in TEXT_FIELDS:
        if col in found:
            candidates.update(v for v in found[col].dropna().astype(str) if len(v) >= MIN_NEEDLE)
    kept_text = "\x1f".join(
        rest[col].dropna().astype(str).str.cat(sep="\x1f") for col in TEXT_FIELDS if col in rest
    ).lower()
    taken = {n.text.lower() for n in out}
    for text in sorted(candidates, key=lambda t: (-len(t), t)):
        if len(out) >= MAX_RECORD_NEEDLES + len(taken):
            break
        low = text.lower()
        if low not in taken and low not in kept_text:
            out.append(Needle(text))
            taken.add(low)
    return out
