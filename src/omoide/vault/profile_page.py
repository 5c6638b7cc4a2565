"""Big Five analyses + the integrated profile + citations -> `vault/bank/profile.md` and its radar PNG.

Every score and statement on the page names the analysis and the memories it rests on;
sources are shown apart, never averaged. Both files are written only when they change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from omoide.core.files import write_bytes_if_changed, write_text_if_changed
from omoide.profile.bigfive import TRAITS, Analysis
from omoide.profile.integrated import (
    SHOWN_EVIDENCE,
    IntegratedProfile,
    Weighted,
    current_analysis,
    latest_by_source,
)
from omoide.profile.radar import radar_png

PAGE = "profile.md"
RADAR = "profile-radar.png"
LABELS = {"quiz": "Questionnaire (IPIP-50)", "llm": "LLM analysis", "offline": "Offline estimate"}
SHORT = {t: t[0].upper() for t in TRAITS}


def citations(memories: pd.DataFrame) -> dict[str, str]:
    """Memory rows -> {memory_id: citation path#Lnn}."""
    return dict(zip(memories["memory_id"], memories["source"], strict=True))


def _cite(ids: Sequence[str], cites: Mapping[str, str]) -> str:
    """Memory ids -> "`id` (`path#Lnn`), ..." with a count of the rest."""
    if not ids:
        # Said outright: a score with nothing behind it is the scale's neutral middle, not a finding.
        return "no memories: no evidence, the neutral default"
    shown = [f"`{i}` (`{cites[i]}`)" if i in cites else f"`{i}`" for i in ids[:SHOWN_EVIDENCE]]
    more = f" +{len(ids) - SHOWN_EVIDENCE} more" if len(ids) > SHOWN_EVIDENCE else ""
    return ", ".join(shown) + more


def _scores(a: Analysis) -> str:
    """Analysis -> "O 0.70 · C 0.55 · ..."."""
    return " · ".join(f"{SHORT[t]} {v:.2f}" for t, v in a.scores.as_dict().items())


def _rests_on(a: Analysis, cites: Mapping[str, str]) -> str:
    """Analysis -> what it rests on, for a statement about it."""
    if a.source == "quiz":
        return f"the user's own 50 IPIP answers (analysis `{a.analysis_id}`)"
    return f"{_cite(a.evidence, cites)} (analysis `{a.analysis_id}`)"


def _source_section(a: Analysis, current: Analysis | None, cites: Mapping[str, str]) -> list[str]:
    """Latest analysis of one source -> its page section, each score with its evidence."""
    tag = " — current" if current and a.analysis_id == current.analysis_id else ""
    low = " (low confidence)" if a.source == "offline" else ""
    lines = [
        f"### {LABELS[a.source]}{low}{tag}",
        "",
        f"{a.analyzed_at:%Y-%m-%d %H:%M} UTC · method `{a.method}` · confidence "
        f"{a.confidence:.2f} · analysis `{a.analysis_id}`",
        "",
    ]
    signals = a.provenance.get("signals", {})
    for trait, value in a.scores.as_dict().items():
        ids = a.trait_evidence.get(trait)
        if a.source == "quiz":
            basis = "the user's own answers to this factor's 10 IPIP items"
        else:
            basis = _cite(ids if ids is not None else a.evidence, cites)
        lines.append(f"- {trait.capitalize()} {value:.2f} — rests on {basis}")
    if signals:
        lines += ["", "Signals: " + ", ".join(f"{k} {v}" for k, v in signals.items())]
    return [*lines, ""]


def _history(analyses: Sequence[Analysis], cites: Mapping[str, str]) -> list[str]:
    """All analyses -> dated lines, with the change from the previous one of the same source."""
    lines: list[str] = []
    previous: dict[str, Analysis] = {}
    for a in sorted(analyses, key=lambda a: (a.analyzed_at, a.analysis_id)):
        delta = ""
        if a.source in previous:
            old, new = previous[a.source].scores.as_dict(), a.scores.as_dict()
            delta = " · change " + " ".join(f"{SHORT[t]} {new[t] - old[t]:+.2f}" for t in TRAITS)
        lines.append(
            f"- {a.analyzed_at:%Y-%m-%d} {a.source} · {_scores(a)} · confidence "
            f"{a.confidence:.2f}{delta} — rests on {_rests_on(a, cites)}"
        )
        previous[a.source] = a
    return lines or ["- no analyses yet"]


def _weighted(items: Sequence[Weighted], cites: Mapping[str, str]) -> list[str]:
    """Weighted items -> list lines with their evidence."""
    if not items:
        return ["- not enough evidence yet"]
    return [f"- {w.name} ({w.weight:.2f}) — rests on {_cite(w.evidence, cites)}" for w in items]


def _traits(p: IntegratedProfile, cites: Mapping[str, str]) -> list[str]:
    """Profile -> dominant trait lines, each naming the analysis and memories it rests on."""
    if not p.dominant_traits or p.current_source is None:
        return ["- no Big Five analysis yet"]
    origin = f"{LABELS[p.current_source].lower()} `{p.current_analysis_id}`"
    return [
        f"- {w.name} ({w.weight:.2f}) — from the {origin}"
        + (f", rests on {_cite(w.evidence, cites)}" if w.evidence else "")
        for w in p.dominant_traits
    ]


def render_profile_page(
    analyses: Sequence[Analysis], profile: IntegratedProfile, cites: Mapping[str, str]
) -> str:
    """Analyses + integrated profile + citations -> the whole `bank/profile.md` text."""
    current = current_analysis(analyses)
    rule = (
        "Rule: the latest questionnaire if there is one, else the latest LLM "
        "analysis, else the offline estimate. Sources are shown apart and never averaged."
    )
    lines = [
        "---",
        "tags: [omoide, profile]",
        "---",
        "# Profile",
        "",
        "<!-- generated by omoide: this whole page is rewritten; edits here are replaced -->",
        "",
        f"![Big Five radar]({RADAR})",
        "",
        "## Big Five",
        "",
        f"Current: **{current.source if current else 'none'}**. {rule}",
        "",
    ]
    for latest in latest_by_source(analyses).values():
        lines += _source_section(latest, current, cites)
    p = profile
    lines += [
        "## Integrated profile",
        "",
        f"Built {p.state.built_at:%Y-%m-%d %H:%M} UTC from {p.state.n_memories} memories; "
        f"data quality {p.data_quality:.2f} ({p.quality_basis.get('own_texts', 0):.0f} own "
        f"texts over {p.quality_basis.get('days', 0):.0f} days).",
        "",
        "### Dominant traits",
        "",
        *_traits(p, cites),
        "",
        "### Core interests",
        "",
        *_weighted(p.core_interests, cites),
        "",
        "### Core values",
        "",
        *_weighted(p.core_values, cites),
        "",
        "### Key memories",
        "",
        *([f"- {_cite([i], cites)}" for i in p.key_memories] or ["- none yet"]),
        "",
        "## History",
        "",
        *_history(analyses, cites),
        "",
    ]
    return "\n".join(lines)


def write_profile_page(
    vault_dir: Path,
    analyses: Sequence[Analysis],
    profile: IntegratedProfile,
    cites: Mapping[str, str],
) -> tuple[bool, bool]:
    """Inputs -> `bank/profile.md` and its radar PNG, each written only when changed; (page, png)."""
    bank = vault_dir / "bank"
    series = {s: a.scores.as_dict() for s, a in latest_by_source(analyses).items()}
    current = current_analysis(analyses)
    png = radar_png(series, current.source if current else None)
    png_changed = write_bytes_if_changed(png, bank / RADAR)
    return write_text_if_changed(
        render_profile_page(analyses, profile, cites), bank / PAGE
    ), png_changed
