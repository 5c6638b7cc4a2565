"""A case of `omoide bench ask` + omoide's answer JSON -> right, or why not: one judge per kind, and the answer's language.

Every answer must have the case's kind and window (a window running past the question's day
may end on that day) and be written in the question's language: outside quotes (「…」, “…”,
"…") and the sample's people's names, a Japanese question's answer holds Japanese and an
English question's none. Then, by kind:

- overview: every citation in the window, and the window's digest pages cited (a day page for
  each day, or a week or month page covering it); for one day, one of its note's log items named;
- time_spent: the minutes within MINUTES_TOLERANCE of ActivityWatch's arithmetic;
- when: the same moment (within WHEN_TOLERANCE_S of the event or of a line telling of it that
  day), or the same day when the event has no time of its own;
- lookup: the first citation (the answer's own) on a day the standing fact was said, and its
  value named;
- count: the first number stated (dates aside) is the count, and the days cited are its days;
- which_days: the days cited are the truth's days;
- compare: the larger side named before the smaller, and for time the minutes within
  COMPARE_TOLERANCE of the larger's, for counts the two counts stated first, larger first;
- part_of_day: the window's top app or site named, and one of its timed note lines (or, with
  none, one of its messages) cited, every citation in the window;
- said_by: every line cited is one of that speaker's lines on the topic;
- who: the relation word said, and each standing fact named or its line cited;
- commitments: each promise to that person in the window cited (at any line telling of it);
- decision: the first citation the decision's own line, or its moment said (as for when);
- did: yes or no right (the answer begins "Yes"/"はい" or "No"/"いいえ"), and for a yes the days
  cited the days it was done in the window.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from omoide.bench.ask_questions import NAMES_JA

MINUTES_TOLERANCE = 0.02
COMPARE_TOLERANCE = 0.05
WHEN_TOLERANCE_S = 60
_WEEK = re.compile(r"weekly/(\d{4})-W(\d{2})\.md")
_MONTH = re.compile(r"monthly/(\d{4})-(\d{2})\.md")
_DAY_PAGE = re.compile(r"memory/(\d{4}-\d{2}-\d{2})\.md")
_QUOTED = re.compile(r"「[^」]*」|『[^』]*』|“[^”]*”|\"[^\"]*\"|‘[^’]*’")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_DATES = re.compile(
    rf"\d{{4}}-\d{{2}}-\d{{2}}|\d{{4}}-W\d{{2}}|\d{{1,2}}:\d{{2}}(?::\d{{2}})?"
    rf"|(?:\d{{1,2}}\s+)?(?:{_MONTHS})(?:\s+\d{{4}})?|\d{{4}}年|\d{{1,2}}月|\d{{1,2}}日(?!間)|第\d+週"
)
_NUMBER = re.compile(r"\d+")
_YES_NO = re.compile(r"\s*(?:(?P<yes>yes|はい)|no|いいえ)(?![a-z])", re.IGNORECASE)


def _page_days(source: str) -> set[str]:
    """A citation of a digest page -> the days that page covers."""
    if m := _DAY_PAGE.search(source):
        return {m[1]}
    if m := _WEEK.search(source):
        first = date.fromisoformat(f"{m[1]}-W{m[2]}-1")
        return {(first + timedelta(days=i)).isoformat() for i in range(7)}
    if m := _MONTH.search(source):
        first = date(int(m[1]), int(m[2]), 1)
        last = (first + timedelta(days=32)).replace(day=1)
        return {(first + timedelta(days=i)).isoformat() for i in range((last - first).days)}
    return set()


def unquoted(answer: str) -> str:
    """An answer -> its words outside quotes."""
    return _QUOTED.sub(" ", answer)


def language_wrong(lang: str, answer: str) -> str:
    """A question's language + the answer -> '' when the answer is written in it (names aside), else why not."""
    own = unquoted(answer)
    for name in NAMES_JA.values():
        own = own.replace(name, " ")
    if lang == "ja" and not _JAPANESE.search(own):
        return "no Japanese outside quotes"
    if lang == "en" and _JAPANESE.search(own):
        return "Japanese outside quotes"
    return ""


