"""Slack's workspace export read through `collect`: channels, a direct and a group message, bots,
system lines, files, mentions and links, the day's files only, damaged files and entries."""

from __future__ import annotations

import json
import logging
import shutil
from datetime import date
from pathlib import Path

import pytest

from omoide.core import schemas
from omoide.core.days import day_bounds
from omoide.core.errors import SourceError
from omoide.core.ids import stable_id
from omoide.ingest.fingerprint import input_files
from omoide.ingest.sources import collect
from omoide.ingest.sources.slack_text import plain_text
from tests.unit.ingest.sources.chat_exports import (
    DAY,
    END,
    NOW,
    SLACK,
    START,
    TZ,
    export_source,
    shown_rows,
    write_json,
)


def _rows(path: Path, day: date = DAY, user: str = "Ken Sato") -> list[tuple[str, ...]]:
    """A Slack export + a Tokyo day -> (time, title, speaker, text, folder/file#ts) in order."""
    out = collect(export_source("slack", path, user_name=user), *day_bounds(day, TZ), NOW)
    assert out.rejects == []
    return [(*r[:4], r[4]) for r in shown_rows(out.events)]


def test_slack_export_reads_channels_dms_bots_mentions_and_links() -> None:
    out = collect(export_source("slack", SLACK, user_name="Ken Sato"), START, END, NOW)
    rows = [(r[0][6:11], r[1], r[2], r[3]) for r in shown_rows(out.events)]
    assert rows == [
        (
            "01:30",
            "#general",
            "Ken Sato",
            "Can't sleep, reading about Fushimi Inari "
            "(https://en.wikipedia.org/wiki/Fushimi_Inari-taisha)",
        ),  # in the file of the UTC day before: the window is by time, not by file
        (
            "09:15",
            "#general",
            "Aiko Tanaka",
            "Morning all & happy Friday! Standup moved to 10:30 <see calendar> @here",
        ),
        ("09:20", "#general", "Peter", "Thanks @Aiko Tanaka, see #kyoto-trip for the plan"),
        ("09:42", "#general", "deploybot [bot]", "Deployed *omoide* v0.9 to staging"),
        ("10:05", "#general", "Ken Sato", "Slides for today"),  # the PDF is left out
        (
            "11:00",
            "#general",
            "Peter",
            "@Ken can you check #kyoto-trip? Budget is in https://docs.example.com/budget",
        ),
        ("12:00", "#general", "Mina Park", "Still here in spirit"),  # a deleted account
        ("14:12", "#general", "deploybot [bot]", "Build #142 passed"),  # users.json's is_bot
        ("15:00", "#kyoto-trip", "Ken Sato", "Booked the ryokan in Higashiyama :tada:"),
        ("18:00", "Peter", "Peter", "Dinner tonight?"),  # a direct message: the partner
        ("18:02", "Peter", "Ken Sato", "Sure, 7pm at Pontocho"),
        ("19:15", "Peter", "Ken Sato", "is running late"),  # a /me message
    ]  # Peter's photo alone, the topic change and the leave are no one's words
    assert out.rejects == [] and list(out.events.columns) == schemas.EVENTS.names
    schemas.to_table(out.events, schemas.EVENTS)
    assert set(out.events["event_type"]) == {"chat"} and set(out.events["source"]) == {"slack"}
    first = out.events.sort_values("ts").iloc[1]
    assert first["source_ref"] == f"{SLACK}/general/2026-11-20.json#ts=1795133700.000100"
    assert first["event_id"] == stable_id("slack", "slack", "C01GENERAL", "1795133700.000100")


def test_slack_system_lines_and_files_are_counted(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="omoide.ingest.sources.slack"):
        collect(export_source("slack", SLACK), START, END, NOW)
    # The day files of 11-18 to 11-21 were read: a join, a photo alone, a topic, a leave.
    assert "5 day file(s), 12 event(s), 0 rejected, 4 system line(s) and file(s) skipped" in (
        caplog.text
    )


