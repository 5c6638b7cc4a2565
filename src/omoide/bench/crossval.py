"""Recall's constants, cross-validated: leave one LoCoMo conversation out, tune on the rest, score it.

Every constant of `omoide.memory.recall` (and the two of `omoide.memory.distinct`) that LoCoMo
can move has a grid of values around its default (`GRID`). Each conversation is ingested once;
every one-constant change (the others at their defaults) is scored on every question. Then, for
each conversation in turn, each constant takes the value best on the *other* conversations
(ties keep the default), the combination is scored on the held-out conversation, and the
held-out scores of all folds pooled are the cross-validated figure: what tuning would give on a
conversation it never saw. The in-sample figure beside it is each constant's best value on all
conversations together, scored on them. A constant whose default is not the value most folds
choose is said so (`chosen`), which is what `docs/benchmarks.md` reports for each constant.

The score is LoCoMo's recall_acc at 10 (`omoide.bench.locomo`), question-weighted.
Constants a conversation cannot move are not in the grid: BROWSED (LoCoMo has no browsing),
SUPERSEDED (no replaced facts), OUT_OF_WINDOW (its questions name no time window the bench
reads), STRENGTH_GAIN (no rehearsal while benchmarking), FORGETTING_FLOOR (off by default).
LINE_OVERLAP is not in the grid either: a chat record folds where its own message is shown
(its neighbours are marked, `omoide.memory.chat_window`), and the share applies to the records
of one note alone, which LoCoMo does not have.

With a second corpus (`--longmemeval FILE`, LongMemEval's format, its homes cached as
`omoide.bench.longmemeval` keeps them) every one-change setting is also scored there, and a
change may be chosen only where it helps there too (`helps`: none of session recall_any@1,
recall_all@5 and @10, turn recall@5 and @10 lower than the defaults', one of them higher). The
folds and the in-sample figure choose among those changes alone, so the cross-validated figure
is that of constants kept on both corpora.
"""

from __future__ import annotations

import json
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np

from omoide.bench.locomo import (
    CATEGORIES,
    Conversation,
    asked_at,
    conversation,
    evidence_found,
    evidence_ids,
    ingest,
)
from omoide.embed.base import Embedder
from omoide.memory import distinct as distinct_module
from omoide.memory import recall as recall_module

K = 10
# name -> values tried; the default is the value the code has (always among them)
GRID: dict[str, tuple[float, ...]] = {
    "W_LEX": (0.5, 0.6, 0.7, 0.8, 0.9),  # W_SEM = 1 - W_LEX
    "W_TIME": (0.0, 0.15, 0.3, 0.5),
    "decay_lambda": (0.0, 0.02, 0.05, 0.1),
    "INFERRED": (0.5, 0.7, 0.85, 1.0),
    "MIN_CREDIT": (0.15, 0.3, 0.5),
    "POOL_MIN": (30, 50, 100),
    "FEEDBACK_DOCS": (0, 2, 4, 6),
    "FEEDBACK_WEIGHT": (0.5, 1.0, 1.5),
    "FEEDBACK_ACROSS": (0.25, 0.5, 1.0),
    "NEAR_DUPLICATE": (0.7, 0.8, 0.9),
    "SAME_SITTING": (0.5, 0.7, 0.85, 1.0),
}
_MODULES = {"NEAR_DUPLICATE": distinct_module}
_ARGUMENTS = {
    "W_LEX",
    "W_TIME",
    "decay_lambda",
}  # passed to recall(); the rest are module constants

Setting = tuple[tuple[str, float], ...]  # the constants moved from their defaults, sorted
Scores = dict[str, list[tuple[str, float]]]  # conversation -> (category, recall_acc) per question
# the second corpus's recall figures a change must not lower (and raise one of)
SECOND_FIGURES = ("any@1", "all@5", "all@10", "turn@5", "turn@10")
_RESULT_KEYS = {
    "any": "session_recall_any",
    "all": "session_recall_all",
    "turn": "turn_recall",
    "words": "words",
}  # a figure's name -> its key in `run_longmemeval`'s result


def defaults(decay_lambda: float) -> dict[str, float]:
    """Recall's decay λ -> every gridded constant's value in the code as it stands."""
    out = {
        n: float(getattr(_MODULES.get(n, recall_module), n)) for n in GRID if n not in _ARGUMENTS
    }
    return {
        **out,
        "W_LEX": recall_module.W_LEX,
        "W_TIME": recall_module.W_TIME,
        "decay_lambda": decay_lambda,
    }


