"""The backfill flow: the daily flow over a range of past days, a few side by side; a failed day stops nothing."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from datetime import UTC, date, datetime
from itertools import islice
from typing import Any

from prefect import flow, get_client, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.futures import PrefectFuture
from prefect.settings import PREFECT_FLOWS_HEARTBEAT_FREQUENCY, temporary_settings
from prefect.task_runners import TaskRunner

from omoide.core import progress
from omoide.core.days import days_between
from omoide.core.errors import Incomplete, NoSourcesError
from omoide.core.settings import Settings, get_settings
from omoide.core.writer_lock import writer_lock
from omoide.flows.daily import DayIncomplete, daily, day_counts, mark_day, stage_day
from omoide.flows.reflect import reflect_failure, reflect_steps
from omoide.store.serial import LANCEDB_WRITES
from omoide.tasks.artifacts import publish_markdown
from omoide.tasks.plan import plan_days
from omoide.tasks.summarize import choose_llm
from omoide.tasks.upkeep import index_upkeep, prune_old_versions

# Days of a backfill reflected together (their links, then entities, opinions, profile).
REFLECT_EVERY = 30


# Reasons a failed backfill's one line names before it points at the table.
SHOWN_REASONS = 3
# How often a wait for a day in another thread looks up (so a stop signal is seen within it).
WAIT_STEP_S = 0.5


class BackfillIncomplete(Incomplete):
    """Some days (or the closing reflection) of a backfill failed; the others completed (`partial`: every day's result)."""


@flow(name="backfill", flow_run_name="backfill-{start}-{end}", log_prints=False)
def backfill(
    start: date,
    end: date,
    force: bool = False,
    only: list[date] | None = None,
    dask: bool | None = None,
    dask_scheduler: str | None = None,
) -> dict[str, Any]:
    """Inclusive day range (or `only` those of its days) -> the daily flow run for each day, a reflection per chunk of days; summary per day.

    `dask` (default: the `dask` setting) runs each chunk's collect-to-summarize tasks on a
    Dask cluster first (`dask_scheduler`'s, or a local one), then the daily flows one day
    after another in this process, which take those results from the task cache and write
    LanceDB in day order: the same rows as without Dask.
    """
    settings = get_settings()
    if only is None and not settings.sources:
        # `only` is a forget re-making its days from the lake, which needs no source.
        raise NoSourcesError(settings.home)
    on_dask = settings.dask if dask is None else dask
    # The days' runs nested below live in this process, whose own run (its heartbeats already
    # started) tells a crash; heartbeats of their own would cost each day up to a second at its
    # end (Prefect's heartbeat thread sleeps in one-second steps and is joined when a run ends).
    # Set once here, not per day: a settings copy takes ~20 ms; tasks submitted to threads
    # carry this context with them.
    with (
        writer_lock(
            settings.home,
            "backfill flow",
            settings.lock_timeout_s,
            sweep=settings.written_dirs,
            store=settings.storage_root,
        ),
        temporary_settings(updates={PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}),
    ):
        if not on_dask:
            return _run_days(settings, start, end, force, only, None)
        with dask_runner(settings, dask_scheduler or settings.dask_scheduler) as runner:
            return _run_days(settings, start, end, force, only, runner)


def _run_days(
    settings: Settings,
    start: date,
    end: date,
    force: bool,
    only: list[date] | None,
    runner: TaskRunner | None,
) -> dict[str, Any]:
    """The backfill flow's body, run while the home's writer lock is held (and a Dask runner entered)."""
    outcomes: dict[date, dict[str, Any]] = {}
    problems: list[str] = []
    days = days_between(start, end)
    if only is not None:
        # The days a forget touched: made again from what is left of them.
        days = [d for d in days if d in set(only)]
    llm = choose_llm(settings.llm)
    keys, done = plan_days(settings, days, datetime.now(UTC))
    for day in days:
        if day in done and not force:
            # Completed from these very inputs, reflected, and its files are all there.
            outcomes[day] = {"ok": True, "skipped": True, **done[day]}
            progress.advance(day.isoformat())
    to_run = [d for d in days if d not in outcomes]
    for chunk in (to_run[i : i + REFLECT_EVERY] for i in range(0, len(to_run), REFLECT_EVERY)):
        pending: dict[date, dict[str, Any]] = {}
        staged: dict[date, dict[str, Any]] = {}
        if runner is not None:
            staged = _staged(runner, chunk, force)
        for day, outcome in _side_by_side(chunk, force, settings.backfill_workers, staged):
            if outcome["ok"]:
                outcomes[day] = {"ok": True, **day_counts(outcome["summary"])}
                pending[day] = outcome["summary"]
            else:
                outcomes[day] = outcome
            progress.advance(day.isoformat())
        with LANCEDB_WRITES:
            # The days wrote without index upkeep, which grows with the table: once here.
            upkeep = index_upkeep(settings.lancedb_dir, return_state=True)
        if not upkeep.is_completed():
            # Recall still finds the rows (unindexed ones are scanned); the next run's upkeep catches up.
            problems.append(f"index upkeep failed after {chunk[0]}..{chunk[-1]}: {upkeep.message}")
        if not pending:
            continue
        # Once per chunk, and only what its days touched, keeps a day's cost flat; no day of
        # the next chunk is stored while it runs.
        label = f"{min(pending)}..{max(pending)}"
        # No Big Five analysis per chunk: the first one would rest on its days alone.
        reflected = reflect_steps(
            settings,
            llm,
            [d.isoformat() for d in sorted(pending)],
            label,
            datetime.now(UTC),
            analyse=False,
            force=force,
            incremental=True,
        )
        if reflected["failed"]:
            problems.append(reflect_failure(label, reflected))
            continue
        # A day is done once its reflection is: only then may a re-run skip it. A day with
        # no key (a live aw-server) is marked too, so a catch-up knows it is done.
        for d, summary in pending.items():
            mark_day(settings, d, keys[d], summary)
    results = {d.isoformat(): outcomes[d] for d in days}
    # Pruned on both sides of the closing reflection. Pruning compacts the tables that have
    # old versions, which gives them new ones, and the reflection's cache keys hold the
    # versions of what it reads (a home with only new versions is left alone):
    # pruned only after it, the next re-run found no step cached (~10 s at 60 days). Pruned
    # only before it, the next re-run compacted what it wrote: a re-run changed bytes.
    _prune(settings)
    # One reflection over everything: the Big Five and profile (their signals, such as
    # active days, cover the range), every entity's page as of now.
    label = f"{start}..{end}"
    analysed = reflect_steps(settings, llm, [], label, datetime.now(UTC), analyse=True, force=force)
    if analysed["failed"]:
        problems.append(reflect_failure(label, analysed))
    _prune(settings)
    publish_markdown(
        _markdown(results), f"backfill-{start}-{end}", f"omoide backfill {start}..{end}"
    )
    failed = [d for d, r in results.items() if not r["ok"]]
    get_run_logger().info(
        "backfill %s..%s: %d days, %d failed", start, end, len(results), len(failed)
    )
    if failed:
        problems.insert(0, failed_days(results))
    if problems:
        raise BackfillIncomplete("; ".join(problems), results)
    return results


def _prune(settings: Settings) -> None:
    """Settings -> LanceDB's old versions pruned (its tables compacted); a failure only logged."""
    with LANCEDB_WRITES:
        pruned = prune_old_versions(
            settings.lancedb_dir, settings.keep_versions_days, return_state=True
        )
    if not pruned.is_completed():
        # Nothing stored is at stake: the old versions wait for the weekly reflection's prune.
        get_run_logger().warning("pruning old LanceDB versions failed: %s", pruned.message)


def failed_days(results: dict[str, dict[str, Any]]) -> str:
    """Per-day results -> 'N of M days failed: DAYS (why); DAYS (why)', naming each failed source and its path."""
    by_reason: dict[str, list[str]] = {}
    for day, r in results.items():
        if not r["ok"]:
            by_reason.setdefault(day_failure(r), []).append(day)
    shown = [f"{_days(days)} ({why})" for why, days in list(by_reason.items())[:SHOWN_REASONS]]
    more = len(by_reason) - SHOWN_REASONS
    if more > 0:
        shown.append(f"{more} more reason(s) in the table")
    n = sum(len(days) for days in by_reason.values())
    return f"{n} of {len(results)} days failed: " + "; ".join(shown)


def day_failure(result: dict[str, Any]) -> str:
    """A failed day's result -> why: each failed source with its path, else the day's error."""
    failed = result.get("failed_sources")
    if failed:
        return "; ".join(f"{name}: {why}" for name, why in failed.items())
    return result["error"]


def _days(days: list[str]) -> str:
    """Days in order -> them listed, or the first, last and count when many."""
    if len(days) <= 4:
        return ", ".join(days)
    return f"{days[0]}, …, {days[-1]} ({len(days)} days)"


@task(
    name="backfill-day",
    task_run_name="backfill-day-{day}",
    cache_policy=NO_CACHE,
    persist_result=False,
)
def backfill_day(day: date, force: bool, staged: bool = False) -> dict[str, Any]:
    """Day -> its daily flow run (nested in this task, so days can run side by side); ok and summary, or the error."""
    state = daily(day=day, force=force, reflect=False, staged=staged, return_state=True)
    if state.is_completed():
        return {"ok": True, "summary": state.result()}
    exc = state.result(raise_on_failure=False)
    if isinstance(exc, DayIncomplete) and exc.partial is not None:
        # The other sources landed: their figures, and which source failed with its path.
        summary = exc.partial
        return {
            "ok": False,
            "error": str(exc),
            "failed_sources": summary["failed_sources"],
            **day_counts(summary),
        }
    return {"ok": False, "error": state.message or state.name}


def dask_runner(settings: Settings, scheduler: str | None) -> TaskRunner:
    """Settings + a scheduler address or None -> a Dask task runner: that cluster, or a local one on loopback."""
    from prefect_dask import DaskTaskRunner

    if scheduler:
        return DaskTaskRunner(address=scheduler)
    # Worker processes report their task runs to this run's Prefect API (an ephemeral server
    # of this process unless `omoide server` runs): without its address each would start one.
    return DaskTaskRunner(
        cluster_kwargs={
            "n_workers": settings.dask_workers,
            "threads_per_worker": 1,
            "processes": True,
            "host": "127.0.0.1",
            "dashboard_address": None,
            "env": {"PREFECT_API_URL": str(get_client(sync_client=True).api_url)},
        }
    )


def _staged(runner: TaskRunner, chunk: Sequence[date], force: bool) -> dict[date, dict[str, Any]]:
    """A Dask runner + days -> each day's collect-to-summarize tasks run on the cluster; outcome per day."""
    futures = {d: runner.submit(stage_day, {"day": d, "force": force}) for d in chunk}
    out: dict[date, dict[str, Any]] = {}
    for day, future in futures.items():
        _wait(future)
        state = future.state
        if state.is_completed():
            out[day] = {"ok": True, **future.result()}
        else:
            out[day] = {"ok": False, "error": state.message or state.name}
    return out


def _side_by_side(
    chunk: Sequence[date], force: bool, workers: int, staged: dict[date, dict[str, Any]]
) -> Iterator[tuple[date, dict[str, Any]]]:
    """Days + how many at once (+ Dask staging outcomes) -> each day's outcome, in day order, up to `workers` days in flight.

    Days staged on Dask run one at a time (their heavy part is done; what is left writes
    LanceDB, which is serial anyway); a day whose staging failed is not run again.
    """
    if staged:
        for day in chunk:
            if not staged[day]["ok"]:
                yield day, staged[day]
                continue
            outcome = backfill_day(day, force, staged=True)
            if outcome["ok"]:
                work = outcome["summary"]["work"]
                work["llm_calls"] += staged[day]["llm_calls"]
            yield day, outcome
        return
    if workers == 1:
        # In this thread: a stop signal (handled by the main thread) then interrupts the day
        # itself, which a thread waiting on a worker's future would only see once it ended.
        for day in chunk:
            state = backfill_day(day, force, return_state=True)
            if state.is_completed():
                yield day, state.result()
            else:
                yield day, {"ok": False, "error": state.message or state.name}
        return
    queue = iter(chunk)
    flying = deque((d, backfill_day.submit(d, force)) for d in islice(queue, workers))
    while flying:
        day, future = flying.popleft()
        _wait(future)
        state = future.state
        for nxt in islice(queue, 1):
            flying.append((nxt, backfill_day.submit(nxt, force)))
        if state.is_completed():
            yield day, future.result()
        else:
            yield day, {"ok": False, "error": state.message or state.name}


def _wait(future: PrefectFuture[Any]) -> None:
    """A task's future -> returned once it is done, waiting in short steps.

    A wait without a timeout ends only with the task: a stop signal the kernel hands to one
    of the process's other threads would reach this (main) thread only then.
    """
    while not future.state.is_final():
        future.wait(timeout=WAIT_STEP_S)


def _markdown(results: dict[str, Any]) -> str:
    """Per-day results -> Markdown table."""
    lines = [
        "| day | status | events | sessions | memories | facts | quarantined |",
        "|---|---|---|---|---|---|---|",
    ]
    for day, r in results.items():
        if r["ok"]:
            status = "unchanged, skipped" if r.get("skipped") else "ok"
            lines.append(
                f"| {day} | {status} | {r['events']} | {r['sessions']} | {r['memories']} "
                f"| {r['facts']} | {r['quarantined']} |"
            )
        else:
            lines.append(f"| {day} | **failed**: {r['error']} | | | | | |")
    return "# omoide backfill\n\n" + "\n".join(lines) + "\n"
