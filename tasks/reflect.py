"""Reflect tasks: one Prefect task per reflection step, each with its own cache key and retries.

Every step reads what it needs from LanceDB (the hand-off between steps is the store, not
task results), writes only what changed, and returns counts and short lines for the run's
report. A step's cache key holds the versions of the tables it reads (not of those it
writes: its own idempotent write must not make the next run miss), the day window, the
LLM and its prompt version and the UTC date of `now` (bond strengths and memory strength
move with time), so an unchanged store is not reflected on twice in a day.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

import lancedb
from prefect import Task, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.context import TaskRunContext
from prefect.tasks import exponential_backoff

from omoide import __version__, quality
from omoide.core.days import day_bounds
from omoide.core.errors import OmoideError
from omoide.core.ids import stable_id
from omoide.core.kinds import DAY_KINDS, FACT_KINDS
from omoide.core.location import StorePath
from omoide.core.settings import EmbedSettings, LLMSettings
from omoide.embed import get_embedder
from omoide.llm import LLM, cached_ollama
from omoide.memory.strength import frame_strength
from omoide.profile import bigfive
from omoide.profile.history import analysis_due, load_analyses, record_analysis
from omoide.profile.integrated import (
    current_analysis,
    load_profile,
    profile_deltas,
    refresh_profile,
    save_profile,
)
from omoide.profile.report import relationship_rows
from omoide.reflect import episodes, links, opinions, validity
from omoide.reflect.checks import reflect_claims
from omoide.reflect.entities import collect_entities, entities_on, entity_records, entity_views
from omoide.reflect.people import people_in
from omoide.reflect.report import reflect_markdown
from omoide.store.entities_table import open_entities, read_entities, upsert_entities
from omoide.store.memories import memory_ids, memory_rows, open_memories, rows_with_ids
from omoide.store.opinions_table import open_opinions
from omoide.store.profile_table import open_profile_history
from omoide.store.validity_table import load_validity, open_validity, save_validity
from omoide.store.versions import table_versions
from omoide.tasks.artifacts import publish_markdown, publish_quality
from omoide.tasks.llm_slots import llm_gate
from omoide.vault.entity_pages import write_entity_pages
from omoide.vault.episodes_page import write_episodes_page
from omoide.vault.evidence import cited_memories
from omoide.vault.opinions_page import write_opinions_page
from omoide.vault.profile_page import write_profile_page
from omoide.vault.related import day_files, write_related
from omoide.vault.retain_marks import write_marks

# Bump when a step's logic changes, so cached reflections are recomputed.
REFLECT_VERSION = f"{__version__}-6"  # -6: relations with evidence, facts once, true evidence
LLM_RETRY = dict(retries=2, retry_delay_seconds=exponential_backoff(backoff_factor=10))
STORE_RETRY = dict(retries=1, retry_delay_seconds=10)


@dataclass(frozen=True)
class ReflectInputs:
    """What every reflection step is given: where the memory lives, the window, who the user is."""

    home: Path  # OMOIDE_HOME: citations inside it are relative to it
    db_dir: Path
    vault_dir: Path
    cache_dir: Path
    embed: EmbedSettings
    llm: LLMSettings | None
    llm_host: str
    days: tuple[str, ...]  # local days whose links are (re)computed; may be empty
    label: str  # a day or a window, for run names and artifacts
    now: datetime
    me: tuple[str, ...] = ()
    people: tuple[str, ...] = ()
    tz: str = "UTC"
    analyse: bool | None = None  # None: a Big Five analysis only when the last is a week old
    # Only what the days' memories touch: their entities' pages and rows, the opinions their
    # facts move, their links; no Big Five or profile (a backfill's chunks; its closing
    # reflection over everything does those).
    incremental: bool = False
    lake_dir: StorePath | None = None  # the week and month pages' time comes from its events


def _cache_key(
    step: str, tables: Sequence[str], prompt_version: str = ""
) -> Callable[[TaskRunContext, dict[str, Any]], str]:
    """Step + the tables it reads (+ its prompt version) -> its Prefect cache-key function."""

    def key(context: TaskRunContext, parameters: dict[str, Any]) -> str:
        run: ReflectInputs = parameters["run"]
        llm = "none" if run.llm is None else f"{run.llm.host}|{run.llm.model}|{prompt_version}"
        return stable_id(
            "reflect",
            step,
            REFLECT_VERSION,
            str(run.home),
            str(run.db_dir),
            str(run.vault_dir),
            sorted(table_versions(run.db_dir, tables).items()),
            run.days,
            run.me,
            run.people,
            run.tz,
            run.analyse,
            run.incremental,
            run.embed.model,
            llm,
            run.now.date().isoformat(),
        )

    return key


def reflect_step(
    step: str, tables: Sequence[str], prompt_version: str = "", asks_llm: bool = False
) -> Callable[[Callable[[ReflectInputs], dict[str, Any]]], Task]:
    """Step name + the tables it reads (+ prompt version, whether it asks an LLM) -> its @task."""
    return task(
        name=f"reflect-{step}",
        task_run_name=f"reflect-{step}-{{run.label}}",
        cache_key_fn=_cache_key(step, tables, prompt_version),
        persist_result=True,
        result_serializer="json",
        # A step that asks an LLM waits out a restarting Ollama; the others only a busy table.
        **(LLM_RETRY if asks_llm else STORE_RETRY),
    )


def _memories(run: ReflectInputs) -> lancedb.table.Table:
    """Inputs -> the memories table, checked against the configured embedding model."""
    embedder = get_embedder(run.embed, run.llm_host)
    return open_memories(run.db_dir, embedder.model, embedder.dim, create=False)


def step_llm(run: ReflectInputs, prompt_version: str) -> LLM | None:
    """Inputs + a step's prompt version -> the cached Ollama LLM, or None without one."""
    if run.llm is None:
        return None
    return cached_ollama(run.llm, run.cache_dir, prompt_version, gate=llm_gate(run.llm))