@contextmanager
def applied(setting: Setting, decay_lambda: float) -> Iterator[dict[str, float]]:
    """A setting -> its module constants in place while inside; yields recall()'s keyword arguments for it."""
    moved = dict(setting)
    kwargs = {
        "w_lex": moved.get("W_LEX", recall_module.W_LEX),
        "w_sem": 1.0 - moved.get("W_LEX", recall_module.W_LEX),
        "w_time": moved.get("W_TIME", recall_module.W_TIME),
        "decay_lambda": moved.get("decay_lambda", decay_lambda),
    }
    with ExitStack() as stack:
        for name, value in moved.items():
            if name not in _ARGUMENTS:
                module = _MODULES.get(name, recall_module)
                kind = type(getattr(module, name))
                stack.enter_context(mock.patch.object(module, name, kind(value)))
        yield kwargs


def one_change_settings(base: Mapping[str, float]) -> list[Setting]:
    """Defaults -> the empty setting and every one-constant change of the grid."""
    out: list[Setting] = [()]
    for name, values in GRID.items():
        out += [((name, float(v)),) for v in values if not np.isclose(v, base[name])]
    return out


def score_conversation(
    table: Any,
    conv: Conversation,
    chat_path: str,
    now: datetime,
    emb: Embedder,
    kwargs: Mapping[str, float],
) -> list[tuple[str, float]]:
    """A built conversation + recall's keyword arguments -> (category, recall_acc@K) per question."""
    out = []
    for qa in conv.questions:
        gold = evidence_ids(qa.get("evidence") or [])
        got = recall_module.recall(
            table, emb, str(qa["question"]), now, k=K, rehearse=False, **kwargs
        )
        acc = evidence_found(got, gold, chat_path, conv.dia_ids)
        out.append((CATEGORIES.get(int(qa.get("category", 0)), "other"), acc))
    return out


def _mean(rows: Sequence[tuple[str, float]]) -> float:
    """(category, score) rows -> their mean in percent."""
    return 100.0 * float(np.mean([a for _, a in rows])) if rows else 0.0


def _by_category(rows: Sequence[tuple[str, float]]) -> dict[str, float]:
    """(category, score) rows -> percent overall and per category, one decimal."""
    cats: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for c, a in rows:
        cats[c].append((c, a))
    return {
        "overall": round(_mean(rows), 1),
        **{c: round(_mean(v), 1) for c, v in sorted(cats.items())},
    }


def best_values(
    grid_scores: Mapping[Setting, Scores],
    convs: Sequence[str],
    base: Mapping[str, float],
    allowed: Callable[[Setting], bool] = lambda _: True,
) -> dict[str, float]:
    """One-change scores + the conversations tuned on + defaults (+ the changes allowed) -> each constant's best value there (ties keep the default)."""
    chosen = {}
    for name in GRID:
        best, best_score = base[name], _mean([x for c in convs for x in grid_scores[()][c]])
        for setting, scores in grid_scores.items():
            if len(setting) == 1 and setting[0][0] == name and allowed(setting):
                s = _mean([x for c in convs for x in scores[c]])
                if s > best_score + 1e-9:
                    best, best_score = setting[0][1], s
        chosen[name] = best
    return chosen


def as_setting(values: Mapping[str, float], base: Mapping[str, float]) -> Setting:
    """Chosen values + defaults -> the setting of those that differ."""
    return tuple(sorted((n, v) for n, v in values.items() if not np.isclose(v, base[n])))


def cross_validate(
    grid_scores: Mapping[Setting, Scores],
    base: Mapping[str, float],
    score: Callable[[Setting, str], list[tuple[str, float]]],
    allowed: Callable[[Setting], bool] = lambda _: True,
) -> dict[str, Any]:
    """One-change scores + defaults + a scorer of (setting, conversation) (+ the changes allowed) -> held-out, in-sample and default figures, and each fold's choices."""
    convs = sorted(grid_scores[()])
    held: list[tuple[str, float]] = []
    folds = []
    for out in convs:
        rest = [c for c in convs if c != out]
        chosen = best_values(grid_scores, rest, base, allowed)
        setting = as_setting(chosen, base)
        got = score(setting, out)
        held += got
        folds.append(
            {"held_out": out, "moved": dict(setting), "recall_at_10": round(_mean(got), 1)}
        )
    everywhere = best_values(grid_scores, convs, base, allowed)
    in_setting = as_setting(everywhere, base)
    in_sample = [x for c in convs for x in score(in_setting, c)]
    default = [x for c in convs for x in grid_scores[()][c]]
    votes = {name: sorted({f["moved"].get(name, base[name]) for f in folds}) for name in GRID}
    return {
        "default": _by_category(default),
        "cross_validated": _by_category(held),
        "in_sample": _by_category(in_sample),
        "in_sample_moved": dict(in_setting),
        "folds": folds,
        "chosen": {
            name: {
                "default": base[name],
                "folds_keeping_default": sum(name not in f["moved"] for f in folds),
                "values_chosen": votes[name],
            }
            for name in GRID
        },
        "one_change": {
            setting_key(s): round(_mean([x for c in convs for x in sc[c]]), 2)
            for s, sc in grid_scores.items()
        },
    }


