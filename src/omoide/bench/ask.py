"""`omoide bench ask`: a questions file with its ground truth -> the share answered right, per kind.

Each question: `question`, `now` (ISO), the expected `kind`, `window` ({since, until} or null),
`days` (the days the answer must rest on) and, by kind, `minutes` (time_spent), `when` (ISO
time, or a date when the record has no time of its own), `mentions` (overview: the note's
items, one of which the answer must name). An answer is right when its kind and window are,
and:

- overview: every citation lies in the window; one day: at least MIN_DAY_CITATIONS citations
  into it and one of `mentions` named; several days: each expected day cited, or covered by
  a cited week or month page;
- time_spent: the minutes within MINUTES_TOLERANCE of the truth (ActivityWatch's arithmetic);
- when: the same moment (within WHEN_TOLERANCE_S), or the same day for a record without a time;
- lookup: a citation on one of the expected days.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from omoide.answer.ask import ask
from omoide.core.settings import Settings

MIN_DAY_CITATIONS = 3
MINUTES_TOLERANCE = 0.15
WHEN_TOLERANCE_S = 60
_WEEK = re.compile(r"weekly/(\d{4})-W(\d{2})\.md")
_MONTH = re.compile(r"monthly/(\d{4})-(\d{2})\.md")


def _page_days(source: str) -> set[str]:
    """A citation of a week or month page -> the days that page covers."""
    if m := _WEEK.search(source):
        first = date.fromisocalendar(int(m[1]), int(m[2]), 1)
        return {(first + timedelta(days=i)).isoformat() for i in range(7)}
    if m := _MONTH.search(source):
        first = date(int(m[1]), int(m[2]), 1)
        last = (first + timedelta(days=32)).replace(day=1)
        return {(first + timedelta(days=i)).isoformat() for i in range((last - first).days)}
    return set()


def _overview_right(truth: dict[str, Any], got: dict[str, Any]) -> bool:
    """Truth + answer of an overview -> right?"""
    window = truth["window"]
    days = [c["day"] for c in got["citations"]]
    if not days or not all(window["since"] <= d <= window["until"] for d in days):
        return False
    if len(truth["days"]) == 1:
        named = got["answer"].replace("@", "").casefold()
        mentions = [m.replace("@", "").casefold() for m in truth.get("mentions", [])]
        return days.count(truth["days"][0]) >= MIN_DAY_CITATIONS and (
            not mentions or any(m in named for m in mentions)
        )
    covered = set(days).union(*(_page_days(c["source"]) for c in got["citations"]))
    return set(truth["days"]) <= covered


def _when_right(truth: str, got: str | None) -> bool:
    """Expected moment (or day) + answered moment -> the same?"""
    if got is None:
        return False
    if len(truth) == 10:
        return got[:10] == truth
    return (
        abs((datetime.fromisoformat(got) - datetime.fromisoformat(truth)).total_seconds())
        <= WHEN_TOLERANCE_S
    )


def right(truth: dict[str, Any], got: dict[str, Any]) -> bool:
    """A question's truth + omoide's answer JSON -> answered right?"""
    if got["kind"] != truth["kind"] or got["window"] != truth["window"]:
        return False
    kind = truth["kind"]
    if kind == "overview":
        return _overview_right(truth, got)
    if kind == "time_spent":
        expected, minutes = truth["minutes"], got["minutes"] or 0.0
        return abs(minutes - expected) <= MINUTES_TOLERANCE * expected if expected else minutes == 0
    if kind == "when":
        return _when_right(truth["when"], got["when"])
    return any(c["day"] in truth["days"] for c in got["citations"])


def run_ask_bench(data: Path, settings: Settings) -> dict[str, Any]:
    """Questions file + the home's settings -> share right per kind and overall, and each question's result."""
    cases = json.loads(data.read_text(encoding="utf-8"))
    per_kind: dict[str, list[bool]] = defaultdict(list)
    items = []
    for case in cases:
        now = datetime.fromisoformat(case["now"])
        got = ask(case["question"], settings, now).to_json()
        ok = right(case, got)
        per_kind[case["kind"]].append(ok)
        items.append(
            {"question": case["question"], "kind": case["kind"], "right": ok, "answer": got}
        )
    share = {k: round(100 * sum(v) / len(v), 1) for k, v in sorted(per_kind.items())}
    every = [ok for v in per_kind.values() for ok in v]
    return {
        "questions": len(every),
        "right_percent": share,
        "overall_percent": round(100 * sum(every) / len(every), 1) if every else 0.0,
        "items": items,
    }
