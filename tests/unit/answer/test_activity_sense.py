"""An activity is counted in its sense: the person's run is a run, a CI job's "run" is not."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from omoide.answer.record_masks import in_sense
from omoide.core.settings import get_settings
from tests.unit.answer.test_count_and_compare import ME, TZ, _asked, _chat, _note, _write

RUNS = (
    "Morning run along the canal, 6 km",
    "Back from my run! Coffee?",
    "Ran 10 km anyway, soaked.",
    "went for a run before work",
    "running in the park with Mina",
    "I run every morning now",
    "Long run today: 18 km",
)
NOT_RUNS = (
    "Tagged warelay v2.3.1; last night's run failed at 12:30:45 UTC",
    "the CI run is red again",
    "test run passed after the fix",
    "run #123 failed on the flaky test",
    "Run 42 crashed",
    "the nightly run took 3 min",
    "Peter's run of the benchmark finished",
)


@pytest.mark.parametrize("line", RUNS)
def test_the_persons_run_is_a_run(line: str) -> None:
    assert in_sense(line, "run")


@pytest.mark.parametrize("line", NOT_RUNS)
def test_a_run_something_else_owns_is_no_run(line: str) -> None:
    assert not in_sense(line, "run")


def test_in_a_page_title_only_a_past_or_ing_form_counts() -> None:
    assert not in_sense("uv run prefect server start", "run", bare=False)
    assert in_sense("Best running shoes 2026", "run", bare=False)


def test_a_count_and_a_when_leave_the_ci_run_out(
    omoide_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OMOIDE_TIMEZONE", TZ)
    monkeypatch.setenv("OMOIDE_USER_NAME", ME)
    _write(
        get_settings().lake_dir,
        [
            _note(date(2026, 11, 16), 4, "Morning run along the canal, 6 km", "07:10"),
            _note(date(2026, 11, 19), 10, "Tagged warelay v2.3.1; last night's run failed"),
            _chat(1, "2026-11-20T18:00Z", ME, "the CI run is red again", "Peter"),
            _chat(2, "2026-11-21T08:00Z", ME, "Back from my run! Coffee?", "Peter"),
        ],
    )
    got = _asked("how many times did I go running last week")
    assert got["answer"].startswith("2 times in the week 2026-W47")
    assert [c["day"] for c in got["citations"]] == ["2026-11-16", "2026-11-21"]
    last = _asked("when did I last go running")
    assert last["when"].startswith("2026-11-21T09:00")
    ja = _asked("先週は何回走った？")  # Japanese words match Japanese records: none here
    assert ja["citations"] == [] or all(c["day"] != "2026-11-19" for c in ja["citations"])
