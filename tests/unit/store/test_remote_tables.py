"""LanceDB and the lake in an object store (a real S3 server on loopback), through omoide's own store code."""

from __future__ import annotations

import threading
import time
from datetime import UTC, date, datetime
from typing import Any

import pandas as pd
import pytest
from moto.s3.models import S3Backend

from omoide.core.location import Remote
from omoide.ingest.sources.base import events_frame
from omoide.store.connect import connect_db
from omoide.store.lake import merge_events, partition_digest, read_events, stage_days
from tests.s3_server import BUCKET

DAY = date(2026, 11, 20)


def _events(ids: list[str]) -> pd.DataFrame:
    """Event ids -> chat events of DAY in the lake's schema."""
    recs = [
        {
            "event_id": i,
            "ts": datetime(2026, 11, 20, 9, n, tzinfo=UTC),
            "duration_s": 0.0,
            "source": "chat",
            "source_name": "chat",
            "event_type": "chat",
            "text": f"message {i}",
            "source_ref": f"chat.jsonl#L{n + 1}",
        }
        for n, i in enumerate(ids)
    ]
    return events_frame(recs, datetime(2026, 11, 21, tzinfo=UTC))


def test_three_writers_appending_to_one_table_lose_nothing(
    s3: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each stored object takes a moment, as on a busy machine: the writers' commits collide
    # every time, not only when the scheduler happens to interleave them.
    store = S3Backend.put_object

    def slow_store(self: S3Backend, *args: Any, **kwargs: Any) -> Any:
        time.sleep(0.005)
        return store(self, *args, **kwargs)

    monkeypatch.setattr(S3Backend, "put_object", slow_store)
    db = connect_db(Remote(f"s3://{BUCKET}/me/lancedb"))
    db.create_table("t", data=[{"writer": -1, "n": -1}])

    def append(writer: int) -> None:
        table = connect_db(Remote(f"s3://{BUCKET}/me/lancedb")).open_table("t")
        for n in range(8):
            table.add([{"writer": writer, "n": n}])

    threads = [threading.Thread(target=append, args=(w,)) for w in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert db.open_table("t").count_rows() == 1 + 3 * 8


def test_the_lake_merges_by_id_in_an_object_store(s3: dict[str, str]) -> None:
    lake = Remote(f"s3://{BUCKET}/me/lake")
    assert stage_days(lake, "events") == [] and partition_digest(lake, "events", DAY) == ""
    first = merge_events(lake, DAY, "chat", _events(["a", "b"]))
    digest = partition_digest(lake, "events", DAY)
    again = merge_events(lake, DAY, "chat", _events(["a", "b"]))
    assert (first.added, again.added, again.total) == (2, 0, 2)
    assert partition_digest(lake, "events", DAY) == digest  # unchanged: nothing rewritten
    merge_events(lake, DAY, "chat", _events(["a", "b", "c"]))
    assert list(read_events(lake, DAY)["event_id"]) == ["a", "b", "c"]
    assert partition_digest(lake, "events", DAY) != digest
    assert stage_days(lake, "events") == [DAY]
