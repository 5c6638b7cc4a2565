"""Big Five analyses + the integrated profile + citations -> `vault/bank/profile.md` and its radar PNG.

Every score and statement on the page quotes the memories it rests on (day, short quote,
link to the line; ids in hidden comments, as is each analysis id); sources are shown apart,
never averaged. Relationships are the people's stored bonds (omoide.profile.report), each
linking to the person's page, which shows the same figure. Both files are written only
when they change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

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
from omoide.vault.evidence import Cited, evidence, evidence_items, hidden_ids

PAGE = "profile.md"
RADAR = "profile-radar.png"
LABELS = {"quiz": "Questionnaire (IPIP-50)", "llm": "LLM analysis", "offline": "Offline estimate"}
SHORT = {t: t[0].upper() for t in TRAITS}


def _rests_on(
    head: str,
    ids: Sequence[str],
    cites: Mapping[str, Cited],
    page_dir: Path,
    note: str = "",
    none: str = "no memories: no evidence, the neutral default",
) -> list[str]:
    """A list line + the memory ids it rests on -> that line, then its evidence quoted under it."""
    if not ids:
        # Said outright: a score with nothing behind it is the scale's neutral middle, not a finding.
        return [f"{head} — rests on {none}{note}"]
    n = "1 memory" if len(ids) == 1 else f"{len(ids)} memories"
    return [f"{head} — rests on {n}:{note}", *evidence_items(ids, cites, page_dir, SHOWN_EVIDENCE)]


def _scores(a: Analysis) -> str:
    """Analysis -> "O 0.70 · C 0.55 · ..."."""
    return " · ".join(f"{SHORT[t]} {v:.2f}" for t, v in a.scores.as_dict().items())


def _source_section(
    a: Analysis, current: Analysis | None, cites: Mapping[str, Cited], page_dir: Path
) -> list[str]:
    """Latest analysis of one source -> its page section, each score with its evidence."""
    tag = " — current" if current and a.analysis_id == current.analysis_id else ""
    low = " (low confidence)" if a.source == "offline" else ""
    lines = [
        f"### {LABELS[a.source]}{low}{tag}",
        "",
        f"{a.analyzed_at:%Y-%m-%d %H:%M} UTC · method `{a.method}` · confidence "
        f"{a.confidence:.2f} {hidden_ids([a.analysis_id], 'analysis')}",
        "",
    ]
    signals = a.provenance.get("signals", {})
    for trait, value in a.scores.as_dict().items():
        head = f"- {trait.capitalize()} {value:.2f}"
        if a.source == "quiz":
            lines.append(f"{head} — rests on the user's own answers to this factor's 10 IPIP items")
            continue
        ids = a.trait_evidence.get(trait)
        none = "the signals below only: none of the user's own words speaks of it"
        lines += _rests_on(
            head,
            ids if ids is not None else a.evidence,
            cites,
            page_dir,
            none=none if signals else "no memories: no evidence, the neutral default",
        )
    shown = signal_text(signals)
    if shown:
        lines += ["", "Signals: " + shown]
    return [*lines, ""]


# Signals that measure a spread: at 0 they say every value was the same, which is told.
_SPREADS = {"start_hour_sd": "every active day started at the same hour"}


def signal_text(signals: Mapping[str, Any]) -> str:
    """An analysis's signals -> `name value, …`: one with no value left out, a spread of 0 explained."""
    out = []
    for name, value in signals.items():
        if value is None:
            continue
        if name in _SPREADS and value == 0:
            out.append(f"{name} 0 ({_SPREADS[name]}, so it tells no habit)")
            continue
        out.append(f"{name} {value}")
    return ", ".join(out)


