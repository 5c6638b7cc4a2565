"""`bench ask`: the sample month's questions and truths, built without a backfill, checked against the script; the judges on hand-made answers."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from omoide.answer.question import KINDS
from omoide.bench.ask import month_cases
from omoide.bench.ask_judge import language_wrong, stated_number, verdict
from omoide.bench.ask_truth import Sources
from omoide.sample import write_sample, write_script

Cases = list[dict[str, Any]]
Month = tuple[Path, dict[str, Any], Cases]


@pytest.fixture(scope="module")
def month(tmp_path_factory: pytest.TempPathFactory) -> Month:
    """-> the story month written (a light volume, no backfill), its script and its questions."""
    home = tmp_path_factory.mktemp("ask-month")
    first, last = write_sample(home, days=30, volume=0.25)
    script = json.loads(write_script(home, first, last).read_text(encoding="utf-8"))
    return home, script, month_cases(home, script)


def _of(cases: Cases, kind: str) -> Cases:
    """Cases + a kind -> those of it."""
    return [c for c in cases if c["kind"] == kind]


def test_at_least_80_questions_every_kind_in_both_languages(month: Month) -> None:
    cases = month[2]
    assert len(cases) >= 80
    assert len({c["question"] for c in cases}) == len(cases)
    per = Counter((c["kind"], c["lang"]) for c in cases)
    assert {kind for kind, _ in per} == set(KINDS)
    assert all(per[(kind, lang)] >= 3 for kind in KINDS for lang in ("en", "ja")), per
    langs = Counter(c["lang"] for c in cases)
    assert langs["en"] >= 40 and langs["ja"] >= 40
    # Not one fixed form per kind: the phrasings differ (the things asked about aside).
    for kind in KINDS:
        for lang in ("en", "ja"):
            asked = [c["question"] for c in cases if (c["kind"], c["lang"]) == (kind, lang)]
            heads = {" ".join(q.split()[:2]) if lang == "en" else q[-4:] for q in asked}
            assert len(heads) >= 2, (kind, lang, asked)


def test_every_question_is_written_in_its_language(month: Month) -> None:
    for c in month[2]:
        assert c["lang"] in ("en", "ja") and not language_wrong(c["lang"], c["question"]), c
        assert datetime.fromisoformat(c["now"]).utcoffset() is not None


def test_counts_days_and_whens_are_the_scripts(month: Month) -> None:
    _, script, cases = month
    tallies = script["tallies"]
    runs = next(c for c in _of(cases, "count") if "running in November" in c["question"])
    assert runs["truth"] == {"count": 3, "days": ["2026-11-01", "2026-11-07", "2026-11-17"]}
    assert runs["window"] == {"since": "2026-11-01", "until": "2026-11-30"}
    for c in _of(cases, "count") + _of(cases, "which_days"):
        days = c["truth"]["days"]
        assert days and all(
            c["window"] is None or c["window"]["since"] <= d <= c["window"]["until"] for d in days
        )
        if "count" in c["truth"] and "talk" not in c["question"] and "話した" not in c["question"]:
            assert c["truth"]["count"] == len(days)
        assert set(days) <= {d["day"] for d in script["days"]}
    oyakodon = next(c for c in _of(cases, "which_days") if "oyakodon" in c["question"])
    assert oyakodon["truth"]["days"] == tallies["cooking/oyakodon"]["days"]
    for c in _of(cases, "when"):
        moment = c["truth"]["when"]
        found = [
            e for e in script["events"] if moment.startswith(f"{e['day']}T{e['time'] or '-'}")
        ] + [
            m
            for d in script["days"]
            for m in d["chat"]
            if moment.startswith(f"{m['day']}T{m['time']}")
        ]
        assert found, c
    dashi = next(c for c in _of(cases, "when") if "first make dashi" in c["question"])
    assert dashi["truth"]["when"] == "2026-11-02T20:00:00+01:00"
    ryokan = next(c for c in _of(cases, "when") if c["question"] == "when did I book the ryokan")
    assert ryokan["truth"]["when"] == "2026-11-19T20:15:00+01:00"
    (chat,) = ryokan["truth"]["also"]  # "Booked! Ryokan Higashiyama", a few minutes on
    assert chat.startswith("2026-11-19T20:20:")


def test_talks_are_the_chat_logs_conversations(month: Month) -> None:
    _, script, cases = month
    peter = [m for d in script["days"] for m in d["chat"] if m["conversation"] == "Peter"]
    last = next(c for c in _of(cases, "when") if c["question"] == "when did I last talk to Peter")
    assert last["truth"]["when"] == f"{peter[-1]['day']}T{peter[-1]['time']}+01:00"
    week = next(c for c in _of(cases, "count") if "talk to Peter last week" in c["question"])
    days = sorted({m["day"] for m in peter if "2026-11-09" <= m["day"] <= "2026-11-15"})
    assert week["truth"]["days"] == days and week["truth"]["count"] >= len(days)


def test_facts_people_and_promises_are_the_scripts(month: Month) -> None:
    _, script, cases = month
    now = {(f["subject"], f["value"]) for f in script["facts"] if f["valid_to"] is None}
    said = {(f["subject"], f["value"]): {s["day"] for s in f["said"]} for f in script["facts"]}
    for c in _of(cases, "lookup"):
        value = c["expected"].split(" (said")[0]
        subject = next(s for s, v in now if v == value)
        assert set(c["truth"]["days"]) == said[(subject, value)]
    for c in _of(cases, "who"):
        person = "Mina" if "Mina" in c["question"] or "ミナ" in c["question"] else "Peter"
        assert {f["value"] for f in c["truth"]["facts"]} == {v for s, v in now if s == person}
        circle = ("colleague", "同僚") if person == "Mina" else ("friend", "友人")
        assert c["truth"]["relation"][0] in circle
    promises = {e["source"]: e for e in script["events"] if e["kind"] == "promise"}
    for c in _of(cases, "commitments"):
        for p in c["truth"]["promises"]:
            event = promises[p["sources"][0]]
            assert event["what"] == p["what"] and p["sources"][1:] == [
                a["source"] for a in event["also"]
            ]
    owed = next(c for c in _of(cases, "commitments") if c["question"] == "what do I owe Mina")
    assert [p["what"] for p in owed["truth"]["promises"]] == [
        "write the migration runbook next week"
    ]
    messages = {m["source"]: m for d in script["days"] for m in d["chat"]}
    for c in _of(cases, "said_by"):
        speakers = {messages[s]["speaker"] for s in c["truth"]["lines"]}
        assert len(speakers) == 1 and set(c["truth"]["lines"]) <= set(c["truth"]["speaker_lines"])
    ryokan = next(
        c for c in _of(cases, "said_by") if c["question"] == "what did Peter say about the ryokan"
    )
    assert "sources/chat/chat.jsonl#L130" in ryokan["truth"]["lines"]  # "Higashiyama, quieter."


def test_decisions_and_yes_or_no_are_the_scripts(month: Month) -> None:
    _, script, cases = month
    decisions = {
        e["source"]: e
        for e in script["events"]
        if e["kind"] == "work" and e["what"].startswith("decision on ")
    }
    asked = _of(cases, "decision")
    assert {c["truth"]["source"] for c in asked} == set(decisions)
    for c in asked:
        event = decisions[c["truth"]["source"]]
        at = f"{event['day']}T{event['time']}" if event["time"] else event["day"]
        assert c["truth"]["when"][: len(at)] == at
    vectors = next(c for c in asked if c["question"] == "what did I decide about the vector store")
    assert vectors["truth"] == {
        "source": "sources/notes/2026-11-20.md#L13",
        "when": "2026-11-20T16:30:00+01:00",
    }
    prefect = next(c for c in asked if "nightly jobs" in c["question"])
    assert prefect["truth"]["when"] == "2026-11-17"  # a line in Thoughts: the day alone
    did = _of(cases, "did")
    assert {c["truth"]["yes"] for c in did if c["lang"] == "en"} == {True, False}
    assert {c["truth"]["yes"] for c in did if c["lang"] == "ja"} == {True, False}
    for c in did:
        assert c["truth"]["yes"] == bool(c["truth"]["days"])
        assert all(c["window"]["since"] <= d <= c["window"]["until"] for d in c["truth"]["days"])
    ran = next(c for c in did if c["question"] == "did I go running last week?")
    assert ran["truth"] == {"yes": False, "days": []}
    assert not any("2026-11-09" <= d <= "2026-11-15" for d in script["tallies"]["run/run"]["days"])
    this_week = next(c for c in did if c["question"] == "今週は走りましたか")
    assert this_week["truth"] == {"yes": True, "days": ["2026-11-17"]}


def test_overviews_and_parts_of_days_are_the_written_days(month: Month) -> None:
    home, script, cases = month
    days = {d["day"]: d for d in script["days"]}
    for c in _of(cases, "overview"):
        assert c["truth"]["days"] and set(c["truth"]["days"]) <= set(days)
        if len(c["truth"]["days"]) == 1:
            log = [x["text"] for x in days[c["truth"]["days"][0]]["note"] if x["section"] == "Log"]
            assert len(c["truth"]["mentions"]) == len(log) and all(
                m in t for m, t in zip(c["truth"]["mentions"], log, strict=True)
            )
    notes = {x["source"]: x for d in script["days"] for x in d["note"]}
    for c in _of(cases, "part_of_day"):
        assert c["truth"]["top"]
        for ref in c["truth"]["notes"]:
            assert (
                notes[ref]["time"] is not None
                and c["window"]["since"] <= notes[ref]["day"] <= c["window"]["until"]
            )
    afternoon = next(
        c for c in _of(cases, "part_of_day") if "afternoon of 11 November" in c["question"]
    )
    assert "sources/notes/2026-11-11.md#L5" in afternoon["truth"]["notes"]  # 12:10 the table booked


def test_activitywatch_arithmetic_on_a_tiny_export(tmp_path: Path) -> None:
    def event(at: str, seconds: float, **data: str) -> dict[str, Any]:
        return {"timestamp": f"2026-11-20T{at}+00:00", "duration": seconds, "data": data}

    buckets = {
        "aw-watcher-window_x": {
            "type": "currentwindow",
            "events": [
                event("10:00:00", 600, app="zoom"),
                event("10:10:03", 297, app="zoom"),  # a 3 s gap: flooded
                event("10:15:00", 600, app="firefox"),
            ],
        },
        "aw-watcher-afk_x": {
            "type": "afkstatus",
            "events": [
                event("10:00:00", 1200, status="not-afk"),
                event("10:20:00", 600, status="afk"),
            ],
        },
        "aw-watcher-web-firefox_x": {
            "type": "web.tab.current",
            "events": [event("10:00:00", 1800, url="https://www.github.com/x")],
        },
    }
    export = tmp_path / "sources/activitywatch/aw-buckets-export.json"
    export.parent.mkdir(parents=True)
    export.write_text(json.dumps({"buckets": buckets}), encoding="utf-8")
    sources = Sources(tmp_path, "UTC")
    day = sources.day_window(datetime(2026, 11, 20).date())
    assert sources.app_minutes("zoom", day) == 15.0  # 10:00-10:15, the gap filled
    # github.com only while Firefox is focused (from 10:15) and not away (until 10:20)
    assert sources.site_minutes("github.com", day) == 5.0
    assert sources.activities(day) == [("zoom", 15.0), ("github.com", 5.0)]


def _answer(kind: str, answer: str, cites: list[tuple[str, str]], **extra: Any) -> dict[str, Any]:
    """Parts -> an answer JSON as `omoide ask --json` prints it."""
    return {
        "kind": kind,
        "window": None,
        "answer": answer,
        "minutes": None,
        "when": None,
        "citations": [{"source": s, "day": d} for s, d in cites],
        **extra,
    }


def test_the_judges_on_hand_made_answers(month: Month) -> None:
    cases = month[2]
    runs = next(c for c in _of(cases, "count") if "running in November" in c["question"])
    window = runs["window"]
    cites = [(f"sources/notes/{d}.md#L3", d) for d in runs["truth"]["days"]]
    good = "3 times in November 2026 (days): Sunday, 1 November 2026 (“Ran 10 km”)."
    assert verdict(runs, _answer("count", good, cites, window=window)) == ""
    assert (
        verdict(runs, _answer("count", good.replace("3", "8", 1), cites, window=window))
        == "stated 8"
    )
    assert verdict(runs, _answer("which_days", good, cites, window=window)) == "kind which_days"
    assert stated_number("2026年第46週（11月9日〜15日）に1回（ピーターとの会話）") == 1
    # when: the event's time, or a line telling of it that day; the day alone is not enough
    ryokan = next(c for c in _of(cases, "when") if c["question"] == "when did I book the ryokan")
    (chat,) = ryokan["truth"]["also"]
    for moment, why in (
        ("2026-11-19T20:15:00+01:00", ""),
        (chat, ""),
        ("2026-11-19T00:00:00+01:00", "said 2026-11-19T00:00:00+01:00 (the day right)"),
    ):
        assert verdict(ryokan, _answer("when", "On Thursday.", [], when=moment)) == why
    # compare: the larger first, its minutes within 5 %
    both = next(c for c in _of(cases, "compare") if "github.com or in zoom" in c["question"])
    zoom = both["truth"]["minutes"]
    text = "More time on zoom: 1 h 56 min, against 46 min on github.com."
    told = _answer("compare", text, [], window=both["window"], minutes=zoom)
    assert verdict(both, told) == ""
    swapped = _answer(
        "compare", "More time on github.com than zoom.", [], window=both["window"], minutes=zoom
    )
    assert verdict(both, swapped) == "the smaller named first"
    # language: quotes and the people's names aside
    assert language_wrong("en", "“明日資料を送る” — to ミナ; said Monday") == ""
    assert language_wrong("en", "最後は Monday") == "Japanese outside quotes"
    assert (
        language_wrong("ja", "「夕飯に親子丼を作った」 on Friday") == "no Japanese outside quotes"
    )
    # a window running past the question's day may end on it, and no earlier
    week = next(c for c in _of(cases, "overview") if "last week" in c["question"])
    asked = dict(week, now="2026-11-21T10:00:00+01:00")
    pages = [(f"vault/memory/{d}.md#L3", d) for d in week["truth"]["days"]]
    for until, why in (("2026-11-21", ""), ("2026-11-20", "window")):
        got = _answer(
            "overview", "Mostly a good week.", pages, window={"since": "2026-11-16", "until": until}
        )
        assert verdict(asked, got).startswith(why)
    spent = next(c for c in _of(cases, "time_spent") if "last week" in c["question"])
    minutes = spent["truth"]["minutes"]
    told = _answer("time_spent", "About 2 h.", [], window=spent["window"], minutes=minutes * 1.01)
    assert verdict(spent, told) == ""
    assert verdict(spent, dict(told, minutes=minutes * 1.05)).endswith("min")


def test_the_decision_and_yes_or_no_judges(month: Month) -> None:
    cases = month[2]
    vectors = next(
        c
        for c in _of(cases, "decision")
        if c["question"] == "what did I decide about the vector store"
    )
    line = (vectors["truth"]["source"], "2026-11-20")
    other = ("sources/notes/2026-11-20.md#L19", "2026-11-20")
    said = "The latest decision, Friday at 16:30: “warelay moves its vectors to LanceDB”."
    assert verdict(vectors, _answer("decision", said, [line, other])) == ""
    at = vectors["truth"]["when"]
    assert verdict(vectors, _answer("decision", said, [other, line], when=at)) == ""
    wrong = verdict(vectors, _answer("decision", said, [other], when="2026-11-20T00:00:00+01:00"))
    assert wrong.startswith("first citation sources/notes/2026-11-20.md#L19")
    prefect = next(c for c in _of(cases, "decision") if "nightly jobs" in c["question"])
    noted = _answer(
        "decision", "The latest decision, Tuesday.", [other], when="2026-11-17T00:00:00+01:00"
    )
    assert verdict(prefect, noted) == ""  # a decision with no time of its own: its day
    ran = next(c for c in _of(cases, "did") if c["question"] == "did I go running last week?")
    week = ran["window"]
    no = _answer("did", "No. No record in the week matches “go running”.", [], window=week)
    assert verdict(ran, no) == ""
    yes = _answer("did", "Yes, once last week.", [("x.md#L1", "2026-11-10")], window=week)
    assert verdict(ran, yes) == "said yes"
    assert verdict(ran, dict(no, answer="Nothing matches.")) == "neither yes nor no"
    runs = next(c for c in _of(cases, "did") if c["question"] == "今週は走りましたか")
    cited = [("sources/notes/2026-11-17.md#L6", "2026-11-17")]
    hai = _answer("did", "はい。今週に1回：11月17日（火）。", cited, window=runs["window"])
    assert verdict(runs, hai) == ""
    assert verdict(runs, dict(hai, citations=[])) == "cited days []"
    assert verdict(runs, dict(hai, answer="いいえ。見つかりません。", citations=[])) == "said no"
