"""`omoide ask` on the backfilled sample, checked against ground truth read from the sample's own files.

The truth (omoide.bench.ask_cases: the sample's script, and ActivityWatch's arithmetic and the
chat log read from the source files by omoide.bench.ask_truth) gives the questions of the
days written; `omoide bench ask --data` asks every question and judges the answers.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from omoide.bench.ask import month_cases
from omoide.sample import sample_script
from tests.fakes import run_cli

SATURDAY = "2026-11-21T10:00"


def _ask(home: Path, question: str, now: str = SATURDAY) -> dict:
    """Home + question -> `omoide ask --json`'s object."""
    r = run_cli("ask", question, "--now", now, "--json", home=home)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def test_the_bench_judges_every_question_of_the_two_days(
    sample_two_days: Path, tmp_path: Path
) -> None:
    # The script of the days written, computed rather than written into the shared home.
    script = sample_script(sample_two_days, date(2026, 11, 19), date(2026, 11, 20))
    cases = month_cases(sample_two_days, script)
    data = tmp_path / "questions.json"
    data.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    r = run_cli("bench", "ask", "--data", str(data), "--json", home=sample_two_days)
    assert r.returncode == 0, r.stderr[-2000:]
    result = json.loads(r.stdout)
    assert result["questions"] == len(cases) >= 30
    assert set(result["per_language"]) == {"en", "ja"}
    assert set(result["per_kind"]) == {c["kind"] for c in cases} >= {"overview", "part_of_day"}
    for item in result["items"]:
        assert item["right"] == (item["why"] == "") and item["expected"]
    # What these days have long been answered right: their overviews and the time on a site or app.
    wrong = [
        (i["question"], i["why"])
        for i in result["items"]
        if i["kind"] in ("overview", "time_spent") and not i["right"]
    ]
    assert wrong == []


def test_yesterday_answers_from_that_day_with_what_its_note_logs(sample_two_days: Path) -> None:
    for question in ("what did I do yesterday", "昨日は何をしましたか"):
        got = _ask(sample_two_days, question)
        assert set(got) >= {"kind", "window", "answer", "minutes", "when", "citations"}
        assert got["kind"] == "overview"
        assert got["window"] == {"since": "2026-11-20", "until": "2026-11-20"}
        assert sum(c["day"] == "2026-11-20" for c in got["citations"]) >= 3
        assert all(c["day"] == "2026-11-20" and "#L" in c["source"] for c in got["citations"])
        assert "Demo of the sync fix" in got["answer"]  # the note's log of that Friday
    spent = _ask(sample_two_days, "how long was I in zoom on Friday")
    assert spent["kind"] == "time_spent" and spent["minutes"] > 0 and spent["citations"]
    when = _ask(sample_two_days, "when did I last talk to Peter")
    assert when["when"] == "2026-11-20T22:10:24+01:00" and when["minutes"] is None


def test_a_lookup_nothing_names_says_so_before_the_closest_memories(
    sample_two_days: Path,
) -> None:
    from omoide.answer.lookup import BY_MEANING_ONLY

    # The sample never mentions a standing desk: its nearest memories are no answer.
    absent = _ask(sample_two_days, "where is the standing desk")
    assert absent["kind"] == "lookup" and absent["answer"].startswith(BY_MEANING_ONLY)
    assert absent["citations"]  # still shown, with their sources
    found = _ask(sample_two_days, "what is the right store for warelay")
    assert found["answer"].startswith("Lance is the right store for warelay"), found["answer"]
    # Asked as a decision, the decision line itself answers.
    picked = _ask(sample_two_days, "which store did we pick for warelay")
    assert picked["kind"] == "decision" and "LanceDB" in picked["answer"], picked["answer"]


def test_a_day_with_no_records_is_said_so_not_answered_with_an_empty_line(
    sample_two_days: Path,
) -> None:
    tuesday = "2026-12-01T10:00"  # the sample ends on Friday 20 November
    for question, said in (
        ("what did I do yesterday", "Nothing was recorded on Monday, 30 November 2026."),
        ("昨日は何をしましたか", "2026年11月30日（月）には何も記録されていません。"),
    ):
        got = _ask(sample_two_days, question, now=tuesday)
        assert got["kind"] == "overview"
        assert got["window"] == {"since": "2026-11-30", "until": "2026-11-30"}
        assert got["answer"] == said
        assert got["citations"] == []
    spent = _ask(sample_two_days, "how long was I on github.com last week", now=tuesday)
    assert spent["answer"].startswith("Nothing was recorded in the week 2026-W48")
    # Records on the day, none of the subject: said, with no "About 0 min".
    absent = _ask(sample_two_days, "how long was I on example.org on Friday")
    assert absent["answer"].startswith("ActivityWatch recorded no time on example.org")
    when = _ask(sample_two_days, "when did I last talk to Peter last week", now=tuesday)
    assert when["when"] is None and when["answer"].startswith("No record in the week 2026-W48")


def test_count_which_days_and_compare_keep_the_json_keys_and_cite_every_day(
    sample_two_days: Path,
) -> None:
    keys = {"kind", "window", "answer", "minutes", "when", "citations", "subject", "basis"}
    talks = _ask(sample_two_days, "how many times did I talk to Peter")
    assert set(talks) == keys and talks["kind"] == "count" and talks["minutes"] is None
    n = int(talks["answer"].split()[0])
    assert n == len(talks["citations"]) >= 2  # one per conversation, each cited
    assert {c["day"] for c in talks["citations"]} == {"2026-11-19", "2026-11-20"}
    cooked = _ask(sample_two_days, "which days did I cook oyakodon")
    assert cooked["kind"] == "which_days"
    assert [c["day"] for c in cooked["citations"]] == ["2026-11-20"]
    assert cooked["citations"][0]["source"].startswith("sources/notes/2026-11-20.md#L")
    # compare: both figures as time spent says them, the larger one's minutes
    zoom = _ask(sample_two_days, "how long was I in zoom on Friday")["minutes"]
    github = _ask(sample_two_days, "how long was I on github.com on Friday")["minutes"]
    for question in (
        "did I spend more time on github.com or in zoom on Friday",
        "金曜日はgithub.comとzoomのどちらに長く時間を使いましたか",
    ):
        got = _ask(sample_two_days, question)
        assert got["kind"] == "compare" and got["minutes"] == max(zoom, github)
        assert got["window"] == {"since": "2026-11-20", "until": "2026-11-20"}
        assert got["citations"] and all(c["day"] == "2026-11-20" for c in got["citations"])
    assert "zoomの方が長く" in got["answer"]
    first = _ask(sample_two_days, "when did I first book the ryokan")
    assert first["when"] == "2026-11-19T20:15:00+01:00"  # the note line's own time
    assert first["citations"][0]["source"].startswith("sources/notes/2026-11-19.md#L")
    ja = _ask(sample_two_days, "どの日に親子丼を作った？")
    assert ja["answer"].startswith("1日：2026年11月20日（金）「夕飯に親子丼を作った")
    none = _ask(sample_two_days, "how many times did I go skydiving")
    assert none["citations"] == [] and none["answer"].startswith("No record matches")
