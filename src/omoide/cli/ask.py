"""`omoide ask`: one short answer with citations (library calls, no Prefect start-up)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from omoide.cli.quick_exit import arm

if TYPE_CHECKING:
    from omoide.core.settings import Settings
    from omoide.llm.base import LLM

out = Console()


def ask_command(
    question: Annotated[
        str, typer.Argument(help="A question in your own words (English or Japanese).")
    ],
    now_at: Annotated[
        str | None,
        typer.Option(
            "--now",
            help="Answer as of this ISO time (default: now; without an offset, in your timezone): "
            "the reference for 'yesterday', 'last week' and the like.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    with_llm: Annotated[
        bool,
        typer.Option(
            "--llm",
            help="Let the [llm] model word the answer from its citations (kept only when grounded "
            "in them; offline wording otherwise).",
        ),
    ] = False,
) -> None:
    """Answer a question about your own days: an overview, time spent, when, or a lookup; cited."""
    arm()  # an ask writes nothing but its model's answer cache, committed before it prints
    found = None
    if not with_llm:  # the model's wording is asked from this process, never from the endpoint
        from omoide.cli.recall_route import answered

        served = answered("ask", {"question": question, "now_at": now_at})
        found = None if served is None else served["result"]
    if found is None:
        from omoide.core.settings import get_settings

        settings = get_settings()
        found = ask_found(settings, question, now_at, llm=_model(settings) if with_llm else None)
    if as_json:
        print(json.dumps(found, ensure_ascii=False))
        return
    out.print(escape(found["answer"]), highlight=False)
    for c in found["citations"]:
        out.print(f"  [dim]{escape(c['day'])}  {escape(c['source'])}[/]", highlight=False)


def ask_found(
    settings: Settings, question: str, now_at: str | None = None, llm: LLM | None = None
) -> dict[str, Any]:
    """Settings + a question (+ the time it is asked at, + a model to word it) -> what `omoide ask --json` prints."""
    from omoide.answer.ask import ask
    from omoide.core.days import reference_time

    now = reference_time(now_at, settings.timezone)
    return ask(question, settings, now, llm=llm).to_json()


def _model(settings: Settings) -> LLM | None:
    """Settings -> the configured model behind the answer cache, or None (said on stderr) when none answers."""
    from omoide.answer.wording import PROMPT_VERSION
    from omoide.llm import get_llm
    from omoide.llm.cache import CachedLLM

    llm = get_llm(settings.llm)
    if llm is None:
        Console(stderr=True).print("no model answers ([llm] settings): the offline answer follows")
        return None
    return CachedLLM(llm, settings.cache_dir, PROMPT_VERSION)
