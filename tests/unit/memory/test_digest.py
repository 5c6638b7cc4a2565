"""The embedded digest: time per activity, timeline, extractive highlights, retained facts."""

from __future__ import annotations

import pandas as pd
import pytest

from omoide.core import schemas
from omoide.memory.extractive_digest import DIGEST_MODEL
from omoide.memory.summarize import summarize_day

from .conftest import DAY, TZ


def test_embedded_digest_is_deterministic_and_says_who_wrote_it(events, sessions):
    a = summarize_day(events, sessions, DAY, TZ, None)
    b = summarize_day(events, sessions, DAY, TZ, None)
    assert a == b
    assert (a.backend, a.model, a.produced_by) == (
        "embedded",
        DIGEST_MODEL,
        f"embedded:{DIGEST_MODEL}",
    )
    assert a.llm_calls == 0


def _aw(kind: str, start: str, minutes: float, app: str, title: str, url: str | None = None):
    """One ActivityWatch event of the lake."""
    at = pd.Timestamp(start)
    return {
        "event_id": f"aw-{kind}-{start}",
        "ts": at,
        "duration_s": minutes * 60.0,
        "source": "activitywatch",
        "source_name": "aw",
        "event_type": kind,
        "app": app,
        "title": title,
        "url": url,
        "source_ref": f"aw.json#{kind}@{start}",
        "recorded_at": at,
    }


@pytest.fixture
def watched(events) -> pd.DataFrame:
    """The day's events with ActivityWatch's: at the computer 08:00-14:00 UTC but 11:00-11:30."""
    gh = "https://github.com/kumo-labs/warelay/pull/409"
    rows = [
        _aw("afk", "2026-11-20T08:00Z", 180, "afk", "not-afk"),
        _aw("afk", "2026-11-20T11:00Z", 30, "afk", "afk"),
        _aw("afk", "2026-11-20T11:30Z", 150, "afk", "not-afk"),
        _aw("window", "2026-11-20T08:30Z", 60, "Google-chrome", "PR #409 - Google Chrome"),
        _aw("web", "2026-11-20T08:30Z", 45, "Google Chrome", "PR #409", gh),
        _aw("window", "2026-11-20T10:30Z", 60, "Code", "sync.py - warelay"),  # half AFK
    ]
    aw = schemas.conform(pd.DataFrame(rows), schemas.EVENTS)
    return pd.concat([events, aw], ignore_index=True)


def test_time_is_activitywatchs_sites_apps_and_browser_rest(watched, sessions):
    s = summarize_day(watched, sessions, DAY, TZ, None)
    assert s.time_by_activity == [
        ("github.com", 45 * 60.0),
        ("Code", 30 * 60.0),
        ("Google-chrome", 15 * 60.0),
    ]


def test_summary_says_time_at_the_computer_span_top_activity_and_people(watched, sessions):
    s = summarize_day(watched, sessions, DAY, TZ, None)
    assert "Friday 2026-11-20" in s.summary
    assert "5.5 h at the computer (ActivityWatch, not AFK)" in s.summary
    assert "09:30" in s.summary and "14:40" in s.summary  # local (CET) span of activity
    assert "Most time went to github.com (45 min), Code (30 min)" in s.summary
    assert "Mina" in s.summary and "Peter" in s.summary


def test_history_visits_alone_give_no_time_and_the_summary_says_so(events, sessions):
    s = summarize_day(events, sessions, DAY, TZ, None)
    assert s.time_by_activity == []
    assert "No ActivityWatch data: time spent is not known" in s.summary
    assert "Most time went to" not in s.summary and "at the computer" not in s.summary


def test_highlights_favour_the_users_notes_and_cite_them(events, sessions):
    s = summarize_day(events, sessions, DAY, TZ, None)
    texts = [h.text for h in s.highlights]
    assert "Decision: warelay moves its vectors to LanceDB in the next release" in texts
    notes = [h for h in s.highlights if h.refs and h.refs[0].startswith("/notes/")]
    assert len(notes) >= 2
    assert all(h.refs for h in s.highlights)
    assert set(s.refs) >= {r for h in s.highlights for r in h.refs}
    # a title is cleaned of its browser suffix
    assert not any(t.endswith("- Google Chrome") for t in texts)


def test_retained_lines_enter_as_facts_as_written(events, sessions):
    s = summarize_day(events, sessions, DAY, TZ, None)
    facts = {f.content: f for f in s.facts}
    assert set(facts) == {
        "Peter moved to the platform team.",
        "Lance is the right store for warelay.",
    }
    o = facts["Lance is the right store for warelay."]
    assert (o.kind, o.confidence, o.origin, o.entities) == ("O", 0.8, "retain", ("warelay",))
    w = facts["Peter moved to the platform team."]
    assert (w.kind, w.confidence, w.refs) == ("W", 1.0, ("/notes/2026-11-20.md#L17",))
    assert all(f.importance >= 0.9 for f in s.facts)


def test_empty_day_still_has_a_digest():
    empty = summarize_day(
        schemas.empty(schemas.EVENTS), schemas.empty(schemas.SESSIONS), DAY, TZ, None
    )
    assert empty.summary.startswith("Friday 2026-11-20")
    assert empty.facts == [] and empty.highlights == []


def test_an_ai_conversations_title_is_not_someone_mentioned(events, sessions):
    chat = events[events["event_type"] == "chat"].head(1).copy()
    chat["source"], chat["title"] = "chatgpt", "Python date parsing"
    s = summarize_day(pd.concat([events, chat], ignore_index=True), sessions, DAY, TZ, None)
    assert "Python date parsing" not in s.summary
    assert "Mina" in s.summary  # a messenger conversation's partner still is


def test_with_a_model_the_time_is_the_same_arithmetic(watched, sessions):
    from .test_map_reduce import summarizer

    with_model = summarize_day(watched, sessions, DAY, TZ, summarizer(), chunk_tokens=2000)
    assert with_model.backend == "ollama"
    assert (
        with_model.time_by_activity
        == summarize_day(watched, sessions, DAY, TZ, None).time_by_activity
    )


def test_a_highlight_shows_the_first_words_and_cites_the_whole(events, sessions):
    chat = events[events["event_type"] == "chat"]
    long_reply = chat.iloc[[0]].assign(
        event_id="long",
        text=" ".join(["the ryokan in Higashiyama is booked for the Kyoto trip"] * 30),
        source_ref="chat.jsonl#L99",
    )
    japanese = chat.iloc[[0]].assign(
        event_id="ja", text="京都の宿を予約した。" * 30, source_ref="chat.jsonl#L98"
    )
    # a day of just these two messages: both are highlights
    day = summarize_day(
        pd.concat([long_reply, japanese], ignore_index=True), sessions.iloc[0:0], DAY, TZ, None
    )
    shown = {h.refs[0]: h.text for h in day.highlights}
    assert {"chat.jsonl#L99", "chat.jsonl#L98"} <= set(shown)
    assert shown["chat.jsonl#L99"].split() == long_reply["text"].iloc[0].split()[:40] + ["…"]
    # Japanese is shown to its last whole sentence in HIGHLIGHT_CJK characters
    assert shown["chat.jsonl#L98"] == "京都の宿を予約した。" * 8
    assert all(len(h.text.split()) <= 41 for h in day.highlights)
