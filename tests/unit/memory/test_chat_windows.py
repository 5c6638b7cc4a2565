"""A chat memory's context: its neighbours in the conversation and the sitting, never across a silence."""

from __future__ import annotations

from datetime import date, timedelta

import pandas as pd

from omoide.core import schemas
from omoide.memory.chat_evidence import CUT_WORDS, WHOLE_WORDS, evidence
from omoide.memory.chat_window import AFTER, BEFORE, is_context
from omoide.memory.records import (
    CONTEXT_WORDS,
    PASSAGE_WORDS,
    SITTING_GAP_S,
    chat_records,
    day_records,
    passages,
)

DAY = date(2026, 11, 19)
NOW = pd.Timestamp("2026-11-20T03:00:00Z")


def _chat(messages: list[tuple[str, float, str]]) -> pd.DataFrame:
    """(conversation, minutes after midnight UTC, text) per message -> chat events in the lake's schema."""
    start = pd.Timestamp(f"{DAY}T00:00:00Z")
    rows = [
        {
            "event_id": f"e{i:02d}",
            "ts": start + timedelta(minutes=minutes),
            "duration_s": 0.0,
            "source": "chat",
            "source_name": "chat",
            "event_type": "chat",
            "entities": [],
            "source_ref": f"chat.jsonl#L{i + 1}",
            "recorded_at": NOW,
            "title": title,
            "actor": "Peter" if i % 2 else "Aiko",
            "text": text,
        }
        for i, (title, minutes, text) in enumerate(messages)
    ]
    return schemas.conform(pd.DataFrame(rows), schemas.EVENTS)


def _spans(events: pd.DataFrame, records: pd.DataFrame) -> dict[str, list[pd.Timestamp]]:
    """Chat events + their records -> each record's own ref: the times of the messages its text shows."""
    at = {f"{e.actor}: {e.text}": e.ts for e in events.itertuples(index=False)}
    return {
        r.source: [
            at[line.removeprefix(BEFORE).removeprefix(AFTER)] for line in r.content.splitlines()
        ]
        for r in records.itertuples()
    }


def test_a_window_never_crosses_a_silence_longer_than_the_sitting_gap() -> None:
    # Peter: 00:18-00:21, then 19:30 (a new sitting 19 hours later), 19:32, 19:40 (8 minutes:
    # another one); a second conversation interleaved in time never lends its lines.
    events = _chat(
        [
            ("Peter", 18, "You're up late"),
            ("Peter", 20, "Ryokan rabbit hole. Higashiyama or Gion?"),
            ("Peter", 21, "Higashiyama, quieter. Go to sleep!"),
            ("Mina", 19 * 60 + 31, "Standup moved to ten"),
            ("Peter", 19 * 60 + 30, "The flat was great, I applied!"),
            ("Peter", 19 * 60 + 32, "Yay! Flights to Osaka are 640 euros"),
            ("Peter", 19 * 60 + 40, "Book them before the price goes up"),
        ]
    )
    records = chat_records(events, DAY, NOW)
    assert len(records) == 7
    spans = _spans(events, records)
    for ref, times in spans.items():
        gaps = [(b - a).total_seconds() for a, b in zip(times, times[1:], strict=False)]
        assert all(0 < g <= SITTING_GAP_S for g in gaps), (ref, gaps)
    lines = {r.source: r.content.splitlines() for r in records.itertuples()}
    # The neighbours are marked as context: the unmarked line is the record's own message.
    assert lines["chat.jsonl#L3"] == [
        "↑ Peter: Ryokan rabbit hole. Higashiyama or Gion?",
        "Aiko: Higashiyama, quieter. Go to sleep!",
    ]
    assert lines["chat.jsonl#L5"] == [
        "Aiko: The flat was great, I applied!",
        "↓ Peter: Yay! Flights to Osaka are 640 euros",
    ]
    assert lines["chat.jsonl#L7"] == ["Aiko: Book them before the price goes up"]
    assert lines["chat.jsonl#L4"] == ["Peter: Standup moved to ten"]
    # Refs still name the message alone: the context is there to be found by, not cited.
    assert all(list(r.source_refs) == [r.source] for r in records.itertuples())


