"""Each reflection step's result + the steps that failed -> one report and its Markdown artifact text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# The reflection's steps, in the order they run; each is one Prefect task.
STEPS = ("periods", "validity", "bigfive", "entities", "opinions", "links", "episodes", "profile")

# What a step reports when it did nothing (or failed), so every key is always present.
EMPTY: dict[str, Any] = {
    "facts_superseded": 0,
    "retain_lines_marked": 0,
    "entities": 0,
    "new_entities": [],
    "entity_pages_written": 0,
    "opinions": 0,
    "opinion_changes": [],
    "links_written": 0,
    "episodes": 0,
    "analyses_added": [],
    "profile_rebuilt": False,
    "profile_deltas": [],
    "periods": 0,
    "period_pages_written": 0,
}


# What a step changed on disk; a step served from Prefect's cache changed nothing this run.
WRITES = (
    "retain_lines_marked",
    "new_entities",
    "entity_pages_written",
    "opinion_changes",
    "links_written",
    "analyses_added",
    "profile_rebuilt",
    "profile_deltas",
    "period_pages_written",
)


def merge_results(
    results: Mapping[str, Mapping[str, Any]],
    failed: Mapping[str, str],
    cached: Sequence[str] = (),
) -> dict[str, Any]:
    """Results per step + {step: error} + the steps served from cache -> one JSON-ready report.

    The report holds counts and short lines, no memory text. A cached step's result is
    the run that computed it; here its writes count as none, since this run wrote nothing.
    """
    report = {k: (list(v) if isinstance(v, list) else v) for k, v in EMPTY.items()}
    for step in STEPS:
        result = dict(results.get(step) or {})
        if step in cached:
            result.update({k: EMPTY[k] for k in WRITES if k in result})
        report.update(result)
    report["failed"] = dict(failed)
    report["cached"] = [s for s in STEPS if s in cached]
    return report


def reflect_markdown(label: str, report: Mapping[str, Any]) -> str:
    """Merged report + label (a day or a window) -> the Markdown artifact of this reflection."""
    r = report
    lines = [
        f"# omoide reflect — {label}",
        "",
        f"- entities: {r['entities']} ({r['entity_pages_written']} page(s) written); "
        f"new: {', '.join(r['new_entities']) or 'none'}",
        f"- opinions: {r['opinions']} ({len(r['opinion_changes'])} change(s))",
        f"- facts replaced by a later one: {r['facts_superseded']} "
        f"({r['retain_lines_marked']} daily file(s) marked)",
        f"- daily files with links rewritten: {r['links_written']}",
        f"- episodes in the window: {r['episodes']}",
        f"- Big Five analyses added: {', '.join(r['analyses_added']) or 'none'}",
        f"- profile rebuilt: {'yes' if r['profile_rebuilt'] else 'no (no trigger)'}",
        f"- week and month pages: {r['periods']} ({r['period_pages_written']} written)",
    ]
    if r["cached"]:
        lines.append(f"- served from cache (nothing changed): {', '.join(r['cached'])}")
    if r["failed"]:
        lines += ["", "## Failed steps", ""]
        lines += [f"- **{step}**: {error}" for step, error in r["failed"].items()]
    if r["opinion_changes"]:
        lines += ["", "## Opinion moves", "", *r["opinion_changes"]]
    if r["profile_deltas"]:
        lines += ["", "## Profile changes", "", *(f"- {d}" for d in r["profile_deltas"])]
    return "\n".join(lines) + "\n"
