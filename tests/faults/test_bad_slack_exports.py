"""Damaged Slack exports (issue 52): links that loop or break, a day file cut short, fields of the
wrong type; each named by file or message, the rest read, and never a crash of the day's plan."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from omoide.core.errors import SourceError
from omoide.ingest.sources import collect, slack_workspace
from omoide.ingest.span_cache import planned_fingerprints
from tests.unit.ingest.sources.chat_exports import (
    DAY,
    END,
    FIXTURES,
    NOW,
    SLACK,
    START,
    TZ,
    export_source,
    write_json,
)

LOOPS = "a link that loops (too many levels of links)"


def _export(tmp_path: Path) -> Path:
    """A folder -> a copy of the Slack fixture export in it."""
    return Path(shutil.copytree(SLACK, tmp_path / "slack"))


def _read(export: Path) -> tuple[list[tuple[str, str]], list[str]]:
    """A Slack export -> its rejects of the day (ref below the export, reason) and its texts."""
    out = collect(export_source("slack", export, user_name="Ken Sato"), START, END, NOW)
    rejects = [(r.ref.removeprefix(f"{export}/"), r.reason) for r in out.rejects]
    return sorted(rejects), sorted(out.events["text"])


def test_links_that_loop_or_break_are_named_and_the_rest_is_read(tmp_path: Path) -> None:
    export = _export(tmp_path)
    source = export_source("slack", export, user_name="Ken Sato")
    intact = collect(source, START, END, NOW).events
    (export / "loop").symlink_to(export / "loop")
    (export / "moved").symlink_to(export / "nowhere")
    shutil.rmtree(export / "kyoto-trip")
    (export / "kyoto-trip").symlink_to(export / "kyoto-trip")  # a listed channel's folder
    dm = export / "D01KENPETR" / f"{DAY}.json"
    dm.unlink()
    dm.symlink_to(dm)
    rejects, texts = _read(export)
    entry = "an entry of the Slack export is"
    assert rejects == [
        (f"D01KENPETR/{DAY}.json", f"Slack day file is {LOOPS}"),
        ("kyoto-trip", f"{entry} {LOOPS}"),
        ("loop", f"{entry} {LOOPS}"),
        ("moved", f"{entry} a broken link"),
    ]
    named = intact["source_ref"].str.contains("/kyoto-trip/|/D01KENPETR/")
    assert texts == sorted(intact.loc[~named, "text"]) != []


def test_metadata_files_that_loop_are_named(tmp_path: Path) -> None:
    export = _export(tmp_path)
    (export / "channels.json").unlink()
    (export / "channels.json").symlink_to(export / "channels.json")
    rejects, texts = _read(export)
    assert rejects == [("channels.json", LOOPS)]
    assert "Sure, 7pm at Pontocho" in texts  # the direct messages do not need channels.json
    (export / "users.json").unlink()
    (export / "users.json").symlink_to(export / "users.json")
    with pytest.raises(SourceError) as err:
        collect(export_source("slack", export), START, END, NOW)
    assert err.value.path == str(export / "users.json") and err.value.reason == LOOPS


def test_a_loop_under_the_folder_never_stops_the_plan_of_the_day(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    export = _export(tmp_path)
    (export / "loop").symlink_to(export / "loop")
    source = export_source("slack", export)
    now = datetime(2026, 11, 22, tzinfo=UTC)
    keys = planned_fingerprints(source, [DAY], TZ, now, tmp_path / "plan", "salt")
    assert isinstance(keys[DAY], str)  # read, the loop among its rejects
    # A folder a collector cannot walk is that source's SourceError naming it: the day's key
    # is not computed (the ingest then names why), no traceback stops the other sources.

    def unreadable(root: Path, what: str) -> None:
        raise PermissionError(13, "Permission denied", str(root))

    monkeypatch.setattr(slack_workspace, "subfolders", unreadable)
    slack_workspace._workspace.cache_clear()
    with pytest.raises(SourceError) as err:
        collect(source, START, END, NOW)
    assert err.value.path == str(export) and "Permission denied" in err.value.reason
    later = datetime(2026, 11, 23, tzinfo=UTC)
    assert planned_fingerprints(source, [DAY], TZ, later, tmp_path / "plan", "salt") == {DAY: None}


def test_a_day_file_cut_short_is_named(tmp_path: Path) -> None:
    export = _export(tmp_path)
    day = export / "general" / f"{DAY}.json"
    day.write_text("[", encoding="utf-8")
    rejects, _ = _read(export)
    assert [ref for ref, why in rejects if "cut short" in why] == [f"general/{DAY}.json#message-0"]
    first = json.dumps(json.loads((SLACK / "general" / f"{DAY}.json").read_text("utf-8"))[0])
    day.write_text(f"[{first},", encoding="utf-8")
    rejects, texts = _read(export)
    assert [ref for ref, why in rejects if "cut short" in why] == [f"general/{DAY}.json#message-1"]
    assert any(t.startswith("Morning all & happy Friday!") for t in texts)


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("subtype", ["bot_message"], "'subtype' is not a string"),  # was a TypeError
        ("subtype", 5, "'subtype' is not a string"),
        ("type", 1, "'type' is not a string"),
        ("user", 42, "'user' is not a string"),
        ("hidden", "yes", "'hidden' is not true or false"),
    ],
)
def test_a_message_field_of_the_wrong_type_is_named(
    tmp_path: Path, field: str, value: object, why: str
) -> None:
    export = _export(tmp_path)
    day = export / "general" / f"{DAY}.json"
    messages = json.loads(day.read_text("utf-8"))
    messages[0][field] = value
    write_json(day, messages)
    rejects, texts = _read(export)
    assert rejects == [(f"general/{DAY}.json#ts={messages[0]['ts']}", why)]
    assert "Thanks @Aiko Tanaka, see #kyoto-trip for the plan" in texts


@pytest.mark.parametrize("members", ["U01KENSATO", 7, {"U03PETERSC": True}])
def test_members_that_are_no_list_are_named_and_the_messages_read(
    tmp_path: Path, members: object
) -> None:
    export = _export(tmp_path)
    write_json(export / "dms.json", [{"id": "D01KENPETR", "members": members}])
    out = collect(export_source("slack", export, user_name="Ken Sato"), START, END, NOW)
    assert [(r.ref, r.reason) for r in out.rejects] == [
        (f"{export}/dms.json#D01KENPETR", "'members' is not a list")
    ]
    dm = out.events[out.events["source_ref"].str.contains("/D01KENPETR/")]
    assert set(dm["title"]) == {"D01KENPETR"} and "Sure, 7pm at Pontocho" in set(dm["text"])


@pytest.mark.usefixtures("prefect_harness")
def test_a_loop_under_slack_leaves_the_other_sources_of_the_day_landing(omoide_home: Path) -> None:
    from omoide.flows.daily import daily
    from omoide.store.lake import read_events
    from omoide.store.quarantine import read_quarantine

    export = Path(shutil.copytree(SLACK, omoide_home / "slack"))
    (export / "loop").symlink_to(export / "loop")
    shutil.copytree(FIXTURES / "telegram", omoide_home / "telegram")
    (omoide_home / "omoide.toml").write_text(
        f'timezone = "{TZ}"\nuser_name = "Ken Sato"\n'
        '[[sources]]\nkind = "slack"\npath = "slack"\nname = "slack"\n'
        '[[sources]]\nkind = "telegram"\npath = "telegram"\nname = "telegram"\n'
        '[llm]\nbackend = "none"\n',
        encoding="utf-8",
    )
    state = daily(day=DAY, return_state=True)
    assert state.is_completed(), state.message
    events = read_events(omoide_home / "lake", DAY)
    assert set(events["source_name"]) == {"slack", "telegram"}
    quarantined = read_quarantine(omoide_home / "quarantine")
    ((ref, reason),) = {(r.ref, r.reason) for r in quarantined.itertuples()}
    assert ref.endswith("slack/loop") and reason == f"an entry of the Slack export is {LOOPS}"
