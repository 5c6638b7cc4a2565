"""Sanitize stage on real EVENTS frames: excluded domains, redaction in every text column."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pandas as pd
import pytest

from omoide.core import schemas
from omoide.ingest.sanitize import COUNT_KEYS, find_pii, pii_residue, redact_text, sanitize
from omoide.ingest.sources.base import events_frame
from tests.conftest import EVAL

NOW = datetime(2026, 11, 20, 23, 0, tzinfo=UTC)


def event(i: int, **fields: Any) -> dict[str, Any]:
    """Index and fields -> one event record with the required columns filled."""
    record = {
        "event_id": f"e{i}",
        "ts": datetime(2026, 11, 20, 9, i % 60, tzinfo=UTC),
        "duration_s": 1.0,
        "source": "chrome",
        "source_name": "chrome",
        "event_type": "visit",
        "source_ref": f"/tmp/History#visits.id={i}",
    }
    record.update(fields)
    return record


def frame(*records: dict[str, Any]) -> pd.DataFrame:
    """Event records -> conformed EVENTS frame."""
    return events_frame(records, NOW)


def test_excluded_domains_and_their_subdomains_are_dropped() -> None:
    events = frame(
        event(1, url="https://bank.example/login"),
        event(2, url="https://www.bank.example/accounts?id=3"),
        event(3, url="HTTPS://Online.BANK.example./x"),
        event(4, url="https://notbank.example/"),
        event(5, url="https://bank.example.evil.test/"),
        event(6, url="https://example.org/?next=https://bank.example/"),
        event(7, url=None, title="bank.example in a title"),
        event(8, url="https://health.test:8443/results"),
    )
    out, counts = sanitize(events, ["bank.example", "*.health.test"])
    assert counts["excluded_domain"] == 4
    assert out["event_id"].tolist() == ["e4", "e5", "e6", "e7"]
    assert out.index.tolist() == [0, 1, 2, 3]


def test_no_excluded_domains_keeps_every_event() -> None:
    events = frame(event(1, url="https://bank.example/"), event(2, url=None))
    out, counts = sanitize(events, [])
    assert len(out) == 2
    assert counts["excluded_domain"] == 0


def test_every_text_column_and_entities_are_redacted() -> None:
    events = frame(
        event(
            1,
            event_type="chat",
            title="Mail from ann@example.com",
            url="https://app.example/cb?code=SplxlOBeZQQYbYS6WxSbIA&page=2",
            text="card 4111 1111 1111 1111, call +1 415 555 0132, see http://x.example/?token=abc",
            app="ssh 10.0.0.7",
            actor="bob@example.org",
            entities=["ann@example.com", "Ann", "2001:db8::1"],
        ),
        event(2, title="Weekly planning", url="https://notion.so/plan", entities=[]),
    )
    out, counts = sanitize(events, [])
    row = out.iloc[0]
    assert row["title"] == "Mail from [EMAIL]"
    assert row["url"] == "https://app.example/cb?code=[REDACTED]&page=2"
    assert row["text"] == ("card [CARD], call [PHONE], see http://x.example/?token=[REDACTED]")
    assert row["app"] == "ssh [IP]"
    assert row["actor"] == "[EMAIL]"
    assert list(row["entities"]) == ["[EMAIL]", "Ann", "[IP]"]
    assert out.iloc[1]["title"] == "Weekly planning"
    assert list(out.iloc[1]["entities"]) == []
    assert counts == {
        "email": 3,
        "card": 1,
        "phone": 1,
        "ip": 2,
        "url_secret": 2,
        "excluded_domain": 0,
    }


def test_counts_every_occurrence_of_a_repeated_string() -> None:
    title = "Inbox (3) - ann@example.com - Mail"
    events = frame(*(event(i, title=title, url="https://mail.example/") for i in range(5)))
    out, counts = sanitize(events, [])
    assert out["title"].tolist() == ["Inbox (3) - [EMAIL] - Mail"] * 5
    assert counts["email"] == 5


def test_counts_hold_numbers_only() -> None:
    events = frame(event(1, title="ann@example.com"), event(2, url="https://u:p@h.example/"))
    _, counts = sanitize(events, ["bank.example"])
    assert set(counts) == set(COUNT_KEYS)
    assert all(isinstance(v, int) for v in counts.values())


def test_input_frame_is_not_mutated() -> None:
    events = frame(
        event(1, title="ann@example.com", url="https://bank.example/", entities=["x@y.org"]),
        event(
            2, title="call 415-555-0132", url="https://ok.example/?sid=1234", entities=["x@y.org"]
        ),
    )
    before = events.copy(deep=True)
    before_entities = [list(e) for e in events["entities"]]
    out, _ = sanitize(events, ["bank.example"])
    pd.testing.assert_frame_equal(events, before)
    assert [list(e) for e in events["entities"]] == before_entities
    assert out is not events
    assert len(out) == 1
    assert list(out["entities"].iloc[0]) == ["[EMAIL]"]
    assert out["title"].iloc[0] == "call [PHONE]"


def test_result_keeps_the_events_schema() -> None:
    events = frame(
        event(1, title="ann@example.com", url="https://a.example/?token=x", text=None),
        event(2, title=None, url=None, text="10.0.0.1"),
    )
    out, _ = sanitize(events, [])
    assert list(out.columns) == schemas.EVENTS.names
    table = schemas.to_table(out, schemas.EVENTS)
    assert table.num_rows == 2
    assert table.column("text").to_pylist() == [None, "[IP]"]
    assert table.column("title").to_pylist() == ["[EMAIL]", None]


def test_object_columns_and_null_entities_are_handled() -> None:
    events = frame(event(1), event(2)).astype({"title": object})
    events["title"] = ["ann@example.com", None]
    events["entities"] = [None, ["bob@example.org"]]
    out, counts = sanitize(events, [])
    assert out["title"].iloc[0] == "[EMAIL]"
    assert pd.isna(out["title"].iloc[1])
    assert out["entities"].iloc[0] is None
    assert list(out["entities"].iloc[1]) == ["[EMAIL]"]
    assert counts["email"] == 2


def test_empty_frame() -> None:
    out, counts = sanitize(schemas.empty(schemas.EVENTS), ["bank.example"])
    assert out.empty
    assert list(out.columns) == schemas.EVENTS.names
    assert counts == dict.fromkeys(COUNT_KEYS, 0)


def test_frame_agrees_with_single_string_redaction() -> None:
    texts = [
        "plain title",
        "x@y.org",
        "Order 2024-05-21 12:30:45",
        "https://h.example/a;jsessionid=ABC123?x=1",
        "+44 (20) 7123 4567",
        "v1.2.3 on 999.1.1.1",
    ]
    events = frame(*(event(i, text=t) for i, t in enumerate(texts)))
    out, _ = sanitize(events, [])
    assert out["text"].tolist() == [redact_text(t)[0] for t in texts]


@pytest.mark.parametrize("text", ["x@y.org", "no pii here"])
def test_find_pii_is_reexported(text: str) -> None:
    assert isinstance(find_pii(text), list)


def test_sliced_screening_matches_single_strings(monkeypatch: pytest.MonkeyPatch) -> None:
    # Tiny slices force the threaded path that big frames take.
    monkeypatch.setattr("omoide.ingest.sanitize._SLICE_ROWS", 2)
    texts = ["nothing", "a@b.co", None, "10.0.0.1", "ok", "?sid=9", "x", "+1 415 555 0132"] * 3
    events = frame(*(event(i, title=t) for i, t in enumerate(texts)))
    out, counts = sanitize(events, [])
    expected = [None if t is None else redact_text(t)[0] for t in texts]
    assert [None if pd.isna(t) else t for t in out["title"]] == expected
    assert counts["email"] == counts["ip"] == counts["url_secret"] == counts["phone"] == 3


DEV = EVAL / "pii" / "pii_dev.jsonl"


@pytest.mark.skipif(not DEV.exists(), reason="shared PII dev set not present")
def test_column_screens_never_hide_what_single_string_redaction_finds() -> None:
    texts = [json.loads(line)["text"] for line in DEV.read_text(encoding="utf-8").splitlines()]
    events = frame(*(event(i, text=t) for i, t in enumerate(texts)))
    out, counts = sanitize(events, [])
    singles = [redact_text(t) for t in texts]
    assert out["text"].tolist() == [s[0] for s in singles]
    assert sum(counts.values()) == sum(sum(s[1].values()) for s in singles)


def test_pii_residue_counts_what_is_left_per_row() -> None:
    events = frame(
        event(1, title="ann@example.com and bob@example.org", entities=["10.0.0.1"]),
        event(2, url="https://a.example/?token=[REDACTED]", title="[EMAIL]", entities=[]),
        event(3, text="card 4111 1111 1111 1111", actor="+1 415 555 0132"),
        event(4, title=None, url=None, entities=None),
    )
    residue = pii_residue(events)
    assert residue.tolist() == [3, 0, 2, 0]
    assert residue.name == "pii_residue"
    assert residue.index.equals(events.index)


def test_sanitized_events_have_no_pii_residue() -> None:
    events = frame(
        event(1, title="ann@example.com", url="https://u:p@h.example/?sid=1", entities=["x@y.org"]),
        event(2, text="call 415-555-0132 from 10.0.0.1", app="4111111111111111"),
    )
    out, _ = sanitize(events, [])
    assert pii_residue(out).tolist() == [0, 0]
    assert pii_residue(schemas.empty(schemas.EVENTS)).empty


def categorical(events: pd.DataFrame, *columns: str) -> pd.DataFrame:
    """Frame -> the same frame with some text columns categorical, as browser collectors emit."""
    out = events.copy()
    for c in columns:
        out[c] = out[c].astype("category")
    return out


def test_categorical_columns_are_redacted_once_per_value_and_counted_per_row() -> None:
    urls = ["https://a.example/?token=one", "https://a.example/?token=two", "https://b.example/"]
    titles = ["mail ann@example.com", None, "plain"]
    events = categorical(
        frame(*(event(i, url=urls[i % 3], title=titles[i % 3]) for i in range(9))), "url", "title"
    )
    out, counts = sanitize(events, [])
    plain, plain_counts = sanitize(
        frame(*(event(i, url=urls[i % 3], title=titles[i % 3]) for i in range(9))), []
    )
    assert out["url"].tolist() == plain["url"].tolist()
    assert out["title"].astype(object).where(out["title"].notna(), None).tolist() == [
        None if pd.isna(t) else t for t in plain["title"]
    ]
    assert counts == plain_counts and counts["url_secret"] == 6 and counts["email"] == 3
    # Two URLs that differed only in their token are one value now.
    assert isinstance(out["url"].dtype, pd.CategoricalDtype)
    assert list(out["url"].cat.categories) == [
        "https://a.example/?token=[REDACTED]",
        "https://b.example/",
    ]
    assert pii_residue(out).tolist() == [0] * 9
    assert pii_residue(events).tolist() == [2, 1, 0] * 3


def test_excluded_domains_in_a_categorical_column() -> None:
    urls = ["https://bank.example/x", None, "https://ok.example/"]
    events = categorical(frame(*(event(i, url=urls[i % 3]) for i in range(6))), "url")
    out, counts = sanitize(events, ["bank.example"])
    assert counts["excluded_domain"] == 2
    assert out["event_id"].tolist() == ["e1", "e2", "e4", "e5"]
