"""The sample month as `omoide bench ask` asks of it: its script and sources, the questions' clock, periods as questions say them.

Shared by the modules that write the cases (`omoide.bench.ask_cases`, `ask_cases_people`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from omoide.bench import ask_questions as Q
from omoide.bench.ask_truth import Sources

Case = dict[str, Any]
_WEEKDAYS_JA = "月火水木金土日"
_RELATIVE_JA = frozenset({"昨日", "今日", "先週", "今週", "来週", "今朝"})


@dataclass(frozen=True)
class Period:
    """A period as questions say it, and its inclusive local days (None: the whole history)."""

    on: str  # "yesterday", "on Friday", "last week", "in November", ""
    bare: str  # "yesterday", "Friday", "2 November", "November", ""
    ja: str  # "昨日", "金曜日", "11月2日", "先週", "11月", ""
    first: date | None
    last: date | None

    def window(self) -> dict[str, str] | None:
        """-> its days as an answer's JSON window."""
        if self.first is None or self.last is None:
            return None
        return {"since": self.first.isoformat(), "until": self.last.isoformat()}

    def holds(self, day: str) -> bool:
        """ISO day -> whether it lies in the period."""
        return self.first is None or self.first.isoformat() <= day <= self.last.isoformat()  # type: ignore[union-attr]


def period(spec: str | None, now: datetime) -> Period:
    """A slot's period (see ask_questions) + now -> how it is said and its days."""
    today = now.date()
    if spec is None:
        return Period("", "", "", None, None)
    if spec == "yesterday":
        d = today - timedelta(days=1)
        return Period("yesterday", "yesterday", "昨日", d, d)
    kind, _, arg = spec.partition(":")
    if kind == "on":
        d = date.fromisoformat(arg)
        if 0 < (today - d).days <= 6:
            return Period(f"on {d:%A}", f"{d:%A}", f"{_WEEKDAYS_JA[d.weekday()]}曜日", d, d)
        return Period(f"on {d.day} {d:%B}", f"{d.day} {d:%B}", f"{d.month}月{d.day}日", d, d)
    if kind == "week":
        k = int(arg)
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=k)
        en = {-1: "last week", 0: "this week", 1: "next week"}[k]
        ja = {-1: "先週", 0: "今週", 1: "来週"}[k]
        return Period(en, en, ja, monday, monday + timedelta(days=6))
    first = date.fromisoformat(f"{arg}-01")
    last = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    return Period(f"in {first:%B}", f"{first:%B}", f"{first.month}月", first, last)


def words(p: Period) -> dict[str, str]:
    """A period -> the template fields naming it (`{on}`, `{On}`, `{bare}`, `{ja}`, `{ja_ni}`, `{ja_wa}`, `{ja_no}`)."""
    ni = "" if not p.ja else p.ja if p.ja in _RELATIVE_JA else f"{p.ja}に"
    return {
        "on": p.on,
        "On": p.on[:1].upper() + p.on[1:],
        "bare": p.bare,
        "ja": p.ja,
        "ja_ni": ni,
        "ja_wa": f"{p.ja}は" if p.ja else "",
        "ja_no": f"{p.ja}の" if p.ja else "",
    }


def text(template: str, **fields: str) -> str:
    """A template + its fields -> the question, spaces tidied."""
    out = " ".join(template.format(**fields).split())
    return re.sub(r"\s+([?？,])", r"\1", out)


class Month:
    """A sample home's script and sources, and the questions' clock."""

    def __init__(self, home: Path, script: dict[str, Any]) -> None:
        self.script = script
        self.tz = ZoneInfo(script["sample"]["timezone"])
        self.sources = Sources(home, script["sample"]["timezone"])
        self.last = date.fromisoformat(script["sample"]["last"])
        self.days = {d["day"]: d for d in script["days"]}
        self.events = {e["source"]: e for e in script["events"]}
        self.turns: dict[tuple[str, str], int] = {}

    def now(self, which: str | None) -> datetime:
        """None | 'tuesday' | 'noon' -> the moment a question is asked."""
        if which == "noon":
            return datetime.combine(self.last, time(13), self.tz)
        ahead = 4 if which == "tuesday" else 1
        return datetime.combine(self.last + timedelta(days=ahead), time(10), self.tz)

    def template(self, kind: str, lang: str, templates: list[str]) -> str:
        """A kind, language and its templates -> the next one in turn."""
        n = self.turns.get((kind, lang), 0)
        self.turns[(kind, lang)] = n + 1
        return templates[n % len(templates)]

    def span(self, p: Period, now: datetime) -> tuple[datetime, datetime]:
        """A period + now -> its aware bounds, up to now (what has not happened holds no time)."""
        start, end = self.sources.day_window(p.first, p.last)  # type: ignore[arg-type]
        return start, min(end, now)

    def moment(self, day: str, clock: str | None) -> str:
        """A script's day and local time (or None) -> an ISO moment with its offset, or the day."""
        if clock is None:
            return day
        return datetime.combine(
            date.fromisoformat(day), time.fromisoformat(clock), self.tz
        ).isoformat()

    def occurrences(self, thing: Q.Thing, p: Period, now: datetime) -> list[str]:
        """A thing + a period -> the ISO day of each occurrence in it (a conversation each for a talk, else a day each)."""
        if thing.key.startswith("talk:"):
            window = self.span(p, now) if p.first else None
            sittings = self.sources.sittings(thing.key[5:], window)
            return [s[0].ts.date().isoformat() for s in sittings]
        tally = self.script["tallies"].get(thing.key)
        return [d for d in tally["days"] if p.holds(d)] if tally else []


def case(
    kind: str, lang: str, question: str, now: datetime, window: Any, expected: str, **truth: Any
) -> Case:
    """The parts of a question -> its case."""
    return {
        "question": question,
        "lang": lang,
        "kind": kind,
        "now": now.isoformat(),
        "window": window,
        "expected": expected,
        "truth": truth,
    }


def clipped(p: Period, now: datetime) -> dict[str, str] | None:
    """A period + now -> its window, ending today when it runs past now."""
    w = p.window()
    if w is not None and w["until"] > now.date().isoformat():
        w["until"] = max(w["since"], now.date().isoformat())
    return w


def thing_fields(thing: Q.Thing) -> dict[str, str]:
    """A thing -> its template fields."""
    return {"base": thing.base, "past": thing.past, "obj": thing.ja_obj, "verb": thing.ja_verb}


def name_in(person: str, lang: str) -> str:
    """A person + language -> how a question names them."""
    return Q.NAMES_JA.get(person, person) if lang == "ja" else person


def minutes_on(m: Month, subject: str, window: tuple[datetime, datetime]) -> float:
    """A site or app + aware window -> its minutes by ActivityWatch's arithmetic."""
    if subject in Q.SITES:
        return m.sources.site_minutes(subject, window)
    return m.sources.app_minutes(subject, window)
