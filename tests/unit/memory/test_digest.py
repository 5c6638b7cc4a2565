"""The embedded digest: time per activity, timeline, extractive highlights, retained facts."""

from __future__ import annotations

import pandas as pd

from omoide.memory.extractive_digest import DIGEST_MODEL, active_seconds, time_by_activity
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


def test_time_goes_to_domains_and_non_browser_apps_not_browser_windows(sessions):
    spent = dict(time_by_activity(sessions))
    assert spent["github.com"] == 45 * 60
    assert spent["Code"] == 30 * 60
    # The browser's own window session repeats what its visits say: not counted twice.
    assert "Google-chrome" not in spent
    assert list(spent)[0] == "github.com"


def test_active_time_counts_overlaps_once(sessions):
    # 08:30-09:15, 09:20-09:25, 12:00-12:20, 13:00-13:40 (two overlapping 30-min sessions)
    assert active_seconds(sessions) == (45 + 5 + 20 + 40) * 60


def test_summary_names_time_span_top_activity_and_people(events, sessions):
    s = summarize_day(events, sessions, DAY, TZ, None)
    assert "Friday 2026-11-20" in s.summary
    assert "09:30" in s.summary and "14:40" in s.summary  # local (CET) span of activity
    assert "github.com (45 min)" in s.summary
    assert "Mina" in s.summary and "Peter" in s.summary


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
    from omoide.core import schemas

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
