from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pandas as pd

from omoide.core import schemas
from omoide.ingest.sessionize import compression_ratio, domains, sessions
from omoide.ingest.sources.base import events_frame

T0 = datetime(2026, 11, 20, 8, 0, tzinfo=UTC)
DAY = date(2026, 11, 20)


def ev(
    i: int, minute: float, etype: str = "window", app: str | None = "Code", dur: float = 60.0, **kw
):
    return {
        "event_id": f"e{i:03d}",
        "ts": T0 + timedelta(minutes=minute),
        "duration_s": dur,
        "source": "activitywatch",
        "source_name": "aw",
        "event_type": etype,
        "app": app,
        "source_ref": f"ref#{i}",
        **kw,
    }


def frame(records):
    return events_frame(records, datetime(2026, 11, 21, tzinfo=UTC))


def test_same_app_revisited_within_gap_is_one_session():
    df = frame([ev(1, 0), ev(2, 2, app="Slack", dur=120), ev(3, 4), ev(4, 30)])
    out = sessions(df, DAY, gap_s=300, min_dwell_s=10)
    code = out[out["app"] == "Code"].sort_values("start")
    assert list(code["n_events"]) == [2, 1]  # 08:00 and 08:04 merge; 08:30 is past the gap
    assert code.iloc[0]["start"] == pd.Timestamp(T0)
    assert code.iloc[0]["end"] == pd.Timestamp(T0 + timedelta(minutes=5))
    assert code.iloc[0]["duration_s"] == 300
    assert set(code.iloc[0]["event_ids"]) == {"e001", "e003"}
    assert code.iloc[0]["source_refs"] == ["ref#1", "ref#3"]


def test_short_flips_merge_into_the_neighbour():
    df = frame([ev(1, 0, dur=120), ev(2, 2, app="Slack", dur=3), ev(3, 2.05, dur=120)])
    out = sessions(df, DAY, gap_s=300, min_dwell_s=10)
    assert len(out) == 1
    assert out.iloc[0]["app"] == "Code" and out.iloc[0]["n_events"] == 3


def test_afk_splits_a_session():
    afk = ev(9, 10, etype="afk", app="afk", dur=120, title="afk")
    df = frame([ev(1, 0, dur=600), afk, ev(2, 12.5, dur=60)])
    assert len(sessions(df, DAY, gap_s=300, min_dwell_s=10)) == 2
    no_afk = frame([ev(1, 0, dur=600), ev(2, 12.5, dur=60)])
    assert len(sessions(no_afk, DAY, gap_s=300, min_dwell_s=10)) == 1


def test_visits_group_by_domain_and_keep_titles_and_urls():
    df = frame(
        [
            ev(1, 0, "visit", "Firefox", 0, url="https://www.example.org/a", title="A"),
            ev(2, 1, "visit", "Firefox", 0, url="https://example.org/b", title="B"),
            ev(3, 1.5, "visit", "Firefox", 0, url="https://other.test/", title="O"),
            ev(4, 2, "visit", "Firefox", 0, url="https://example.org/a", title="A"),
        ]
    )
    out = sessions(df, DAY).sort_values("n_events", ascending=False)
    top = out.iloc[0]
    assert top["domain"] == "example.org" and top["n_events"] == 3
    assert top["titles"] == ["A", "B"]
    assert top["urls"] == [
        "https://www.example.org/a",
        "https://example.org/b",
        "https://example.org/a",
    ]


def test_chat_sessions_per_conversation_and_notes_ignored():
    df = frame(
        [
            ev(1, 0, "chat", "chat", 0, title="Peter", actor="Peter", text="hi"),
            ev(2, 1, "chat", "chat", 0, title="assistant", actor="me", text="q"),
            ev(3, 2, "chat", "chat", 0, title="Peter", actor="me", text="yo"),
            ev(4, 3, "note", None, 0, text="a note"),
        ]
    )
    out = sessions(df, DAY)
    assert sorted(out["n_events"]) == [1, 2]
    assert out["domain"].isna().all()