def _traits(db_dir: Path) -> dict[str, float] | None:
    """LanceDB folder -> the current Big Five scores (None before any analysis)."""
    current = current_analysis(load_analyses(open_profile_history(db_dir)))
    return current.scores.as_dict() if current is not None else None


@reflect_step("validity", ["memories"], validity.PROMPT_VERSION, asks_llm=True)
def reflect_validity(run: ReflectInputs) -> dict[str, Any]:
    """W facts -> when each was true (the fact_validity table) and replaced ones marked in the vault; counts."""
    facts = memory_rows(_memories(run), kinds=["W"], with_vectors=True)
    llm = step_llm(run, validity.PROMPT_VERSION)
    # The whole history every time: W facts are few, and a fact of any day may replace one of any other.
    found = validity.validities(facts, llm) if not facts.empty else {}
    saved = save_validity(open_validity(run.db_dir), found)
    marked = write_marks(
        run.vault_dir, found, dict(zip(facts["memory_id"], facts["day"], strict=True))
    )
    superseded = sum(1 for v in found.values() if v.superseded_by)
    get_run_logger().info("reflect %s: %d fact(s) superseded, %s", run.label, superseded, saved)
    return {"facts_superseded": superseded, "retain_lines_marked": len(marked)}


@reflect_step("entities", ["memories", "profile_history", "fact_validity"])
def reflect_entities(run: ReflectInputs) -> dict[str, Any]:
    """Memories -> entity pages and the entities table (with relationships); counts and new names."""
    rows = memory_rows(_memories(run), kinds=DAY_KINDS)
    if rows.empty:
        return {}
    entities = collect_entities(rows)
    only = entities_on(rows, run.days) if run.incremental else None
    people = people_in(rows, run.people, run.me)
    found = load_validity(run.db_dir)
    replaced = {m for m, v in found.items() if v.superseded_by}
    views = entity_views(entities, rows, run.now, _traits(run.db_dir), only, people, replaced)
    # A full reflection sees every entity: one no memory mentions any more (forgotten) goes.
    full = not run.incremental
    slugs = [e.slug for e in entities]
    written = write_entity_pages(run.vault_dir, views, run.home, slugs, prune=full, validity=found)
    table = open_entities(run.db_dir)
    known = set(read_entities(table)["slug"]) if table.count_rows() else set()
    upsert_entities(table, entity_records(views, run.now), prune=full)
    get_run_logger().info("reflect %s: %d entities, %d pages", run.label, len(views), len(written))
    return {
        "entities": len(entities),
        "new_entities": [v.entity.name for v in views if v.entity.slug not in known],
        "entity_pages_written": len(written),
    }


@reflect_step("opinions", ["memories"], opinions.PROMPT_VERSION, asks_llm=True)
def reflect_opinions(run: ReflectInputs) -> dict[str, Any]:
    """Memories -> opinions moved by new evidence, the opinions table and page; the moves."""
    memories = _memories(run)
    rows = memory_rows(memories, kinds=DAY_KINDS)
    if rows.empty:
        return {}
    facts = memory_rows(memories, kinds=FACT_KINDS, with_vectors=True)
    table = open_opinions(run.db_dir)
    llm = step_llm(run, opinions.PROMPT_VERSION)
    found, changes = opinions.update_opinions(opinions.load_opinions(table), facts, run.now, llm)
    opinions.upsert_opinions(table, found)
    write_opinions_page(run.vault_dir, found, cited_memories(rows, run.home))
    get_run_logger().info("reflect %s: %d opinions, %d moves", run.label, len(found), len(changes))
    lines = opinions.changes_markdown(changes).splitlines() if changes else []
    return {"opinions": len(found), "opinion_changes": lines}


