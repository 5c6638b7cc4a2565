"""End to end: a day with a promise in the person's chat and to-dos in their note -> `omoide run` stores commitment rows, and `omoide ask` lists them."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import lancedb
import pandas as pd

from omoide.store.lake import read_facts
from tests.fakes import run_cli

DAY = date(2026, 11, 19)
TZ = "Europe/Berlin"


def _home(home: Path) -> None:
    """A home with one chat log and one daily note of DAY, the person named Ken."""
    (home / "chat").mkdir()
    lines = [
        {
            "ts": "2026-11-19T10:00:00+01:00",
            "speaker": "Peter",
            "text": "Could you help me move on Saturday?",
            "conversation": "Peter",
        },
        {
            "ts": "2026-11-19T10:02:00+01:00",
            "speaker": "Ken",
            "text": "Sure, I'll help you move the boxes on Saturday!",
            "conversation": "Peter",
        },
        {
            "ts": "2026-11-19T10:03:00+01:00",
            "speaker": "Peter",
            "text": "Great, I'll bring pizza",
            "conversation": "Peter",
        },
    ]
    (home / "chat" / "peter.jsonl").write_text(
        "".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8"
    )
    (home / "notes").mkdir()
    (home / "notes" / f"{DAY}.md").write_text(
        "# Thursday\n\n## TODO\n\n- [ ] call the dentist\n- [x] book flights\n\n"
        "## Log\n\n- 09:30 Standup with the team\n",
        encoding="utf-8",
    )
    (home / "omoide.toml").write_text(
        f'timezone = "{TZ}"\nuser_name = "Ken"\n'
        '[[sources]]\nkind = "chat"\npath = "chat"\nname = "chat"\n'
        '[[sources]]\nkind = "notes"\npath = "notes"\nname = "notes"\n'
        '[llm]\nbackend = "none"\n',
        encoding="utf-8",
    )


def test_a_run_stores_the_days_commitments_and_the_answer_lists_them(omoide_home: Path) -> None:
    _home(omoide_home)
    r = run_cli("run", "--day", str(DAY), home=omoide_home, timeout=600)
    assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])

    facts = read_facts(omoide_home / "lake", DAY)
    made = facts[facts["kind"] == "commitment"].sort_values("content")
    assert made["content"].tolist() == [
        "[ ] call the dentist",
        "[ ] help you move the boxes on Saturday [2026-11-21]",
        "[x] book flights",
    ]
    assert made["source"].tolist() == [
        "notes/2026-11-19.md#L5",
        "chat/peter.jsonl#L2",
        "notes/2026-11-19.md#L6",
    ]
    assert [list(e) for e in made["entities"]] == [[], ["Peter"], []]
    assert (made["memory_type"] == "direct").all()
    table = lancedb.connect(omoide_home / "lancedb").open_table("memories")
    assert table.count_rows("kind = 'commitment'") == 3

    r = run_cli(
        "ask",
        "what do I have to do this week?",
        "--now",
        "2026-11-20T10:00",
        "--json",
        home=omoide_home,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    found = json.loads(r.stdout)
    assert found["kind"] == "commitments" and found["basis"] == "lake"
    assert found["answer"].splitlines()[0] == (
        "3 commitments in the week 2026-W47 (16 to 22 November 2026), 1 of them done:"
    )
    assert found["citations"][0] == {"source": "chat/peter.jsonl#L2", "day": "2026-11-19"}
    assert pd.Timestamp(made["ts"].iloc[1]) == pd.Timestamp("2026-11-19T09:02:00Z")
