"""The backfill flow: the daily flow over a range of past days; a failed day stops nothing."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from prefect import flow, get_run_logger

from omoide.core import progress
from omoide.core.days import days_between
from omoide.core.errors import OmoideError
from omoide.core.settings import Settings, get_settings
from omoide.core.writer_lock import writer_lock
from omoide.flows.daily import daily
from omoide.flows.reflect import reflect_failure, reflect_steps
from omoide.store.day_marks import mark_completed
from omoide.tasks.artifacts import publish_markdown
from omoide.tasks.plan import plan_days
from omoide.tasks.summarize import choose_llm

# Days of a backfill reflected together (their links, then entities, opinions, profile).
REFLECT_EVERY = 30


class BackfillIncomplete(OmoideError):
    """Some days (or the closing reflection) of a backfill failed; the others completed."""


@flow(name="backfill", flow_run_name="backfill-{start}-{end}", log_prints=False)
def backfill(start: date, end: date, force: bool = False) -> dict[str, Any]:
    """Inclusive day range -> the daily flow run for each day, a reflection per chunk of days; summary per day."""
    settings = get_settings()
    with writer_lock(
        settings.home, "backfill flow", settings.lock_timeout_s, sweep=settings.written_dirs
    ):
        return _run_days(settings, start, end, force)


def _run_days(settings: Settings, start: date, end: date, force: bool) -> dict[str, Any]:
    """The backfill flow's body, run while the home's writer lock is held."""
    results: dict[str, Any] = {}
    problems: list[str] = []
    pending: dict[date, dict[str, Any]] = {}
    days = days_between(start, end)
    llm = choose_llm(settings.llm)
    keys, done = plan_days(settings, days, datetime.now(UTC))
    for i, day in enumerate(days):
        if day in done and not force:
            # Completed from these very inputs, reflected, and its files are all there.
            results[day.isoformat()] = {"ok": True, "skipped": True, **done[day]}
        else:
            state = daily(day=day, force=force, reflect=False, return_state=True)
            if state.is_completed():
                summary = state.result()
                results[day.isoformat()] = {"ok": True, **_counts(summary)}
                pending[day] = summary
            else:
                results[day.isoformat()] = {"ok": False, "error": state.message or state.name}
        if pending and (len(pending) == REFLECT_EVERY or i == len(days) - 1):
            # Reflection reads every stored memory: once per chunk keeps a day's cost flat.
            label = f"{min(pending)}..{max(pending)}"
            # No Big Five analysis per chunk: the first one would rest on its days alone.
            reflected = reflect_steps(
                settings,
                llm,
                [d.isoformat() for d in pending],
                label,
                datetime.now(UTC),
                analyse=False,
                force=force,
            )
            if reflected["failed"]:
                problems.append(reflect_failure(label, reflected))
            else:
                # A day is done once its reflection is: only then may a re-run skip it.
                for d, summary in pending.items():
                    if keys[d] is not None:
                        _mark(settings, d, keys[d], summary, results[d.isoformat()])
            pending = {}
        progress.advance(day.isoformat())
    # One analysis over every stored day, so its signals (active days, rhythm) cover the range.
    label = f"{start}..{end}"
    analysed = reflect_steps(settings, llm, [], label, datetime.now(UTC), analyse=True, force=force)
    if analysed["failed"]:
        problems.append(reflect_failure(label, analysed))
    publish_markdown(
        _markdown(results), f"backfill-{start}-{end}", f"omoide backfill {start}..{end}"
    )
    failed = [d for d, r in results.items() if not r["ok"]]
    get_run_logger().info(
        "backfill %s..%s: %d days, %d failed", start, end, len(results), len(failed)
    )
    if failed:
        problems.insert(0, f"{len(failed)} of {len(results)} days failed: {', '.join(failed)}")
    if problems:
        raise BackfillIncomplete("; ".join(problems))
    return results


def _mark(
    settings: Settings, day: date, key: str, summary: dict[str, Any], figures: dict[str, Any]
) -> None:
    """A completed day's summary -> its mark: input key, the files it produced, its figures."""
    outputs = [r["path"] for r in summary["sources"].values()]
    outputs += [summary["sessions"]["path"], summary["digest"]["path"], summary["digest"]["vault"]]
    shown = {k: v for k, v in figures.items() if k not in ("ok", "llm_calls", "embedded")}
    mark_completed(settings.day_marks_dir, day, key, outputs, shown)


def _counts(summary: dict[str, Any]) -> dict[str, int]:
    """Daily summary -> the figures shown per day."""
    return {
        "events": sum(r["events"] for r in summary["sources"].values()),
        "quarantined": sum(r["quarantined"] for r in summary["sources"].values()),
        "sessions": summary["sessions"]["sessions"],
        "memories": summary["memories"]["memories"],
        "facts": summary["digest"]["facts"],
        **summary["work"],
    }


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
