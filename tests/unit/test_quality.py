"""Data-quality gates over real Great Expectations (ephemeral context, no network)."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from importlib import resources
from typing import Any

import pandas as pd
import pytest

from omoide import quality
from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.core.errors import DataQualityError
from omoide.ingest.sources.base import events_frame

DAY = date(2026, 11, 20)
TZ = "Europe/Berlin"
START, END = day_bounds(DAY, TZ)
PARAMS = {"day_start": START, "day_end": END}
NOW = datetime(2026, 11, 21, 3, 0, tzinfo=UTC)


def event(i: int, **over: Any) -> dict[str, Any]:
    """Index + overrides -> one valid raw event record inside DAY."""
    rec: dict[str, Any] = {
        "event_id": f"ev{i}",
        "ts": START + timedelta(hours=1, minutes=i),
        "duration_s": 30.0,
        "source": "chrome",
        "source_name": "chrome",
        "event_type": "visit",
        "app": "chrome",
        "title": f"Page {i}",
        "url": f"https://example.org/p/{i}?q=1",
        "source_ref": f"/tmp/History#visits.id={i}",
    }
    rec.update(over)
    return rec


def frame(records: list[dict[str, Any]], first_label: int = 100) -> pd.DataFrame:
    """Records -> EVENTS frame with non-default index labels (to prove labels map back)."""
    df = events_frame(records, NOW)
    df.index = pd.Index(range(first_label, first_label + len(df)))
    return df


def outcome(result: quality.QualityResult, expectation: str, column: str) -> quality.Outcome:
    """Result + expectation type + column -> that expectation's single outcome."""
    found = [o for o in result.outcomes if o.expectation == expectation and o.column == column]
    assert len(found) == 1, (expectation, column, found)
    return found[0]


def sessions_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """Session dicts -> SESSIONS-conformed frame with UTC microsecond timestamps."""
    df = schemas.conform(pd.DataFrame(rows), schemas.SESSIONS)
    for col in ("start", "end"):
        df[col] = pd.to_datetime(df[col], utc=True).astype("datetime64[us, UTC]")
    df["recorded_at"] = pd.Timestamp(NOW)
    return df


def session(i: int, **over: Any) -> dict[str, Any]:
    """Index + overrides -> one valid session inside DAY."""
    start = START + timedelta(hours=2, minutes=10 * i)
    row: dict[str, Any] = {
        "session_id": f"s{i}",
        "start": start,
        "end": start + timedelta(minutes=5),
        "duration_s": 300.0,
        "n_events": 3,
    }
    row.update(over)
    return row


# --- suites and the context -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["events_raw", "events_clean", "sessions"])
def test_suite_files_parse_and_are_named_after_their_file(name: str) -> None:
    data = json.loads((resources.files("omoide.expectations") / f"{name}.json").read_text())
    suite = quality.load_suite(name)
    assert data["name"] == suite.name == name
    assert len(suite.checks) == len(data["expectations"])
    assert suite.parameters == {"day_start", "day_end"}
    assert all(c.why for c in suite.checks)


def test_importing_quality_creates_no_context_and_imports_no_gx() -> None:
    code = "import sys, omoide.quality; print('great_expectations' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_analytics_disabled_no_network_no_project_on_disk(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    def no_network(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"network attempt: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket.socket, "connect_ex", no_network)
    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    monkeypatch.delenv("GX_ANALYTICS_ENABLED", raising=False)  # conftest sets it; prove we do
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    quality.gx_context.cache_clear()
    quality._batch_definition.cache_clear()

    context = quality.gx_context()
    result = quality.validate(frame([event(1)]), "events_raw", PARAMS)

    assert result.success
    assert context.mode == "ephemeral"
    assert context.config.analytics_enabled is False
    assert os.environ["GX_ANALYTICS_ENABLED"] == "false"
    assert "posthog" not in sys.modules
    if importlib.util.find_spec("great_expectations.analytics") is not None:
        from great_expectations.analytics.config import ENV_CONFIG  # older GX 1.x

        assert not ENV_CONFIG.gx_analytics_enabled
    assert list(cwd.iterdir()) == []
    assert quality.gx_context() is context