def test_deterministic_ids_and_schema():
    df = frame([ev(i, i * 0.5) for i in range(20)])
    a = sessions(df, DAY)
    b = sessions(df.sample(frac=1, random_state=1), DAY)
    assert list(a["session_id"]) == list(b["session_id"])
    schemas.to_table(a, schemas.SESSIONS)  # casts cleanly
    assert (a["start"] <= a["end"]).all()


def test_empty_and_helpers():
    assert sessions(schemas.empty(schemas.EVENTS), DAY).empty
    assert compression_ratio(10, 4) == 2.5 and compression_ratio(3, 0) == 0.0
    urls = pd.Series(["https://www.A.example/x", None, "not a url", "http://[::1"])
    assert list(domains(urls).fillna("-")) == ["a.example", "-", "-", "-"]


def as_categories(df: pd.DataFrame, columns: tuple[str, ...]) -> pd.DataFrame:
    """Frame -> the same frame with some text columns categorical, as browser collectors emit."""
    out = df.copy()
    for c in columns:
        out[c] = out[c].astype("category")
    return out


def test_categorical_columns_give_the_same_sessions():
    records = [
        ev(1, 0, "visit", "Chrome", 0, url="https://www.example.org/a", title="A"),
        ev(2, 1, "visit", "Chrome", 0, url="https://example.org/b", title=None),
        ev(3, 1.5, "window", None, 3, title="flip"),
        ev(4, 2, "chat", "chat", 0, title=None, text="hi"),
        ev(5, 2.5, "chat", "chat", 0, title="?", text="yo"),
        ev(6, 3, "window", "Code", 120, title="main.py"),
        ev(7, 40, "visit", "Chrome", 0, url="https://example.org/a", title="A"),
    ]
    plain = sessions(frame(records), DAY, now=pd.Timestamp(T0))
    cat = as_categories(frame(records), ("title", "url", "app", "event_type", "source"))
    got = sessions(cat, DAY, now=pd.Timestamp(T0))
    pd.testing.assert_frame_equal(got, plain)
    chats = plain[plain["n_events"] == 2]
    assert len(chats) == 1  # a missing chat title and "?" are one conversation, as before


def test_timestamp_ties_are_ordered_by_event_id():
    df = frame([ev(2, 0, dur=30), ev(1, 0, dur=30), ev(3, 1, dur=30)])
    out = sessions(df, DAY)
    assert list(out.iloc[0]["event_ids"]) == ["e001", "e002", "e003"]
    assert list(out.iloc[0]["source_refs"]) == ["ref#1", "ref#2", "ref#3"]


def test_session_app_is_the_first_one_named():
    df = frame([ev(1, 0, app=None, dur=30), ev(2, 0.5, app="Code", dur=30)])
    df.loc[1, "app"] = "Code"
    out = sessions(df, DAY, min_dwell_s=10)
    assert len(out) == 2 and sorted(out["app"].fillna("-")) == ["-", "Code"]
    flips = frame([ev(1, 0, app=None, dur=3), ev(2, 0.1, app="Code", dur=30)])
    assert sessions(flips, DAY, min_dwell_s=10).iloc[0]["app"] == "Code"


def test_domains_agree_with_urlsplit():
    from urllib.parse import urlsplit

    urls = [
        "https://www.Example.org:8443/a?b#c",
        "HTTP://WWW.",
        "https://user:pw@host.example/",
        "https://[2001:db8::1]:443/z",
        "http://[::1",
        "//schemeless.example/x",
        "mailto:ann@example.org",
        " https://leading-space.example/",
        "https://tab\t.example/",
        "https://bücher.example/",
        "https://%41.example/",
        "https://www.www.x.example",
        "https://ex ample.com/",
        "file:///etc/hosts",
        "https://:80/",
        "",
        None,
    ]

    def reference(u: str | None) -> str | None:
        if u is None:
            return None
        try:
            host = urlsplit(u).hostname or ""
        except ValueError:
            host = ""
        return host.removeprefix("www.") or None

    assert domains(pd.Series(urls)).tolist() == [reference(u) for u in urls]
