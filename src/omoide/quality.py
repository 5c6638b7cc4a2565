"""Data-quality gates: GX suites (JSON in omoide.expectations) run over pandas frames."""

from __future__ import annotations

import functools
import json
import logging
import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from importlib import resources
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from omoide.core.deferred_imports import defer
from omoide.core.errors import DataQualityError

if TYPE_CHECKING:
    from great_expectations.core.batch_definition import BatchDefinition
    from great_expectations.data_context import EphemeralDataContext
    from great_expectations.expectations.expectation import Expectation

log = logging.getLogger(__name__)

ON_FAIL = ("fail", "quarantine", "warn")
_PARAM = "$PARAMETER"
_INDEX_KEY = "omoide_check"  # meta key that ties a GX result back to its check
_COLUMN_KEYS = ("column", "column_A", "column_B")
_EPOCH = pd.Timestamp(0, tz="UTC")
# A validation first asks GX for each check's verdict only; the checks that failed are run again
# for their unexpected row positions. Asking for rows from every check (COMPLETE) made GX build
# and resolve twice the metrics for checks that nearly always pass: docs/benchmarks.md, issue 29.
_VERDICTS = {"result_format": "BOOLEAN_ONLY"}
_ROWS = {"result_format": "COMPLETE"}
# One GX context per process; its datasource registry is not safe to share across threads.
_LOCK = threading.RLock()


@dataclass(frozen=True)
class Outcome:
    """One expectation's result: counts and row labels only, never values from the data."""

    expectation: str
    column: str | None
    success: bool
    on_fail: str
    unexpected_count: int
    unexpected_index: list[Any]
    why: str


@dataclass
class QualityResult:
    """A suite run over one frame; success means no on_fail="fail" expectation failed."""

    suite: str
    success: bool
    rows: int
    outcomes: list[Outcome] = field(default_factory=list)


@dataclass(frozen=True)
class Check:
    """One expectation of a suite with its severity."""

    type: str
    kwargs: Mapping[str, Any]
    on_fail: str
    why: str

    @property
    def column(self) -> str | None:
        """Check -> the column(s) it looks at, comma-joined, or None for table checks."""
        cols = [str(self.kwargs[k]) for k in _COLUMN_KEYS if k in self.kwargs]
        cols += [str(c) for c in self.kwargs.get("column_list", [])]
        return ",".join(cols) or None

    @property
    def label(self) -> str:
        """Check -> 'expect_x(column)', the text used in quarantine reasons."""
        return f"{self.type}({self.column or '-'})"


@dataclass(frozen=True)
class Suite:
    """A parsed suite: its checks, whether it only warns, and what it needs from the caller."""

    name: str
    checks: tuple[Check, ...]
    warn_only: bool = False
    epoch_us: tuple[tuple[str, str], ...] = ()  # (helper column, tz-aware source column)

    @property
    def checked(self) -> frozenset[str]:
        """Suite -> every column its checks read, helper columns included."""
        return frozenset(c for check in self.checks for c in (check.column or "").split(",") if c)

    @property
    def columns(self) -> frozenset[str]:
        """Suite -> the columns the caller's frame must have (helpers come from their sources)."""
        helpers = dict(self.epoch_us)
        return frozenset(helpers.get(c, c) for c in self.checked)

    @property
    def parameters(self) -> frozenset[str]:
        """Suite -> names of the $PARAMETER values validate() must be given."""
        return frozenset(n for check in self.checks for n in _parameter_names(check.kwargs))


def _parameter_names(value: object) -> set[str]:
    """Nested kwargs -> names referenced as {"$PARAMETER": name}."""
    if isinstance(value, Mapping):
        if _PARAM in value:
            return {str(value[_PARAM])}
        return {n for v in value.values() for n in _parameter_names(v)}
    if isinstance(value, list | tuple):
        return {n for v in value for n in _parameter_names(v)}
    return set()


def _gx() -> ModuleType:
    """() -> the great_expectations module, imported with its analytics switched off."""
    # Older GX 1.x reads this when great_expectations.analytics is first imported, so it must be
    # set before the import; 1.24 has no analytics module left, and the context config below
    # covers a GX that was imported elsewhere first.
    os.environ["GX_ANALYTICS_ENABLED"] = "false"
    # Imported by GX for expectations and stores omoide does not use: ~1.5 s of every command.
    defer("scipy.stats", "altair", "boto3")
    import great_expectations

    return great_expectations