# --- events_raw --------------------------------------------------------------------------------


def test_events_raw_passes_on_good_frame() -> None:
    df = frame([event(i) for i in range(5)])
    result = quality.validate(df, "events_raw", PARAMS)
    assert result.success and result.rows == 5
    assert all(o.success for o in result.outcomes)
    kept, rejected = quality.quarantine_split(df, result)
    assert len(kept) == 5 and rejected.empty and "reason" in rejected.columns
    quality.raise_for_failures(result)


def test_events_raw_quarantines_bad_rows_with_reasons() -> None:
    df = frame(
        [
            event(0),
            event(1, event_id=None),
            event(2, source_ref=None, event_type="bogus"),
            event(3, ts=END),  # the end of the day is outside [start, end)
            event(4, ts=START - timedelta(microseconds=1)),
            event(5, duration_s=-1.0),
            event(6, duration_s=86_401.0),
            event(7, fact_kind="X", confidence=1.5),
            event(8, fact_kind="O", confidence=0.9),
            event(9, event_id="dup"),
            event(10, event_id="dup"),
            event(11, source_name=None),
        ]
    )
    result = quality.validate(df, "events_raw", PARAMS)

    assert result.success  # nothing critical: every failure quarantines
    expected = {
        ("expect_column_values_to_not_be_null", "event_id"): [101],
        ("expect_column_values_to_not_be_null", "source_ref"): [102],
        ("expect_column_values_to_not_be_null", "source_name"): [111],
        ("expect_column_values_to_be_in_set", "event_type"): [102],
        ("expect_column_values_to_be_between", "ts"): [103, 104],
        ("expect_column_values_to_be_between", "duration_s"): [105, 106],
        ("expect_column_values_to_be_in_set", "fact_kind"): [107],
        ("expect_column_values_to_be_between", "confidence"): [107],
        # GX flags every copy of a repeated id; the caller drops repeats before validating.
        ("expect_column_values_to_be_unique", "event_id"): [109, 110],
    }
    for (kind, column), rows in expected.items():
        o = outcome(result, kind, column)
        assert (o.success, o.on_fail) == (False, "quarantine")
        assert sorted(o.unexpected_index) == rows and o.unexpected_count == len(rows)
    failed = {(o.expectation, o.column) for o in result.outcomes if not o.success}
    assert failed == set(expected)

    kept, rejected = quality.quarantine_split(df, result)
    assert list(kept.index) == [100, 108]
    assert sorted(rejected.index) == [101, 102, 103, 104, 105, 106, 107, 109, 110, 111]
    assert rejected.loc[101, "reason"] == "expect_column_values_to_not_be_null(event_id)"
    assert rejected.loc[102, "reason"] == (
        "expect_column_values_to_not_be_null(source_ref); "
        "expect_column_values_to_be_in_set(event_type)"
    )
    assert rejected.loc[107, "reason"] == (
        "expect_column_values_to_be_in_set(fact_kind); "
        "expect_column_values_to_be_between(confidence)"
    )
    assert list(rejected.columns) == [*df.columns, "reason"]
    quality.raise_for_failures(result)


def test_events_raw_unknown_source_kind_is_critical() -> None:
    df = frame([event(0), event(1, source="netscape"), event(2, source="mosaic")])
    result = quality.validate(df, "events_raw", PARAMS)
    o = outcome(result, "expect_column_values_to_be_in_set", "source")
    assert not result.success
    assert (o.on_fail, o.unexpected_count, o.unexpected_index) == ("fail", 2, [101, 102])
    kept, rejected = quality.quarantine_split(df, result)
    assert len(kept) == 3 and rejected.empty
    with pytest.raises(DataQualityError) as err:
        quality.raise_for_failures(result)
    assert err.value.suite == "events_raw"
    assert "expect_column_values_to_be_in_set(source): 2 bad" in str(err.value)
    assert err.value.failures[0]["unexpected_count"] == 2


