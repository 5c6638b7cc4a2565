"""The daily and backfill flows under a real (temporary) Prefect API, on the real-format sample."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from datetime import date
from pathlib import Path

import pandas as pd
import pytest
from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId
from prefect.settings import get_current_settings

from omoide.core.settings import get_settings
from omoide.profile.history import load_analyses
from omoide.sample import write_sample
from omoide.store.lake import read_blocks, read_events, read_facts, read_sessions
from omoide.store.profile_table import open_profile_history
from omoide.store.quarantine import read_quarantine

pytestmark = pytest.mark.usefixtures("prefect_harness")
FIRST, LAST = date(2026, 11, 19), date(2026, 11, 20)


@pytest.fixture
def sample_home(omoide_home: Path) -> Path:
    """OMOIDE_HOME holding a two-day sample and its omoide.toml."""
    assert write_sample(omoide_home, days=2, end=LAST) == (FIRST, LAST)
    return omoide_home


def task_states(flow_run_id, wait_s: float = 60.0, names: Iterable[str] = ()) -> dict[str, str]:
    """Flow run id (+ task run names to wait for) -> {task run name: state name} for its task runs (incl. nested).

    Task runs reach the API as events: on a busy machine a run can be listed before its
    state has landed, or not yet at all, so the read is repeated until every run has one
    and every named run is there.
    """
    deadline = time.monotonic() + wait_s
    while True:
        with get_client(sync_client=True) as client:
            runs = client.read_task_runs(
                flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id]))
            )
        landed = all(r.state is not None for r in runs) and set(names) <= {r.name for r in runs}
        if landed or time.monotonic() > deadline:
            return {r.name: r.state.name if r.state else "?" for r in runs}
        time.sleep(0.5)


def lake_snapshot(home: Path, day: date) -> pd.DataFrame:
    ev = read_events(home / "lake", day)
    return ev.drop(columns=["recorded_at"]).sort_values("event_id", ignore_index=True)


def test_daily_collects_every_source_and_is_idempotent(sample_home: Path):
    from omoide.flows.daily import daily

    state = daily(day=LAST, return_state=True)
    assert state.is_completed(), state.message
    summary = state.result()
    assert set(summary["sources"]) == {"chrome", "firefox", "activitywatch", "notes", "chat"}
    assert all(r["events"] > 0 for r in summary["sources"].values())
    first = lake_snapshot(sample_home, LAST)
    assert first["event_id"].is_unique
    assert set(first["source"]) == {"chrome", "firefox", "activitywatch", "notes", "chat"}
    sessions = read_sessions(sample_home / "lake", LAST)
    assert len(sessions) > 0 and summary["sessions"]["compression"] > 1
    work = summary["work"]
    assert work["embedded"] > 0 and work["embed_s"] > 0
    # Every text asked of the cache is a computed one or a hit (the day repeats some titles).
    assert 0 < work["embed_computed"] <= work["embedded"]
    # The day's activity blocks: lake rows, memories of their own, lines and a picture on the page.
    blocks = read_blocks(sample_home / "lake", LAST)
    assert 6 <= len(blocks) <= 20, blocks[["start", "kind", "label"]]
    facts = read_facts(sample_home / "lake", LAST)
    assert set(facts.loc[facts["kind"] == "block", "memory_id"]) == set(blocks["memory_id"])
    page = sample_home / "vault" / "memory" / f"{LAST}.md"
    picture = page.with_suffix(".png")
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture.stat().st_size < 60_000
    text = page.read_text(encoding="utf-8")
    assert f"![[{picture.name}]]" in text and text.index("### Timeline") < text.index("Sessions")

    again = daily(day=LAST, return_state=True)
    assert again.is_completed()
    states = task_states(again.state_details.flow_run_id)
    ingest = {k: v for k, v in states.items() if k.startswith("ingest-")}
    assert ingest == {f"ingest-{LAST}": "Cached"}, states
    assert not any(k.startswith("collect-") for k in states)  # no collect task ran again
    assert again.result()["work"] == {
        "llm_calls": 0,
        "embedded": 0,
        "embed_computed": 0,
        "embed_cache_hits": 0,
        "embed_s": 0.0,
    }
    assert states[f"sessionize-{LAST}"] == "Cached"
    pd.testing.assert_frame_equal(first, lake_snapshot(sample_home, LAST))

    forced = daily(day=LAST, force=True, return_state=True)
    assert forced.is_completed()
    pd.testing.assert_frame_equal(first, lake_snapshot(sample_home, LAST))


def test_removed_source_does_not_erase_collected_events(sample_home: Path):
    from omoide.flows.daily import daily

    assert daily(day=LAST, return_state=True).is_completed()
    before = lake_snapshot(sample_home, LAST)
    history = sample_home / "sources" / "chrome" / "Default" / "History"
    history.unlink()
    state = daily(day=LAST, return_state=True)
    assert state.is_failed()
    assert "History" in state.message and "chrome" in state.message
    after = lake_snapshot(sample_home, LAST)
    pd.testing.assert_frame_equal(before, after)


def test_bad_inputs_fail_only_their_source(sample_home: Path):
    import sqlite3

    from omoide.flows.daily import daily

    src = sample_home / "sources"
    (src / "chrome" / "Default" / "History").write_bytes(b"this is not sqlite" * 300)
    export = src / "activitywatch" / "aw-buckets-export.json"
    export.write_bytes(export.read_bytes()[:100])  # cut before its first events list
    note = src / "notes" / f"{LAST}.md"
    note.write_bytes(
        note.read_bytes() + b"\n- broken \xff\xfe bytes here\n\n- a fine line after it\n"
    )
    # A note saved by Notepad as "Unicode" (UTF-16 with a BOM) is read; a database where a
    # note should be is refused by name and reaches neither the lake nor the vault.
    (src / "windows").mkdir()
    (src / "windows" / f"{LAST}.md").write_bytes("- Tee mit @Peter im Café\n".encode("utf-16"))
    (src / "binary").mkdir()
    db = sqlite3.connect(src / "binary" / f"{LAST}.md")
    db.executescript("CREATE TABLE tags(name TEXT); INSERT INTO tags VALUES ('tags');")
    db.commit()
    db.close()
    toml_path = sample_home / "omoide.toml"
    toml_path.write_text(  # the sample's notes keep their name beside two more notes sources
        toml_path.read_text().replace(
            'path = "sources/notes"\n', 'path = "sources/notes"\nname = "notes"\n'
        )
    )
    with toml_path.open("a") as toml:
        for name in ("windows", "binary"):
            toml.write(f'\n[[sources]]\nkind = "notes"\npath = "sources/{name}"\nname = "{name}"\n')

    state = daily(day=LAST, return_state=True)
    assert state.is_failed()
    assert "History" in state.message and "aw-buckets-export.json" in state.message
    events = read_events(sample_home / "lake", LAST)
    assert {"firefox", "notes", "chat"} <= set(events["source_name"])
    assert "a fine line after it" in set(events["text"].dropna())
    q = read_quarantine(sample_home / "quarantine")
    bad = q[q["source_name"] == "notes"]
    # Quarantine names the record as the lake would: relative to the home.
    assert len(bad) == 1 and bad.iloc[0]["ref"].startswith(f"sources/notes/{LAST}.md#L")
    assert "UTF-8" in bad.iloc[0]["reason"]
    assert len(read_sessions(sample_home / "lake", LAST)) > 0
    assert "Tee mit @Peter im Café" in set(events.loc[events["source_name"] == "windows", "text"])
    assert "binary" not in set(events["source_name"])
    refused = q[q["source_name"] == "binary"]
    assert list(refused["ref"]) == [f"sources/binary/{LAST}.md"]
    assert "SQLite" in refused.iloc[0]["reason"]
    for page in (sample_home / "vault").rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        assert "SQLite" not in text and "\ufffd" not in text and "\x00" not in text, page


def test_backfill_runs_every_day_and_survives_a_failed_one(sample_home: Path, monkeypatch):
    import omoide.flows.backfill as backfill_flow
    import omoide.ingest.sources.notes as notes
    from omoide.core.errors import SourceError
    from omoide.flows.backfill import backfill

    # The heartbeat interval each run starts with: the backfill's run keeps Prefect's, the days'
    # runs nested in its process send none (each would wait up to a second at its end).
    heartbeats: dict[str, int | None] = {}

    def started(flow, flow_run, state) -> None:  # noqa: ANN001
        heartbeats[flow_run.name] = get_current_settings().flows.heartbeat_frequency

    with monkeypatch.context() as m:
        m.setattr(backfill_flow, "daily", backfill_flow.daily.with_options(on_running=[started]))
        state = backfill.with_options(on_running=[started])(
            start=FIRST, end=LAST, return_state=True
        )
    assert state.is_completed(), state.message
    assert heartbeats.pop(f"backfill-{FIRST}-{LAST}") is not None
    assert heartbeats == {f"daily-{FIRST}": None, f"daily-{LAST}": None}
    results = state.result()
    assert list(results) == [FIRST.isoformat(), LAST.isoformat()]
    assert all(r["ok"] and r["events"] > 0 for r in results.values())
    # One Big Five analysis, after the last day, over every day (not the first day alone).
    (analysis,) = load_analyses(open_profile_history(get_settings().lancedb_dir))
    assert analysis.source == "offline"
    assert analysis.provenance["signals"]["active_days"] == 2
    # The days' reflection is incremental (no whole-history step); the closing one does those.
    with get_client(sync_client=True) as client:
        ran = client.read_task_runs(
            flow_run_filter=FlowRunFilter(
                id=FlowRunFilterId(any_=[state.state_details.flow_run_id])
            )
        )
    names = Counter(r.name for r in ran)
    label = f"{FIRST}..{LAST}"  # the one chunk and the closing reflection cover the same days
    assert names[f"reflect-entities-{label}"] == names[f"reflect-links-{label}"] == 2
    assert names[f"reflect-profile-{label}"] == names[f"reflect-bigfive-{label}"] == 1
    assert names[f"backfill-day-{FIRST}"] == names[f"backfill-day-{LAST}"] == 1

    real = notes.collect

    def broken_on_first_day(source, start, end, now):
        if notes.note_day(start) == FIRST:
            raise SourceError(source.path, "disk error (injected)")
        return real(source, start, end, now)

    monkeypatch.setattr(notes, "collect", broken_on_first_day)
    state = backfill(start=FIRST, end=LAST, force=True, return_state=True)
    assert state.is_failed()
    assert str(FIRST) in state.message and str(LAST) not in state.message.split("failed:")[-1]
    for day in (FIRST, LAST):
        assert len(read_events(sample_home / "lake", day)) > 0


def test_a_rerun_backfill_skips_unchanged_days_and_runs_changed_ones(sample_home: Path):
    from omoide.flows.backfill import backfill
    from omoide.store.lake import part_path

    assert backfill(start=FIRST, end=LAST, return_state=True).is_completed()
    again = backfill(start=FIRST, end=LAST, return_state=True)
    assert again.is_completed(), again.message
    results = again.result()
    assert all(r["ok"] and r["skipped"] and r["events"] > 0 for r in results.values())
    assert not any(r.get("embedded") or r.get("llm_calls") for r in results.values())
    # The closing reflection is the first run's: its steps come from the cache, but for the
    # profile, which reads the entities that this run's prune compacted (a new version).
    label, steps = (
        f"{FIRST}..{LAST}",
        ["periods", "validity", "bigfive", "entities", "opinions", "links"],
    )
    names = [f"reflect-{step}-{label}" for step in steps]
    states = task_states(again.state_details.flow_run_id, names=names)
    assert {name: states.get(name) for name in names} == dict.fromkeys(names, "Cached")

    # A new line in the last day's note re-runs that day only, and reaches the lake.
    note = sample_home / "sources" / "notes" / f"{LAST}.md"
    note.write_text(note.read_text() + "\n- Booked the Shinkansen seats for Friday\n")
    results = backfill(start=FIRST, end=LAST, return_state=True).result()
    assert results[FIRST.isoformat()].get("skipped") and not results[LAST.isoformat()].get(
        "skipped"
    )
    assert "Booked the Shinkansen seats for Friday" in set(
        read_events(sample_home / "lake", LAST)["text"].dropna()
    )

    # A day whose files went missing is not done, whatever its mark says; --force runs all.
    part_path(sample_home / "lake", "sessions", FIRST, "sessions").unlink()
    results = backfill(start=FIRST, end=LAST, return_state=True).result()
    assert not results[FIRST.isoformat()].get("skipped") and results[LAST.isoformat()]["skipped"]
    assert len(read_sessions(sample_home / "lake", FIRST)) > 0
    results = backfill(start=FIRST, end=LAST, force=True, return_state=True).result()
    assert not any(r.get("skipped") for r in results.values())


def vault_pages(home: Path) -> dict[str, str]:
    """Home -> every vault page's text, the home's path and run clock times masked."""
    import re

    clock = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC")
    return {
        p.relative_to(home).as_posix(): clock.sub("<time>", p.read_text()).replace(str(home), "~")
        for p in sorted((home / "vault").rglob("*.md"))
    }


def test_reflecting_once_per_chunk_ends_like_reflecting_every_day(
    tmp_path: Path, sample_home: Path, monkeypatch
):
    import shutil

    import omoide.flows.backfill as backfill_flow

    per_day = tmp_path / "per-day"
    shutil.copytree(sample_home, per_day)
    assert backfill_flow.backfill(start=FIRST, end=LAST, return_state=True).is_completed()
    monkeypatch.setattr(backfill_flow, "REFLECT_EVERY", 1)
    monkeypatch.setenv("OMOIDE_HOME", str(per_day))
    assert backfill_flow.backfill(start=FIRST, end=LAST, return_state=True).is_completed()
    chunked, daily_pages = vault_pages(sample_home), vault_pages(per_day)
    assert any(p.startswith("vault/bank/") for p in chunked)
    assert chunked == daily_pages
