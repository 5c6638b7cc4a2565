"""Reflection as visible Prefect tasks: one task run per step, and a failed step fails alone."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from omoide.core.errors import LLMUnavailableError
from omoide.sample import write_sample
from omoide.vault.daily import memory_path
from tests.flows.test_daily import task_states

pytestmark = pytest.mark.usefixtures("prefect_harness")
FIRST, LAST = date(2026, 11, 19), date(2026, 11, 20)
STEPS = ("entities", "opinions", "links", "bigfive", "profile", "check")


def test_each_step_is_a_task_run_and_a_failed_opinions_step_fails_alone(omoide_home: Path):
    from omoide.flows import reflect as reflect_flow
    from omoide.flows.daily import daily
    from omoide.tasks import reflect as reflect_tasks

    def judge_down(*args: object, **kwargs: object):
        raise LLMUnavailableError("the opinion judge at http://127.0.0.1:9 did not answer")

    write_sample(omoide_home, days=2, end=LAST)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reflect_tasks.opinions, "update_opinions", judge_down)
        # The step's own retries (2, with backoff) would only make this test wait.
        no_retry = reflect_tasks.reflect_opinions.with_options(retries=0)
        patch.setitem(reflect_flow.STEP_TASKS, "opinions", no_retry)
        first = daily(day=FIRST, return_state=True)
        state = daily(day=LAST, return_state=True)

    for run in (first, state):
        assert run.is_failed()
        assert "reflect step(s) failed" in run.message and "opinions:" in run.message
        assert "did not answer" in run.message and "entities" not in run.message
    runs = task_states(
        state.state_details.flow_run_id, names=[f"reflect-{step}-{LAST}" for step in STEPS]
    )
    for step in STEPS:
        assert runs[f"reflect-{step}-{LAST}"] in ("Completed", "Cached", "Failed"), step
    assert runs[f"reflect-opinions-{LAST}"] == "Failed"
    assert all(runs[f"reflect-{s}-{LAST}"] != "Failed" for s in STEPS if s != "opinions")

    bank = omoide_home / "vault" / "bank"
    assert (bank / "entities" / "peter.md").exists()  # entities still written
    assert (bank / "profile.md").exists() and (bank / "profile-radar.png").exists()
    assert not (bank / "opinions.md").exists()  # the failed step wrote nothing
    related = memory_path(omoide_home / "vault", LAST.isoformat()).read_text(encoding="utf-8")
    assert "<!-- omoide:related:begin -->" in related and f"[[{FIRST}]]" in related

    # The judge is back: a re-run does only what is missing.
    again = daily(day=LAST, return_state=True)
    assert again.is_completed(), again.message
    assert (bank / "opinions.md").exists()
    report = again.result()["reflect"]
    assert report["failed"] == {} and "entities" in report["cached"]
    assert "opinions" not in report["cached"]