@functools.cache
def gx_context() -> EphemeralDataContext:
    """() -> this process's in-memory GX context (no project on disk, analytics off)."""
    gx = _gx()
    from great_expectations.data_context.types.base import (
        DataContextConfig,
        InMemoryStoreBackendDefaults,
        ProgressBarsConfig,
    )

    config = DataContextConfig(
        store_backend_defaults=InMemoryStoreBackendDefaults(init_temp_docs_sites=False),
        analytics_enabled=False,
        progress_bars=ProgressBarsConfig(globally=False),
    )
    context = gx.get_context(mode="ephemeral", project_config=config)
    log.debug("created ephemeral GX context")
    return context


@functools.cache
def _batch_definition() -> BatchDefinition:
    """() -> the whole-dataframe batch definition every validation runs through."""
    asset = gx_context().data_sources.add_pandas("omoide").add_dataframe_asset("frame")
    return asset.add_batch_definition_whole_dataframe("whole")


def _map_expectation_types() -> tuple[type, ...]:
    """() -> GX base classes whose results carry unexpected row indices."""
    from great_expectations.expectations.expectation import (
        ColumnMapExpectation,
        ColumnPairMapExpectation,
        MulticolumnMapExpectation,
    )

    return (ColumnMapExpectation, ColumnPairMapExpectation, MulticolumnMapExpectation)


def _gx_expectation(check: Check, position: int, suite: str) -> Expectation:
    """Check -> the GX expectation object, tagged with its position in the suite."""
    _gx()
    from great_expectations.expectations.registry import get_expectation_impl

    try:
        cls = get_expectation_impl(check.type)
        return cls(**check.kwargs, meta={_INDEX_KEY: position})
    except Exception as exc:
        raise ValueError(f"suite {suite!r}: invalid expectation {check.label}: {exc}") from exc


def parse_suite(data: Mapping[str, Any]) -> Suite:
    """Suite JSON (GX 1.x form, meta.on_fail per expectation) -> Suite; raises on a bad suite."""
    name = str(data.get("name") or "")
    if not name:
        raise ValueError("suite has no name")
    meta = data.get("meta") or {}
    checks = []
    for i, item in enumerate(data.get("expectations") or []):
        item_meta = item.get("meta") or {}
        check = Check(
            type=str(item.get("type", "")),
            kwargs=dict(item.get("kwargs") or {}),
            on_fail=str(item_meta.get("on_fail", "")),
            why=str(item_meta.get("why", "")),
        )
        if check.on_fail not in ON_FAIL:
            raise ValueError(f"suite {name!r}: {check.label} needs meta.on_fail in {ON_FAIL}")
        expectation = _gx_expectation(check, i, name)
        if check.on_fail == "quarantine" and not isinstance(expectation, _map_expectation_types()):
            raise ValueError(
                f"suite {name!r}: {check.label} cannot quarantine rows (not a map expectation)"
            )
        checks.append(check)
    epoch_us = meta.get("epoch_us_columns") or {}
    if not isinstance(epoch_us, Mapping):
        raise ValueError(f"suite {name!r}: meta.epoch_us_columns must map helper -> column")
    return Suite(
        name=name,
        checks=tuple(checks),
        warn_only=bool(meta.get("warn_only", False)),
        epoch_us=tuple((str(k), str(v)) for k, v in epoch_us.items()),
    )


@functools.cache
def load_suite(name: str) -> Suite:
    """Suite name -> Suite parsed from omoide/expectations/<name>.json."""
    if not name.isidentifier():
        raise ValueError(f"not a suite name: {name!r}")
    path = resources.files("omoide.expectations") / f"{name}.json"
    if not path.is_file():
        raise ValueError(f"no expectation suite named {name!r}")
    return parse_suite(json.loads(path.read_text(encoding="utf-8")))


def _gx_params(suite: Suite, params: Mapping[str, object] | None) -> dict[str, object]:
    """Caller parameters -> GX expectation_parameters (aware datetimes as UTC Timestamps)."""
    given = dict(params or {})
    missing = sorted(suite.parameters - given.keys())
    if missing:
        raise ValueError(f"suite {suite.name!r} needs parameter(s): {', '.join(missing)}")
    out: dict[str, object] = {}
    for key, value in given.items():
        if isinstance(value, datetime):
            if value.tzinfo is None:
                raise ValueError(f"parameter {key!r} must be timezone-aware")
            # The frame holds datetime64[us, UTC]; a UTC Timestamp compares without surprises.
            value = pd.Timestamp(value).tz_convert("UTC")
        out[key] = value
    return out


