"""The reflection, step by step (used by the daily flow), and the weekly reflect flow over a window."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

from prefect import flow, get_run_logger
from prefect.runtime import flow_run

from omoide.core.days import local_day
from omoide.core.errors import OmoideError
from omoide.core.settings import LLMSettings, Settings, get_settings
from omoide.core.writer_lock import writer_lock
from omoide.reflect.report import merge_results
from omoide.tasks.periods import reflect_periods
from omoide.tasks.reflect import (
    ReflectInputs,
    check_reflection,
    reflect_bigfive,
    reflect_entities,
    reflect_episodes,
    reflect_links,
    reflect_opinions,
    reflect_profile,
    reflect_validity,
)
from omoide.tasks.summarize import choose_llm
from omoide.tasks.upkeep import prune_old_versions

# The week and month pages come first: they write rows to `memories`, whose version is in
# every step's cache key, so written before the others start, a re-run finds the others
# cached; they restate the days, no other step reads them and they read nothing the others
# write. Validity runs next: entity pages show which facts still stand. Then the Big Five
# step: entities weigh bonds by extraversion, so they must see this run's analysis, or a
# second run would rewrite every entity page (and not settle).
STEP_TASKS = {
    "periods": reflect_periods,
    "validity": reflect_validity,
    "bigfive": reflect_bigfive,
    "entities": reflect_entities,
    "opinions": reflect_opinions,
    "links": reflect_links,
    "episodes": reflect_episodes,
    "profile": reflect_profile,
}
# Steps that read a person's whole history at once: an incremental reflection leaves them out.
WHOLE_HISTORY_STEPS = ("bigfive", "profile")


class ReflectIncomplete(OmoideError):
    """Some reflection steps failed; the others still ran and wrote what they found."""


def reflect_steps(
    settings: Settings,
    llm: LLMSettings | None,
    days: Sequence[str],
    label: str,
    now: datetime,
    analyse: bool | None = None,
    force: bool = False,
    incremental: bool = False,
) -> dict[str, Any]:
    """Settings + the days to link -> every step run in order; a failed step stops no other.

    Returns the merged report; its `failed` maps each failed step to its error. Episodes
    run only when an analysis is asked for over a window (the weekly reflection). The week
    and month pages of the days are rewritten; without days, every one.
    `incremental` reflects only what the days' memories touch (see ReflectInputs).
    """
    run = ReflectInputs(
        home=settings.home,
        db_dir=settings.lancedb_dir,
        vault_dir=settings.vault_dir,
        cache_dir=settings.cache_dir,
        embed=settings.embed,
        llm=llm,
        llm_host=settings.llm.host,
        days=tuple(days),
        label=label,
        now=now,
        # Without a name, the user is the speaker chat exports mark as the user ("me").
        me=settings.me,
        people=tuple(settings.people),
        tz=settings.timezone,
        analyse=analyse,
        incremental=incremental,
        lake_dir=settings.lake_dir,
    )
    results: dict[str, dict[str, Any]] = {}
    failed: dict[str, str] = {}
    cached: list[str] = []
    for step, step_task in STEP_TASKS.items():
        if step == "episodes" and not (analyse and days):
            continue
        if incremental and step in WHOLE_HISTORY_STEPS:
            continue
        state = step_task.with_options(refresh_cache=force or None)(run=run, return_state=True)
        if state.is_completed():
            results[step] = state.result()
            if state.name == "Cached":
                cached.append(step)
        else:
            failed[step] = _error(state)
    report = merge_results(results, failed, cached)
    checked = check_reflection(run=run, report=report, return_state=True)
    if not checked.is_completed():
        report["failed"]["check"] = _error(checked)
    get_run_logger().info("reflect %s: %d step(s) failed", label, len(report["failed"]))
    return report


def reflect_failure(label: str, report: dict[str, Any]) -> str:
    """Label + merged report -> one line naming each failed step and its error."""
    steps = "; ".join(f"{step}: {error}" for step, error in report["failed"].items())
    return f"reflect step(s) failed for {label}: {steps}"


def _error(state: Any) -> str:
    """A failed task state -> its error in one line (the exception's text when there is one)."""
    try:
        state.result()
    except Exception as exc:  # noqa: BLE001 - any step error is reported, never re-raised here
        return " ".join(str(exc).split()) or type(exc).__name__
    return state.message or state.name


def reflect_run_name() -> str:
    """Flow-run parameters -> 'reflect-YYYY-MM-DD' (the window's last day)."""
    end = flow_run.parameters.get("end")
    if end is None:
        end = local_day(datetime.now(UTC), get_settings().timezone)
    return f"reflect-{end}"


@flow(name="reflect", flow_run_name=reflect_run_name, log_prints=False)
def reflect_flow(
    end: date | None = None, days: int = 7, analyse: bool = True, force: bool = False
) -> dict[str, Any]:
    """Window end (default today) + length (0: link no day) -> a reflection, by default with a fresh Big Five analysis."""
    settings = get_settings()
    now = datetime.now(UTC)
    end = end or local_day(now, settings.timezone)
    window = [(end - timedelta(days=i)).isoformat() for i in range(days)][::-1]
    label = f"{window[0]}..{window[-1]}" if window else end.isoformat()
    with writer_lock(
        settings.home,
        "reflect flow",
        settings.lock_timeout_s,
        sweep=settings.written_dirs,
        store=settings.storage_root,
    ):
        llm = choose_llm(settings.llm)
        report = reflect_steps(settings, llm, window, label, now, analyse=analyse, force=force)
        # Weekly, while no other writer runs: LanceDB keeps every write's version until then.
        pruned = prune_old_versions(
            settings.lancedb_dir, settings.keep_versions_days, return_state=True
        )
    if not pruned.is_completed():
        get_run_logger().warning("pruning old LanceDB versions failed: %s", pruned.message)
    if report["failed"]:
        raise ReflectIncomplete(reflect_failure(label, report))
    return report
