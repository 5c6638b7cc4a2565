"""The daily flow: collect → sanitize → sessionize → summarize → embed → reflect one local day, every edge gated.

Given no day (the 02:00 schedule, `omoide run`) it catches up: every day after the newest
completed day mark up to yesterday, oldest first, each a daily flow run of its own.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from prefect import Task, flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.context import FlowRunContext
from prefect.runtime import flow_run

from omoide.core.days import yesterday
from omoide.core.errors import Incomplete, NoSourcesError
from omoide.core.settings import Settings, SourceConfig, get_settings
from omoide.core.writer_lock import writer_lock
from omoide.flows.reflect import reflect_failure, reflect_steps
from omoide.store.day_marks import (
    CatchUp,
    backfill_command,
    catch_up,
    mark_completed,
    marked_days,
)
from omoide.store.serial import LANCEDB_WRITES
from omoide.tasks.artifacts import publish_markdown
from omoide.tasks.embed import embed_day
from omoide.tasks.ingest import ingest_day
from omoide.tasks.plan import plan_days
from omoide.tasks.repair import repair_lancedb
from omoide.tasks.sessionize import sessionize_day
from omoide.tasks.summarize import choose_llm, summarize_and_write


class DayIncomplete(Incomplete):
    """Some sources or reflection steps of a day failed; the rest still ran (`partial`: the day's summary)."""


class CatchUpIncomplete(Incomplete):
    """Some days of a catch-up failed; the others completed (`partial`: the catch-up's report)."""


def daily_run_name() -> str:
    """Flow-run parameters -> 'daily-YYYY-MM-DD', or 'catch-up-FIRST[-LAST]' for a run given no day."""
    day = flow_run.parameters.get("day")
    if day is not None:
        return f"daily-{day}"
    days = _plan(get_settings(), datetime.now(UTC)).days
    return f"catch-up-{days[0]}" + (f"-{days[-1]}" if len(days) > 1 else "")


@flow(name="daily", flow_run_name=daily_run_name, log_prints=False)
def daily(
    day: date | None = None,
    session_gap_s: float | None = None,
    min_dwell_s: float | None = None,
    excluded_domains: list[str] | None = None,
    force: bool = False,
    reflect: bool = True,
    staged: bool = False,
) -> dict[str, Any]:
    """Local day -> lake events and sessions, vault digest, LanceDB memories; its summary.

    Without a day, every day after the newest completed one up to yesterday (at most
    `catch_up_days`), each a nested daily run; the report maps each day to its outcome and
    names an older gap's backfill (`catch_up_run`). `reflect=False` leaves the reflection,
    the LanceDB index upkeep and the day mark to the caller: a backfill does them once per
    chunk of days, not once per day. `staged=True`: a backfill on Dask has just run this
    day's collect-to-summarize tasks (`stage_day`), so `force` does not run them again.
    """
    settings = get_settings()
    if not settings.sources and not _nested():
        # A day of a backfill leaves this to the backfill: a forget re-makes days from the lake.
        raise NoSourcesError(settings.home)
    with writer_lock(
        settings.home,
        "daily flow",
        settings.lock_timeout_s,
        sweep=settings.written_dirs,
        store=settings.storage_root,
    ):
        if day is None:
            return catch_up_run(
                settings, session_gap_s, min_dwell_s, excluded_domains, force, reflect
            )
        return _run_day(
            settings, day, session_gap_s, min_dwell_s, excluded_domains, force, reflect, staged
        )


def catch_up_run(
    settings: Settings,
    session_gap_s: float | None,
    min_dwell_s: float | None,
    excluded_domains: list[str] | None,
    force: bool,
    reflect: bool,
) -> dict[str, Any]:
    """Settings (+ the daily flow's overrides) -> each missed day run, oldest first; report of days, gap, first.

    A failed day stops no later one (a browser's history is expiring meanwhile): it gets no
    mark, the report says why and the run ends failed naming the command that re-runs it.
    """
    logger = get_run_logger()
    plan = _plan(settings, datetime.now(UTC))
    gap = None
    if plan.first:
        logger.info(
            "no day of this home has completed yet: running %s only; `omoide backfill --all` "
            "fills in what your sources hold from before",
            plan.days[0],
        )
    if plan.gap is not None:
        command = backfill_command(*plan.gap)
        gap = {"start": plan.gap[0].isoformat(), "end": plan.gap[1].isoformat(), "command": command}
        logger.warning(
            "%s..%s were never run and are more than catch_up_days=%d days back: fill them with `%s`",
            *plan.gap,
            settings.catch_up_days,
            command,
        )
    if len(plan.days) > 1:
        logger.info("catching up %d days: %s..%s", len(plan.days), plan.days[0], plan.days[-1])
    days = {}
    for d in plan.days:
        state = daily(
            day=d,
            session_gap_s=session_gap_s,
            min_dwell_s=min_dwell_s,
            excluded_domains=excluded_domains,
            force=force,
            reflect=reflect,
            return_state=True,
        )
        days[d.isoformat()] = _outcome(state)
    report = {"days": days, "gap": gap, "first": plan.first}
    failed = {d: r["error"] for d, r in days.items() if not r["ok"]}
    if len(failed) == 1 and len(days) == 1:
        raise CatchUpIncomplete(next(iter(failed.values())), report)
    if failed:
        again = "; ".join(f"`omoide run --day {d}`" for d in failed)
        why = "; ".join(f"{d}: {e}" for d, e in failed.items())
        raise CatchUpIncomplete(
            f"{len(failed)} of {len(days)} days failed ({why}); run them again with {again}",
            report,
        )
    return report


def _plan(settings: Settings, now: datetime) -> CatchUp:
    """Settings + now -> the days a run given no day works on."""
    last = yesterday(settings.timezone, now)
    return catch_up(marked_days(settings.day_marks_dir), last, settings.catch_up_days)


def _outcome(state: Any) -> dict[str, Any]:
    """A nested daily run's final state -> ok and its summary, or the error and what still landed."""
    if state.is_completed():
        return {"ok": True, "summary": state.result()}
    exc = state.result(raise_on_failure=False)
    partial = exc.partial if isinstance(exc, DayIncomplete) else None
    error = str(exc) if isinstance(exc, Exception) else state.message or state.name
    return {"ok": False, "error": error, "summary": partial}


def _run_day(
    settings: Settings,
    day: date | None,
    session_gap_s: float | None,
    min_dwell_s: float | None,
    excluded_domains: list[str] | None,
    force: bool,
    reflect: bool,
    staged: bool = False,
) -> dict[str, Any]:
    """The daily flow's body, run while the home's writer lock is held."""
    now = datetime.now(UTC)
    # The day's input key is taken before it is read, so inputs that change during the run
    # make the mark stale rather than cover records the run never saw. A day run with
    # parameters other than the settings is marked without a key: done, but never skipped.
    overridden = any(v is not None for v in (session_gap_s, min_dwell_s, excluded_domains))
    key = plan_days(settings, [day], now)[0][day] if reflect and not overridden else None
    common, sess_args, sum_args = stage_args(
        settings, day, now, session_gap_s, min_dwell_s, excluded_domains
    )
    # Stages a backfill just ran on Dask for this day: their cached results are taken as they are.
    force_staged = force and not staged
    ingested, cached = _result(ingest_day, force_staged, common)
    if not all(Path(r["path"]).exists() for r in ingested["sources"].values()):
        # A cached result whose lake files were deleted since: recompute it.
        ingested, cached = _result(ingest_day, True, common)
    by_source = {
        name: {**r, "cached": True, "added": 0, "updated": 0} if cached else {**r, "cached": False}
        for name, r in ingested["sources"].items()
    }
    by_name = {s.name: s for s in settings.sources}
    failed = {
        name: _naming_source(by_name.get(name), why) for name, why in ingested["failures"].items()
    }
    failures = [f"{name}: {why}" for name, why in failed.items()]
    sessions = sessionize_day.with_options(refresh_cache=force_staged or None)(**sess_args)
    if not Path(sessions["path"]).exists():
        sessions = sessionize_day.with_options(refresh_cache=True)(**sess_args)
    llm = sum_args["llm"]
    digest, digest_cached = _result(summarize_and_write, force_staged, sum_args)
    if not (Path(digest["path"]).exists() and Path(digest["vault"]).exists()):
        digest, digest_cached = _result(summarize_and_write, True, sum_args)
    emb_args = dict(
        lake_dir=settings.lake_dir,
        db_dir=settings.lancedb_dir,
        day=day,
        embed=settings.embed,
        llm_host=settings.llm.host,
        now=now,
        cache_dir=settings.cache_dir,
        maintain=reflect,
    )
    with LANCEDB_WRITES:
        repaired = repair_lancedb(settings.lancedb_dir)
        fresh = force or not settings.lancedb_dir.exists()
        stored, stored_cached = _result(embed_day, fresh, emb_args)
    reflected = (
        reflect_steps(settings, llm, [day.isoformat()], day.isoformat(), now, force=force)
        if reflect
        else None
    )
    summary = {
        "day": day.isoformat(),
        "sources": by_source,
        "sessions": sessions,
        "digest": digest,
        "memories": stored,
        "reflect": reflected,
        "repaired": repaired,
        "failures": failures,
        "failed_sources": failed,
        # What this run asked of the models (a result served from cache asked nothing).
        "work": {
            "llm_calls": 0 if digest_cached else digest["llm_calls"],
            "embedded": 0 if stored_cached else stored["embedded"],
            "embed_computed": 0 if stored_cached else stored.get("embed_computed", 0),
            "embed_cache_hits": 0 if stored_cached else stored.get("embed_cache_hits", 0),
            "embed_s": 0.0 if stored_cached else stored.get("embed_s", 0.0),
        },
    }
    publish_markdown(_summary_markdown(summary), f"daily-{day}", f"omoide daily run for {day}")
    get_run_logger().info("day %s: %d sources ok, %d failed", day, len(by_source), len(failures))
    problems = []
    if failures:
        problems.append(
            f"{len(failures)} of {len(settings.sources)} sources failed for {day}: "
            + "; ".join(failures)
        )
    if reflected is not None and reflected["failed"]:
        problems.append(reflect_failure(day.isoformat(), reflected))
    if problems:
        raise DayIncomplete("; ".join(problems), summary)
    if reflect:
        # Reflected too: done (a backfill marks its days once their chunk is reflected).
        mark_day(settings, day, key, summary)
    return summary


def mark_day(settings: Settings, day: date, key: str | None, summary: dict[str, Any]) -> None:
    """A completed, reflected day's summary + its input key -> its mark: the key, the files it produced, its figures."""
    outputs = [r["path"] for r in summary["sources"].values()]
    outputs += [summary["sessions"]["path"], summary["digest"]["path"], summary["digest"]["vault"]]
    shown = {k: v for k, v in day_counts(summary).items() if k not in summary["work"]}
    mark_completed(settings.day_marks_dir, day, key, outputs, shown, settings.home)


def day_counts(summary: dict[str, Any]) -> dict[str, float]:
    """Daily summary -> the figures shown per day."""
    return {
        "events": sum(r["events"] for r in summary["sources"].values()),
        "quarantined": sum(r["quarantined"] for r in summary["sources"].values()),
        "sessions": summary["sessions"]["sessions"],
        "memories": summary["memories"]["memories"],
        "facts": summary["digest"]["facts"],
        **summary["work"],
    }


def _nested() -> bool:
    """-> whether this daily run is a day of another flow's run (a backfill), not one on its own."""
    context = FlowRunContext.get()
    run = context.flow_run if context is not None else None
    return run is not None and run.parent_task_run_id is not None


def _naming_source(source: SourceConfig | None, why: str) -> str:
    """A failed source + why -> the reason, led by the source's path (or URL) when it does not name it."""
    where = None if source is None else source.path or source.url
    if where is None or str(where) in why:
        return why
    return f"{where}: {why}"


@task(
    name="stage-day", task_run_name="stage-day-{day}", cache_policy=NO_CACHE, persist_result=False
)
def stage_day(day: date, force: bool) -> dict[str, Any]:
    """Day -> its ingest, sessionize and summarize tasks run (their results cached for the daily flow); LLM calls made."""
    settings = get_settings()
    common, sess_args, sum_args = stage_args(settings, day, datetime.now(UTC))
    _result(ingest_day, force, common)
    sessionize_day.with_options(refresh_cache=force or None)(**sess_args)
    digest, cached = _result(summarize_and_write, force, sum_args)
    return {"day": day.isoformat(), "llm_calls": 0 if cached else digest["llm_calls"]}


def stage_args(
    settings: Settings,
    day: date,
    now: datetime,
    session_gap_s: float | None = None,
    min_dwell_s: float | None = None,
    excluded_domains: list[str] | None = None,
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Settings + day (+ overrides) -> the arguments of its ingest, sessionize and summarize tasks."""
    excluded = settings.excluded_domains if excluded_domains is None else excluded_domains
    common = dict(
        sources=settings.sources,
        day=day,
        tz=settings.timezone,
        excluded_domains=excluded,
        lake_dir=settings.lake_dir,
        quarantine_dir=settings.quarantine_dir,
        state_dir=settings.state_dir,
        now=now,
        home=settings.home,
    )
    sess_args = dict(
        lake_dir=settings.lake_dir,
        day=day,
        tz=settings.timezone,
        now=now,
        gap_s=settings.session_gap_s if session_gap_s is None else session_gap_s,
        min_dwell_s=settings.min_dwell_s if min_dwell_s is None else min_dwell_s,
    )
    sum_args = dict(
        lake_dir=settings.lake_dir,
        vault_dir=settings.vault_dir,
        home=settings.home,
        cache_dir=settings.cache_dir,
        day=day,
        tz=settings.timezone,
        llm=choose_llm(settings.llm),
        now=now,
        me=settings.me,
        gap_s=sess_args["gap_s"],  # a chat memory's context stops at the same silence
    )
    return common, sess_args, sum_args


def _result(step: Task, refresh: bool, kwargs: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """Task + whether to recompute + arguments -> its result, and whether the cache served it."""
    state = step.with_options(refresh_cache=refresh or None)(**kwargs, return_state=True)
    return state.result(), state.name == "Cached"


def _summary_markdown(summary: dict[str, Any]) -> str:
    """Run summary -> Markdown table of counts per source (no personal text)."""
    lines = [
        f"# omoide daily — {summary['day']}",
        "",
        "| source | events | added | quarantined | redactions |",
        "|---|---|---|---|---|",
    ]
    for name, r in summary["sources"].items():
        red = ", ".join(f"{k} {v}" for k, v in sorted(r["redactions"].items())) or "none"
        lines.append(f"| {name} | {r['events']} | {r['added']} | {r['quarantined']} | {red} |")
    s = summary["sessions"]
    lines += [
        "",
        f"Sessions: {s['sessions']} from {s['events']} activity events "
        f"(compression {s['compression']}×).",
    ]
    d, m = summary["digest"], summary["memories"]
    lines += [
        f"Digest by {d['produced_by']}: {d['memories']} memory rows, {d['facts']} facts, "
        f"{d['llm_calls']} LLM calls.",
        f"LanceDB: {m['memories']} memories of the day ({m.get('embed_model')}).",
    ]
    for f in summary["failures"]:
        lines.append(f"- **failed** {f}")
    return "\n".join(lines) + "\n"