def test_one_validation_of_several_sources_gives_each_its_own_verdicts() -> None:
    good = frame([event(i) for i in range(3)])
    bad = frame([event(10), event(11, source="netscape"), event(12, duration_s=-1.0)], 500)
    one = quality.validate(bad, "events_raw", PARAMS)
    parts = quality.validate_parts({"good": good, "bad": bad}, "events_raw", PARAMS)
    assert parts["good"].success and parts["good"].rows == 3
    assert all(o.success and o.unexpected_index == [] for o in parts["good"].outcomes)
    # The failing source's verdicts are the ones a validation of it alone gives.
    assert parts["bad"] == one
    assert outcome(
        parts["bad"], "expect_column_values_to_be_in_set", "source"
    ).unexpected_index == [501]
    assert quality.validate_parts({}, "events_raw", PARAMS) == {}


def test_rows_are_asked_of_gx_only_for_checks_that_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[tuple[str, list[int]]] = []
    real = quality._gx_run

    def spy(spec, work, gx_suite, params, result_format):  # type: ignore[no-untyped-def]
        positions = [int(e.meta[quality._INDEX_KEY]) for e in gx_suite.expectations]
        runs.append((result_format["result_format"], positions))
        return real(spec, work, gx_suite, params, result_format)

    monkeypatch.setattr(quality, "_gx_run", spy)
    checks = quality.load_suite("events_raw").checks
    quality.validate(frame([event(i) for i in range(3)]), "events_raw", PARAMS)
    assert runs == [("BOOLEAN_ONLY", list(range(len(checks))))]
    runs.clear()
    result = quality.validate(frame([event(0), event(1, event_type="bogus")]), "events_raw", PARAMS)
    failed = [i for i, o in enumerate(result.outcomes) if not o.success]
    assert [fmt for fmt, _ in runs] == ["BOOLEAN_ONLY", "COMPLETE"] and runs[1][1] == failed
    assert outcome(result, "expect_column_values_to_be_in_set", "event_type").unexpected_index == [
        101
    ]


def test_a_lenient_check_that_passes_still_reports_its_rows() -> None:
    lenient = {
        "type": "expect_column_values_to_not_be_null",
        "kwargs": {"column": "title", "mostly": 0.5},
        "meta": {"on_fail": "warn"},
    }
    suite = quality.parse_suite({"name": "lenient", "expectations": [lenient]})
    result = quality.validate(frame([event(0), event(1), event(2, title=None)]), suite)
    (o,) = result.outcomes
    assert (o.success, o.unexpected_count, o.unexpected_index) == (True, 1, [102])


def test_parts_need_row_level_checks() -> None:
    lenient = {
        "type": "expect_column_values_to_not_be_null",
        "kwargs": {"column": "event_id", "mostly": 0.9},
        "meta": {"on_fail": "warn"},
    }
    suite = quality.parse_suite({"name": "lenient", "expectations": [lenient]})
    with pytest.raises(ValueError, match="per-row verdict"):
        quality.validate_parts({"x": frame([event(0)])}, suite)


def test_dst_day_is_25_hours() -> None:
    start, end = day_bounds(date(2026, 10, 25), TZ)
    assert end - start == timedelta(hours=25)
    df = frame(
        [
            event(0, ts=start),
            event(1, ts=start + timedelta(hours=24, minutes=30)),  # 23:30 local, CET
            event(2, ts=end - timedelta(microseconds=1)),
            event(3, ts=end),
            event(4, ts=start - timedelta(seconds=1)),
        ]
    )
    assert str(df["ts"].dtype) == "datetime64[us, UTC]"
    result = quality.validate(df, "events_raw", {"day_start": start, "day_end": end})
    assert outcome(result, "expect_column_values_to_be_between", "ts").unexpected_index == [
        103,
        104,
    ]
    # Parameters in the local zone mean the same instants.
    local = {"day_start": start.astimezone(start.tzinfo), "day_end": end}
    assert quality.validate(df, "events_raw", local).outcomes == result.outcomes
    # The same suite object runs again with other parameters (GX does not keep the old ones).
    other = quality.validate(df, "events_raw", PARAMS)
    assert len(outcome(other, "expect_column_values_to_be_between", "ts").unexpected_index) == 5


