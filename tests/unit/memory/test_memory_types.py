"""Memory types: direct, heard (with from whom) and inferred, on every row, filtered and weighed in recall."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import lancedb
import pandas as pd
import pytest

from omoide.core import schemas
from omoide.core.errors import OmoideError
from omoide.memory.memory_types import told_by, with_memory_types
from omoide.memory.recall import INFERRED, recall
from omoide.reflect.opinions import update_opinions
from omoide.store.memories import open_memories
from tests.fakes import FakeEmbedder, rows_at, stored_memories

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)
rec = rows_at(NOW)


@pytest.mark.parametrize(
    ("text", "who"),
    [
        ("Peter said the release slips to Friday", "Peter"),
        ("@Mina told me the sync bug is fixed", "Mina"),
        ("According to Peter Weber, LanceDB is the choice", "Peter Weber"),
        ("ペーターさんによると、京都は寒いらしい", "ペーター"),
        ("ミナから聞いた話では締切は金曜", "ミナ"),
        ("I said no, then Peter said yes", "Peter"),
        ("She said it was fine", None),
        ("Booked the ryokan in Higashiyama", None),
        ("京都の旅館を予約した", None),
    ],
)
def test_told_by_names_who_a_line_says_told_it(text: str, who: str | None) -> None:
    assert told_by(text) == who


def test_every_row_gets_its_type_by_the_documented_rule() -> None:
    rows = pd.DataFrame(
        [
            rec("n", "Booked the ryokan", kind="note"),
            rec("t", "Peter said the release slips", kind="note"),
            rec("c1", "me: ok, Friday", kind="chat", heard_from="me"),
            rec("c2", "Mina: the bug is fixed", kind="chat", heard_from="Mina"),
            rec("s", "github.com (40 min)", kind="session", heard_from=None),
            rec("r", "The ryokan is booked", kind="W", backend="user"),
            rec("d", "Friday. 3 notes.", kind="digest", backend="embedded:extractive-digest-v1"),
            rec("l", "Peter prefers LanceDB", kind="O", backend="ollama:llama3.2:3b"),
        ]
    )
    typed = with_memory_types(rows, me=("me",)).set_index("memory_id")
    assert typed["memory_type"].to_dict() == {
        "n": "direct",
        "t": "heard",
        "c1": "direct",
        "c2": "heard",
        "s": "direct",
        "r": "direct",
        "d": "inferred",
        "l": "inferred",
    }
    assert typed.loc["t", "heard_from"] == "Peter" and typed.loc["c2", "heard_from"] == "Mina"
    assert typed["heard_from"].drop(["t", "c2"]).isna().all()


def _store(tmp_path: Path) -> lancedb.table.Table:
    # The same words and time, told on three days: near-copies of one day would fold into one.
    same = {"ts": datetime(2026, 11, 20, 9, tzinfo=UTC)}
    return stored_memories(
        tmp_path / "db",
        FakeEmbedder(),
        NOW,
        rec("own", "warelay moves its vectors to LanceDB", day="2026-11-18", **same),
        rec(
            "told",
            "warelay moves its vectors to LanceDB",
            kind="chat",
            day="2026-11-19",
            memory_type="heard",
            heard_from="Peter",
            **same,
        ),
        rec(
            "guess",
            "warelay moves its vectors to LanceDB",
            kind="O",
            day="2026-11-20",
            backend="ollama:llama3.2:3b",
            **same,
        ),
    )


def test_recall_filters_by_type_and_shows_it(tmp_path: Path) -> None:
    table = _store(tmp_path)
    emb = FakeEmbedder()
    got = recall(table, emb, "vectors LanceDB", NOW, rehearse=False)
    assert {(r.memory_id, r.memory_type, r.heard_from) for r in got} == {
        ("own", "direct", None),
        ("told", "heard", "Peter"),
        ("guess", "inferred", None),
    }
    assert all({"memory_type", "heard_from"} <= set(r.to_json()) for r in got)
    heard = recall(table, emb, "vectors LanceDB", NOW, types=["heard"], rehearse=False)
    assert [r.memory_id for r in heard] == ["told"]
    with pytest.raises(OmoideError, match="unknown memory type"):
        recall(table, emb, "vectors", NOW, types=["rumour"], rehearse=False)


def test_inferred_counts_less_than_direct_at_equal_relevance(tmp_path: Path) -> None:
    got = {r.memory_id: r for r in recall(_store(tmp_path), FakeEmbedder(), "vectors LanceDB", NOW)}
    assert got["guess"].parts.authorship == INFERRED < 1.0
    assert got["own"].parts.authorship == got["told"].parts.authorship == 1.0
    assert got["own"].score > got["guess"].score


def test_a_table_from_before_memory_types_is_typed_on_open(tmp_path: Path) -> None:
    emb = FakeEmbedder()
    old = schemas.memories_schema(emb.dim)
    old = old.remove(old.get_field_index("memory_type"))
    old = old.remove(old.get_field_index("heard_from"))
    table = _store(tmp_path / "new")
    rows = table.to_arrow().select(old.names).cast(old)
    lancedb.connect(tmp_path / "olddb").create_table("memories", data=rows, schema=old)
    reopened = open_memories(tmp_path / "olddb", emb.model, emb.dim)
    typed = reopened.to_pandas().set_index("memory_id")["memory_type"].to_dict()
    assert typed == {"own": "direct", "told": "direct", "guess": "inferred"}  # by backend
    assert "heard_from" in reopened.schema.names


def test_a_heard_opinion_is_not_the_users_own(tmp_path: Path) -> None:
    emb = FakeEmbedder()
    frame = pd.DataFrame(
        [
            rec(
                "o1",
                "Peter thinks LanceDB is the right store",
                kind="O",
                confidence=0.8,
                memory_type="heard",
                heard_from="Peter",
            ),
        ]
    )
    frame["vector"] = list(emb.embed(frame["content"].tolist()))
    opinions, _ = update_opinions([], frame, NOW)
    assert opinions == []
    frame.loc[0, "memory_type"] = "direct"
    opinions, _ = update_opinions([], frame, NOW)
    assert len(opinions) == 1
