"""Prefect artifacts: counts and check results only, never personal text."""

from __future__ import annotations

from datetime import date

import pandas as pd
from prefect.artifacts import create_markdown_artifact, create_table_artifact

from omoide import quality


def _key(text: str) -> str:
    """Free text -> a valid artifact key (lowercase letters, digits, dashes)."""
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")


def publish_quality(results: list[quality.QualityResult], label: str) -> None:
    """Check results -> one table artifact with a row per expectation."""
    rows = [row for r in results for row in quality.summary_rows(r)]
    create_table_artifact(
        rows, key=_key(f"dq-{label}"), description=f"Data-quality checks for {label}"
    )


def publish_source_quality(results: dict[str, list[quality.QualityResult]], label: str) -> None:
    """Check results by source -> one table artifact with a row per source and expectation."""
    rows = [
        {"source": name, **row}
        for name, checks in results.items()
        for r in checks
        for row in quality.summary_rows(r)
    ]
    create_table_artifact(
        rows, key=_key(f"dq-{label}"), description=f"Data-quality checks for {label}"
    )


def publish_redactions(counts: dict[str, dict[str, int]], label: str) -> None:
    """Redaction counts per source and type -> a table artifact (counts only)."""
    rows = [
        {"source": name, "type": k, "count": v}
        for name, by_type in counts.items()
        for k, v in sorted(by_type.items())
    ] or [{"source": "-", "type": "-", "count": 0}]
    create_table_artifact(
        rows, key=_key(f"redactions-{label}"), description=f"PII redactions, {label}"
    )


def publish_markdown(markdown: str, key: str, description: str) -> None:
    """Markdown -> a markdown artifact."""
    create_markdown_artifact(markdown, key=_key(key), description=description)


def publish_sessions(sessions: pd.DataFrame, day: date) -> None:
    """Sessions -> a table artifact of the day's longest sessions (sanitized text only)."""
    top = sessions.nlargest(25, "duration_s")
    rows = [
        {
            "start": s.start.isoformat(timespec="seconds"),
            "minutes": round(s.duration_s / 60, 1),
            "app": s.app,
            "domain": s.domain or "",
            "events": int(s.n_events),
            "first title": (s.titles[0] if len(s.titles) else "")[:80],
        }
        for s in top.itertuples()
    ]
    create_table_artifact(
        rows,
        key=_key(f"sessions-{day}"),
        description=f"Longest sessions of {day} ({len(sessions)} in all)",
    )
