"""reflect: the memories so far -> entity pages, opinions, memory links, Big Five analyses and the profile.

One call does a whole reflection over the LanceDB memories and writes what it finds to the
vault (`bank/entities/*.md`, `bank/opinions.md`, `bank/profile.md`, `## Related Memories`
blocks in the daily files) and to LanceDB (`entities`, `opinions`, `profile_history`).
Every step is idempotent: an unchanged input writes no file and no row. What changed is
returned as Markdown for the run's artifact.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import lancedb
import pandas as pd

from omoide.core.days import day_bounds
from omoide.core.errors import OmoideError
from omoide.llm.base import LLM
from omoide.memory.strength import frame_strength
from omoide.profile.bigfive import Analysis, llm_big_five, offline_big_five
from omoide.profile.integrated import (
    IntegratedProfile,
    citations,
    current_analysis,
    load_profile,
    refresh_profile,
    save_profile,
    write_profile_page,
)
from omoide.reflect.entities import collect_entities, write_entity_pages
from omoide.reflect.episodes import episodes_between
from omoide.reflect.links import link_days
from omoide.reflect.opinions import (
    changes_markdown,
    memories_index,
    update_opinions,
    write_opinions_page,
)
from omoide.store.entities_table import (
    entity_records,
    open_entities,
    read_entities,
    upsert_entities,
)
from omoide.store.opinions_table import load_opinions, open_opinions, upsert_opinions
from omoide.store.profile_table import load_analyses, open_profile_history, record_analysis
from omoide.vault.episodes_page import write_episodes_page

log = logging.getLogger(__name__)
FACT_KINDS = ("W", "B", "O", "S")
ANALYSIS_INTERVAL = timedelta(days=7)


@dataclass
class ReflectReport:
    """What a reflection changed, in counts and Markdown lines (no personal text beyond the vault's)."""

    entities: int = 0
    new_entities: list[str] = field(default_factory=list)
    entity_pages_written: int = 0
    opinions: int = 0
    opinion_changes: list[str] = field(default_factory=list)
    links_written: int = 0
    episodes: int = 0
    analyses_added: list[str] = field(default_factory=list)
    profile_rebuilt: bool = False
    profile_deltas: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """-> JSON-ready counts and lines."""
        return dict(self.__dict__)

    def markdown(self, label: str) -> str:
        """-> the Markdown artifact text of this reflection."""
        lines = [
            f"# omoide reflect — {label}",
            "",
            f"- entities: {self.entities} ({self.entity_pages_written} page(s) written); "
            f"new: {', '.join(self.new_entities) or 'none'}",
            f"- opinions: {self.opinions} ({len(self.opinion_changes)} change(s))",
            f"- daily files with links rewritten: {self.links_written}",
            f"- episodes in the window: {self.episodes}",
            f"- Big Five analyses added: {', '.join(self.analyses_added) or 'none'}",
            f"- profile rebuilt: {'yes' if self.profile_rebuilt else 'no (no trigger)'}",
        ]
        if self.opinion_changes:
            lines += ["", "## Opinion moves", "", *self.opinion_changes]
        if self.profile_deltas:
            lines += ["", "## Profile changes", "", *(f"- {d}" for d in self.profile_deltas)]
        return "\n".join(lines) + "\n"


def memory_rows(table: lancedb.table.Table, with_vectors: bool = False) -> pd.DataFrame:
    """Memories table -> all rows (vectors only when asked: they are the bulk of the bytes)."""
    columns = [f.name for f in table.schema if with_vectors or f.name != "vector"]
    return table.search().select(columns).limit(None).to_pandas()


def reflect(
    memories: lancedb.table.Table,
    db_dir: Path,
    vault_dir: Path,
    profile_cache: Path,
    days: Sequence[str],
    now: datetime,
    me: Sequence[str] = (),
    people: Sequence[str] = (),
    tz: str = "UTC",
    llm: LLM | None = None,
    analyse: bool | None = None,
) -> ReflectReport:
    """Memories + the days that are new + now -> entities, opinions, links, analyses and profile written.

    `analyse` asks for a Big Five analysis this run (an LLM one when `llm` is given, always
    the offline estimate); None means "when the newest analysis is a week old or missing",
    which is what the daily run uses. The profile is refreshed only on its triggers.
    """
    report = ReflectReport()
    rows = memory_rows(memories)
    if rows.empty:
        return report
    rows["strength"] = frame_strength(rows, now)
    analyses_table = open_profile_history(db_dir)
    analyses = load_analyses(analyses_table)
    current = current_analysis(analyses)
    traits = current.scores.as_dict() if current is not None else None

    entities = collect_entities(rows)
    report.entities = len(entities)
    report.entity_pages_written = len(write_entity_pages(vault_dir, entities, rows, now, traits))
    entities_table = open_entities(db_dir)
    known = set(read_entities(entities_table)["slug"]) if entities_table.count_rows() else set()
    report.new_entities = [e.name for e in entities if e.slug not in known]
    upsert_entities(entities_table, entity_records(entities, rows, now, traits))
    people = _people(rows, people, me)

    facts = rows[rows["kind"].isin(FACT_KINDS)]
    with_vec = (
        memories.search()
        .where("kind IN ('W', 'B', 'O', 'S')")
        .select(["memory_id", "vector"])
        .limit(None)
        .to_pandas()
    )
    facts = facts.merge(with_vec, on="memory_id", how="inner")
    opinions_table = open_opinions(db_dir)
    opinions, changes = update_opinions(load_opinions(opinions_table), facts, now, llm)
    upsert_opinions(opinions_table, opinions)
    write_opinions_page(vault_dir, opinions, memories_index(rows))
    report.opinions = len(opinions)
    report.opinion_changes = changes_markdown(changes).splitlines() if changes else []

    report.links_written = len(link_days(memories, vault_dir, days, now, llm).written)
    if analyse and days:
        since = day_bounds(date.fromisoformat(min(days)), tz)[0]
        until = day_bounds(date.fromisoformat(max(days)), tz)[1]
        found_episodes = episodes_between(memories, since, until, llm=llm)
        write_episodes_page(vault_dir, found_episodes, f"{min(days)} – {max(days)}")
        report.episodes = len(found_episodes)

    if analyse or (analyse is None and _stale(analyses, now)):
        found = [offline_big_five(rows, now, me=me, tz=tz, people=people)]
        if llm is not None:
            try:
                found.append(llm_big_five(rows, llm, now, me=me))
            except OmoideError as exc:
                log.warning("reflect: no LLM Big Five analysis this run (%s)", exc)
        report.analyses_added = [a.source for a in found if record_analysis(analyses_table, a)]
        analyses = load_analyses(analyses_table)
    last = load_profile(profile_cache)
    profile, rebuilt = refresh_profile(last, rows, analyses, now, me=me, people=people)
    report.profile_rebuilt = rebuilt
    if rebuilt:
        save_profile(profile_cache, profile)
        report.profile_deltas = _deltas(last, profile)
    write_profile_page(vault_dir, analyses, profile, citations(rows))
    log.info("reflect: %s", {k: v for k, v in report.as_dict().items() if isinstance(v, int)})
    return report


def _people(rows: pd.DataFrame, named: Sequence[str], me: Sequence[str]) -> list[str]:
    """Memory rows + configured people -> the people (chat partners count), so the profile
    does not take a friend for an interest; the user and an AI assistant are not people here."""
    partners = rows.loc[rows["kind"] == "chat", "entities"].explode().dropna().astype(str)
    found = dict.fromkeys([*named, *partners])
    return [p for p in found if p and p not in me and p.lower() != "assistant"]


def _stale(analyses: Sequence[Analysis], now: datetime) -> bool:
    """Analyses -> is the newest one missing or older than the analysis interval?"""
    newest = max((a.analyzed_at for a in analyses), default=None)
    return newest is None or now - newest >= ANALYSIS_INTERVAL


def _deltas(before: IntegratedProfile | None, after: IntegratedProfile) -> list[str]:
    """Two integrated profiles -> readable lines of what changed (traits, interests, quality)."""
    if before is None:
        return ["first profile built"]
    out = []
    for name in ("dominant_traits", "core_interests", "core_values"):
        old = [w.name for w in getattr(before, name)]
        new = [w.name for w in getattr(after, name)]
        if old != new:
            out.append(
                f"{name.replace('_', ' ')}: {', '.join(old) or '-'} → {', '.join(new) or '-'}"
            )
    if before.data_quality != after.data_quality:
        out.append(f"data quality {before.data_quality:.2f} → {after.data_quality:.2f}")
    return out