def setting_key(setting: Setting) -> str:
    """A setting -> its name in the JSON ("W_LEX=0.6", "defaults")."""
    return ",".join(f"{n}={v:g}" for n, v in setting) or "defaults"


def second_figures(result: Mapping[str, Any]) -> dict[str, float]:
    """A `run_longmemeval` result -> the recall figures a change is judged by there, and the words at 5."""
    out = {}
    for figure in (*SECOND_FIGURES, "words@5"):
        name, _, k = figure.partition("@")
        out[figure] = result[_RESULT_KEYS[name]][k]
    return out


def helps(figures: Mapping[str, float], default: Mapping[str, float]) -> bool:
    """A change's second-corpus figures + the defaults' -> True when none is lower and one is higher."""
    diffs = [figures[n] - default[n] for n in SECOND_FIGURES]
    return min(diffs) > -1e-9 and max(diffs) > 1e-9


def score_second(
    data: Path,
    settings: Sequence[Setting],
    emb: Embedder,
    decay_lambda: float,
    cache_dir: Path | None,
) -> dict[Setting, dict[str, float]]:
    """LongMemEval JSON file + settings -> each setting's figures there (homes built once, then cached)."""
    from omoide.bench.longmemeval import run_longmemeval

    out = {}
    for setting in settings:
        with applied(setting, decay_lambda) as kw:
            weights = {n: kw[n] for n in ("w_lex", "w_sem", "w_time")}
            got = run_longmemeval(
                data, emb, cache_dir, decay_lambda=kw["decay_lambda"], weights=weights
            )
        out[setting] = second_figures(got)
    return out


def run_crossval(
    data: Path,
    embedder: Embedder | None = None,
    decay_lambda: float = 0.05,
    limit: int | None = None,
    longmemeval: Path | None = None,
    cache_dir: Path | None = None,
) -> dict[str, Any]:
    """LoCoMo JSON file (+ a LongMemEval one as the second corpus) -> cross-validated recall@10 of recall's constants (see the module docstring)."""
    from omoide.embed.minilm import MiniLMEmbedder

    emb = embedder or MiniLMEmbedder()
    samples = json.loads(data.read_text(encoding="utf-8"))[:limit]
    base = defaults(decay_lambda)
    settings = one_change_settings(base)
    second = (
        score_second(longmemeval, settings, emb, decay_lambda, cache_dir) if longmemeval else {}
    )

    def allowed(setting: Setting) -> bool:
        """A one-constant change -> whether the second corpus (if any) lets it be chosen."""
        return not second or helps(second[setting], second[()])

    with tempfile.TemporaryDirectory(prefix="omoide-crossval-") as tmp:
        built = {}
        for sample in samples:
            conv = conversation(sample)
            now = asked_at(conv)
            home = Path(tmp) / conv.sample_id
            home.mkdir()
            table = ingest(conv, home, emb, now)
            built[conv.sample_id] = (table, conv, str((home / "chat.jsonl").resolve()), now)

        def score(setting: Setting, conv_id: str) -> list[tuple[str, float]]:
            """A setting + a conversation -> its questions' scores under it."""
            table, conv, chat_path, now = built[conv_id]
            with applied(setting, decay_lambda) as kwargs:
                return score_conversation(table, conv, chat_path, now, emb, kwargs)

        grid_scores = {s: {c: score(s, c) for c in built} for s in settings}
        result = cross_validate(grid_scores, base, score, allowed)
    return {
        **result,
        "longmemeval": {
            setting_key(s): {**f, "helps": helps(f, second[()])} for s, f in second.items()
        },
        "k": K,
        "questions": sum(len(v) for v in grid_scores[()].values()),
        "embed_model": emb.model,
    }