def test_empty_frames_validate() -> None:
    for name, df in [
        ("events_raw", schemas.empty(schemas.EVENTS)),
        ("events_clean", schemas.empty(schemas.EVENTS).assign(pii_residue=pd.Series(dtype=int))),
        ("sessions", schemas.empty(schemas.SESSIONS)),
    ]:
        result = quality.validate(df, name, PARAMS)
        assert result.success and result.rows == 0
        assert all(o.success and o.unexpected_count == 0 for o in result.outcomes)
        kept, rejected = quality.quarantine_split(df, result)
        assert kept.empty and rejected.empty


def test_parameters_are_required_and_must_be_aware() -> None:
    df = frame([event(0)])
    with pytest.raises(ValueError, match="day_end"):
        quality.validate(df, "events_raw", {"day_start": START})
    with pytest.raises(ValueError, match="timezone-aware"):
        quality.validate(df, "events_raw", {"day_start": datetime(2026, 11, 20), "day_end": END})


def test_non_unique_index_and_unknown_suite_are_refused() -> None:
    df = frame([event(0), event(1)])
    df.index = pd.Index([1, 1])
    with pytest.raises(ValueError, match="unique"):
        quality.validate(df, "events_raw", PARAMS)
    with pytest.raises(ValueError, match="no expectation suite"):
        quality.validate(df, "nope", PARAMS)
    with pytest.raises(ValueError, match="not a suite name"):
        quality.validate(df, "../events_raw", PARAMS)


# --- events_clean ------------------------------------------------------------------------------


def clean(records: list[dict[str, Any]], residue: list[int] | None = None) -> pd.DataFrame:
    """Records -> events frame with the caller-computed pii_residue column."""
    df = frame(records)
    return df.assign(pii_residue=residue if residue is not None else [0] * len(df))


def test_events_clean_passes_on_redacted_frame() -> None:
    df = clean(
        [
            event(0),
            event(1, url="https://a.example/cb?code=[REDACTED]&state=ok#access_token=[REDACTED]"),
            event(2, url="https://a.example/x;jsessionid=[REDACTED]?monkey=1&keyboard=2"),
            event(3, url="https://a.example/s?X-Amz-Signature=%5BREDACTED%5D&token="),
            event(4, url="https://[REDACTED]@a.example/", title=None, text=None),
            event(5, text="mail me at [REDACTED] later", title="user@host without a dot"),
            event(6, url="https://host:8080/path@v2", text="token: none here"),
        ]
    )
    result = quality.validate(df, "events_clean", PARAMS)
    failed = [(o.expectation, o.column) for o in result.outcomes if not o.success]
    assert result.success, failed
    quality.raise_for_failures(result)