def _build_gx_suite(spec: Suite, positions: Sequence[int] | None = None) -> Any:
    """Suite (+ positions of some of its checks) -> the GX ExpectationSuite that runs them."""
    chosen = range(len(spec.checks)) if positions is None else positions
    return _gx().ExpectationSuite(
        name=spec.name,
        expectations=[_gx_expectation(spec.checks[i], i, spec.name) for i in chosen],
    )


@functools.cache
def _gx_suite(name: str) -> Any:
    """Suite name -> its GX ExpectationSuite, built once per process (building costs more than small frames' checks)."""
    return _build_gx_suite(load_suite(name))


def _epoch_us(values: pd.Series) -> pd.Series:
    """Tz-aware timestamps -> epoch microseconds as nullable Int64 (NaT -> NA)."""
    ts = pd.to_datetime(values, utc=True)
    return ((ts - _EPOCH) // pd.Timedelta(1, "us")).astype("Int64")


def _raised(exception_info: Mapping[str, Any]) -> str | None:
    """GX exception_info (flat or keyed by metric) -> first error message, or None."""
    infos = [exception_info] if "raised_exception" in exception_info else exception_info.values()
    for info in infos:
        if isinstance(info, Mapping) and info.get("raised_exception"):
            return str(info.get("exception_message") or "error")[:300]
    return None


def _gx_run(
    spec: Suite,
    work: pd.DataFrame,
    gx_suite: Any,
    expectation_parameters: Mapping[str, object],
    result_format: Mapping[str, object],
) -> dict[int, Any]:
    """Frame + GX suite + parameters + result format -> GX results by check position; raises if one could not run."""
    with _LOCK:
        batch = _batch_definition().get_batch(batch_parameters={"dataframe": work})
        run = batch.validate(
            gx_suite,
            result_format=dict(result_format),
            expectation_parameters=dict(expectation_parameters),
        )
    out: dict[int, Any] = {}
    for res in run.results:
        position = int(res.expectation_config.meta[_INDEX_KEY])
        error = _raised(res.exception_info or {})
        if error is not None:
            raise ValueError(
                f"suite {spec.name!r}: {spec.checks[position].label} could not run: {error}"
            )
        out[position] = res
    return out


def validate(
    df: pd.DataFrame, suite: str | Suite, params: Mapping[str, object] | None = None
) -> QualityResult:
    """Frame + suite name (+ $PARAMETER values) -> QualityResult with failing row labels."""
    spec = load_suite(suite) if isinstance(suite, str) else suite
    missing = sorted(spec.columns - set(df.columns))
    if missing:
        raise ValueError(f"suite {spec.name!r} needs column(s) missing from the frame: {missing}")
    if not df.index.is_unique:
        raise ValueError(f"suite {spec.name!r}: the frame's index must be unique")
    expectation_parameters = _gx_params(spec, params)
    # GX sees only the checked columns, by position; labels are mapped back afterwards.
    work = df[sorted(spec.columns)].reset_index(drop=True)
    for helper, source in spec.epoch_us:
        work[helper] = _epoch_us(work[source])
    gx_suite = _gx_suite(suite) if isinstance(suite, str) else _build_gx_suite(spec)
    results = _gx_run(spec, work, gx_suite, expectation_parameters, _VERDICTS)
    if len(results) != len(spec.checks):
        raise ValueError(f"suite {spec.name!r}: GX returned {len(results)} of {len(spec.checks)}")
    # Rows are asked for only where some may be unexpected: a check that passed without `mostly`
    # found none (GX's success for a row-level check is "no unexpected row").
    again = [p for p, r in results.items() if not r.success or "mostly" in spec.checks[p].kwargs]
    if again:
        rows = _gx_run(spec, work, _build_gx_suite(spec, again), expectation_parameters, _ROWS)
        if sorted(rows) != sorted(again):
            raise ValueError(f"suite {spec.name!r}: GX returned {len(rows)} of {len(again)}")
        results.update(rows)
    done = []
    for position, check in enumerate(spec.checks):
        res = results[position]
        found = res.result or {}
        positions = found.get("unexpected_index_list") or []
        done.append(
            Outcome(
                expectation=check.type,
                column=check.column,
                success=bool(res.success),
                on_fail="warn" if spec.warn_only else check.on_fail,
                unexpected_count=int(found.get("unexpected_count") or 0),
                unexpected_index=df.index[[int(p) for p in positions]].tolist(),
                why=check.why,
            )
        )
    for o in done:
        if not o.success:
            log.warning(
                "%s: %s(%s) %d unexpected [%s]",
                spec.name,
                o.expectation,
                o.column,
                o.unexpected_count,
                o.on_fail,
            )
    success = not any(o.on_fail == "fail" and not o.success for o in done)
    return QualityResult(suite=spec.name, success=success, rows=len(df), outcomes=done)


def validate_parts(
    parts: Mapping[str, pd.DataFrame],
    suite: str | Suite,
    params: Mapping[str, object] | None = None,
) -> dict[str, QualityResult]:
    """Frames by name + suite -> each frame's QualityResult, from one validation of them all.

    GX's cost is per expectation, hardly per row: one run over the stacked frames costs
    about what one frame's run does. Each part gets the verdicts of its own rows, which is
    exact for row-level (map) expectations without `mostly`, the only kind this accepts.
    """
    spec = load_suite(suite) if isinstance(suite, str) else suite
    # The suite's own GX objects (built once per process for a named suite) say what each check is.
    built = _gx_suite(suite) if isinstance(suite, str) else _build_gx_suite(spec)
    for check, expectation in zip(spec.checks, built.expectations, strict=True):
        if "mostly" in check.kwargs or not isinstance(expectation, _map_expectation_types()):
            raise ValueError(f"suite {spec.name!r}: {check.label} has no per-row verdict")
    names = list(parts)
    if not names:
        return {}
    stacked = pd.concat([parts[n] for n in names], ignore_index=True)
    bounds = np.cumsum([0, *(len(parts[n]) for n in names)])
    whole = validate(stacked, suite, params)
    out: dict[str, QualityResult] = {}
    for i, name in enumerate(names):
        lo, hi, frame = bounds[i], bounds[i + 1], parts[name]
        outcomes = []
        for o in whole.outcomes:
            mine = [int(p) - lo for p in o.unexpected_index if lo <= int(p) < hi]
            outcomes.append(
                replace(
                    o,
                    success=not mine,
                    unexpected_count=len(mine),
                    unexpected_index=frame.index[mine].tolist(),
                )
            )
        success = not any(o.on_fail == "fail" and not o.success for o in outcomes)
        out[name] = QualityResult(spec.name, success, len(frame), outcomes)
    return out


def quarantine_split(df: pd.DataFrame, result: QualityResult) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Frame + its result -> (kept rows, rejected rows with a `reason` column)."""
    if len(df) != result.rows:
        raise ValueError(
            f"suite {result.suite!r} ran on {result.rows} rows, this frame has {len(df)}"
        )
    reasons: dict[Any, list[str]] = {}
    for o in result.outcomes:
        if o.on_fail == "quarantine" and not o.success:
            label = f"{o.expectation}({o.column or '-'})"
            for row in o.unexpected_index:
                reasons.setdefault(row, []).append(label)
    bad = df.index.isin(list(reasons))
    rejected = df.loc[bad].copy()
    rejected["reason"] = ["; ".join(reasons[row]) for row in rejected.index]
    return df.loc[~bad].copy(), rejected


def failures(result: QualityResult) -> list[dict[str, Any]]:
    """Result -> the failed on_fail="fail" expectations as dicts (no data values)."""
    return [
        {
            "expectation": o.expectation,
            "column": o.column,
            "unexpected_count": o.unexpected_count,
            "why": o.why,
        }
        for o in result.outcomes
        if o.on_fail == "fail" and not o.success
    ]


def raise_for_failures(result: QualityResult) -> None:
    """Result -> None, or DataQualityError naming each failed critical expectation and count."""
    failed = failures(result)
    if failed:
        raise DataQualityError(result.suite, failed)


def summary_rows(result: QualityResult) -> list[dict[str, Any]]:
    """Result -> one table row per expectation: names, counts and severity only."""
    return [
        {
            "suite": result.suite,
            "expectation": o.expectation,
            "column": o.column,
            "success": o.success,
            "unexpected_count": o.unexpected_count,
            "on_fail": o.on_fail,
        }
        for o in result.outcomes
    ]
