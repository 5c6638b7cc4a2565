"""What reflect wrote -> one row per claim, for the `reflect` GX suite (scores in range, evidence exists, no PII)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from omoide.ingest.sanitize import pii_residue
from omoide.profile.history import load_analyses
from omoide.reflect.opinions import load_opinions
from omoide.store.opinions_table import open_opinions
from omoide.store.profile_table import open_profile_history


def _claim(
    kind: str, ref: str, score: float, evidence: Iterable[str], known: set[str]
) -> dict[str, object]:
    """A claim -> its check row: the score it states and how many cited ids do not exist."""
    ids = list(evidence)
    return {
        "kind": kind,
        "ref": ref,
        "score": float(score),
        "evidence_missing": sum(i not in known for i in ids),
    }


def reflect_claims(db_dir: Path, vault_dir: Path, memory_ids: Iterable[str]) -> pd.DataFrame:
    """LanceDB + vault + the memory ids that exist -> a frame of every score-bearing claim and page."""
    known = set(memory_ids)
    rows: list[dict[str, object]] = []
    for op in load_opinions(open_opinions(db_dir)):
        cited = [*op.supporting_ids, *op.contradicting_ids, op.origin_id]
        rows.append(_claim("opinion", op.opinion_id, op.confidence, cited, known))
    for a in load_analyses(open_profile_history(db_dir)):
        # A questionnaire cites answers, not memories.
        cited = [] if a.source == "quiz" else a.evidence
        for trait, value in a.scores.as_dict().items():
            rows.append(
                _claim(f"bigfive:{a.source}", f"{a.analysis_id}:{trait}", value, cited, known)
            )
        rows.append(_claim(f"confidence:{a.source}", a.analysis_id, a.confidence, [], known))
    frame = pd.DataFrame(rows, columns=["kind", "ref", "score", "evidence_missing"])
    pages = sorted((vault_dir / "bank").rglob("*.md")) if (vault_dir / "bank").exists() else []
    text = pd.DataFrame({"text": [p.read_text(encoding="utf-8") for p in pages]})
    page_rows = pd.DataFrame(
        {
            "kind": "page",
            "ref": [p.relative_to(vault_dir).as_posix() for p in pages],
            "score": 0.0,
            "evidence_missing": 0,
        }
    )
    frame = pd.concat([frame, page_rows], ignore_index=True)
    residue = (
        [0] * (len(frame) - len(pages)) + list(pii_residue(text)) if pages else [0] * len(frame)
    )
    return frame.assign(pii_residue=residue)
