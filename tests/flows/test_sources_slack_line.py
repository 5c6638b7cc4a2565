"""Slack and LINE read end to end by `omoide run --day` on their fixtures, and a source whose records
all end in quarantine failing the day loudly (issue 31): the file named on the terminal, exit non-zero,
the other sources still landing; once the file is readable, the same run lands it."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from omoide.core import schemas
from omoide.store.lake import part_path
from tests.fakes import run_cli
from tests.unit.ingest.sources.chat_exports import DAY, LINE_ISSUE, SLACK

ISSUE_DAY = date(2017, 12, 3)


@pytest.mark.slow
def test_omoide_run_day_reads_slack_and_fails_loudly_on_an_unreadable_line_export(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    shutil.copytree(SLACK, home / "slack")
    line = home / "line" / LINE_ISSUE.name
    line.parent.mkdir(parents=True)
    # Issue 31's export without its date line: no reader can place its messages in time.
    lines = LINE_ISSUE.read_text("utf-8").splitlines(keepends=True)
    line.write_text("".join(lines[:3] + lines[4:]), encoding="utf-8")
    (home / "omoide.toml").write_text(
        'timezone = "Asia/Tokyo"\nuser_name = "Ken Sato"\n'
        '[[sources]]\nkind = "slack"\npath = "slack"\nname = "slack"\n'
        '[[sources]]\nkind = "line"\npath = "line"\nname = "line"\n'
        '[llm]\nbackend = "none"\n',
        encoding="utf-8",
    )

    def lake(day: date, name: str) -> pd.DataFrame:
        return pd.read_parquet(part_path(home / "lake", "events", day, name))

    r = run_cli("run", "--day", str(DAY), home=home, COLUMNS="400", timeout=600)
    assert r.returncode != 0, r.stdout[-3000:]
    said = r.stdout + r.stderr
    assert f"{line}: all 34 records of {DAY} were rejected" in said, said[-3000:]
    assert "(first: line 4: message before any date line)" in said
    assert "1 of 2 sources failed" in r.stderr
    quarantined = pd.read_parquet(home / "quarantine" / "collect" / f"day={DAY}" / "line.parquet")
    assert len(quarantined) == 34 and quarantined["ref"].str.startswith(f"line/{line.name}#L").all()
    assert not part_path(home / "lake", "events", DAY, "line").exists()

    slack = lake(DAY, "slack")  # the other source still landed
    assert list(slack.columns) == schemas.EVENTS.names and set(slack["event_type"]) == {"chat"}
    assert len(slack) == 12
    rows = set(zip(slack["title"], slack["actor"], slack["text"], strict=True))
    assert ("Peter", "Ken Sato", "Sure, 7pm at Pontocho") in rows
    assert ("#general", "Peter", "Thanks @Aiko Tanaka, see #kyoto-trip for the plan") in rows
    assert ("#general", "deploybot [bot]", "Build #142 passed") in rows
    assert "slack/D01KENPETR/2026-11-20.json#ts=1795165320.000200" in set(slack["source_ref"])

    shutil.copy(LINE_ISSUE, line)  # the export as LINE wrote it
    r = run_cli("run", "--day", str(ISSUE_DAY), home=home, COLUMNS="400", timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    landed = lake(ISSUE_DAY, "line")
    assert len(landed) == 29 and set(landed["title"]) == {"Peter"}
    mine = landed[landed["actor"] == "Ken Sato"]
    assert "Let's do Nikko next month" in set(mine["text"])
    assert not landed["text"].isin(["[Photo]", "[Sticker]", "[Video]"]).any()
