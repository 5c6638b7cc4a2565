"""The logs folder read back: each command's last flow run and how it ended, the newest error."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from omoide.core.run_logs import last_error, logged_runs

# Lines as Prefect writes them through omoide's logging file (omoide.cli.runtime.run_log).
BACKFILL = """\
2026-11-24 02:00:03.100 | INFO    | prefect - Starting temporary server on http://127.0.0.1:8971
2026-11-24 02:00:09.120 | INFO    | Flow run 'daily-2026-11-22' - Finished in state Completed()
2026-11-24 02:00:30.004 | INFO    | Flow run 'backfill-2026-11-22-2026-11-23' - Finished in state Completed()
"""
RUN_FAILED = """\
2026-11-25 09:14:01.530 | ERROR   | Task run 'collect-firefox-2026-11-24' - Finished in state Failed('Task run encountered an exception SourceError: /h/firefox/places.sqlite: not found')
Traceback (most recent call last):
  File "x.py", line 1, in <module>
2026-11-25 09:14:08.386 | ERROR   | Flow run 'daily-2026-11-24' - Encountered exception during execution: DayIncomplete('1 of 2 sources failed')
2026-11-25 09:14:08.524 | INFO    | Flow run 'catch-up-2026-11-24' - Finished in state Failed('Flow run encountered an exception: CatchUpIncomplete: 1 of 2 sources failed for 2026-11-24: firefox: /h/firefox/places.sqlite: not found')
"""
# An older log, written before lines carried the date: dated back from the file's last write.
SERVE_UNDATED = """\
23:59:58.000 | INFO    | Flow run 'catch-up-2026-11-21' - Finished in state Crashed('killed')
02:00:41.000 | INFO    | Flow run 'catch-up-2026-11-22' - Finished in state Completed()
"""


def _log(logs: Path, name: str, text: str, written: datetime | None = None) -> Path:
    logs.mkdir(exist_ok=True)
    path = logs / name
    path.write_text(text, encoding="utf-8")
    if written is not None:
        os.utime(path, (written.timestamp(), written.timestamp()))
    return path


def test_each_commands_newest_log_gives_its_last_run_and_outcome(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    _log(logs, "20261123-020001-backfill-11.log", BACKFILL.replace("Completed", "Failed"))
    _log(logs, "20261124-020001-backfill-12.log", BACKFILL)
    _log(logs, "20261125-091400-run-13.log", RUN_FAILED)
    _log(logs, "20261125-100000-server-14.log", "server output\n")
    _log(logs, "20261125-110000-reflect-999999999.log", "")  # stopped before its flow ended
    _log(logs, "readme.txt", "not a log")
    runs = {r.command: r for r in logged_runs(logs)}
    assert set(runs) == {"backfill", "run", "reflect"}  # the server runs no flow
    b = runs["backfill"]
    assert (b.run, b.outcome) == ("backfill-2026-11-22-2026-11-23", "Completed")
    assert b.ended == datetime(2026, 11, 24, 2, 0, 30).astimezone()
    assert b.started == datetime(2026, 11, 24, 2, 0, 1).astimezone()
    r = runs["run"]
    assert (r.run, r.outcome) == ("catch-up-2026-11-24", "Failed")
    assert r.message.startswith("CatchUpIncomplete: 1 of 2 sources failed for 2026-11-24")
    assert (runs["reflect"].run, runs["reflect"].outcome) == (None, "unfinished")


def test_the_newest_error_is_the_one_that_ended_a_run_in_one_line(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    assert last_error(logs) is None
    _log(logs, "20261125-091400-run-13.log", RUN_FAILED)
    _log(logs, "20261126-020001-backfill-12.log", BACKFILL)  # newer, but nothing failed
    error = last_error(logs)
    assert error is not None and error.log.name == "20261125-091400-run-13.log"
    assert error.at == datetime(2026, 11, 25, 9, 14, 8).astimezone()
    assert error.line == (
        "CatchUpIncomplete: 1 of 2 sources failed for 2026-11-24: firefox: "
        "/h/firefox/places.sqlite: not found"
    )


def test_undated_lines_are_dated_back_from_the_files_last_write(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    _log(logs, "20261121-120000-serve-7.log", SERVE_UNDATED, datetime(2026, 11, 22, 2, 1))
    [run] = logged_runs(logs)
    assert run.run == "catch-up-2026-11-22"
    assert run.ended == datetime(2026, 11, 22, 2, 0, 41).astimezone()
    crashed = last_error(logs)
    assert crashed is not None and crashed.line == "killed"
    assert crashed.at == datetime(2026, 11, 21, 23, 59, 58).astimezone()
