"""The `omoide bench` commands: PII scoring, throughput, LoCoMo and LongMemEval recall, recall latency, MCP, CLI start-up, backfill (one JSON object each with --json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

out = Console()
# The sample month's size, as `bench ask` and `bench digest` build it.
_SampleDays = Annotated[
    int,
    typer.Option(
        min=2, max=366, help="Days of the sample, ending 2026-11-20 (the story month: 30)."
    ),
]
_SampleVolume = Annotated[
    float, typer.Option(min=0.25, max=10, help="Sample activity per day (see omoide sample).")
]
bench_app = typer.Typer(
    help="Benchmarks: PII scoring, throughput, LoCoMo and LongMemEval recall, recall latency, MCP, CLI start-up, backfill.",
    no_args_is_help=True,
)


@bench_app.command("pii")
def bench_pii(
    data: Annotated[
        Path, typer.Option(exists=True, dir_okay=False, help="JSONL in the pii_dev format.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Score the sanitizer's PII detection: recall per type and overall precision."""
    from omoide.bench.pii import score

    result = score(data)
    if as_json:
        print(json.dumps(result))
        return
    table = Table("type", "recall")
    for t, r in result["recall"].items():
        table.add_row(t, "n/a" if r is None else f"{r:.3f}")
    out.print(table)
    out.print(f"precision {result['precision']:.3f} over {result['cases']} cases")


