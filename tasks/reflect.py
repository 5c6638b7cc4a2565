"""Reflect task: LanceDB memories -> entity pages, opinions, links, Big Five and profile; gated."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from prefect import get_run_logger, task

from omoide import quality
from omoide.core.settings import EmbedSettings, LLMSettings
from omoide.embed import get_embedder
from omoide.llm import cached_ollama
from omoide.memory.summarize_prompts import PROMPT_VERSION
from omoide.reflect.checks import reflect_claims
from omoide.reflect.run import reflect
from omoide.store.memories import memory_ids, open_memories
from omoide.tasks.artifacts import publish_markdown, publish_quality


@task(name="reflect", task_run_name="reflect-{label}", retries=1, retry_delay_seconds=10)
def reflect_memories(
    db_dir: Path,
    vault_dir: Path,
    cache_dir: Path,
    embed: EmbedSettings,
    llm: LLMSettings | None,
    llm_host: str,
    days: list[str],
    label: str,
    now: datetime,
    me: list[str],
    people: list[str],
    tz: str,
    analyse: bool | None = None,
) -> dict[str, Any]:
    """Memories + the days to link -> bank pages and tables updated (idempotent); what changed.

    Not cached by Prefect: it reads the whole memory store, and every step underneath
    writes only what changed, so a re-run costs seconds and changes nothing.
    """
    embedder = get_embedder(embed, llm_host)
    table = open_memories(db_dir, embedder.model, embedder.dim, create=False)
    model = None if llm is None else cached_ollama(llm, cache_dir, PROMPT_VERSION)
    report = reflect(
        table,
        db_dir,
        vault_dir,
        cache_dir / "profile.json",
        days,
        now,
        me=me,
        people=people,
        tz=tz,
        llm=model,
        analyse=analyse,
    )
    claims = reflect_claims(db_dir, vault_dir, memory_ids(table))
    check = quality.validate(claims, "reflect")
    publish_quality([check], f"reflect-{label}")
    quality.raise_for_failures(check)
    publish_markdown(report.markdown(label), f"reflect-{label}", f"omoide reflect {label}")
    get_run_logger().info(
        "reflect %s: %d entities, %d opinions (%d moves), %d linked files, profile rebuilt: %s",
        label,
        report.entities,
        report.opinions,
        len(report.opinion_changes),
        report.links_written,
        report.profile_rebuilt,
    )
    return report.as_dict()
