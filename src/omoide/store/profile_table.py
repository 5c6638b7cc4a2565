"""The LanceDB `profile_history` table: every Big Five analysis, one row each, with provenance.

Rows are keyed by `analysis_id`, which is derived from an analysis' source and inputs, so
recording the same analysis twice changes nothing: an existing id is never rewritten (the
history keeps when an analysis was first made) and a new one is inserted with
`merge_insert(...).when_not_matched_insert_all()`. Sources stay in separate rows; nothing here
averages them.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import lancedb
import pyarrow as pa

from omoide.core.schemas import TS
from omoide.profile.bigfive import TRAITS, Analysis, BigFive
from omoide.store.memories import sql_str

log = logging.getLogger(__name__)

TABLE = "profile_history"

PROFILE_HISTORY = pa.schema(
    [
        pa.field("analysis_id", pa.string(), nullable=False),
        pa.field("source", pa.string(), nullable=False),  # llm | quiz | offline
        pa.field("method", pa.string(), nullable=False),  # ipip-50, ollama:<model>, offline-v1
        pa.field("analyzed_at", TS, nullable=False),
        *(pa.field(t, pa.float64(), nullable=False) for t in TRAITS),
        pa.field("confidence", pa.float64(), nullable=False),
        pa.field("evidence", pa.list_(pa.string())),  # memory ids
        pa.field("trait_evidence", pa.string(), nullable=False),  # JSON {trait: [memory ids]}
        pa.field("provenance", pa.string(), nullable=False),  # JSON: answers, signals, counts
    ]
)


def open_profile_history(db_dir: Path) -> lancedb.table.Table:
    """LanceDB folder -> the profile_history table (created when missing)."""
    return lancedb.connect(db_dir).create_table(TABLE, schema=PROFILE_HISTORY, exist_ok=True)


def _row(analysis: Analysis) -> dict[str, object]:
    """Analysis -> one table row."""
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


def record_analysis(table: lancedb.table.Table, analysis: Analysis) -> bool:
    """Analysis -> stored unless its id is already there; True when a row was inserted."""
    # Checking first keeps a repeated analysis from creating a new table version.
    if table.count_rows(f"analysis_id = {sql_str(analysis.analysis_id)}"):
        return False
    data = pa.Table.from_pylist([_row(analysis)], schema=PROFILE_HISTORY)
    result = table.merge_insert("analysis_id").when_not_matched_insert_all().execute(data)
    log.info("profile_history: recorded one %s analysis", analysis.source)
    return result.num_inserted_rows > 0


def load_analyses(table: lancedb.table.Table) -> list[Analysis]:
    """Table -> every stored analysis, oldest first (ties by id)."""
    rows = table.to_arrow().to_pylist()
    rows.sort(key=lambda r: (r["analyzed_at"], r["analysis_id"]))
    return [
        Analysis(
            analysis_id=r["analysis_id"],
            source=r["source"],
            method=r["method"],
            analyzed_at=r["analyzed_at"],
            scores=BigFive(**{t: r[t] for t in TRAITS}),
            confidence=r["confidence"],
            evidence=list(r["evidence"] or []),
            trait_evidence=json.loads(r["trait_evidence"]),
            provenance=json.loads(r["provenance"]),
        )
        for r in rows
    ]