def _history(analyses: Sequence[Analysis]) -> list[str]:
    """All analyses -> dated lines, with the change from the previous one of the same source."""
    lines: list[str] = []
    previous: dict[str, Analysis] = {}
    for a in sorted(analyses, key=lambda a: (a.analyzed_at, a.analysis_id)):
        delta = ""
        if a.source in previous:
            old, new = previous[a.source].scores.as_dict(), a.scores.as_dict()
            delta = " · change " + " ".join(f"{SHORT[t]} {new[t] - old[t]:+.2f}" for t in TRAITS)
        if a.source == "quiz":
            basis = "the user's own 50 IPIP answers"
        else:
            # The memories are quoted in the source sections above; here they are only counted.
            basis = f"{len(a.evidence)} memories {hidden_ids(a.evidence[:SHOWN_EVIDENCE])}"
        lines.append(
            f"- {a.analyzed_at:%Y-%m-%d} {a.source} · {_scores(a)} · confidence "
            f"{a.confidence:.2f}{delta} — rests on {basis} {hidden_ids([a.analysis_id], 'analysis')}"
        )
        previous[a.source] = a
    return lines or ["- no analyses yet"]


def _weighted(items: Sequence[Weighted], cites: Mapping[str, Cited], page_dir: Path) -> list[str]:
    """Weighted items -> list lines, each with its evidence quoted under it."""
    if not items:
        return ["- not enough evidence yet"]
    return [
        line
        for w in items
        for line in _rests_on(f"- {w.name} ({w.weight:.2f})", w.evidence, cites, page_dir)
    ]


def _traits(p: IntegratedProfile, cites: Mapping[str, Cited], page_dir: Path) -> list[str]:
    """Profile -> dominant trait lines, each naming the analysis and memories it rests on."""
    if not p.dominant_traits or p.current_source is None:
        return ["- no Big Five analysis yet"]
    origin = f"from the {LABELS[p.current_source].lower()}"
    note = f" {hidden_ids([p.current_analysis_id], 'analysis')}" if p.current_analysis_id else ""
    return [
        line
        for w in p.dominant_traits
        for line in _rests_on(
            f"- {w.name} ({w.weight:.2f}), {origin}",
            w.evidence,
            cites,
            page_dir,
            note,
            none="its score alone",
        )
    ]


def _relationships(people: Sequence[Mapping[str, Any]]) -> list[str]:
    """The people's stored relationships -> one line each, linking to the person's page."""
    lines = []
    for r in people:
        shown = " ".join(str(r["name"]).translate(str.maketrans("|[]", "   ")).split()) or "?"
        lines.append(
            f"- [[{r['slug']}|{shown}]]: {r['relationship_type']} (bond {r['bond_strength']:.2f}, "
            f"confidence {r['relationship_confidence']:.2f}, {r['interaction_count']} interactions)"
        )
    return lines or ["- no one yet (people are chat partners and the `people` setting)"]


def render_profile_page(
    analyses: Sequence[Analysis],
    profile: IntegratedProfile,
    cites: Mapping[str, Cited],
    page_dir: Path,
    relationships: Sequence[Mapping[str, Any]] = (),
) -> str:
    """Analyses + integrated profile + cited memories + the page's folder (+ the people's relationships) -> the `bank/profile.md` text."""
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
        lines += _source_section(latest, current, cites, page_dir)
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
        *_traits(p, cites, page_dir),
        "",
        "### Core interests",
        "",
        *_weighted(p.core_interests, cites, page_dir),
        "",
        "### Core values",
        "",
        *_weighted(p.core_values, cites, page_dir),
        "",
        "### Key memories",
        "",
        *([f"- {evidence(i, cites, page_dir)}" for i in p.key_memories] or ["- none yet"]),
        "",
        "### Relationships",
        "",
        *_relationships(relationships),
        "",
        "## History",
        "",
        *_history(analyses),
        "",
    ]
    return "\n".join(lines)


def write_profile_page(
    vault_dir: Path,
    analyses: Sequence[Analysis],
    profile: IntegratedProfile,
    cites: Mapping[str, Cited],
    relationships: Sequence[Mapping[str, Any]] = (),
) -> tuple[bool, bool]:
    """Inputs (+ the people's relationships) -> `bank/profile.md` and its radar PNG, each written only when changed; (page, png)."""
    bank = vault_dir / "bank"
    series = {s: a.scores.as_dict() for s, a in latest_by_source(analyses).items()}
    current = current_analysis(analyses)
    png = radar_png(series, current.source if current else None)
    png_changed = write_bytes_if_changed(png, bank / RADAR)
    return write_text_if_changed(
        render_profile_page(analyses, profile, cites, bank, relationships), bank / PAGE
    ), png_changed