def _named(words: list[str], answer: str) -> bool:
    """Words + an answer -> does the answer name one of them (case and '@' aside)?"""
    said = answer.replace("@", "").casefold()
    return any(w.replace("@", "").casefold() in said for w in words if w)


def _position(words: list[str], answer: str) -> int:
    """Words + an answer -> where the first of them is first named (-1: none is)."""
    said = answer.casefold()
    found = [said.find(w.casefold()) for w in words if w and w.casefold() in said]
    return min(found) if found else -1


def stated_numbers(answer: str) -> list[int]:
    """An answer -> the numbers it states that are no part of a date or time, in order."""
    return [int(n) for n in _NUMBER.findall(_DATES.sub(" ", answer))]


def stated_number(answer: str) -> int | None:
    """An answer -> the first number it states that is no part of a date or time."""
    numbers = stated_numbers(answer)
    return numbers[0] if numbers else None


def _window_wrong(case: dict[str, Any], got: dict[str, Any]) -> str:
    """Case + answer -> '' when the answer's window is the case's (or it, ending on the question's day), else why not."""
    want, have = case["window"], got["window"]
    if want == have:
        return ""
    today = case["now"][:10]
    if (
        want
        and have
        and have["since"] == want["since"]
        and have["until"] == min(want["until"], today)
    ):
        return ""
    return f"window {have}"


def _overview(t: dict[str, Any], got: dict[str, Any], window: dict[str, str]) -> str:
    cites = got["citations"]
    if not cites:
        return "no citation"
    if any(not window["since"] <= c["day"] <= window["until"] for c in cites):
        return "a citation outside the window"
    covered = set().union(*(_page_days(c["source"]) for c in cites))
    missing = [d for d in t["days"] if d not in covered]
    if missing:
        return f"no digest page cited for {', '.join(missing)}"
    if len(t["days"]) == 1 and t["mentions"] and not _named(t["mentions"], got["answer"]):
        return "none of the day's log items named"
    return ""


def _when(t: dict[str, Any], got: dict[str, Any]) -> str:
    if got["when"] is None:
        return "no moment"
    if len(t["when"]) == 10:
        return "" if got["when"][:10] == t["when"] else f"said {got['when']}"
    said = datetime.fromisoformat(got["when"])
    for moment in (t["when"], *t["also"]):
        if abs((said - datetime.fromisoformat(moment)).total_seconds()) <= WHEN_TOLERANCE_S:
            return ""
    same_day = got["when"][:10] == t["when"][:10]
    return f"said {got['when']}" + (" (the day right)" if same_day else "")


def _cited_days(got: dict[str, Any]) -> list[str]:
    """An answer -> the days it cites, each once, sorted."""
    return sorted({c["day"] for c in got["citations"]})


def _count(t: dict[str, Any], got: dict[str, Any]) -> str:
    n = stated_number(got["answer"])
    if n != t["count"]:
        return f"stated {n}"
    days = _cited_days(got)
    return "" if days == t["days"] else f"cited days {days}"


def _minutes_wrong(truth: float, said: float | None, tolerance: float) -> str:
    """The true minutes + the answer's (None: it gave none) + the tolerance -> '' when within it, else what it said."""
    if said is None:
        return "no minutes"
    return f"{said} min" if abs(said - truth) > tolerance * truth else ""


def _compare(t: dict[str, Any], got: dict[str, Any]) -> str:
    first, second = _position(t["first"], got["answer"]), _position(t["second"], got["answer"])
    if first < 0 or second < 0:
        return "a side not named"
    if first > second:
        return "the smaller named first"
    if t["minutes"] is not None:
        return _minutes_wrong(t["minutes"], got["minutes"], COMPARE_TOLERANCE)
    if stated_numbers(got["answer"])[:2] != t["counts"]:
        return f"stated {stated_numbers(got['answer'])[:2]}"
    return ""


