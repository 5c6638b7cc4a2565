"""Week and month pages: which periods a reflection rewrites, and what each says, reduced from its days.

A period is an ISO week (Monday to Sunday, local days; named by `date.isocalendar()`:
`2026-W47`) or a calendar month (`2026-11`). Its days are those of its dates that have a
daily page. What its page says:

- a **summary**: the period, its days, the time at the computer and where most of it went,
  the people and projects it names, what was written (a few plain sentences; an LLM's
  narrative when one is configured, `omoide.reflect.period_llm`);
- **highlights**, reduced from the days' facts and highlights, every day of a week and every
  week of a month represented, never a window title, never a cut word
  (`omoide.reflect.period_highlights`, docs/periods.md);
- **time** per activity over the period's lake events (`omoide.memory.active_time`), the
  sum of its days' (days do not overlap; each day is computed once and kept while its
  events are unchanged);
- **people and projects**: the entities the period's memories name, with how many name each;
  a person per the reflection's rules (`omoide.reflect.people`), never a bot or the user;
- a week's **picture**: hours per day per activity (`omoide.vault.pictures.draw_week`), beside
  its page.

Each page is also one memory row (kind `week` or `month`, inferred, dated the period's first
local midnight, `day` its first day, cited at the page's summary line). Library logic only:
the task reads the store, the lake and the pages, this module decides,
`omoide.vault.period_pages` renders and writes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

import pandas as pd

from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.core.ids import stable_id
from omoide.core.kinds import FACT_KINDS, is_bot
from omoide.memory.active_time import active_time, time_by_activity
from omoide.memory.day_rows import DIGEST_IMPORTANCE
from omoide.memory.extractive_digest import DURATION, read_sentences, seconds_of, spent_of
from omoide.reflect.entities import Entity, person_slugs
from omoide.reflect.period_highlights import Highlight, candidates, rank

PERIOD_MODEL = "extractive-period-v1"
N_HIGHLIGHTS = {"week": 8, "month": 12}
N_ACTIVITIES = {"week": 8, "month": 10}
N_MENTIONS = 12
_WEEK = re.compile(r"(\d{4})-W(\d{2})")
_MONTH = re.compile(r"(\d{4})-(\d{2})")


@dataclass(frozen=True)
class Period:
    """An ISO week or a calendar month: its kind, name and first and last local day."""

    kind: str  # "week" or "month"
    name: str  # "2026-W47" or "2026-11"
    since: date
    until: date  # inclusive

    def days(self) -> list[date]:
        """-> every date of the period, in order."""
        return [self.since + timedelta(days=i) for i in range((self.until - self.since).days + 1)]

    def title(self) -> str:
        """-> how the page names it: "Week 47 of 2026 (16–22 November)" or "November 2026"."""
        if self.kind == "month":
            return f"{self.since:%B} {self.since.year}"
        week = int(self.name.rsplit("W", 1)[1])
        return f"Week {week} of {self.name[:4]} ({_span(self.since, self.until)})"

    def bounds(self, tz: str) -> tuple[datetime, datetime]:
        """Timezone -> [start, end) of the period in UTC."""
        return day_bounds(self.since, tz)[0], day_bounds(self.until, tz)[1]


def week_of(day: date) -> Period:
    """Day -> its ISO week (Monday to Sunday)."""
    year, week, weekday = day.isocalendar()
    since = day - timedelta(days=weekday - 1)
    return Period("week", f"{year}-W{week:02d}", since, since + timedelta(days=6))


def month_of(day: date) -> Period:
    """Day -> its calendar month."""
    since = day.replace(day=1)
    following = (since + timedelta(days=32)).replace(day=1)
    return Period("month", f"{since:%Y-%m}", since, following - timedelta(days=1))


def period_named(kind: str, name: str) -> Period | None:
    """Kind + a page's name (`2026-W47`, `2026-11`) -> its period, or None when it names none."""
    pattern = _WEEK if kind == "week" else _MONTH
    found = pattern.fullmatch(name)
    if found is None:
        return None
    year, number = int(found.group(1)), int(found.group(2))
    try:
        first = date.fromisocalendar(year, number, 1) if kind == "week" else date(year, number, 1)
    except ValueError:
        return None
    return week_of(first) if kind == "week" else month_of(first)


