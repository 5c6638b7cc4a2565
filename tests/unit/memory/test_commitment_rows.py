"""The `commitment` rows a day gets: from the person's own words only, typed direct, cited at their line, through the facts gate, the lake, LanceDB and forget."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pandas as pd
import pytest

from omoide import quality
from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.forget.purge import forgotten_memories_by_day
from omoide.forget.select import Selector, select_records
from omoide.ingest.sanitize import pii_residue
from omoide.memory.commitment_rows import read_commitment
from omoide.memory.day_rows import day_memories, digest_id, session_lines
from omoide.memory.records import day_records
from omoide.memory.summarize import summarize_day
from omoide.store.lake import merge_events, read_facts, write_facts
from omoide.store.memories import memory_rows, open_memories, replace_day
from omoide.vault.daily import write_daily
from tests.fakes import FakeEmbedder

DAY = date(2026, 11, 19)  # a Thursday
TZ = "Europe/Berlin"
NOW = datetime(2026, 11, 20, 3, tzinfo=UTC)
ME = ("Ken",)
MIDNIGHT = day_bounds(DAY, TZ)[0]


def _event(i: int, event_type: str, text: str, ref: str, **kw: object) -> dict[str, object]:
    source = kw.pop("source", "notes" if event_type == "note" else "chat")
    return {
        "event_id": f"e{i}",
        "ts": pd.Timestamp(kw.pop("ts", MIDNIGHT)),
        "duration_s": 0.0,
        "source": source,
        "source_name": source,
        "event_type": event_type,
        "text": text,
        "entities": kw.pop("entities", []),
        "source_ref": ref,
        "recorded_at": NOW,
        **kw,
    }


def _events(dentist: str = "[ ] call the dentist") -> pd.DataFrame:
    chat = {"title": "Peter", "ts": "2026-11-19T10:02:00Z"}
    rows = [
        _event(
            1,
            "chat",
            "Can you help me move on Saturday? I'll bring pizza",
            "chat/peter.jsonl#L1",
            actor="Peter",
            **{**chat, "ts": "2026-11-19T10:00:00Z"},
        ),
        _event(
            2,
            "chat",
            "Sure, I'll help you move the boxes on Saturday!",
            "chat/peter.jsonl#L2",
            actor="Ken",
            **chat,
        ),
        _event(
            3,
            "chat",
            "I'll try that",
            "chatgpt/conversations.json#0",
            actor="Ken",
            title="Moving tips",
            source="chatgpt",
            ts="2026-11-19T12:00:00Z",
        ),
        # A note item's event id follows its text (omoide.ingest.sources.notes): ticked, a new one.
        _event(
            4 if "[ ]" in dentist else 40,
            "note",
            dentist,
            "notes/2026-11-19.md#L5",
            title="Thursday > TODO",
        ),
        _event(5, "note", "[x] book flights", "notes/2026-11-19.md#L6", title="Thursday > TODO"),
        _event(
            6,
            "note",
            "Peter said he'll bring the cake",
            "notes/2026-11-19.md#L8",
            title="Thursday > Log",
        ),
        _event(
            7,
            "note",
            "明日ミナさんに資料を送るつもり",
            "notes/2026-11-19.md#L9",
            title="Thursday > Log",
        ),
    ]
    return schemas.conform(pd.DataFrame(rows), schemas.EVENTS)


def _day_rows(home: Path, events: pd.DataFrame) -> pd.DataFrame:
    """The summarize task's library calls for one day (no LLM)."""
    sessions = schemas.empty(schemas.SESSIONS)
    summary = summarize_day(events, sessions, DAY, TZ, None)
    written = write_daily(
        home / "vault", summary, session_lines(sessions, TZ), digest_id(summary.day)
    )
    records = day_records(events, sessions, DAY, TZ, NOW, me=ME)
    return day_memories(records, summary, written.path, written.lines, home, TZ, NOW, ME)


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    return _day_rows(tmp_path_factory.mktemp("home"), _events())


