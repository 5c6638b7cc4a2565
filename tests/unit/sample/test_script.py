"""The sample's script says what happened when, and each line it cites holds what it says."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from omoide.sample import sample_script, write_sample
from tests.fakes import run_cli

Month = tuple[Path, dict[str, Any]]


def _cited(home: Path, source: str) -> tuple[str, str | None]:
    """Home + 'path#Lnn' -> the text at that line and, for a chat message, its speaker."""
    path, line = source.rsplit("#L", 1)
    raw = (home / path).read_text(encoding="utf-8").splitlines()[int(line) - 1]
    if path.endswith(".jsonl"):
        message = json.loads(raw)
        return message["text"], message["speaker"]
    return raw, None


def _places(script: dict[str, Any]) -> list[dict[str, Any]]:
    """Script -> every line it cites: events, the places they also tell of, kept promises, facts, days."""
    out = []
    for e in script["events"]:
        out += [e, *e["also"], *([e["kept"]] if e.get("kept") else [])]
    for f in script["facts"]:
        out += f["said"]
    for d in script["days"]:
        out += d["note"] + d["chat"]
    return out


def test_every_cited_line_holds_what_the_script_says(month: Month) -> None:
    home, script = month
    places = _places(script)
    assert len(places) > 400
    for place in places:
        text, speaker = _cited(home, place["source"])
        assert text == place["text"], place
        assert speaker == place.get("speaker"), place
        if place["source"].startswith("sources/notes/"):
            assert place["source"].startswith(f"sources/notes/{place['day']}.md#L"), place


def test_counts_days_and_first_and_last_times(month: Month) -> None:
    tallies = month[1]["tallies"]
    assert tallies["run"]["count"] == 5 and len(tallies["run"]["days"]) == 5
    assert tallies["run"]["first"] == {
        "day": "2026-10-24",
        "time": "10:30",
        "source": "sources/notes/2026-10-24.md#L4",
    }
    assert tallies["cooking/dashi"]["days"] == ["2026-11-02", "2026-11-08"]
    assert tallies["cooking/dashi"]["first"]["time"] == "20:00"
    assert tallies["cooking/oyakodon"]["days"] == ["2026-11-06", "2026-11-20"]
    assert tallies["dentist"]["count"] == 1 and tallies["dentist"]["days"] == ["2026-11-19"]
    ryokan = tallies["booking/ryokan"]
    assert ryokan["count"] == 1 and ryokan["first"]["time"] == "20:15"
    assert tallies["move"]["days"] == ["2026-10-31", "2026-11-20"]


def test_promises_say_to_whom_when_said_when_due_and_whether_kept(month: Month) -> None:
    events = month[1]["events"]
    promises = {e["what"]: e for e in events if e["kind"] == "promise"}
    boxes = promises["help Peter move his boxes on Saturday"]
    assert (boxes["by"], boxes["to"], boxes["day"], boxes["due"]) == (
        "Aiko",
        "Peter",
        "2026-10-25",
        "2026-10-31",
    )
    assert "I'll help you move the boxes on Saturday" in boxes["text"]
    assert boxes["speaker"] == "Aiko" and boxes["kept"]["day"] == "2026-10-31"
    slides = promises["send Mina the slides tomorrow"]
    assert "明日資料を送るね" in slides["text"] and slides["kept"]["day"] == "2026-11-10"
    benchmark = promises["send Mina the benchmark by Friday"]
    assert benchmark["source"].startswith("sources/notes/2026-11-02.md#L")
    assert {e["what"]: e["status"] for e in promises.values() if e["status"] != "kept"} == {
        "send Peter the Fushimi Inari photos tonight": "not kept",
        "write the migration runbook next week": "open",
    }
    assert all(e["kept"]["day"] >= e["day"] for e in promises.values() if e["kept"])


def test_facts_hold_from_the_day_they_change(month: Month) -> None:
    facts = {(f["subject"], f["attribute"], f["value"]): f for f in month[1]["facts"]}
    hamburg, berlin = facts["Mina", "home", "Hamburg"], facts["Mina", "home", "Berlin"]
    assert (hamburg["valid_from"], hamburg["valid_to"]) == (None, "2026-11-20")
    assert (berlin["valid_from"], berlin["replaces"]) == ("2026-11-20", "Hamburg")
    assert [p["day"] for p in hamburg["said"]] == ["2026-10-22", "2026-10-23", "2026-11-19"]
    platform = facts["Peter", "team", "platform"]
    assert platform["valid_from"] == "2026-11-20" and platform["replaces"] == "payments"
    changes = [e["what"] for e in month[1]["events"] if e["kind"] == "fact"]
    assert sorted(changes) == ["Mina home", "Peter home", "Peter team", "warelay vector store"]


def test_who_said_what(month: Month) -> None:
    said = [e for e in month[1]["events"] if e["kind"] == "said"]
    ryokan = [e for e in said if e["what"] == "the ryokan"]
    assert [(e["speaker"], e["day"], e["text"]) for e in ryokan] == [
        ("Peter", "2026-11-18", "Higashiyama, quieter. Go to sleep!")
    ]
    assert {e["speaker"] for e in said} == {"Peter", "Mina"}


def test_a_short_sample_lists_only_its_own_days(tmp_path: Path) -> None:
    first, last = write_sample(tmp_path, days=3)
    script = sample_script(tmp_path, first, last)
    assert {e["day"] for e in script["events"]} <= {"2026-11-18", "2026-11-19", "2026-11-20"}
    assert not [e for e in script["events"] if e["kind"] == "promise"]
    assert [d["day"] for d in script["days"]] == ["2026-11-18", "2026-11-19", "2026-11-20"]
    hamburg = next(f for f in script["facts"] if f["value"] == "Hamburg")
    assert [p["day"] for p in hamburg["said"]] == ["2026-11-19"]
    # A routine day (outside the story month) has its lines listed and no events.
    routine = sample_script(
        tmp_path, *write_sample(tmp_path / "june", days=2, end=date(2026, 6, 5))
    )
    assert routine["events"] == [] and all(not d["story"] for d in routine["days"])


def test_the_command_writes_the_script_beside_the_sources(
    tmp_path: Path, omoide_home: Path
) -> None:
    out = tmp_path / "demo"
    r = run_cli("sample", "--days", "2", "--out", str(out), home=omoide_home)
    assert r.returncode == 0, r.stderr
    script = json.loads((out / "sample-script.json").read_text(encoding="utf-8"))
    assert script["schema"] == 2 and script["sample"]["first"] == "2026-11-19"
    assert not list((out / "sources").rglob("*script*"))
    write_sample(out, days=2)  # new sources: the script that told of the old ones goes
    assert not (out / "sample-script.json").exists()


def test_words_the_files_do_not_hold_are_an_error(tmp_path: Path) -> None:
    first, last = write_sample(tmp_path, days=1)
    note = tmp_path / "sources/notes/2026-11-20.md"
    note.write_text(note.read_text(encoding="utf-8").replace("Cooked oyakodon", "Cooked"))
    with pytest.raises(ValueError, match="Cooked oyakodon"):
        sample_script(tmp_path, first, last)