@reflect_step("links", ["memories"], links.PROMPT_VERSION, asks_llm=True)
def reflect_links(run: ReflectInputs) -> dict[str, Any]:
    """Memories + the window's days -> `## Related Memories` blocks and backlinks; files rewritten."""
    existing = set(day_files(run.vault_dir))
    found = links.find_links(
        _memories(run), run.days, existing, run.now, step_llm(run, links.PROMPT_VERSION)
    )
    found.written = write_related(run.vault_dir, found.links)
    get_run_logger().info("reflect %s: links %s", run.label, found.as_dict())
    return {"links_written": len(found.written)}


@reflect_step("episodes", ["memories"], episodes.PROMPT_VERSION, asks_llm=True)
def reflect_episodes(run: ReflectInputs) -> dict[str, Any]:
    """Memories of the window -> clusters of related memories on `bank/episodes.md`; how many."""
    first, last = min(run.days), max(run.days)
    since = day_bounds(date.fromisoformat(first), run.tz)[0]
    until = day_bounds(date.fromisoformat(last), run.tz)[1]
    llm = step_llm(run, episodes.PROMPT_VERSION)
    memories = _memories(run)
    found = episodes.episodes_between(memories, since, until, llm=llm)
    members = rows_with_ids(memories, [m for ep in found for m in ep.member_ids])
    cites = cited_memories(members, run.home)
    write_episodes_page(run.vault_dir, found, f"{first} – {last}", cites)
    return {"episodes": len(found)}


@reflect_step("bigfive", ["memories"], bigfive.PROMPT_VERSION, asks_llm=True)
def reflect_bigfive(run: ReflectInputs) -> dict[str, Any]:
    """Memories -> a Big Five analysis (offline estimate, and the LLM's) when one is due; added."""
    history = open_profile_history(run.db_dir)
    due = run.analyse or (run.analyse is None and analysis_due(load_analyses(history), run.now))
    if not due:
        return {"analyses_added": []}
    rows = memory_rows(_memories(run), kinds=DAY_KINDS)
    if rows.empty:
        return {"analyses_added": []}
    people = people_in(rows, run.people, run.me)
    found = [bigfive.offline_big_five(rows, run.now, me=run.me, tz=run.tz, people=people)]
    llm = step_llm(run, bigfive.PROMPT_VERSION)
    if llm is not None:
        try:
            found.append(bigfive.llm_big_five(rows, llm, run.now, me=run.me))
        except OmoideError as exc:
            # The offline estimate still counts; the LLM's analysis waits for the next run.
            get_run_logger().warning("no LLM Big Five analysis this run (%s)", exc)
    return {"analyses_added": [a.source for a in found if record_analysis(history, a)]}


@reflect_step("profile", ["memories", "profile_history", "entities"])
def reflect_profile(run: ReflectInputs) -> dict[str, Any]:
    """Memories + analyses -> the integrated profile (rebuilt on its triggers) and `bank/profile.md`."""
    rows = memory_rows(_memories(run), kinds=DAY_KINDS)
    if rows.empty:
        return {}
    rows["strength"] = frame_strength(rows, run.now)
    analyses = load_analyses(open_profile_history(run.db_dir))
    people = people_in(rows, run.people, run.me)
    cache = run.cache_dir / "profile.json"
    last = load_profile(cache)
    replaced = {m for m, v in load_validity(run.db_dir).items() if v.superseded_by}
    profile, rebuilt = refresh_profile(
        last, rows, analyses, run.now, me=run.me, people=people, replaced=replaced
    )
    if rebuilt:
        save_profile(cache, profile)
    people_rels = relationship_rows(read_entities(open_entities(run.db_dir)))
    write_profile_page(
        run.vault_dir, analyses, profile, cited_memories(rows, run.home), people_rels
    )
    deltas = profile_deltas(last, profile) if rebuilt else []
    return {"profile_rebuilt": rebuilt, "profile_deltas": deltas}


@task(
    name="reflect-check",
    task_run_name="reflect-check-{run.label}",
    persist_result=False,
    cache_policy=NO_CACHE,
)
def check_reflection(run: ReflectInputs, report: dict[str, Any]) -> None:
    """What the steps wrote -> the `reflect` GX gate, and the report as a Markdown artifact."""
    text = reflect_markdown(run.label, report)
    publish_markdown(text, f"reflect-{run.label}", f"omoide reflect {run.label}")
    claims = reflect_claims(run.db_dir, run.vault_dir, memory_ids(_memories(run)))
    check = quality.validate(claims, "reflect")
    publish_quality([check], f"reflect-{run.label}")
    quality.raise_for_failures(check)
