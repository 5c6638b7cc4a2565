"""Summarize task: a day's lake events and sessions -> digest in the vault, memory rows in the lake."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

import pandas as pd
from prefect import get_run_logger, task
from prefect.context import TaskRunContext

from omoide import __version__, quality
from omoide.core.days import day_bounds
from omoide.core.ids import stable_id
from omoide.core.kinds import OWN_SPEAKER
from omoide.core.settings import LLMSettings
from omoide.ingest.sanitize import pii_residue
from omoide.llm import cached_ollama
from omoide.memory.block_rows import block_records, blocks_frame
from omoide.memory.block_wording import worded
from omoide.memory.blocks import day_blocks
from omoide.memory.day_rows import day_memories, digest_id, session_lines
from omoide.memory.records import SITTING_GAP_S, day_records
from omoide.memory.summarize import summarize_day
from omoide.memory.summarize_prompts import PROMPT_VERSION
from omoide.store.lake import (
    partition_digest,
    read_events,
    read_sessions,
    write_blocks,
    write_facts,
)
from omoide.tasks.artifacts import publish_markdown, publish_quality
from omoide.tasks.llm_slots import llm_gate
from omoide.vault.daily import memory_path, without_front_matter, write_daily
from omoide.vault.pictures import draw_day

# -2: entity links on records, CJK digest terms; -3: memory types; -4: typed `## Retain`
# lines with block ids in the vault; -5: a chat memory's context never crosses a sitting;
# -6: time per activity and time at the computer by ActivityWatch's arithmetic (active_time);
# -9: slash dates and two months resolved, highlights cut
# -10: commitment rows from the user's own words
# -11: the day page told as a story (what was written, decided and told)
SUMMARIZE_VERSION = (
    f"{__version__}-12"  # -12: activity blocks (lake/blocks, `block` rows, the day's picture)
)


def summarize_cache_key(context: TaskRunContext, parameters: dict[str, Any]) -> str:
    """Task parameters -> key from the day's lake state, the backend, model and prompt version."""
    lake: Path = parameters["lake_dir"]
    day: date = parameters["day"]
    llm: LLMSettings | None = parameters["llm"]
    return stable_id(
        "summarize",
        SUMMARIZE_VERSION,
        PROMPT_VERSION,
        str(lake),
        str(parameters["vault_dir"]),
        day,
        parameters["tz"],
        "none" if llm is None else f"{llm.host}|{llm.model}|{llm.chunk_tokens}",
        partition_digest(lake, "events", day),
        partition_digest(lake, "sessions", day),
        *parameters.get("me", ()),
        str(parameters.get("gap_s", SITTING_GAP_S)),
    )


@task(
    name="summarize",
    task_run_name="summarize-{day}",
    cache_key_fn=summarize_cache_key,
    persist_result=True,
    result_serializer="json",
)
def summarize_and_write(
    lake_dir: Path,
    vault_dir: Path,
    home: Path,
    cache_dir: Path,
    day: date,
    tz: str,
    llm: LLMSettings | None,
    now: datetime,
    me: tuple[str, ...] = (OWN_SPEAKER,),
    gap_s: float = SITTING_GAP_S,
) -> dict[str, Any]:
    """Lake day (+ Ollama settings, or None for the embedded digest; the user's names; the sitting gap) -> vault file + lake facts."""
    events, sessions = read_events(lake_dir, day), read_sessions(lake_dir, day)
    model = (
        None if llm is None else cached_ollama(llm, cache_dir, PROMPT_VERSION, gate=llm_gate(llm))
    )
    # The embedded digest does not chunk; the budget matters only to an LLM.
    budget = (llm or LLMSettings()).chunk_tokens
    blocks = day_blocks(events, sessions, day, tz, me=me)
    summary = summarize_day(events, sessions, day, tz, model, budget, blocks=blocks, me=me)
    # The model's grounded wording of each block reaches the picture, the page and the rows.
    blocks = worded(blocks, summary.block_labels)
    picture = memory_path(vault_dir, summary.day).with_suffix(".png")
    draw_day(picture, day, tz, blocks, events)
    written = write_daily(
        vault_dir,
        summary,
        session_lines(sessions, tz),
        digest_id(summary.day),
        blocks=blocks,
        picture=picture.name,
    )
    records = day_records(events, sessions, day, tz, now, gap_s, me)
    records = pd.concat([records, block_records(blocks, day, tz, now)], ignore_index=True)
    rows = day_memories(records, summary, written.path, written.lines, home, tz, now, me)
    start, end = day_bounds(day, tz)
    check = quality.validate(
        rows.assign(pii_residue=pii_residue(rows.rename(columns={"content": "text"}))),
        "facts",
        {"day_start": start, "day_end": end},
    )
    publish_quality([check], f"facts-{day}")
    quality.raise_for_failures(check)
    path = write_facts(lake_dir, day, rows)
    write_blocks(lake_dir, day, blocks_frame(blocks, day, now))
    # The UI renders front matter as headings; the artifact shows the digest only.
    digest = without_front_matter(written.path.read_text(encoding="utf-8"))
    publish_markdown(digest, f"digest-{day}", f"omoide digest {day}")
    get_run_logger().info(
        "%s: %s wrote %d memory row(s), %d fact(s), %d block(s); %d llm call(s), %d cached",
        day,
        summary.produced_by,
        len(rows),
        len(summary.facts),
        len(blocks),
        summary.llm_calls,
        summary.cached_calls,
    )
    return {
        "path": str(path),
        "vault": str(memory_path(vault_dir, summary.day)),
        "memories": len(rows),
        "facts": len(summary.facts),
        "blocks": len(blocks),
        "produced_by": summary.produced_by,
        "llm_calls": summary.llm_calls,
    }


@task(name="choose-llm", task_run_name="choose-llm")
def choose_llm(llm: LLMSettings) -> LLMSettings | None:
    """[llm] settings -> themselves when Ollama will serve this run, None for the embedded digest."""
    from omoide.llm import get_llm

    chosen = get_llm(llm)
    get_run_logger().info(
        "summaries by %s", "the embedded digest" if chosen is None else f"ollama:{llm.model}"
    )
    return None if chosen is None else llm