def test_the_configured_gap_cuts_the_sitting() -> None:
    events = _chat([("Peter", 0, "Ramen tomorrow?"), ("Peter", 2, "13:00, the usual place")])
    together = chat_records(events, DAY, NOW)
    assert all(len(c.splitlines()) == 2 for c in together["content"])
    apart = day_records(events, schemas.empty(schemas.SESSIONS), DAY, "UTC", NOW, gap_s=60.0)
    assert all(len(c.splitlines()) == 1 for c in apart["content"])


def test_a_long_message_is_passages_each_citing_it_between_the_same_neighbours() -> None:
    reply = "Here is what covers a new car:\n" + "\n".join(
        f"{n}. " + " ".join(f"w{n}_{i}" for i in range(40)) for n in range(1, 8)
    )
    events = _chat([("Peter", 0, "I just got a new Honda, what insurance?"), ("Peter", 1, reply)])
    events = pd.concat(
        [
            events,
            _chat([("Peter", 2, "Thanks, that helps")]).assign(
                event_id="e09", source_ref="chat.jsonl#L3", actor="Aiko"
            ),
        ],
        ignore_index=True,
    )
    records = chat_records(events, DAY, NOW)
    question = records.loc[records["source"] == "chat.jsonl#L1", "content"].item()
    # A neighbour is cut to its first CONTEXT_WORDS words; the message itself is whole.
    assert question.splitlines()[0] == "Aiko: I just got a new Honda, what insurance?"
    after = question.splitlines()[1]
    assert after.startswith(f"{AFTER}Peter: Here is what") and after.endswith(" …")
    assert len(after.split()) == CONTEXT_WORDS + 3  # the mark, the speaker, the words, "…"
    parts = records[records["source"] == "chat.jsonl#L2"]
    assert len(parts) > 1 and parts["memory_id"].is_unique
    assert all(list(r) == ["chat.jsonl#L2"] for r in parts["source_refs"])
    own = []
    for content in parts["content"]:
        lines = content.splitlines()
        assert lines[0] == f"{BEFORE}Aiko: I just got a new Honda, what insurance?"
        assert lines[-1] == f"{AFTER}Aiko: Thanks, that helps"
        body = [x for x in lines if not is_context(x)]
        assert len(" ".join(body).split()) <= PASSAGE_WORDS + 3  # speaker, "…" each side
        own.append("\n".join(body).removeprefix("Peter: ").removeprefix("… ").removesuffix(" …"))
    assert "\n".join(own) == reply  # cut at line breaks, nothing lost
    # Recall shows the message whole, a long neighbour's first words, a short one whole.
    shown = evidence(question).splitlines()
    assert shown[0] == question.splitlines()[0]
    assert len(shown[1].split()) == CUT_WORDS + 3
    middle = parts["content"].iloc[0]
    assert evidence(middle).splitlines()[0] == middle.splitlines()[0]  # short: whole
    assert WHOLE_WORDS == CONTEXT_WORDS  # what is stored whole is shown whole
    at_most = " ".join(["w"] * WHOLE_WORDS)
    assert evidence(f"Aiko: hi\n{AFTER}Peter: {at_most}") == f"Aiko: hi\n{AFTER}Peter: {at_most}"
    longer = evidence(f"Aiko: hi\n{AFTER}Peter: {at_most} w")
    assert longer == f"Aiko: hi\n{AFTER}Peter: {' '.join(['w'] * CUT_WORDS)} …"


def test_a_message_of_one_long_line_is_cut_into_even_runs() -> None:
    text = " ".join(f"w{i}" for i in range(300))
    parts = passages(text, limit=120)
    assert [len(p.split()) for p in parts] == [101, 102, 101]  # 100 words + the marks
    assert " ".join(p.removeprefix("… ").removesuffix(" …") for p in parts) == text
    assert passages("short", limit=120) == ["short"]
