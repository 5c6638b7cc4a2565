"""The vault writer: markers, front matter, citations by line, idempotency, user text untouched."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from omoide.core.markers import BEGIN, END, without_pipeline_block
from omoide.core.settings import SourceConfig
from omoide.ingest.sources.notes import collect as collect_notes
from omoide.memory.day_summary import DaySummary, Fact, Highlight
from omoide.vault.daily import memory_path, without_front_matter, write_daily

FACT = Fact(
    "O",
    "Lance is the right store for warelay.",
    ("warelay",),
    0.8,
    0.9,
    ("/notes/2026-11-20.md#L18",),
    "2026-11-19T23:00:00+00:00",
    "retain",
    "m-fact",
)


def _summary(text: str = "A calm day of code review.") -> DaySummary:
    return DaySummary(
        day="2026-11-20",
        backend="embedded",
        model="extractive-digest-v1",
        summary=text,
        highlights=[Highlight("Reviewed PR #409", ("/h#1",))],
        time_by_activity=[("github.com", 2700.0)],
        facts=[FACT],
    )


SESSIONS = [
    ("m-s1", "09:30–10:15 github.com (45 min): PR #409"),
    ("m-s2", "13:00–13:30 Code (30 min): sync.py"),
]


def test_new_file_has_front_matter_sections_and_cites_lines(tmp_path: Path):
    w = write_daily(tmp_path, _summary(), SESSIONS, "m-digest")
    assert w.path == memory_path(tmp_path, "2026-11-20") and w.changed
    lines = w.path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "---" and "date: '2026-11-20'" in lines and "backend: embedded" in lines
    for heading in ("## Summary", "## Sessions", "## Retain"):
        assert heading in lines
    assert lines[w.lines["m-digest"] - 1] == "A calm day of code review."
    assert lines[w.lines["m-s1"] - 1] == "- 09:30–10:15 github.com (45 min): PR #409"
    assert lines[w.lines["m-fact"] - 1].startswith("- O(c=0.80) @warelay: Lance is the right store")


def test_regenerating_is_idempotent(tmp_path: Path):
    first = write_daily(tmp_path, _summary(), SESSIONS, "m-digest")
    before = first.path.read_bytes()
    mtime = first.path.stat().st_mtime_ns
    again = write_daily(tmp_path, _summary(), SESSIONS, "m-digest")
    assert not again.changed and again.lines == first.lines
    assert first.path.read_bytes() == before and first.path.stat().st_mtime_ns == mtime


def test_user_text_and_front_matter_survive_regeneration(tmp_path: Path):
    path = memory_path(tmp_path, "2026-11-20")
    path.parent.mkdir(parents=True)
    path.write_text(
        "---\ntitle: My Friday\ntags: [work]\naliases:\n  - fri\n---\n# My own heading\n\n"
        "Thoughts I wrote myself.\n",
        encoding="utf-8",
    )
    write_daily(tmp_path, _summary(), SESSIONS, "m-digest")
    text = path.read_text(encoding="utf-8")
    assert text.index("Thoughts I wrote myself.") < text.index(BEGIN)
    with path.open("a", encoding="utf-8") as fh:
        fh.write("\nA line I added after the block.\n")
    w = write_daily(tmp_path, _summary("A different summary."), SESSIONS[:1], "m-digest")
    text = path.read_text(encoding="utf-8")
    assert "title: My Friday" in text and "aliases:\n  - fri" in text
    assert "- work\n- omoide\n- daily" in text
    assert "# My own heading\n\nThoughts I wrote myself.\n" in text
    assert text.endswith("A line I added after the block.\n")
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    assert "A calm day" not in text and "A different summary." in text
    lines = text.splitlines()
    assert lines[w.lines["m-digest"] - 1] == "A different summary."
    assert "m-s2" not in w.lines


def test_pipeline_blocks_are_blanked_for_readers():
    lines = ["mine", BEGIN, "## Retain", "- W: x", END, "also mine"]
    assert without_pipeline_block(lines) == ["mine", "", "", "", "", "also mine"]
    related = ["<!-- omoide:related:begin -->", "- [[2026-11-18]]", "<!-- omoide:related:end -->"]
    assert without_pipeline_block(["a", *related, "b"]) == ["a", "", "", "", "b"]


def test_notes_source_on_the_vault_does_not_read_back_the_digest(tmp_path: Path):
    write_daily(tmp_path, _summary(), SESSIONS, "m-digest")
    path = memory_path(tmp_path, "2026-11-20")
    path.write_text(
        path.read_text(encoding="utf-8") + "\nMet @Peter for lunch.\n", encoding="utf-8"
    )
    start = datetime(2026, 11, 19, 23, tzinfo=UTC)
    got = collect_notes(
        SourceConfig(kind="notes", path=tmp_path), start, start.replace(day=20, hour=23), start
    )
    texts = list(got.events["text"])
    assert texts == ["Met @Peter for lunch."]
    assert (got.events["event_type"] == "retain").sum() == 0


def test_digest_without_front_matter_starts_at_the_users_text_or_the_block(tmp_path: Path):
    w = write_daily(tmp_path, _summary(), SESSIONS, "m-digest")
    text = w.path.read_text(encoding="utf-8")
    shown = without_front_matter(text)
    assert shown.splitlines()[0] == BEGIN and "date:" not in shown and "---" not in shown
    assert text.endswith(shown) and shown.endswith(END + "\n")


def test_text_without_front_matter_is_left_as_it_is():
    for text in ("# Notes\n\n---\nnot front matter\n", "---\nunclosed: yes\n", ""):
        assert without_front_matter(text) == text
