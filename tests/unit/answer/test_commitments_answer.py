"""Commitments answers: the window's (due or said in it), the open ones, a person's, in English and Japanese, cited; nothing found said as such."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path

import pandas as pd
import pytest

from omoide.answer.ask import ask
from omoide.answer.cite import Answer
from omoide.answer.commitments import commitments_answer
from omoide.answer.question import Question, classify
from omoide.core import schemas
from omoide.core.settings import Settings, get_settings
from omoide.store.lake import write_facts
from tests.fakes import memory_row

TZ = "Europe/Berlin"
NOW = datetime(2026, 11, 20, 12, tzinfo=UTC)  # a Friday
BERLIN_MIDNIGHT = "T23:00:00Z"  # a note item without its own time: its day's local midnight


# (day, ts, to whom, content, cited line)
ROWS = [
    (
        "2026-11-02",
        "2026-11-02T18:00:00Z",
        ["Peter"],
        "[ ] return Peter's drill [2026-12]",
        "chat/peter.jsonl#L40",
    ),
    (
        "2026-11-10",
        "2026-11-10T09:00:00Z",
        ["Mina"],
        "[ ] send Mina the slides [2026-11-12]",
        "chat/mina.jsonl#L7",
    ),
    (
        "2026-11-19",
        "2026-11-19T10:02:00Z",
        ["Peter"],
        "[ ] help you move the boxes on Saturday [2026-11-21]",
        "chat/peter.jsonl#L52",
    ),
    (
        "2026-11-19",
        "2026-11-18" + BERLIN_MIDNIGHT,
        [],
        "[ ] call the dentist",
        "notes/2026-11-19.md#L5",
    ),
    (
        "2026-11-19",
        "2026-11-18" + BERLIN_MIDNIGHT,
        [],
        "[x] book flights",
        "notes/2026-11-19.md#L6",
    ),
    (
        "2026-11-20",
        "2026-11-19" + BERLIN_MIDNIGHT,
        ["ミナ"],
        "[ ] 明日ミナさんに資料を送るつもり [2026-11-21]",
        "notes/2026-11-20.md#L9",
    ),
]


@pytest.fixture
def settings(omoide_home: Path) -> Settings:
    (omoide_home / "omoide.toml").write_text(f'timezone = "{TZ}"\n', encoding="utf-8")
    s = get_settings()
    by_day: dict[str, list[dict[str, object]]] = {}
    for i, (day, ts, to, content, ref) in enumerate(ROWS):
        row = memory_row(
            f"c{i}",
            content,
            kind="commitment",
            now=NOW,
            day=day,
            ts=pd.Timestamp(ts),
            entities=to,
            source=ref,
            source_refs=[ref],
        )
        by_day.setdefault(day, []).append(row)
    # A chat record beside them is no commitment.
    by_day["2026-11-19"].append(
        memory_row(
            "r1",
            "Ken: I'll help you move",
            kind="chat",
            now=NOW,
            day="2026-11-19",
            source="chat/peter.jsonl#L52",
        )
    )
    for day, rows in by_day.items():
        frame = schemas.conform(pd.DataFrame(rows), schemas.FACTS).assign(memory_type="direct")
        write_facts(s.lake_dir, date.fromisoformat(day), frame)
    return s


def _ask(settings: Settings, text: str, **sorted_as: str) -> Answer:
    """A question sorted by the question rules (+ fields set as another sorting would) -> its commitments answer."""
    q = classify(text, TZ, NOW)
    assert q.kind == "commitments", q
    return commitments_answer(replace(q, **sorted_as), settings, NOW)


def test_this_week_lists_what_is_due_or_said_in_it_open_first(settings: Settings) -> None:
    found = _ask(settings, "what do I have to do this week?")
    assert found.kind == "commitments" and found.basis == "lake"
    assert found.window == (date(2026, 11, 16), date(2026, 11, 22))
    assert found.answer.splitlines() == [
        "4 commitments in the week 2026-W47 (16 to 22 November 2026), 1 of them done:",
        "- “help you move the boxes on Saturday” — to Peter; said Thursday, 19 November 2026 at 11:02; due Saturday, 21 November 2026",
        "- “明日ミナさんに資料を送るつもり” — to ミナ; said Friday, 20 November 2026; due Saturday, 21 November 2026",
        "- “call the dentist” — said Thursday, 19 November 2026",
        "- “book flights” — said Thursday, 19 November 2026; done",
    ]
    assert [(c.source, c.day) for c in found.citations] == [
        ("chat/peter.jsonl#L52", "2026-11-19"),
        ("notes/2026-11-20.md#L9", "2026-11-20"),
        ("notes/2026-11-19.md#L5", "2026-11-19"),
        ("notes/2026-11-19.md#L6", "2026-11-19"),
    ]


def test_a_person_named_without_a_window_gets_their_promises_open_first(settings: Settings) -> None:
    found = _ask(settings, "what did I promise Peter?")
    assert found.answer.splitlines() == [
        "2 commitments to Peter:",
        "- “help you move the boxes on Saturday” — to Peter; said Thursday, 19 November 2026 at 11:02; due Saturday, 21 November 2026",
        "- “return Peter's drill” — to Peter; said Monday, 2 November 2026 at 19:00; due in December 2026",
    ]
    assert found.subject == "Peter" and found.window is None
    # The speaker a question was asked about, when the question sorts one out.
    mina = _ask(settings, "what did I promise?", speaker="Mina")
    # ミナ is Mina (omoide.answer.names): the note written in Japanese is to her too.
    assert mina.answer.splitlines()[0] == "2 commitments to Mina:"
    # What is still owed is the open ones only.
    owed = _ask(settings, "what do I still owe Peter?")
    assert owed.answer.splitlines()[0] == "2 open commitments to Peter:"
    assert [c.source for c in mina.citations] == ["chat/mina.jsonl#L7", "notes/2026-11-20.md#L9"]


def test_the_question_as_sorted_today_works_too(settings: Settings) -> None:
    q = Question("what did I promise Peter?", "commitments", None, "what did I promise Peter")
    assert commitments_answer(q, settings, NOW).answer.startswith("2 commitments to Peter:")


def test_japanese_questions_are_answered_in_japanese_quotes_as_written(settings: Settings) -> None:
    week = _ask(settings, "今週やることは？")
    assert week.answer.splitlines() == [
        "2026年第47週（11月16日〜22日）の約束・予定は4件です（うち1件は済み）：",
        "・「help you move the boxes on Saturday」（Peterへ／2026年11月19日（木）11:02／期限：2026年11月21日（土））",
        "・「明日ミナさんに資料を送るつもり」（ミナへ／2026年11月20日（金）／期限：2026年11月21日（土））",
        "・「call the dentist」（2026年11月19日（木））",
        "・「book flights」（2026年11月19日（木）／済み）",
    ]
    # ピーター is Peter by sound (omoide.answer.names): the promises written to Peter.
    peter = _ask(settings, "ピーターに約束したことは？")
    assert peter.answer.splitlines()[0] == "ピーターへの約束・予定は2件です："
    assert [c.source for c in peter.citations] == ["chat/peter.jsonl#L52", "chat/peter.jsonl#L40"]
    mina = _ask(settings, "ミナに約束してまだ済んでいないことは？")
    assert mina.answer.splitlines() == [
        "まだ済んでいないミナへの約束・予定は2件です：",
        "・「send Mina the slides」（Minaへ／2026年11月10日（火）10:00／期限：2026年11月12日（木））",
        "・「明日ミナさんに資料を送るつもり」（ミナへ／2026年11月20日（金）／期限：2026年11月21日（土））",
    ]


def test_nothing_found_is_said_with_where_it_looked(settings: Settings) -> None:
    anna = _ask(settings, "what did I promise Anna?")
    assert anna.answer == (
        "No promise, plan or to-do to Anna was found "
        "(looked in the commitments taken from your own messages and notes, 4 day(s))."
    )
    assert anna.citations == [] and anna.subject == "Anna"
    later = _ask(settings, "来週の約束は？")
    assert later.answer == (
        "2026年第48週（11月23日〜29日）の約束や予定は見つかりませんでした"
        "（あなた自身のメッセージとメモから取った約束を4日分探しました）。"
    )
    tomorrow = _ask(settings, "what did I promise Peter for tomorrow?")
    assert tomorrow.answer.startswith("1 commitment to Peter on Saturday, 21 November 2026:")


def test_an_empty_home_says_so(omoide_home: Path) -> None:
    found = _ask(get_settings(), "what do I have to do?")
    assert found.answer.startswith("No open promise, plan or to-do was found")
    assert found.citations == []


def test_answering_loads_neither_lancedb_nor_a_model() -> None:
    code = (
        "import sys, omoide.answer.commitments; "
        "print(any(m in sys.modules for m in ('lancedb', 'onnxruntime', 'torch')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_subject_the_question_rules_sorted_out_is_to_whom_or_about_what(
    settings: Settings,
) -> None:
    peter = _ask(settings, "what did I promise Peter?")
    assert peter.answer.startswith("2 commitments to Peter:") and peter.subject == "Peter"
    boxes = _ask(settings, "what did I promise about the boxes?")
    drill = _ask(settings, "what did I promise to do for Peter's drill")
    assert drill.answer.splitlines()[0] == "1 commitment to Peter about “drill”:"
    assert boxes.answer.splitlines()[0] == "1 commitment about “boxes”:"
    assert [c.source for c in boxes.citations] == ["chat/peter.jsonl#L52"]
    assert _ask(settings, "資料の約束は？", subject="資料").answer.startswith(
        "「資料」についての約束・予定は1件です："
    )
    piano = _ask(settings, "what did I promise about the piano?")
    assert piano.answer.startswith("No promise, plan or to-do about “piano” was found")


def test_ask_routes_a_commitments_question_here(settings: Settings) -> None:
    found = ask("今週やることは？", settings, NOW)
    assert found.kind == "commitments" and len(found.citations) == 4
    assert found.answer.startswith("2026年第47週（11月16日〜22日）の約束・予定は4件です")


def test_a_later_record_of_my_own_that_says_it_was_done_keeps_a_promise(
    settings: Settings,
) -> None:
    from tests.unit.answer.test_count_and_compare import _chat, _note, _write

    _write(
        settings.lake_dir,
        [
            _note(date(2026, 11, 12), 4, "Sent @Mina the slides for her talk", "09:00"),
            # a plan to do it is no keeping, nor is someone else's word
            _note(date(2026, 11, 3), 5, "Return Peter's drill next week"),
            _chat(9, "2026-11-04T10:00Z", "Peter", "I returned the drill to the shop", "Peter"),
        ],
    )
    found = _ask(settings, "what did I promise in November?")
    assert (
        "- “send Mina the slides” — to Mina; said Tuesday, 10 November 2026 at 10:00; due "
        "Thursday, 12 November 2026; done (“Sent @Mina the slides for her talk”, Thursday, "
        "12 November 2026)"
    ) in found.answer.splitlines()
    assert ("/home/sources/notes/2026-11-12.md#L4", "2026-11-12") in [
        (c.source, c.day) for c in found.citations
    ]
    drill = [line for line in found.answer.splitlines() if "drill" in line]
    assert drill and "done" not in drill[0]
    # Kept is no longer open.
    assert "slides" not in _ask(settings, "what do I still owe Mina?").answer