def periods_of(days: Iterable[date]) -> list[Period]:
    """Days -> the weeks and months holding them (weeks first, each in order)."""
    found = {p for d in days for p in (week_of(d), month_of(d))}
    return sorted(found, key=lambda p: (p.kind != "week", p.since))


def chosen_periods(
    days: Sequence[str], page_days: Iterable[str], pages: Iterable[Period], stored: Iterable[str]
) -> list[Period]:
    """A reflection's days (empty: all) + the days with a daily page + the period pages present + the period row ids stored -> the periods to write.

    With days: their weeks and months only (a new day rewrites its week and month), and any
    page whose row is missing (`omoide reindex` rebuilds the table from the days). Without:
    every period of a day with a page, and every page present (one whose days are all gone
    is emptied, so it keeps nothing that was forgotten).
    """
    present = list(pages)
    if not days:
        everything = periods_of(date.fromisoformat(d) for d in page_days)
        return sorted(set(everything) | set(present), key=lambda p: (p.kind != "week", p.since))
    have = set(stored)
    healed = {p for p in present if period_id(p) not in have}
    touched = periods_of(date.fromisoformat(d) for d in days)
    return sorted(set(touched) | healed, key=lambda p: (p.kind != "week", p.since))


def period_id(period: Period) -> str:
    """Period -> the memory id of its row."""
    return stable_id("memory", period.kind, period.name)


@dataclass(frozen=True)
class Mention:
    """An entity the period's memories name, how many of them do, and whether it is a person."""

    slug: str
    name: str
    count: int
    person: bool


@dataclass
class PeriodDigest:
    """What a period's page says and who wrote it."""

    period: Period
    days: list[str]  # the period's days with a daily page
    summary: str
    highlights: list[Highlight] = field(default_factory=list)
    time: list[tuple[str, float]] = field(default_factory=list)  # (activity, seconds)
    mentions: list[Mention] = field(default_factory=list)
    weeks: list[Period] = field(default_factory=list)  # a month's weeks that have a day
    backend: str = "embedded"
    model: str = PERIOD_MODEL
    llm_calls: int = 0
    ungrounded: int = 0  # the model's highlights dropped as not grounded in what they cite
    picture: str | None = None  # the week picture's file name, beside the page

    @property
    def produced_by(self) -> str:
        """-> "backend:model", recorded on the period's row."""
        return f"{self.backend}:{self.model}"

    @property
    def refs(self) -> tuple[str, ...]:
        """-> every record the highlights rest on, in order."""
        return tuple(dict.fromkeys(r for h in self.highlights for r in h.refs))


def _span(first: date, last: date) -> str:
    """Two days -> "16–22 November", "30 November – 6 December" or "18 November"."""
    if first == last:
        return f"{first.day} {first:%B}"
    if (first.year, first.month) == (last.year, last.month):
        return f"{first.day}–{last.day} {last:%B}"
    return f"{first.day} {first:%B} – {last.day} {last:%B}"


def mentions(
    entities: Sequence[Entity], rows: pd.DataFrame, people: Sequence[str], me: Sequence[str]
) -> list[Mention]:
    """Every entity (named over all memories) + the period's rows + people's and the user's names -> who and what the period names, most first.

    Bots and the user are left out; a person is one `people` names (omoide.reflect.people).
    """
    ids = set(rows["memory_id"])
    persons = person_slugs(people, entities)
    mine = {m.casefold() for m in me if m}
    out = []
    for e in entities:
        n = sum(1 for m in e.memory_ids if m in ids)
        if n and not is_bot(e.name) and e.name.casefold() not in mine:
            out.append(Mention(e.slug, e.name, n, e.slug in persons))
    out.sort(key=lambda m: (-m.count, m.slug))
    return out[:N_MENTIONS]