def test_events_clean_pii_left_is_critical() -> None:
    df = clean(
        [
            event(0),
            event(1, title="Inbox (jane.doe+x@mail.example.com)"),
            event(2, url="https://a.example/cb?state=1&access_token=abc123"),
            event(3, url="https://bob:hunter2@a.example/"),
            event(4, text="see https://x.example/#id_token=eyJ and PHPSESSID above"),
            event(5, url="https://x.example/dl;JSESSIONID=1A2B"),
            event(6, text="wrote to ops@example.org"),
        ],
        residue=[0, 0, 0, 0, 0, 0, 2],
    )
    result = quality.validate(df, "events_clean", PARAMS)
    assert not result.success
    regex = "expect_column_values_to_not_match_regex"
    by_column = {
        c: sorted(
            i
            for o in result.outcomes
            if o.expectation == regex and o.column == c
            for i in o.unexpected_index
        )
        for c in ("title", "url", "text")
    }
    # The user:password@host URL also looks like an e-mail address, so two checks flag it.
    assert by_column == {"title": [101], "url": [102, 103, 103, 105], "text": [104, 106]}
    residue = outcome(result, "expect_column_values_to_be_in_set", "pii_residue")
    assert (residue.success, residue.unexpected_index, residue.on_fail) == (False, [106], "fail")
    with pytest.raises(DataQualityError) as err:
        quality.raise_for_failures(result)
    message = str(err.value)
    assert "data quality check 'events_clean' failed" in message
    assert f"{regex}(url): 3 bad" in message
    assert "expect_column_values_to_be_in_set(pii_residue): 1 bad" in message
    for secret in ("jane.doe", "abc123", "hunter2", "eyJ", "ops@"):
        assert secret not in message
        assert secret not in repr(quality.summary_rows(result))


def test_events_clean_key_checks_are_critical_now() -> None:
    df = clean([event(0), event(1, event_id="ev0"), event(2, event_type="bogus")])
    result = quality.validate(df, "events_clean", PARAMS)
    assert not result.success
    assert outcome(result, "expect_column_values_to_be_unique", "event_id").on_fail == "fail"
    kept, rejected = quality.quarantine_split(df, result)
    assert rejected.empty
    with pytest.raises(DataQualityError, match=r"be_unique\(event_id\): 2 bad"):
        quality.raise_for_failures(result)


def test_events_clean_without_pii_residue_is_refused() -> None:
    with pytest.raises(ValueError, match="pii_residue"):
        quality.validate(frame([event(0)]), "events_clean", PARAMS)


# --- sessions ----------------------------------------------------------------------------------


def test_sessions_pass_on_good_frame_including_a_25_hour_day() -> None:
    start, end = day_bounds(date(2026, 10, 25), TZ)
    df = sessions_frame(
        [
            session(0, start=start, end=end, duration_s=90_000.0),
            session(1, start=start + timedelta(hours=3)),
            session(2, start=end - timedelta(minutes=1), end=end + timedelta(minutes=9)),
        ]
    )
    result = quality.validate(df, "sessions", {"day_start": start, "day_end": end})
    assert result.success and all(o.success for o in result.outcomes)


def test_sessions_failures_are_critical_with_counts() -> None:
    df = sessions_frame(
        [
            session(0),
            session(1, session_id=None),
            session(2, session_id="s0"),
            session(3, end=START + timedelta(hours=1)),  # ends before it starts
            session(4, duration_s=-5.0),
            session(5, duration_s=90_001.0),
            session(6, n_events=0),
            session(7, start=END, end=END + timedelta(minutes=1)),
        ]
    )
    result = quality.validate(df, "sessions", PARAMS)
    assert not result.success
    expected = {
        ("expect_column_values_to_not_be_null", "session_id"): [1],
        ("expect_column_values_to_be_unique", "session_id"): [0, 2],
        ("expect_column_pair_values_a_to_be_greater_than_b", "end_us,start_us"): [3],
        ("expect_column_values_to_be_between", "duration_s"): [4, 5],
        ("expect_column_values_to_be_between", "n_events"): [6],
        ("expect_column_values_to_be_between", "start"): [7],
    }
    failed = {
        (o.expectation, o.column): sorted(o.unexpected_index)
        for o in result.outcomes
        if not o.success
    }
    assert failed == expected
    assert all(o.on_fail == "fail" for o in result.outcomes)
    with pytest.raises(DataQualityError) as err:
        quality.raise_for_failures(result)
    assert {f["expectation"] for f in err.value.failures} == {k for k, _ in expected}
    assert "expect_column_values_to_be_between(duration_s): 2 bad" in str(err.value)
    assert "expect_column_pair_values_a_to_be_greater_than_b(end_us,start_us): 1 bad" in str(
        err.value
    )