def test_without_a_user_name_everyone_keeps_their_name_and_a_dm_names_both() -> None:
    rows = _rows(SLACK, user="")
    assert {(r[1], r[2]) for r in rows if r[1] != "#general" and r[1] != "#kyoto-trip"} == {
        ("Ken, Peter", "Peter"),
        ("Ken, Peter", "Ken"),
    }


def test_slack_days_are_local_windows_and_group_messages_name_the_others() -> None:
    assert [r[2:4] for r in _rows(SLACK, date(2026, 11, 19))] == [
        ("Peter", "Welcome @Aiko Tanaka! :wave:")
    ]  # Aiko's channel_join that day is a system line
    assert [r[1:4] for r in _rows(SLACK, date(2026, 11, 21))] == [
        ("Aiko Tanaka, Peter", "Aiko Tanaka", "Photos from Kyoto coming tonight")
    ]


PEOPLE = {"U1": "Ken"}


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("<@U1> ok", "@Ken ok"),
        ("<@U9|old.name> hi", "@old.name hi"),  # not in users.json: the export's label
        ("<@U9>", "@U9"),
        ("see <#C1|general> and <#C1>", "see #general and #general"),
        ("<!here> <!channel> <!everyone>", "@here @channel @everyone"),
        ("<!subteam^S1|@design> look", "@design look"),
        ("<!date^1392734382^{date_short}|Feb 18, 2014>", "Feb 18, 2014"),
        ("<https://a.example/x?a=1&amp;b=2|the doc>", "the doc (https://a.example/x?a=1&b=2)"),
        ("<https://a.example/>", "https://a.example/"),
        ("<https://a.example/|https://a.example/>", "https://a.example/"),
        ("<mailto:ken@example.com|ken@example.com>", "ken@example.com"),
        ("a &lt;b&gt; &amp;amp; *bold* :tada:", "a <b> &amp; *bold* :tada:"),
    ],
)
def test_mrkdwn_becomes_plain_text(text: str, plain: str) -> None:
    assert plain_text(text, PEOPLE, {"C1": "general"}) == plain


def _copy(tmp_path: Path) -> Path:
    """The fixture export -> a copy to damage."""
    return Path(shutil.copytree(SLACK, tmp_path / "export"))


def test_damaged_day_files_and_messages_are_rejects_named_on_their_day(tmp_path: Path) -> None:
    export = _copy(tmp_path)
    day = export / "general" / "2026-11-20.json"
    messages = json.loads(day.read_text("utf-8"))
    messages[0]["ts"] = "yesterday"
    messages[1] = "not a message"
    messages.append({"type": "message", "user": "U03PETERSC", "text": "far", "ts": "4102444800"})
    write_json(day, messages)
    (export / "kyoto-trip" / "2026-11-20.json").write_bytes(b"SQLite format 3\x00" + bytes(64))
    (export / "kyoto-trip" / "notes.json").write_text("{}", encoding="utf-8")  # no day file
    out = collect(export_source("slack", export), START, END, NOW)
    assert sorted((r.ref.removeprefix(str(export)), r.reason[:32]) for r in out.rejects) == [
        ("/general/2026-11-20.json#message-0", "message without Slack's 'ts' (ep"),
        ("/general/2026-11-20.json#message-1", "message is not an object"),
        ("/general/2026-11-20.json#ts=4102444800", "impossible timestamp 2100-01-01T"),
        ("/kyoto-trip/2026-11-20.json", "not text: an SQLite database"),
    ]
    assert len(out.events) == 12 - 3  # Aiko's, Peter's reply and the ryokan are gone, the rest read
    # The next day reads the same file for its early hours, but its damage was named already.
    after = collect(export_source("slack", export), *day_bounds(date(2026, 11, 21), TZ), NOW)
    assert after.rejects == []


def test_a_day_file_that_is_not_json_is_read_message_by_message(tmp_path: Path) -> None:
    export = _copy(tmp_path)
    day = export / "D01KENPETR" / "2026-11-20.json"
    text = day.read_text("utf-8")
    day.write_text(text.replace('"Dinner tonight?"', '"Dinner tonight?'), encoding="utf-8")
    out = collect(export_source("slack", export, user_name="Ken Sato"), START, END, NOW)
    assert [(r.ref.removeprefix(str(export)), r.reason[:13]) for r in out.rejects] == [
        ("/D01KENPETR/2026-11-20.json#message-0", "damaged JSON ")
    ]
    dm = [r[3] for r in shown_rows(out.events) if r[1] == "Peter"]
    assert dm == ["Sure, 7pm at Pontocho", "is running late"]