def day_time(events: pd.DataFrame, day: date, tz: str) -> tuple[float, list[tuple[str, float]]]:
    """A day's events (and the day before's, for what ran past midnight) + timezone -> its active seconds and seconds per activity.

    ActivityWatch's arithmetic (`omoide.memory.active_time`), clipped to the local day: days
    do not overlap, so a period's time is the sum of its days'.
    """
    since, until = day_bounds(day, tz)
    return active_time(events, since, until).seconds, time_by_activity(events, None, since, until)


def period_time(
    per_day: Iterable[tuple[float, Sequence[tuple[str, float]]]], top: int
) -> tuple[float, list[tuple[str, float]]]:
    """Each day's (active seconds, seconds per activity) + how many activities -> the period's, largest first."""
    active, totals = 0.0, Counter[str]()
    for seconds, spent in per_day:
        active += seconds
        for name, secs in spent:
            totals[name] += secs
    ranked = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    return active, [(name, secs) for name, secs in ranked[:top] if secs > 0]


def _hours(seconds: float) -> str:
    """Seconds -> "1.5 h" or "25 min"."""
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{max(1, round(seconds / 60))} min"


def _join(parts: Sequence[str]) -> str:
    """["a", "b", "c"] -> "a, b and c"."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def extractive_summary(
    period: Period,
    days: Sequence[str],
    rows: pd.DataFrame,
    spent: Sequence[tuple[str, float]],
    named: Sequence[Mention],
    active: float = 0.0,
) -> str:
    """A period, its days with a page, memory rows, time per activity, mentions (+ active seconds) -> a few plain sentences."""
    if not days:
        return f"{period.title()}: no day of it has a page."
    first, last = date.fromisoformat(days[0]), date.fromisoformat(days[-1])
    shown = f"{first:%A} {_span(first, last)}" if first == last else _span(first, last)
    parts = [f"{period.title()}: {len(days)} day(s) with a page ({shown})."]
    if active > 0:
        parts.append(f"About {_hours(active)} at the computer (not AFK).")
    if spent:
        parts.append(
            "Most time went to " + _join([f"{a} ({_hours(s)})" for a, s in spent[:3]]) + "."
        )
    people = [f"{m.name} ({m.count})" for m in named if m.person][:4]
    other = [f"{m.name} ({m.count})" for m in named if not m.person][:4]
    if people:
        parts.append("People: " + ", ".join(people) + ".")
    if other:
        parts.append("Projects and places: " + ", ".join(other) + ".")
    kinds = rows["kind"].value_counts()
    # A long message is several records (its passages), one source.
    messages = rows.loc[rows["kind"] == "chat", "source"].nunique()
    retained = int((rows["kind"].isin(FACT_KINDS) & (rows["backend"] == "user")).sum())
    parts.append(
        f"{int(kinds.get('note', 0))} note paragraph(s), {messages} chat "
        f"message(s) and {retained} retained fact(s) were written."
    )
    return " ".join(parts)


# `extractive_summary`'s sentences, read back in the order it writes them (an answer says their
# figures in another language).
_PERIOD_SENTENCES = (
    ("days", r"(?P<title>.+?): (?P<days>\d+) day\(s\) with a page \((?P<shown>[^)]*)\)\."),
    ("active", rf"About (?P<active>{DURATION}) at the computer \(not AFK\)\."),
    ("spent", r"Most time went to (?P<spent>.+?\))\."),
    ("people", r"People: (?P<people>.+?\(\d+\))\."),
    ("other", r"Projects and places: (?P<other>.+?\(\d+\))\."),
    (
        "written",
        r"(?P<notes>\d+) note paragraph\(s\), (?P<chats>\d+) chat message\(s\) and "
        r"(?P<facts>\d+) retained fact\(s\) were written\.",
    ),
)
_COUNTED = re.compile(r"(?P<name>.+?) \((?P<n>\d+)\)(?:, |$)")


@dataclass(frozen=True)
class PeriodFigures:
    """The figures an extractive period summary says: days with a page, time, where it went, who and what it names, what was written."""

    days: int
    active: float | None  # seconds; None: not said
    spent: tuple[tuple[str, float], ...]
    people: tuple[tuple[str, int], ...]
    other: tuple[tuple[str, int], ...]
    written: tuple[int, int, int]  # note paragraphs, chat messages, retained facts


def _counted(listed: str) -> tuple[tuple[str, int], ...]:
    """ "Peter (14), Mina (5)" -> (("Peter", 14), ("Mina", 5))."""
    return tuple((m["name"], int(m["n"])) for m in _COUNTED.finditer(listed))


def period_figures(summary: str) -> PeriodFigures | None:
    """A week or month page's summary -> the figures behind it, or None when `extractive_summary` did not write it."""
    found = read_sentences(summary, _PERIOD_SENTENCES)
    if not found or "days" not in found or "written" not in found:
        return None
    spent = spent_of(found["spent"]["spent"]) if "spent" in found else ()
    if spent is None:
        return None
    w = found["written"]
    return PeriodFigures(
        days=int(found["days"]["days"]),
        active=seconds_of(found["active"]["active"]) if "active" in found else None,
        spent=spent,
        people=_counted(found["people"]["people"]) if "people" in found else (),
        other=_counted(found["other"]["other"]) if "other" in found else (),
        written=(int(w["notes"]), int(w["chats"]), int(w["facts"])),
    )