def test_the_day_gets_a_row_per_commitment_in_the_persons_own_words(rows: pd.DataFrame) -> None:
    made = rows[rows["kind"] == "commitment"].sort_values("source")
    assert made["content"].tolist() == [
        "[ ] help you move the boxes on Saturday [2026-11-21]",
        "[ ] call the dentist",
        "[x] book flights",
        "[ ] 明日ミナさんに資料を送るつもり [2026-11-20]",
    ]
    assert made["source"].tolist() == [
        "chat/peter.jsonl#L2",
        "notes/2026-11-19.md#L5",
        "notes/2026-11-19.md#L6",
        "notes/2026-11-19.md#L9",
    ]
    assert [list(r) for r in made["source_refs"]] == [[s] for s in made["source"]]
    assert [list(e) for e in made["entities"]] == [["Peter"], [], [], ["ミナ"]]
    assert (made["memory_type"] == "direct").all() and made["heard_from"].isna().all()
    assert made["ts"].tolist() == [
        pd.Timestamp("2026-11-19T10:02:00Z"),
        *[pd.Timestamp(MIDNIGHT)] * 3,
    ]
    assert (made["day"] == DAY.isoformat()).all() and made["memory_id"].is_unique
    # Peter's own "I'll bring pizza", the AI chat and the reported cake are no one's commitment here.
    assert not made["content"].str.contains("pizza|try that|cake").any()
    stored = read_commitment(made["content"].iloc[0], TZ)
    assert (stored.action, stored.due_label, stored.kept) == (
        "help you move the boxes on Saturday",
        "2026-11-21",
        False,
    )
    assert stored.due == day_bounds(date(2026, 11, 21), TZ)
    assert read_commitment("[x] book flights", TZ).kept


def test_the_rows_pass_the_facts_gate_and_round_trip_through_the_lake(
    rows: pd.DataFrame, tmp_path: Path
) -> None:
    start, end = day_bounds(DAY, TZ)
    check = quality.validate(
        rows.assign(pii_residue=pii_residue(rows.rename(columns={"content": "text"}))),
        "facts",
        {"day_start": start, "day_end": end},
    )
    assert quality.failures(check) == []
    write_facts(tmp_path / "lake", DAY, rows)
    back = read_facts(tmp_path / "lake", DAY)
    assert sorted(back.loc[back["kind"] == "commitment", "content"]) == sorted(
        rows.loc[rows["kind"] == "commitment", "content"]
    )


def test_lancedb_holds_them_and_a_day_made_again_replaces_them(tmp_path: Path) -> None:
    emb = FakeEmbedder()
    table = open_memories(tmp_path / "lancedb", emb.model, emb.dim)
    replace_day(table, DAY.isoformat(), _day_rows(tmp_path, _events()), emb, NOW)
    stored = memory_rows(table, kinds=["commitment"])
    assert len(stored) == 4 and (stored["memory_type"] == "direct").all()
    # The dentist ticked off: the open row goes, the kept one takes its place.
    ticked = _day_rows(tmp_path, _events(dentist="[x] call the dentist"))
    stats = replace_day(table, DAY.isoformat(), ticked, emb, NOW)
    assert stats.deleted >= 1
    contents = sorted(memory_rows(table, kinds=["commitment"])["content"])
    assert "[x] call the dentist" in contents and "[ ] call the dentist" not in contents


def test_forgetting_the_message_takes_its_commitment_too(
    rows: pd.DataFrame, tmp_path: Path
) -> None:
    lake = tmp_path / "lake"
    events = _events()
    for name, part in events.groupby("source_name"):
        merge_events(lake, DAY, str(name), part.reset_index(drop=True))
    write_facts(lake, DAY, rows)
    selection = select_records(lake, Selector(match="move the boxes"))
    gone = forgotten_memories_by_day(lake, selection)[DAY]
    promise = rows.loc[rows["source"] == "chat/peter.jsonl#L2"]
    assert set(promise["memory_id"]) <= gone
    assert "commitment" in set(promise["kind"])
