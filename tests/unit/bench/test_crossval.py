"""Leave-one-conversation-out: each fold tunes on the others, the held-out scores are what is reported."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from typer.testing import CliRunner

from omoide.bench import longmemeval
from omoide.bench.crossval import GRID, applied, cross_validate, defaults, helps
from omoide.cli.bench import bench_app
from omoide.memory import distinct as distinct_module
from omoide.memory import recall as recall_module
from tests.unit.bench.test_longmemeval import DATA as LONGMEMEVAL

FIXTURE = Path(__file__).parents[2] / "fixtures" / "locomo_tiny.json"


def test_a_setting_is_in_place_inside_and_gone_after() -> None:
    before = (recall_module.FEEDBACK_DOCS, distinct_module.NEAR_DUPLICATE)
    with applied((("FEEDBACK_DOCS", 0.0), ("NEAR_DUPLICATE", 0.7), ("W_LEX", 0.6)), 0.05) as kw:
        assert recall_module.FEEDBACK_DOCS == 0 and isinstance(recall_module.FEEDBACK_DOCS, int)
        assert distinct_module.NEAR_DUPLICATE == 0.7
        assert kw["w_lex"] == 0.6 and abs(kw["w_sem"] - 0.4) < 1e-9
        assert kw["decay_lambda"] == 0.05
    assert (recall_module.FEEDBACK_DOCS, distinct_module.NEAR_DUPLICATE) == before


def test_each_fold_is_scored_with_what_the_other_conversations_chose() -> None:
    base = defaults(0.05)
    # FEEDBACK_DOCS=0 helps on a and b but hurts c: the fold holding c out moves it, and
    # c's held-out score is then the worse one; in sample the change wins on the pooled mean.
    grid = {
        (): {"a": [("x", 0.5)], "b": [("x", 0.5)], "c": [("x", 0.9)]},
        (("FEEDBACK_DOCS", 0.0),): {"a": [("x", 0.6)], "b": [("x", 0.7)], "c": [("x", 0.5)]},
    }

    def score(setting, conv):
        return grid[setting][conv] if setting in grid else grid[()][conv]

    got = cross_validate(grid, base, score)
    folds = {f["held_out"]: f for f in got["folds"]}
    assert folds["c"]["moved"] == {"FEEDBACK_DOCS": 0.0} and folds["c"]["recall_at_10"] == 50.0
    assert folds["a"]["moved"] == {} and folds["b"]["moved"] == {}  # a tie keeps the default
    assert got["cross_validated"]["overall"] == round(100 * (0.5 + 0.5 + 0.5) / 3, 1)
    assert got["default"]["overall"] == round(100 * (0.5 + 0.5 + 0.9) / 3, 1)
    assert got["chosen"]["FEEDBACK_DOCS"]["folds_keeping_default"] == 2
    assert got["in_sample_moved"] == {}  # pooled: 0.6 vs 0.633, the default stays


def test_a_change_the_second_corpus_rejects_is_never_chosen() -> None:
    base = defaults(0.05)
    change = (("FEEDBACK_DOCS", 0.0),)
    grid = {
        (): {"a": [("x", 0.5)], "b": [("x", 0.5)]},
        change: {"a": [("x", 0.9)], "b": [("x", 0.9)]},  # LoCoMo alone would take it everywhere
    }

    def score(setting, conv):
        return grid[setting][conv] if setting in grid else grid[()][conv]

    free = cross_validate(grid, base, score)
    vetoed = cross_validate(grid, base, score, allowed=lambda s: s != change)
    assert all(f["moved"] == {"FEEDBACK_DOCS": 0.0} for f in free["folds"])
    assert all(f["moved"] == {} for f in vetoed["folds"]) and vetoed["in_sample_moved"] == {}
    assert vetoed["cross_validated"]["overall"] == 50.0


def test_a_change_helps_the_second_corpus_when_nothing_drops_and_something_rises() -> None:
    default = {"any@1": 95.0, "all@5": 65.0, "all@10": 87.5, "turn@5": 74.3, "turn@10": 84.5}
    assert helps({**default, "all@10": 90.0}, default)
    assert not helps(default, default)  # no figure rises: the default stays
    assert not helps({**default, "all@5": 70.0, "any@1": 92.5}, default)  # one drops
    assert helps({**default, "turn@5": 80.0, "words@5": 2000.0}, {**default, "words@5": 1.0})


def test_bench_crossval_on_two_real_conversations_judged_on_longmemeval(
    tmp_path: Path, monkeypatch
) -> None:
    one = json.loads(FIXTURE.read_text(encoding="utf-8"))[0]
    other = copy.deepcopy(one)
    other["sample_id"] = "tiny-2"
    data, lme = tmp_path / "two.json", tmp_path / "lme.json"
    data.write_text(json.dumps([one, other]), encoding="utf-8")
    lme.write_text(json.dumps(LONGMEMEVAL[:1]), encoding="utf-8")  # one home is enough here
    weights = []
    real = longmemeval.recall

    def spy(*args, **kwargs):
        weights.append(kwargs["w_lex"])
        return real(*args, **kwargs)

    monkeypatch.setattr(longmemeval, "recall", spy)
    args = ["crossval", "--data", str(data), "--longmemeval", str(lme)]
    r = CliRunner().invoke(bench_app, [*args, "--cache-dir", str(tmp_path / "cache"), "--json"])
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert got["questions"] == 2 * len(one["qa"])
    assert [f["held_out"] for f in got["folds"]] == ["tiny-1", "tiny-2"]
    assert set(got["chosen"]) == set(GRID)
    assert len(got["one_change"]) == 1 + sum(len(v) - 1 for v in GRID.values())
    for figure in ("default", "cross_validated", "in_sample"):
        assert 0.0 <= got[figure]["overall"] <= 100.0
    assert set(got["longmemeval"]) == set(got["one_change"])
    for figures in got["longmemeval"].values():
        assert set(figures) == {"any@1", "all@5", "all@10", "turn@5", "turn@10", "words@5", "helps"}
    assert got["longmemeval"]["defaults"]["helps"] is False
    assert set(weights) == set(GRID["W_LEX"])  # each W_LEX of the grid reached recall
    moved = [f["moved"] for f in got["folds"]] + [got["in_sample_moved"]]
    for setting in moved:  # whatever a fold chose, LongMemEval let it
        for name, value in setting.items():
            assert got["longmemeval"][f"{name}={value:g}"]["helps"]