def units_of(period: Period, days: Sequence[str]) -> dict[str, str]:
    """A period + its days with a page -> each day's unit of cover: the day itself in a week, its ISO week in a month."""
    if period.kind == "week":
        return {d: d for d in days}
    return {d: week_of(date.fromisoformat(d)).name for d in days}


def period_digest(
    period: Period,
    days: Sequence[str],
    rows: pd.DataFrame,
    day_highlights: Mapping[str, Sequence[tuple[str, str]]],
    spent: Sequence[tuple[str, float]],
    named: Sequence[Mention],
    active: float = 0.0,
    titles: Collection[str] = (),
) -> PeriodDigest:
    """A period + its days with a page, their memory rows and `### Highlights` lines, time, mentions (+ active seconds, its sessions' titles) -> its extractive digest."""
    cands = candidates(rows, day_highlights, titles)
    picked = rank(cands, N_HIGHLIGHTS[period.kind], len(days), units_of(period, days))
    weeks = sorted({week_of(date.fromisoformat(d)) for d in days}, key=lambda p: p.since)
    return PeriodDigest(
        period=period,
        days=list(days),
        summary=extractive_summary(period, days, rows, spent, named, active),
        highlights=picked,
        time=list(spent),
        mentions=list(named),
        weeks=weeks if period.kind == "month" else [],
    )


def period_content(digest: PeriodDigest) -> str:
    """Digest -> its memory's text: the summary, then the highlights (as a day's digest row)."""
    return "\n".join([digest.summary, *(f"- {h.text}" for h in digest.highlights)])


def period_rows(digest: PeriodDigest, source: str, tz: str, now: datetime) -> pd.DataFrame:
    """Digest + where its summary is (`path#Lnn`) + timezone + now -> its memory row (none for a period without days).

    The row is inferred (made by a rule or a model), dated the period's first local midnight,
    its `day` the period's first day; it names no entity (the days' rows do, and would be
    counted twice).
    """
    if not digest.days:
        return schemas.empty(schemas.FACTS)
    period = digest.period
    row = {
        "memory_id": period_id(period),
        "day": period.since.isoformat(),
        "ts": pd.Timestamp(period.bounds(tz)[0]),
        "kind": period.kind,
        "entities": [],
        "content": period_content(digest),
        "confidence": 1.0 if digest.backend == "embedded" else 0.8,
        "importance": DIGEST_IMPORTANCE,
        "source": source,
        "source_refs": list(digest.refs),
        "backend": digest.produced_by,
        "recorded_at": pd.Timestamp(now),
        "memory_type": "inferred",
        "heard_from": None,
    }
    return schemas.conform(pd.DataFrame([row]), schemas.FACTS)
