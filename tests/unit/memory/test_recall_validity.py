"""Recall over facts that changed: the standing fact first, the replaced one marked, and --as-of."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from omoide.core.errors import OmoideError
from omoide.core.settings import RecallSettings
from omoide.memory import recall as recall_module
from omoide.memory.recall import COLUMNS, Asked, recall, recall_asked
from omoide.memory.row_store import RowStore
from omoide.store.validity_table import Validity
from tests.fakes import FakeEmbedder, rows_at, stored_memories

NOW = datetime(2026, 11, 25, 12, tzinfo=UTC)
rec = rows_at(NOW)
OLD_AT = datetime(2026, 11, 19, 9, tzinfo=UTC)
NEW_AT = datetime(2026, 11, 20, 9, tzinfo=UTC)
VALIDITY = {
    "old": Validity("old", "mina", "home", OLD_AT, NEW_AT, "new", "rule"),
    "new": Validity("new", "mina", "home", NEW_AT),
}


def _table(tmp_path: Path, embedder: FakeEmbedder):
    """-> a real memories table: Mina's old home (matching the question's words best), her new one, a note."""
    return stored_memories(
        tmp_path,
        embedder,
        NOW,
        rec(
            "old", "Mina lives in Hamburg, where Mina lives", kind="W", ts=OLD_AT, entities=["Mina"]
        ),
        rec("new", "Mina moved to Berlin", kind="W", ts=NEW_AT, entities=["Mina"]),
        rec("note", "lunch with the team", kind="note", ts=NEW_AT),
    )


def test_the_standing_fact_comes_first_and_the_replaced_one_is_marked(tmp_path: Path) -> None:
    embedder = FakeEmbedder()
    table = _table(tmp_path, embedder)
    got = recall(table, embedder, "where Mina lives", NOW, k=3, rehearse=False, validity=VALIDITY)
    ids = [r.memory_id for r in got]
    assert ids.index("new") < ids.index("old")
    old = got[ids.index("old")]
    assert old.superseded_by == "new" and old.valid_to == NEW_AT.isoformat()
    assert old.parts.standing == 0.5
    new = got[ids.index("new")]
    assert (new.superseded_by, new.valid_to, new.valid_from) == (None, None, NEW_AT.isoformat())


def test_as_of_wants_a_day(tmp_path: Path) -> None:
    embedder = FakeEmbedder()
    table = _table(tmp_path, embedder)
    with pytest.raises(OmoideError, match="--as-of wants a day"):
        recall_asked(
            table, embedder, Asked("x", as_of="last week"), RecallSettings(), "UTC", NOW, False
        )


def test_the_standing_fact_joins_even_when_its_words_miss(tmp_path: Path) -> None:
    embedder = FakeEmbedder()
    table = _table(tmp_path, embedder)
    got = recall(table, embedder, "Hamburg", NOW, k=2, rehearse=False, validity=VALIDITY)
    assert [r.memory_id for r in got] == ["new", "old"]


def test_as_of_answers_with_what_was_written_and_believed_that_day(tmp_path: Path) -> None:
    embedder = FakeEmbedder()
    table = _table(tmp_path, embedder)
    asked = Asked("where Mina lives", as_of="2026-11-19")
    got = recall_asked(
        table, embedder, asked, RecallSettings(), "UTC", NOW, rehearse=False, validity=VALIDITY
    )
    assert [r.memory_id for r in got] == ["old"]
    assert got[0].superseded_by is None and got[0].valid_to is None
    later = recall_asked(
        table,
        embedder,
        Asked("where Mina lives", as_of="2026-11-20"),
        RecallSettings(),
        "UTC",
        NOW,
        rehearse=False,
        validity=VALIDITY,
    )
    assert [r.memory_id for r in later][:2] == ["new", "old"]


@pytest.mark.parametrize(
    "filters",
    [
        {},
        {"kinds": ["W"]},
        {"kinds": ["note", "B"]},  # the standing fact is kept out too
        {"since": NEW_AT},
        {"until": NEW_AT},  # only the replaced fact is inside
        {"entities": ["mina"]},
        {"entities": ["Peter"]},
        {"types": ["direct"]},
    ],
)
def test_a_long_lived_reader_finds_the_standing_fact_as_lancedb_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, filters: dict
) -> None:
    # Small pools over more memories: the standing fact is not a candidate of its own.
    monkeypatch.setattr(recall_module, "POOL_MIN", 3)
    monkeypatch.setattr(recall_module, "POOL_PER_K", 1)
    embedder = FakeEmbedder()
    fillers = [rec(f"f{i}", f"team lunch number {i}", kind="note", ts=NEW_AT) for i in range(30)]
    table = stored_memories(
        tmp_path,
        embedder,
        NOW,
        rec("old", "Mina lives in Hamburg", kind="W", ts=OLD_AT, entities=["Mina"]),
        rec("new", "Mina moved to Berlin", kind="W", ts=NEW_AT, entities=["Mina"]),
        *fillers,
    )
    store = RowStore(COLUMNS)
    store.load(table)
    store.wait(60)
    served = []
    having = store.having
    monkeypatch.setattr(store, "having", lambda t, v: served.append(v) or having(t, v))
    for query in ("Hamburg", "lives in Hamburg", "lunch"):
        asked = dict(k=3, rehearse=False, validity=VALIDITY, **filters)
        read = recall(table, embedder, query, NOW, **asked)
        held = recall(table, embedder, query, NOW, store=store, **asked)
        assert [r.to_json() for r in held] == [r.to_json() for r in read]
    # Where the standing fact was no candidate of its own, it was looked up in memory, not in
    # LanceDB (a filter to W facts or to Mina makes both facts candidates; others keep both out).
    if filters in ({}, {"until": NEW_AT}, {"types": ["direct"]}):
        assert served
