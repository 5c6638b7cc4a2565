"""The profile as one JSON-ready report: integrated profile, current Big Five, relationships.

Relationships are the people's rows of the `entities` table, with the bond the last
reflection stored (the figure the entity pages, `omoide entity` and MCP show too); an
entity that is not a person (a place, a project, a bot) has none and is not listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from omoide.core.errors import OmoideError
from omoide.core.kinds import NO_RELATIONSHIP
from omoide.profile.bigfive import Analysis
from omoide.profile.history import load_analyses
from omoide.profile.integrated import (
    IntegratedProfile,
    current_analysis,
    latest_by_source,
    load_profile,
)
from omoide.store.entities_table import open_entities, read_entities
from omoide.store.profile_table import open_profile_history

_RELATIONSHIP_COLUMNS = [
    "slug",
    "name",
    "relationship_type",
    "bond_strength",
    "relationship_confidence",
    "interaction_count",
    "days_since_last",
]


@dataclass(frozen=True)
class ProfileParts:
    """What the profile commands show: the integrated profile, the analyses, relationships."""

    profile: IntegratedProfile
    analyses: list[Analysis]
    current: Analysis | None
    relationships: list[dict[str, Any]]  # people only, strongest bond first


def relationship_rows(entities: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows of the `entities` table -> the people's stored relationships, strongest bond first."""
    if entities.empty:
        return []
    people = entities[entities["relationship_type"] != NO_RELATIONSHIP]
    ranked = people.sort_values(["bond_strength", "slug"], ascending=[False, True])
    return ranked[_RELATIONSHIP_COLUMNS].to_dict("records")


def profile_parts(db_dir: Path, cache_dir: Path) -> ProfileParts:
    """LanceDB folder + cache folder -> the stored profile, analyses and relationships; raises before the first reflection."""
    profile = load_profile(cache_dir / "profile.json")
    if profile is None:
        raise OmoideError(
            "no profile yet: run `omoide run`, `omoide backfill` or `omoide reflect` first"
        )
    analyses = load_analyses(open_profile_history(db_dir))
    relationships = relationship_rows(read_entities(open_entities(db_dir)))
    return ProfileParts(profile, analyses, current_analysis(analyses), relationships)


def profile_report(parts: ProfileParts) -> dict[str, Any]:
    """Profile parts -> one JSON-ready object: profile, relationships, current and per-source Big Five."""
    return {
        "profile": parts.profile.model_dump(mode="json"),
        "relationships": parts.relationships,
        "current": parts.current.model_dump(mode="json") if parts.current else None,
        "by_source": {
            k: a.model_dump(mode="json") for k, a in latest_by_source(parts.analyses).items()
        },
    }