def _part_of_day(t: dict[str, Any], got: dict[str, Any], window: dict[str, str]) -> str:
    cited = {c["source"] for c in got["citations"]}
    if any(not window["since"] <= c["day"] <= window["until"] for c in got["citations"]):
        return "a citation outside the window"
    if not _named([t["top"], t["top"].removeprefix("www.")], got["answer"]):
        return f"{t['top']} not named"
    lines = t["notes"] or t["messages"]
    if lines and not cited & set(lines):
        return "none of its notes or messages cited"
    return ""


def _said_by(t: dict[str, Any], got: dict[str, Any]) -> str:
    cited = {c["source"] for c in got["citations"]}
    if not cited:
        return "no citation"
    others = cited - set(t["speaker_lines"])
    if others:
        return f"cites lines not the speaker's: {sorted(others)}"
    off = cited - set(t["lines"])
    return f"cites the speaker off the topic: {sorted(off)}" if off else ""


def _who(t: dict[str, Any], got: dict[str, Any]) -> str:
    if not _named(t["relation"], got["answer"]):
        return f"no {t['relation'][0]}"
    cited = {c["source"] for c in got["citations"]}
    missing = [
        f["value"]
        for f in t["facts"]
        if not _named([f["word"]], got["answer"]) and not cited & set(f["sources"])
    ]
    return f"missing {'; '.join(missing)}" if missing else ""


def _commitments(t: dict[str, Any], got: dict[str, Any]) -> str:
    cited = {c["source"] for c in got["citations"]}
    missing = [p["what"] for p in t["promises"] if not cited & set(p["sources"])]
    return f"not cited: {'; '.join(missing)}" if missing else ""


def _decision(t: dict[str, Any], got: dict[str, Any]) -> str:
    cites = got["citations"]
    if cites and cites[0]["source"] == t["source"]:
        return ""
    said = _when({"when": t["when"], "also": []}, got)
    first = cites[0]["source"] if cites else None
    return f"first citation {first}; {said}" if said else ""


def _did(t: dict[str, Any], got: dict[str, Any]) -> str:
    said = _YES_NO.match(got["answer"])
    if said is None:
        return "neither yes nor no"
    if bool(said["yes"]) != t["yes"]:
        return "said yes" if said["yes"] else "said no"
    days = _cited_days(got)
    return f"cited days {days}" if t["yes"] and days != t["days"] else ""


def _content(case: dict[str, Any], got: dict[str, Any]) -> str:
    """A case + an answer of its kind and window -> '' when what it says is right, else why not."""
    t, kind = case["truth"], case["kind"]
    if kind == "overview":
        return _overview(t, got, case["window"])
    if kind == "time_spent":
        return _minutes_wrong(t["minutes"], got["minutes"], MINUTES_TOLERANCE)
    if kind == "when":
        return _when(t, got)
    if kind == "lookup":
        if not got["citations"] or got["citations"][0]["day"] not in t["days"]:
            return "its first citation not on a day the fact was said"
        return "" if _named(t["mentions"], got["answer"]) else "its value not named"
    if kind == "count":
        return _count(t, got)
    if kind == "which_days":
        days = _cited_days(got)
        return "" if days == t["days"] else f"cited days {days}"
    if kind == "compare":
        return _compare(t, got)
    if kind == "part_of_day":
        return _part_of_day(t, got, case["window"])
    if kind == "said_by":
        return _said_by(t, got)
    if kind == "who":
        return _who(t, got)
    if kind == "decision":
        return _decision(t, got)
    if kind == "did":
        return _did(t, got)
    return _commitments(t, got)


def verdict(case: dict[str, Any], got: dict[str, Any]) -> str:
    """A case + omoide's answer JSON -> '' when answered right, else every reason it is not."""
    if got["kind"] != case["kind"]:
        return f"kind {got['kind']}"
    reasons = (
        _window_wrong(case, got),
        language_wrong(case["lang"], got["answer"]),
        _content(case, got),
    )
    return "; ".join(r for r in reasons if r)