def test_damaged_metadata_entries_are_rejects_on_every_day(tmp_path: Path) -> None:
    export = _copy(tmp_path)
    users = json.loads((export / "users.json").read_text("utf-8"))
    write_json(export / "users.json", [*users, "nobody", {"name": "no id"}])
    write_json(
        export / "channels.json", [{"id": "C01GENERAL"}, {"id": "C02KYOTOTR", "name": "kyoto-trip"}]
    )
    out = collect(export_source("slack", export), START, END, NOW)
    assert [(r.ref.removeprefix(str(export)), r.reason) for r in out.rejects] == [
        ("/users.json#user-5", "user is not an object with an 'id'"),
        ("/users.json#user-6", "user is not an object with an 'id'"),
        ("/channels.json#C01GENERAL", "channel without a 'name'"),
    ]
    # The folder #general is still read, named by its folder.
    assert {r[1] for r in shown_rows(out.events)} >= {"general", "#kyoto-trip"}
    quiet = collect(export_source("slack", export), *day_bounds(date(2026, 12, 24), TZ), NOW)
    assert len(quiet.rejects) == 3 and quiet.events.empty


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda root: root / "nowhere", "no such Slack export folder"),
        (lambda root: _zip(root), "a .zip: unzip it"),
        (lambda root: _without_users(root), "not a Slack export: no users.json"),
        (lambda root: _users_broken(root), "invalid JSON"),
    ],
)
def test_what_is_no_readable_export_is_a_source_error(tmp_path: Path, make, message: str) -> None:  # noqa: ANN001
    with pytest.raises(SourceError, match=message):
        collect(export_source("slack", make(tmp_path)), START, END, NOW)


def _zip(root: Path) -> Path:
    """A folder -> a Slack export zipped there, as Slack hands it out."""
    return Path(shutil.make_archive(str(root / "export"), "zip", SLACK))


def _without_users(root: Path) -> Path:
    """A folder -> an export copy without users.json."""
    export = Path(shutil.copytree(SLACK, root / "export"))
    (export / "users.json").unlink()
    return export


def _users_broken(root: Path) -> Path:
    """A folder -> an export copy whose users.json is no JSON list at all."""
    export = Path(shutil.copytree(SLACK, root / "export"))
    (export / "users.json").write_text("<html>Slack is down</html>", encoding="utf-8")
    return export


def test_an_enterprise_grid_export_has_org_users(tmp_path: Path) -> None:
    export = _copy(tmp_path)
    (export / "users.json").rename(export / "org_users.json")
    assert _rows(export) == _rows(SLACK)


def test_day_keys_follow_every_json_file_of_the_export() -> None:
    names = [
        p.relative_to(SLACK).as_posix() for p in input_files(export_source("slack", SLACK), DAY)
    ]
    assert "users.json" in names and "general/2026-11-20.json" in names and len(names) == 10


def test_private_channels_and_unlisted_folders_are_read(tmp_path: Path) -> None:
    export = _copy(tmp_path)
    write_json(export / "groups.json", [{"id": "G02SECRET0", "name": "offsite-planning"}])
    message = {
        "type": "message",
        "user": "U02AIKOTAN",
        "text": "Budget approved",
        "ts": "1795140000.5",
    }
    write_json(export / "offsite-planning" / "2026-11-20.json", [message])
    write_json(export / "C09ARCHIVE" / "2026-11-20.json", [{**message, "text": "Old channel"}])
    rows = {(r[1], r[2], r[3]) for r in _rows(export)}
    assert ("#offsite-planning", "Aiko Tanaka", "Budget approved") in rows
    assert ("C09ARCHIVE", "Aiko Tanaka", "Old channel") in rows  # no metadata names it
