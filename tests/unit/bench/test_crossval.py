"""Leave-one-conversation-out: each fold tunes on the others, the held-out scores are what is reported."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from typer.testing import CliRunner

from omoide.bench.crossval import GRID, applied, cross_validate, defaults
from omoide.cli.bench import bench_app
from omoide.memory import distinct as distinct_module
from omoide.memory import recall as recall_module

FIXTURE = Path(__file__).parents[2] / "fixtures" / "locomo_tiny.json"


def test_a_setting_is_in_place_inside_and_gone_after() -> None:
    before = (recall_module.FEEDBACK_DOCS, distinct_module.LINE_OVERLAP)
    with applied((("FEEDBACK_DOCS", 0.0), ("LINE_OVERLAP", 0.3), ("W_LEX", 0.6)), 0.05) as kw:
        assert recall_module.FEEDBACK_DOCS == 0 and isinstance(recall_module.FEEDBACK_DOCS, int)
        assert distinct_module.LINE_OVERLAP == 0.3
        assert kw["w_lex"] == 0.6 and abs(kw["w_sem"] - 0.4) < 1e-9
        assert kw["decay_lambda"] == 0.05
    assert (recall_module.FEEDBACK_DOCS, distinct_module.LINE_OVERLAP) == before


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


def test_bench_crossval_on_two_real_conversations(tmp_path: Path) -> None:
    one = json.loads(FIXTURE.read_text(encoding="utf-8"))[0]
    other = copy.deepcopy(one)
    other["sample_id"] = "tiny-2"
    data = tmp_path / "two.json"
    data.write_text(json.dumps([one, other]), encoding="utf-8")
    r = CliRunner().invoke(bench_app, ["crossval", "--data", str(data), "--json"])
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert got["questions"] == 2 * len(one["qa"])
    assert [f["held_out"] for f in got["folds"]] == ["tiny-1", "tiny-2"]
    assert set(got["chosen"]) == set(GRID)
    assert len(got["one_change"]) == 1 + sum(len(v) - 1 for v in GRID.values())
    for figure in ("default", "cross_validated", "in_sample"):
        assert 0.0 <= got[figure]["overall"] <= 100.0