def test_sessions_null_start_and_end_fail() -> None:
    df = sessions_frame([session(0), session(1, start=None, end=None)])
    result = quality.validate(df, "sessions", PARAMS)
    assert outcome(result, "expect_column_values_to_not_be_null", "start").unexpected_index == [1]
    assert outcome(result, "expect_column_values_to_not_be_null", "end").unexpected_index == [1]
    assert not result.success


# --- suite meta, summaries ---------------------------------------------------------------------


def test_warn_only_suite_reports_but_never_rejects_or_raises() -> None:
    suite = quality.parse_suite(
        {
            "name": "events_note",
            "meta": {"warn_only": True},
            "expectations": [
                {
                    "type": "expect_column_values_to_not_be_null",
                    "kwargs": {"column": "title"},
                    "meta": {"on_fail": "quarantine", "why": "titles help"},
                },
                {
                    "type": "expect_table_row_count_to_be_between",
                    "kwargs": {"min_value": 5},
                    "meta": {"on_fail": "fail", "why": "a normal day has events"},
                },
            ],
        }
    )
    df = frame([event(0), event(1, title=None)])
    result = quality.validate(df, suite)
    assert result.success
    assert [(o.success, o.on_fail) for o in result.outcomes] == [(False, "warn"), (False, "warn")]
    assert result.outcomes[1].column is None
    kept, rejected = quality.quarantine_split(df, result)
    assert len(kept) == 2 and rejected.empty
    quality.raise_for_failures(result)


@pytest.mark.parametrize(
    ("item", "match"),
    [
        ({"type": "expect_column_values_to_not_be_null", "kwargs": {"column": "a"}}, "on_fail"),
        (
            {
                "type": "expect_table_row_count_to_be_between",
                "kwargs": {"min_value": 1},
                "meta": {"on_fail": "quarantine"},
            },
            "cannot quarantine",
        ),
        (
            {"type": "expect_nothing_at_all", "kwargs": {}, "meta": {"on_fail": "warn"}},
            "invalid expectation",
        ),
    ],
)
def test_bad_suites_are_refused(item: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        quality.parse_suite({"name": "bad", "expectations": [item]})


def test_summary_rows_hold_names_and_counts_only() -> None:
    df = frame([event(0), event(1, event_type="secret-diary")])
    result = quality.validate(df, "events_raw", PARAMS)
    rows = quality.summary_rows(result)
    assert len(rows) == len(result.outcomes)
    assert set(rows[0]) == {
        "suite",
        "expectation",
        "column",
        "success",
        "unexpected_count",
        "on_fail",
    }
    bad = [r for r in rows if not r["success"]]
    assert bad == [
        {
            "suite": "events_raw",
            "expectation": "expect_column_values_to_be_in_set",
            "column": "event_type",
            "success": False,
            "unexpected_count": 1,
            "on_fail": "quarantine",
        }
    ]
    assert "secret-diary" not in repr(rows)


def test_quarantine_split_refuses_a_different_frame() -> None:
    df = frame([event(0), event(1)])
    result = quality.validate(df, "events_raw", PARAMS)
    with pytest.raises(ValueError, match="2 rows"):
        quality.quarantine_split(df.iloc[:1], result)


def test_a_check_gx_cannot_run_is_an_error_not_a_pass() -> None:
    suite = quality.parse_suite(
        {
            "name": "broken",
            "expectations": [
                {
                    "type": "expect_column_values_to_be_between",
                    "kwargs": {"column": "title", "min_value": 0, "max_value": 1},
                    "meta": {"on_fail": "warn"},
                }
            ],
        }
    )
    with pytest.raises(ValueError, match=r"be_between\(title\) could not run"):
        quality.validate(frame([event(0)]), suite)
