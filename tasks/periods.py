"""The week and month pages' reflection step: the days of the window -> their weeks' and months' pages and memory rows.

A step like the others of `omoide.tasks.reflect` (its cache key, retries and report), kept in
its own module for size. The time per activity of a day is kept under
`cache/periods/time-DAY.json` while that day's events and the day before's are unchanged, so
a reflection over every period reads each day's events once, and only when they changed. A
day's session titles are read from the lake once per run: a period's highlights are never one.
A week's picture is drawn beside its page from the same time per activity per day.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pandas as pd
from prefect import get_run_logger

from omoide import quality
from omoide.core import schemas
from omoide.core.files import write_text_atomic
from omoide.core.ids import stable_id
from omoide.core.kinds import DAY_KINDS, PERIOD_KINDS
from omoide.embed import get_embedder
from omoide.ingest.sanitize import pii_residue
from omoide.llm import LLM
from omoide.memory.day_rows import vault_ref
from omoide.memory.window_titles import title_set
from omoide.reflect import period_llm, periods
from omoide.reflect.entities import Entity, collect_entities
from omoide.reflect.people import people_in
from omoide.store.lake import partition_digest, read_events, read_sessions
from omoide.store.memories import catch_up_indices, memory_rows, open_memories, replace_day
from omoide.tasks.artifacts import publish_quality
from omoide.tasks.reflect import REFLECT_VERSION, ReflectInputs, reflect_step, step_llm
from omoide.vault.period_pages import (
    day_highlights,
    period_pages,
    week_picture,
    write_period_page,
)
from omoide.vault.related import day_files


@reflect_step("periods", ["memories"], period_llm.PROMPT_VERSION, asks_llm=True)
def reflect_periods(run: ReflectInputs) -> dict[str, Any]:
    """Memories, daily pages and lake events -> the pages and memory rows of the window's weeks and months (all of them without a window); counts."""
    embedder = get_embedder(run.embed, run.llm_host)
    table = open_memories(run.db_dir, embedder.model, embedder.dim, create=False)
    rows = memory_rows(table, kinds=DAY_KINDS)
    pages = day_files(run.vault_dir)
    stored = memory_rows(table, kinds=PERIOD_KINDS)["memory_id"]
    present = [period for period, _ in period_pages(run.vault_dir)]
    chosen = periods.chosen_periods(run.days, pages, present, stored)
    entities = collect_entities(rows)
    people = people_in(rows, run.people, run.me) if not rows.empty else []
    llm = step_llm(run, period_llm.PROMPT_VERSION)
    written, found = 0, []
    titles: dict[str, frozenset[str]] = {}
    for period in chosen:
        digest = _period_digest(run, period, pages, rows, entities, people, llm, titles)
        page = write_period_page(run.vault_dir, digest)
        written += page.changed
        cite = vault_ref(page.path, page.summary_line, run.home)
        found.append((period, periods.period_rows(digest, cite, run.tz, run.now)))
    _check_period_rows(found, run.tz)
    changed = 0
    for period, frame in found:
        day = period.since.isoformat()
        stats = replace_day(table, day, frame, embedder, run.now, [period.kind], maintain=False)
        changed += stats.inserted + stats.updated + stats.deleted
    if changed:
        catch_up_indices(run.db_dir)
    get_run_logger().info("reflect %s: %d period page(s) written", run.label, written)
    return {"periods": len(chosen), "period_pages_written": written}


def _period_digest(
    run: ReflectInputs,
    period: periods.Period,
    pages: dict[str, Path],
    rows: pd.DataFrame,
    entities: list[Entity],
    people: list[str],
    llm: LLM | None,
    titles: dict[str, frozenset[str]],
) -> periods.PeriodDigest:
    """Inputs + a period + the daily pages, memory rows, entities, people and the titles read so far -> what its page says (its week picture drawn)."""
    days = [d.isoformat() for d in period.days() if d.isoformat() in pages]
    mine = rows[rows["day"].isin(days)]
    lines = {d: day_highlights(pages[d]) for d in days}
    cited = {d: [(vault_ref(pages[d], n, run.home), t) for n, t in lines[d]] for d in days}
    per_day = [_day_time(run, date.fromisoformat(d)) for d in days]
    active, spent = periods.period_time(per_day, periods.N_ACTIVITIES[period.kind])
    named = periods.mentions(entities, mine, people, run.me)
    seen = frozenset().union(*(_titles(run, d, titles) for d in days))
    base = periods.period_digest(period, days, mine, cited, spent, named, active, seen)
    budget = run.llm.chunk_tokens if run.llm is not None else 0
    digest = period_llm.reduce_period(base, mine, cited, llm, budget, seen)
    hours = {date.fromisoformat(d): t for d, (_, t) in zip(days, per_day, strict=True)}
    return dataclasses.replace(digest, picture=week_picture(run.vault_dir, period, hours))


def _titles(run: ReflectInputs, day: str, kept: dict[str, frozenset[str]]) -> frozenset[str]:
    """Inputs + a local day + the titles read so far -> that day's session titles, normalised (read once per run)."""
    if day not in kept:
        lake, local = run.lake_dir, date.fromisoformat(day)
        # A session of the local day's first hours may sit in the day before's partition.
        listed = [
            t
            for d in (local - timedelta(days=1), local)
            for t in (read_sessions(lake, d)["titles"] if lake is not None else [])
        ]
        kept[day] = title_set(listed)
    return kept[day]


def _day_time(run: ReflectInputs, day: date) -> tuple[float, list[tuple[str, float]]]:
    """Inputs + a local day -> its active seconds and seconds per activity, kept in the cache while its events (and the day before's) are unchanged."""
    lake = run.lake_dir
    if lake is None:
        return 0.0, []
    days = [day - timedelta(days=1), day]
    key = stable_id(
        "period-time", REFLECT_VERSION, run.tz, *(partition_digest(lake, "events", d) for d in days)
    )
    path = run.cache_dir / "periods" / f"time-{day.isoformat()}.json"
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        if kept["key"] == key:
            return float(kept["active"]), [(str(n), float(s)) for n, s in kept["spent"]]
    except (OSError, ValueError, KeyError, TypeError):
        pass  # none kept yet, or unreadable: computed again
    frames = [f for f in (read_events(lake, d) for d in days) if not f.empty]
    events = pd.concat(frames, ignore_index=True) if frames else schemas.empty(schemas.EVENTS)
    active, spent = periods.day_time(events, day, run.tz)
    write_text_atomic(json.dumps({"key": key, "active": active, "spent": spent}), path)
    return active, spent


def _check_period_rows(found: Sequence[tuple[periods.Period, pd.DataFrame]], tz: str) -> None:
    """The periods' memory rows -> the `facts` gate (ts inside their periods, no PII), or DataQualityError."""
    frames = [frame for _, frame in found if not frame.empty]
    if not frames:
        return
    rows = pd.concat(frames, ignore_index=True)
    start = min(p.bounds(tz)[0] for p, f in found if not f.empty)
    end = max(p.bounds(tz)[1] for p, f in found if not f.empty)
    check = quality.validate(
        rows.assign(pii_residue=pii_residue(rows.rename(columns={"content": "text"}))),
        "facts",
        {"day_start": start, "day_end": end},
    )
    publish_quality([check], "periods")
    quality.raise_for_failures(check)
