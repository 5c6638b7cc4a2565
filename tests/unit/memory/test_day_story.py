"""The day told as a story: block lines, the day's shape read back, what was written, decided and told; the model fed blocks."""

from __future__ import annotations

import re

import pandas as pd

from omoide.core.days import day_bounds
from omoide.memory.day_story import block_about, block_text, blocks_sentence, day_lines
from omoide.memory.extractive_digest import day_figures
from omoide.memory.summarize import summarize_day
from omoide.memory.summarize_prompts import ChunkNotes, DailyDigest
from tests.fakes import FakeLLM, a_block

from .conftest import DAY, TZ

BLOCKS = [
    a_block(
        1,
        "2026-11-20T08:30Z",
        "2026-11-20T09:15Z",
        "coding",
        "working on warelay",
        apps=("Google Chrome",),
        sites=("github.com",),
        refs=("/History#visits.id=1",),
    ),
    a_block(
        2,
        "2026-11-20T09:25Z",
        "2026-11-20T10:25Z",
        "meeting",
        "demo of the sync fix with Mina",
        apps=("zoom",),
        people=("Mina", "Peter"),
        refs=("/notes/2026-11-20.md#L9",),
    ),
    a_block(
        3,
        "2026-11-20T12:00Z",
        "2026-11-20T13:40Z",
        "reading",
        "reading about LanceDB",
        sites=("lancedb.github.io",),
    ),
]


def test_a_block_line_says_span_what_with_whom_kind_where_and_time():
    assert block_text(BLOCKS[1], TZ) == (
        "10:25–11:25 demo of the sync fix with Mina and Peter (meeting · zoom · 1.0 h)"
    )
    alone = a_block(
        9, "2026-11-20T17:00Z", "2026-11-20T18:00Z", "browsing", "planning Kyoto", people=("Peter",)
    )
    assert block_about(alone) == "planning Kyoto with Peter"
    away = a_block(
        8, "2026-11-20T07:05Z", "2026-11-20T07:35Z", "offline", "Called the dentist", active_s=0.0
    )
    assert block_text(away, TZ).endswith("(away from the computer)")


def test_the_days_shape_is_read_back_from_its_sentence():
    sentence = blocks_sentence(BLOCKS, TZ)
    assert sentence.startswith("3 blocks between 09:30 and 14:40; the longest: reading about")
    f = day_figures(f"Friday 2026-11-20. {sentence[0].upper()}{sentence[1:]} With Mina and Peter.")
    assert f is not None and f.sessions == 3 and f.span == ("09:30", "14:40")
    assert [n for n, _ in f.longest][:2] == [
        "reading about LanceDB",
        "demo of the sync fix with Mina and Peter",
    ]
    assert abs(f.longest[0][1] - 100 * 60) <= 360 and f.people == ("Mina", "Peter")


def test_the_summary_names_the_blocks_not_the_sessions(events, sessions):
    s = summarize_day(events, sessions, DAY, TZ, None, blocks=BLOCKS)
    assert "activity sessions" not in s.summary and "3 blocks between" in s.summary
    assert "With Mina and Peter." in s.summary
    f = day_figures(s.summary)
    assert f is not None and f.sessions == 3 and f.written == (3, 3)
    # Without blocks the page says what it always said.
    assert "activity sessions between" in summarize_day(events, sessions, DAY, TZ, None).summary


def test_lines_say_what_was_written_decided_said_and_told(events):
    ai = pd.DataFrame(
        [
            {
                **events.iloc[-1].to_dict(),
                "event_id": "a1",
                "title": "assistant",
                "actor": "Aiko",
                "text": "Which reranker is the default?",
                "source_ref": "/chat.jsonl#L9",
            },
            {
                **events.iloc[-1].to_dict(),
                "event_id": "a2",
                "title": "assistant",
                "actor": "assistant",
                "text": "Reciprocal rank fusion.",
                "source_ref": "/chat.jsonl#L10",
            },
        ]
    )
    both = pd.concat([events, ai], ignore_index=True)
    lines = day_lines(both, day_bounds(DAY, TZ)[0], TZ)  # no names configured: the AI chat tells
    said = {(x.kind, x.who, x.text) for x in lines}
    assert (
        "decided",
        "",
        "Decision: warelay moves its vectors to LanceDB in the next release",
    ) in said
    assert ("told", "Peter", "Can we move the release to Friday?") in said
    assert ("said", "Peter", "Yes, Friday works if QA signs off") in said
    assert ("said", "assistant", "Which reranker is the default?") in said
    assert not any(x.text == "Reciprocal rank fusion." for x in lines)  # a bot's reply is not told
    assert [x.at for x in lines][:2] == ["09:05", "10:30"] and all(x.refs for x in lines)
    assert not any(x.kind == "retain" for x in lines)


def test_the_model_is_fed_blocks_and_their_lines_and_a_window_title_is_no_highlight(
    events, sessions
):
    title = "sync.py - warelay - Visual Studio Code"

    def answer(system: str, prompt: str, schema: type) -> ChunkNotes | DailyDigest:
        labels = re.findall(r"\[(i\d+)\]", prompt)
        if schema is ChunkNotes:
            return ChunkNotes(bullets=[{"text": "worked on warelay", "items": labels[:2]}])
        return DailyDigest(
            summary="The user demoed the sync fix with Mina.",
            highlights=[title, "Demo of the warelay sync fix to the team"],
            facts=[],
        )

    llm = FakeLLM(answer, model="fake:1b", backend="ollama")
    s = summarize_day(events, sessions, DAY, TZ, llm, chunk_tokens=60, blocks=BLOCKS)
    maps = [p[1] for p in llm.prompts if p[2] == "ChunkNotes"]
    fed = "\n".join(maps)
    assert "block: demo of the sync fix with Mina and Peter" in fed
    assert "Hybrid search - LanceDB" not in fed  # the sessions' titles are not fed
    # A block is never split across map calls: its line and its note line share one prompt.
    assert any("demo of the sync fix" in m and "Demo of the warelay sync fix" in m for m in maps)
    assert [h.text for h in s.highlights] == ["Demo of the warelay sync fix to the team"]
    assert s.ungrounded >= 1 and s.lines and s.tz == TZ
