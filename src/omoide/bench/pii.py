"""Score the PII detector on a labelled JSONL file (shared/eval/pii format).

Matching rule:
- recall: a gold span of an in-scope type is found when one detected span of the same type
  covers at least half of it (so `token=abc` found as `token=abc`, or an ASP.NET session id
  found without its parentheses, both count);
- precision: a detection is a true positive when it overlaps a gold span of its own type by
  at least one character; anything else is a false positive, including detections in
  negative records and detections on out-of-scope labels (URL, DATE_TIME, US_SSN, ...).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from omoide.ingest.pii import CARD, EMAIL, IP, PHONE, URL_SECRET, Span, find_pii

log = logging.getLogger(__name__)

GOLD_TYPES = {
    EMAIL: "EMAIL_ADDRESS",
    CARD: "CREDIT_CARD",
    PHONE: "PHONE_NUMBER",
    IP: "IP_ADDRESS",
    URL_SECRET: "URL_SECRET",
}
IN_SCOPE = tuple(GOLD_TYPES.values())


def _overlap(a_start: int, a_end: int, b_start: int, b_end: int) -> int:
    """Two half-open ranges -> number of characters they share."""
    return max(0, min(a_end, b_end) - max(a_start, b_start))


def _load(path: Path) -> list[dict[str, Any]]:
    """JSONL path -> records; a malformed line raises ValueError naming file and line."""
    records = []
    with path.open(encoding="utf-8") as handle:
        for lineno, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{lineno}: not JSON ({exc})") from exc
            if not isinstance(record, dict) or not {"text", "spans"} <= record.keys():
                raise ValueError(f"{path}:{lineno}: a PII record needs 'text' and 'spans'")
            records.append(record)
    return records


def _score_record(
    text: str, gold: list[dict[str, Any]], tallies: dict[str, dict[str, int]]
) -> None:
    """One record's text and gold spans -> tp/fp/fn added to the per-type tallies."""
    detected: list[Span] = find_pii(text)
    for span in gold:
        if span["type"] not in IN_SCOPE:
            continue
        length = max(1, span["end"] - span["start"])
        found = any(
            GOLD_TYPES[d.type] == span["type"]
            and _overlap(d.start, d.end, span["start"], span["end"]) * 2 >= length
            for d in detected
        )
        tallies["recall_hit" if found else "fn"][span["type"]] += 1
    for d in detected:
        kind = GOLD_TYPES[d.type]
        hit = any(
            span["type"] == kind and _overlap(d.start, d.end, span["start"], span["end"]) > 0
            for span in gold
        )
        tallies["tp" if hit else "fp"][kind] += 1


def score(path: Path) -> dict[str, Any]:
    """Labelled PII JSONL path -> {"recall": {type: r}, "precision": p, "cases": n, tp/fp/fn}."""
    records = _load(Path(path))
    tallies = {key: dict.fromkeys(IN_SCOPE, 0) for key in ("recall_hit", "fn", "tp", "fp")}
    for record in records:
        _score_record(record["text"], record["spans"], tallies)
    recall: dict[str, float | None] = {}
    for kind in IN_SCOPE:
        support = tallies["recall_hit"][kind] + tallies["fn"][kind]
        recall[kind] = round(tallies["recall_hit"][kind] / support, 4) if support else None
    tp = sum(tallies["tp"].values())
    fp = sum(tallies["fp"].values())
    precision = round(tp / (tp + fp), 4) if tp + fp else None
    log.info("pii bench: %d cases, %d detections, %d false positives", len(records), tp + fp, fp)
    return {
        "recall": recall,
        "precision": precision,
        "cases": len(records),
        "tp": tallies["tp"],
        "fp": tallies["fp"],
        "fn": tallies["fn"],
    }
