"""The reflect-side commands of the omoide CLI: entity, profile, profile quiz (library calls)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from omoide.cli.memory import memories_table

out = Console()
profile_app = typer.Typer(help="Your Big Five and integrated profile.", invoke_without_command=True)


def entity_command(
    name: Annotated[
        str, typer.Argument(help="A person, project or place, as you write it (@Peter, peter).")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Tell me about NAME: summary, relationship, timeline with citations, related entities."""
    from omoide.core.settings import get_settings
    from omoide.reflect.entity_report import entity_report_from_store
    from omoide.store.entities_table import open_entities
    from omoide.store.validity_table import load_validity

    settings = get_settings()
    memories = memories_table(settings)
    report = entity_report_from_store(
        open_entities(settings.lancedb_dir),
        memories,
        name,
        datetime.now(UTC),
        validity=load_validity(settings.lancedb_dir),
    )
    if as_json:
        print(json.dumps(report, ensure_ascii=False, default=str))
        return
    out.print(f"[bold]{escape(report['name'])}[/]  ({report['n_memories']} memories)")
    out.print(escape(report["summary"]))
    if report["facts"] or report["was"]:
        out.print("facts now:")
        for item in report["facts"]:
            _print_evidence(item["day"], item["quote"], item["source"], item["kind"])
        for item in report["was"]:
            out.print(f"  was, until {item['until']}:", highlight=False)
            _print_evidence(item["day"], item["quote"], item["source"], item["kind"])
        out.print("timeline:")
    for item in report["timeline"]:
        _print_evidence(item["day"], item["quote"], item["source"], item["kind"])
    if report["related"]:
        out.print(
            "related: " + ", ".join(f"{r['name']} ({r['shared']})" for r in report["related"])
        )


def _print_evidence(day: str, quote: str, source: str, kind: str = "") -> None:
    """A memory's day, short quote and citation -> two lines: what was said, then where."""
    kind_col = f"{kind:<7} " if kind else ""
    out.print(f"  {day}  {kind_col}“{escape(quote)}”", highlight=False)
    out.print(f"              {escape(source)}", highlight=False)


@profile_app.callback()
def profile_command(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Print the integrated profile and the current Big Five (see vault/bank/profile.md)."""
    from omoide.core.settings import get_settings

    if ctx.invoked_subcommand is not None:
        return
    from omoide.profile.report import profile_parts, profile_report

    settings = get_settings()
    parts = profile_parts(settings.lancedb_dir, settings.cache_dir)
    profile, current, relationships = parts.profile, parts.current, parts.relationships
    if as_json:
        print(json.dumps(profile_report(parts), ensure_ascii=False))
        return
    if current is not None:
        scores = ", ".join(f"{t} {v:.2f}" for t, v in current.scores.as_dict().items())
        out.print(f"Big Five ({current.source}, confidence {current.confidence:.2f}): {scores}")
    for label, items in (
        ("dominant traits", profile.dominant_traits),
        ("core interests", profile.core_interests),
        ("core values", profile.core_values),
    ):
        out.print(f"{label}: " + ", ".join(f"{w.name} ({w.weight:.2f})" for w in items))
    from omoide.core.quotes import short_quote
    from omoide.store.memories import rows_with_ids

    out.print("key memories:")
    for row in rows_with_ids(memories_table(settings), profile.key_memories).itertuples():
        _print_evidence(row.day, short_quote(row.content), row.source)
    if relationships:
        out.print("relationships:")
    for r in relationships:
        out.print(
            f"  {r['name']}: {r['relationship_type']} (bond {r['bond_strength']:.2f}, "
            f"confidence {r['relationship_confidence']:.2f}, {r['interaction_count']} interactions)"
        )
    out.print(
        f"data quality: {profile.data_quality:.2f}; page: {settings.vault_dir / 'bank' / 'profile.md'}"
    )


@profile_app.command("quiz")
def quiz_command() -> None:
    """Answer the 50 public-domain IPIP Big-Five items; stored as the 'quiz' analysis."""
    from omoide.cli.runtime import flow_modules, outcome, run_flow, writing
    from omoide.core.settings import get_settings
    from omoide.profile.history import record_analysis
    from omoide.profile.ipip import INSTRUCTIONS, SCALE, quiz_analysis, quiz_answers
    from omoide.store.profile_table import open_profile_history

    settings = get_settings()
    memories_table(settings)  # no memories yet: say so before asking 50 questions
    out.print(INSTRUCTIONS)
    out.print("  ".join(f"{i} = {label}" for i, label in enumerate(SCALE, start=1)))

    def ask(question: str) -> int:
        return typer.prompt(question, type=int)

    analysis = quiz_analysis(quiz_answers(ask), datetime.now(UTC))
    with writing(settings, "omoide profile quiz"):
        added = record_analysis(open_profile_history(settings.lancedb_dir), analysis)
        # The reflection over no new days rebuilds the profile page with the new analysis.
        _, _, reflect_module = flow_modules(settings.home, "profile-quiz", start_server=True)
        state = run_flow(reflect_module.reflect_flow, days=0, analyse=False)
    outcome(state, "rebuilding the profile")
    scores = ", ".join(f"{t} {v:.2f}" for t, v in analysis.scores.as_dict().items())
    out.print(f"{'Saved' if added else 'Same answers as before'}: {scores}")
