"""Big Five analyses <-> the `profile_history` table: record one (never twice), load them all, when the next is due."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import lancedb

from omoide.profile.bigfive import TRAITS, Analysis, BigFive
from omoide.store.profile_table import insert_analysis_row, read_analysis_rows

ANALYSIS_INTERVAL = timedelta(days=7)  # the daily run adds an analysis at most this often


def analysis_row(analysis: Analysis) -> dict[str, Any]:
    """Analysis -> one PROFILE_HISTORY row (evidence per trait and provenance as JSON text)."""
    return {
        "analysis_id": analysis.analysis_id,
        "source": analysis.source,
        "method": analysis.method,
        "analyzed_at": analysis.analyzed_at,
        **analysis.scores.as_dict(),
        "confidence": analysis.confidence,
        "evidence": list(analysis.evidence),
        "trait_evidence": json.dumps(analysis.trait_evidence, sort_keys=True),
        "provenance": json.dumps(analysis.provenance, sort_keys=True),
    }


def analysis_from_row(row: dict[str, Any]) -> Analysis:
    """Stored PROFILE_HISTORY row -> Analysis."""
    return Analysis(
        analysis_id=row["analysis_id"],
        source=row["source"],
        method=row["method"],
        analyzed_at=row["analyzed_at"],
        scores=BigFive(**{t: row[t] for t in TRAITS}),
        confidence=row["confidence"],
        evidence=list(row["evidence"] or []),
        trait_evidence=json.loads(row["trait_evidence"]),
        provenance=json.loads(row["provenance"]),
    )


def record_analysis(table: lancedb.table.Table, analysis: Analysis) -> bool:
    """Analysis -> stored unless its id is already there; True when a row was inserted."""
    return insert_analysis_row(table, analysis_row(analysis))


def load_analyses(table: lancedb.table.Table) -> list[Analysis]:
    """Table -> every stored analysis, oldest first (ties by id)."""
    return [analysis_from_row(r) for r in read_analysis_rows(table)]


def analysis_due(analyses: Sequence[Analysis], now: datetime) -> bool:
    """Analyses + now -> is the newest one missing or older than the analysis interval?"""
    newest = max((a.analyzed_at for a in analyses), default=None)
    return newest is None or now - newest >= ANALYSIS_INTERVAL
