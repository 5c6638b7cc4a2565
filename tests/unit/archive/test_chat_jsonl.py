"""`omoide export --format chat-jsonl` at the library level: real-format exports and logs collected,
sanitized and merged into a real lake, then written as fine-tuning examples of the person's voice."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pandas as pd
import pytest

from omoide.archive.chat_jsonl import chat_example, chat_jsonl_lines
from omoide.core.days import day_bounds
from omoide.core.errors import OmoideError
from omoide.core.settings import Settings, SourceConfig, get_settings
from omoide.ingest.sanitize import sanitize
from omoide.ingest.sources import collect
from omoide.store.lake import merge_events

FIXTURES = Path(__file__).parents[2] / "fixtures"
NOW = datetime(2026, 11, 25, 12, tzinfo=UTC)
START, END = datetime(2026, 11, 1, tzinfo=UTC), datetime(2026, 11, 24, tzinfo=UTC)
TZ = "Europe/Berlin"


def _settings(home: Path, user: str = "Aiko") -> Settings:
    """The test's OMOIDE_HOME + the user's name -> its settings, as omoide.toml gives them."""
    (home / "omoide.toml").write_text(f'timezone = "{TZ}"\nuser_name = "{user}"\n', "utf-8")
    return get_settings()


def _collected(
    settings: Settings, kind: str, path: Path, user: str = "Aiko", window=(START, END)
) -> pd.DataFrame:
    """A source as a backfill reads it: collected, sanitized, merged into the lake by local day."""
    source = SourceConfig(kind=kind, path=path, name=kind, user_name=user, timezone=TZ)
    found = collect(source, *window, NOW)
    events, _ = sanitize(found.events, [])
    days = pd.to_datetime(events["ts"], utc=True).dt.tz_convert(ZoneInfo(TZ)).dt.date
    for day, group in events.groupby(days):
        merge_events(settings.lake_dir, day, kind, group)
    return events


def _examples(settings: Settings) -> list[dict]:
    """Settings -> the examples chat_jsonl_lines writes, each line parsed."""
    return [json.loads(line) for line in chat_jsonl_lines(settings, None, None)]


def _check_shape(example: dict) -> list[dict]:
    """An example -> its turns after the system message, checked to end with the person's turn."""
    messages = example["messages"]
    assert set(example) == {"messages"}
    assert messages[0]["role"] == "system" and messages[0]["content"].startswith("You are ")
    turns = messages[1:]
    # At least one turn before the person's words; user and assistant alternate; strings only.
    assert [m["role"] for m in turns] == ["user", "assistant"] * (len(turns) // 2)
    assert len(turns) >= 2
    assert all(set(m) == {"role", "content"} and m["content"].strip() for m in turns)
    return turns


def test_chatgpt_the_persons_questions_are_learnt_the_ai_answers_are_context(omoide_home: Path):
    settings = _settings(omoide_home)
    events = _collected(settings, "chatgpt", FIXTURES / "chat_exports" / "chatgpt")
    own = set(events.loc[events["actor"] == "Aiko", "text"])
    bot = set(events.loc[events["actor"] == "assistant", "text"])
    assert own and bot
    examples = _examples(settings)
    assert examples
    learnt, context = set(), set()
    for example in examples:
        turns = _check_shape(example)
        opener, rest = turns[0]["content"], turns[1:]
        # A conversation the person opens gets a prompt naming its topic; theirs is the first answer.
        assert opener.startswith("A chat with an AI assistant about “")
        assert opener.endswith("; you write first.")
        learnt |= {
            line for m in rest if m["role"] == "assistant" for line in m["content"].split("\n")
        }
        context |= {line for m in rest if m["role"] == "user" for line in m["content"].split("\n")}
    assert learnt <= own and context <= bot
    assert "Which area of Kyoto is quiet for a ryokan stay?" in learnt
    assert "Higashiyama near Kodai-ji is quiet after 6 pm." in context
    quiet = next(e for e in examples if "Quiet Kyoto ryokan area" in e["messages"][1]["content"])
    assert quiet["messages"][1]["content"] == (
        "A chat with an AI assistant about “Quiet Kyoto ryokan area” on Thursday, "
        "19 November 2026; you write first."
    )


def test_claude_follows_the_same_mapping_and_an_untitled_chat_names_no_topic(omoide_home: Path):
    settings = _settings(omoide_home)
    events = _collected(settings, "claude", FIXTURES / "chat_exports" / "claude")
    own = set(events.loc[events["actor"] == "Aiko", "text"])
    examples = _examples(settings)
    assert examples
    for example in examples:
        turns = _check_shape(example)
        assert turns[0]["content"].startswith("A chat with an AI assistant ")
        for m in turns[1:]:
            assert (m["content"] in own) == (m["role"] == "assistant"), m
    openers = [e["messages"][1]["content"] for e in examples]
    assert any("about “Packing list for Kyoto”" in o for o in openers)
    assert any(o.startswith("A chat with an AI assistant on ") for o in openers)


def test_a_sitting_runs_past_midnight_and_a_group_chat_names_the_others(omoide_home: Path):
    settings = _settings(omoide_home, user="me")
    _collected(settings, "chat", FIXTURES / "chat" / "team.jsonl", user="me")
    group = omoide_home / "group.jsonl"
    lines = [
        ("2026-11-21T10:00:00+01:00", "Peter", "Lunch?"),
        ("2026-11-21T10:00:30+01:00", "Anna", "Ramen!"),
        ("2026-11-21T10:01:00+01:00", "me", "13:00 then"),
        ("2026-11-21T10:01:30+01:00", "me", "I'll book"),
        ("2026-11-21T10:02:00+01:00", "Peter", "👍"),
    ]
    rows = [{"ts": t, "speaker": s, "text": x, "conversation": "lunch"} for t, s, x in lines]
    group.write_text("\n".join(json.dumps(r) for r in rows) + "\n", "utf-8")
    _collected(settings, "chat", group, user="me")
    examples = _examples(settings)
    for example in examples:
        _check_shape(example)
    # Peter's question at 23:59:30 and the reply at 00:00:05 are one sitting across midnight.
    assert examples[0]["messages"][1:] == [
        {"role": "user", "content": "Still up?"},
        {"role": "assistant", "content": "Yes, finishing the collector."},
    ]
    # Two others: one turn, each line named; the person's two messages are one turn; the
    # thumbs-up after the person's last message has nothing to teach.
    assert examples[-1]["messages"][1:] == [
        {"role": "user", "content": "Peter: Lunch?\nAnna: Ramen!"},
        {"role": "assistant", "content": "13:00 then\nI'll book"},
    ]
    assert all("name" not in m for e in examples for m in e["messages"])


def test_notes_are_answers_to_the_days_prompt_and_pii_stays_redacted(omoide_home: Path):
    settings = _settings(omoide_home)
    friday = day_bounds(date(2026, 11, 20), TZ)
    _collected(settings, "notes", FIXTURES / "notes" / "vault" / "memory", window=friday)
    log = omoide_home / "log.jsonl"
    lines = [
        {
            "ts": "2026-11-20T09:00:00+01:00",
            "speaker": "Mina",
            "text": "Mail?",
            "conversation": "M",
        },
        {
            "ts": "2026-11-20T09:01:00+01:00",
            "speaker": "Aiko",
            "text": "It is aiko.tanaka@example.org",
            "conversation": "M",
        },
    ]
    log.write_text("\n".join(json.dumps(x) for x in lines) + "\n", "utf-8")
    _collected(settings, "chat", log)
    examples = _examples(settings)
    notes = [e for e in examples if e["messages"][1]["content"].startswith("Write your notes for")]
    assert notes
    for example in examples:
        _check_shape(example)
    for example in notes:
        assert [m["role"] for m in example["messages"]] == ["system", "user", "assistant"]
    text = "\n".join(json.dumps(e, ensure_ascii=False) for e in examples)
    assert "aiko.tanaka@example.org" not in text and "It is [EMAIL]" in text


def test_a_sitting_of_others_only_or_of_bots_only_before_the_person():
    day = date(2026, 11, 20)
    at = datetime(2026, 11, 20, 9, tzinfo=UTC)

    def sitting(*said: tuple[str, str]) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "ts": [at + timedelta(seconds=i) for i in range(len(said))],
                "actor": [a for a, _ in said],
                "text": [t for _, t in said],
                "source": "chat",
                "title": "assistant",
                "source_ref": [f"log.jsonl#L{i}" for i in range(len(said))],
            }
        )

    assert chat_example(sitting(("Peter", "hi"), ("Mina", "hello")), "Aiko", day) is None
    example = chat_example(
        sitting(("Aiko", "How?"), ("Helper [bot]", "Like so."), ("Aiko", "Thanks")), "Aiko", day
    )
    assert example is not None
    assert [m["content"] for m in example["messages"][1:]] == [
        "A chat with an AI assistant on Friday, 20 November 2026; you write first.",
        "How?",
        "Like so.",
        "Thanks",
    ]


def test_chat_jsonl_needs_the_users_name(omoide_home: Path):
    (omoide_home / "omoide.toml").write_text(f'timezone = "{TZ}"\n', "utf-8")
    with pytest.raises(OmoideError, match="user_name"):
        list(chat_jsonl_lines(get_settings(), None, None))