@bench_app.command("throughput")
def bench_throughput(
    events: Annotated[int, typer.Option(min=1000, help="Synthetic events to generate.")] = 100_000,
    repeats: Annotated[int, typer.Option(min=1, help="Rounds; the fastest counts.")] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Time collect→sanitize→sessionize against a row-by-row reference and a bare regex scan."""
    from omoide.bench.throughput import run_benchmark

    result = run_benchmark(events, repeats=repeats)
    if as_json:
        print(json.dumps(result))
        return
    table = Table("figure", "value")
    for k, v in result.items():
        table.add_row(k, f"{v:,.2f}" if isinstance(v, float) else str(v))
    out.print(table)


@bench_app.command("locomo")
def bench_locomo(
    data: Annotated[
        Path, typer.Option(exists=True, dir_okay=False, help="JSON in the LoCoMo format.")
    ],
    k: Annotated[str, typer.Option(help="Comma-separated cut-offs.")] = "5,10,25",
    decay_lambda: Annotated[
        float | None,
        typer.Option(
            help="Time decay λ while recalling (default: [recall] decay_lambda; 0 = none)."
        ),
    ] = None,
    limit: Annotated[
        int | None, typer.Option(min=1, help="Only the first N conversations.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Ingest each LoCoMo conversation through the pipeline's stages and score recall@k."""
    from omoide.bench.locomo import run_locomo
    from omoide.core.settings import get_settings

    ks = [int(x) for x in k.split(",") if x.strip()]
    lam = get_settings().recall.decay_lambda if decay_lambda is None else decay_lambda
    result = run_locomo(data, ks, decay_lambda=lam, limit=limit)
    if as_json:
        print(json.dumps(result))
        return
    cats = list(next(iter(result["recall_at"].values())))
    table = Table("k", *cats, "mean words")
    for kk, row in result["recall_at"].items():
        table.add_row(kk, *(f"{row[c]:.1f}" for c in cats), str(result["mean_words"][kk]))
    out.print(table)
    out.print(f"{result['questions']} questions; embeddings {result['embed_model']}")


@bench_app.command("longmemeval")
def bench_longmemeval(
    data: Annotated[
        Path, typer.Option(exists=True, dir_okay=False, help="JSON in LongMemEval's format.")
    ],
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N questions.")] = None,
    cache_dir: Annotated[
        Path | None,
        typer.Option(
            file_okay=False,
            help="Where built homes are kept and reused (default: ~/.cache/omoide-bench/longmemeval).",
        ),
    ] = None,
    decay_lambda: Annotated[
        float | None,
        typer.Option(
            help="Time decay λ while recalling (default: [recall] decay_lambda; 0 = none)."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Ingest each question's haystack through the pipeline's stages; session and turn recall@k against BM25 over turns."""
    from omoide.bench.longmemeval import run_longmemeval
    from omoide.core.settings import get_settings

    lam = get_settings().recall.decay_lambda if decay_lambda is None else decay_lambda
    result = run_longmemeval(data, cache_dir=cache_dir, limit=limit, decay_lambda=lam)
    if as_json:
        print(json.dumps(result))
        return
    table = Table("figure", "omoide", "BM25 turns")
    bm25 = result["bm25_turns"]
    for name in ("session_recall_any", "session_recall_all", "turn_recall", "words"):
        for kk, value in result[name].items():
            table.add_row(f"{name}@{kk}", str(value), str(bm25[name][kk]))
    out.print(table)
    same = result["bm25_turns_same_words"]
    out.print(
        f"BM25 at omoide's words at 10 ({same['words']} words, {same['turns']} turns): "
        f"any {same['session_recall_any']}, all {same['session_recall_all']}, "
        f"turns {same['turn_recall']}"
    )
    out.print(
        f"{result['questions']} questions; embeddings {result['embed_model']}; "
        f"{result['built']} homes built, {result['reused']} reused; {result['seconds']} s"
    )


@bench_app.command("crossval")
def bench_crossval(
    data: Annotated[
        Path, typer.Option(exists=True, dir_okay=False, help="JSON in the LoCoMo format.")
    ],
    limit: Annotated[
        int | None, typer.Option(min=2, help="Only the first N conversations.")
    ] = None,
    longmemeval: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="LongMemEval JSON: a change is chosen only where it helps there too.",
        ),
    ] = None,
    cache_dir: Annotated[
        Path | None,
        typer.Option(
            file_okay=False,
            help="Where LongMemEval's built homes are kept (default: ~/.cache/omoide-bench/longmemeval).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Recall's constants left-one-conversation-out on LoCoMo (and judged on LongMemEval): recall@10 as tuned, in sample and held out."""
    from omoide.bench.crossval import run_crossval
    from omoide.core.settings import get_settings

    result = run_crossval(
        data,
        decay_lambda=get_settings().recall.decay_lambda,
        limit=limit,
        longmemeval=longmemeval,
        cache_dir=cache_dir,
    )
    if as_json:
        print(json.dumps(result))
        return
    cats = list(result["default"])
    table = Table("recall@10", *cats)
    for figure in ("default", "in_sample", "cross_validated"):
        table.add_row(figure, *(f"{result[figure][c]:.1f}" for c in cats))
    out.print(table)
    for name, c in result["chosen"].items():
        out.print(
            f"{name}: default {c['default']:g}, kept by {c['folds_keeping_default']} of "
            f"{len(result['folds'])} folds; chosen {', '.join(f'{v:g}' for v in c['values_chosen'])}"
        )
    for key, f in result["longmemeval"].items():
        figures = ", ".join(f"{n} {v:g}" for n, v in f.items() if n != "helps")
        out.print(f"LongMemEval {key}: {figures}{' (helps)' if f['helps'] else ''}")


@bench_app.command("retrieval")
def bench_retrieval(
    data: Annotated[
        Path,
        typer.Option(
            exists=True, dir_okay=False, help="JSON with corpus and queries (eval/ja's format)."
        ),
    ],
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N questions.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Index a paragraph corpus as notes through omoide's path; recall@1/5/10 and words returned."""
    from omoide.bench.retrieval import run_retrieval
    from omoide.core.settings import get_settings
    from omoide.embed import get_embedder

    settings = get_settings()
    result = run_retrieval(data, get_embedder(settings.embed, settings.llm.host), limit=limit)
    if as_json:
        print(json.dumps(result, ensure_ascii=False))
        return
    table = Table("k", "recall %", "words")
    for kk, value in result["recall_at"].items():
        table.add_row(kk, f"{value:.1f}", str(result["words_at"][kk]))
    out.print(table)
    out.print(f"{result['questions']} questions; embeddings {result['embed_model']}")


@bench_app.command("recall")
def bench_recall(
    sizes: Annotated[str, typer.Option(help="Comma-separated table sizes.")] = "10000,100000",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Recall latency p50/p95 against a bare vector query on the same table; ingest rate."""
    from omoide.bench.recall import run_benchmark as run_recall_benchmark

    result = run_recall_benchmark([int(x) for x in sizes.split(",") if x.strip()])
    if as_json:
        print(json.dumps(result))
        return
    out.print_json(json.dumps(result))


@bench_app.command("mcp")
def bench_mcp(
    sizes: Annotated[str, typer.Option(help="Comma-separated table sizes.")] = "100000,1000000",
    rounds: Annotated[int, typer.Option(min=1, help="Rounds over the 30 questions.")] = 3,
    cache_dir: Annotated[
        Path | None,
        typer.Option(
            file_okay=False,
            help="Where built tables are kept and reused (default: ~/.cache/omoide-bench).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Warm recall through a real MCP client session (`omoide mcp` on stdio) against the same recall in-process."""
    from omoide.bench.mcp import run_benchmark as run_mcp_benchmark

    sized = [int(x) for x in sizes.split(",") if x.strip()]
    result = run_mcp_benchmark(sized, rounds=rounds, cache_dir=cache_dir)
    _show_against_targets(result, as_json)


@bench_app.command("cli")
def bench_cli(
    home: Annotated[
        Path | None,
        typer.Option(file_okay=False, help="A home to recall from (default: a sample, built)."),
    ] = None,
    rounds: Annotated[int, typer.Option(min=1, help="Fresh processes per command.")] = 7,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Time `omoide --help`, `omoide recall` and `omoide ask` as fresh processes against a bare interpreter."""
    from omoide.bench.cli_latency import run_benchmark as run_cli_benchmark

    _show_against_targets(run_cli_benchmark(home, rounds=rounds), as_json)


@bench_app.command("backfill")
def bench_backfill(
    days: Annotated[
        int | None,
        typer.Option(min=2, max=366, help="Days of sample history (365; 30 with --dask)."),
    ] = None,
    volume: Annotated[
        float, typer.Option(min=0.25, max=10, help="Sample activity per day (see omoide sample).")
    ] = 1.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    dask: Annotated[
        bool,
        typer.Option(
            "--dask",
            help="Instead: a cold backfill of --days (30 if not given) as is and with --dask; the speed-up.",
        ),
    ] = False,
    workers: Annotated[int, typer.Option(min=1, max=64, help="Dask workers with --dask.")] = 2,
) -> None:
    """Backfill a sample history cold (first, middle, last days), warm and forced; time each."""
    from omoide.bench.backfill import run_benchmark as run_backfill_benchmark
    from omoide.bench.backfill import run_dask_benchmark

    if dask:
        _show_against_targets(
            run_dask_benchmark(days or 30, volume=volume, workers=workers), as_json
        )
        return
    _show_against_targets(run_backfill_benchmark(days or 365, volume=volume), as_json)


def _show_against_targets(result: dict[str, Any], as_json: bool) -> None:
    """Benchmark result with its `targets` -> one JSON object, or a table of figure, value, target."""
    if as_json:
        print(json.dumps(result))
        return
    table = Table("figure", "value", "target")
    for key, value in result.items():
        if key != "targets":
            table.add_row(key, str(value), str(result["targets"].get(key, "")))
    out.print(table)


@bench_app.command("ask")
def bench_ask(
    days: _SampleDays = 30,
    volume: _SampleVolume = 1.0,
    cache_dir: Annotated[
        Path | None,
        typer.Option(
            file_okay=False,
            help="Where the backfilled sample is kept and reused (default: ~/.cache/omoide-bench/ask).",
        ),
    ] = None,
    data: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="Instead: a questions file with their truths (omoide.bench.ask.month_cases), asked against this home.",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Ask the sample month's questions (every kind, English and Japanese) and judge each answer: right per kind and language."""
    from omoide.bench.ask import run_ask_bench, run_cases
    from omoide.core.settings import get_settings

    if data is not None:
        result = run_cases(json.loads(data.read_text(encoding="utf-8")), get_settings())
    else:
        result = run_ask_bench(days, volume=volume, cache_dir=cache_dir)
    if as_json:
        print(json.dumps(result, ensure_ascii=False))
        return
    langs = list(result["per_language"])
    table = Table("kind", *langs, "all")
    for kind, row in result["per_kind"].items():
        table.add_row(kind, *(_right(row[lang]) for lang in (*langs, "all")))
    table.add_row("all", *(_right(result["per_language"][lang]) for lang in langs), "")
    table.add_row(
        "in the question's language", *(_right(result["in_language"][lang]) for lang in langs), ""
    )
    out.print(table)
    out.print(
        f"{result['overall_percent']:.1f} % of {result['questions']} questions answered right"
    )
    for item in result["items"]:
        if not item["right"]:
            got = item["answer"]["answer"].replace("\n", " ")[:200]
            out.print(
                f"  wrong ({item['kind']}, {item['lang']}): {item['question']}\n"
                f"    expected: {item['expected'][:200]}\n    got: {got}\n    why: {item['why']}",
                highlight=False,
                markup=False,
            )


def _right(share: dict[str, Any]) -> str:
    """{right, questions, percent} -> '7/8 (87.5 %)', or '' when there were none."""
    if not share["questions"]:
        return ""
    return f"{share['right']}/{share['questions']} ({share['percent']:.1f} %)"


@bench_app.command("digest")
def bench_digest(
    days: _SampleDays = 30,
    volume: _SampleVolume = 1.0,
    cache_dir: Annotated[
        Path | None,
        typer.Option(
            file_okay=False,
            help="Where the backfilled sample is kept and reused (default: ~/.cache/omoide-bench/digest).",
        ),
    ] = None,
    home: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            file_okay=False,
            help="Instead: score this backfilled sample home (its sample-script.json beside its sources).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Read the sample month's pages as a person would and score them against its script: blocks, highlights, facts, relations."""
    from omoide.bench.digest import run_digest_bench

    result = run_digest_bench(days, volume=volume, cache_dir=cache_dir, home=home)
    if as_json:
        print(json.dumps(result, ensure_ascii=False))
        return
    table = Table("figure", "value", "target")
    for key, target in (
        ("block_precision", "≥ 0.85"),
        ("block_recall", "≥ 0.85"),
        ("title_highlights", "0"),
        ("repeated_facts", "0"),
        ("relations_right", "1.0"),
        ("days", ""),
    ):
        table.add_row(key, str(result[key]), target)
    out.print(table)
    for item in result["detail"]["title_highlights"][:20]:
        out.print(f"  title as a highlight: {item['page']}: {item['text']}", markup=False)
    for name, rel in result["detail"]["relations"].items():
        if not rel["right"]:
            out.print(f"  {name}: stated {rel['stated']}, truth {rel['truth']}", markup=False)
