"""The one cap every MCP tool's answer passes through: pages of at most the cap, that put back together are the answer."""

from __future__ import annotations

from typing import Any

import pytest

from omoide.agents.fit import Fit, paged, size
from omoide.core.errors import OmoideError

LIMIT = 2_000
DAY = Fit(("sessions", "notes"), keep=("day",))


def sent(value: Any, note: dict[str, Any] | None) -> Any:
    """A page's value + its note -> what the tool sends (the note inside a dict answer, beside a list)."""
    if note is None:
        return value
    return {**value, "shortened": note} if isinstance(value, dict) else [value, note]


def pages(answer: Any, fit: Fit, limit: int = LIMIT) -> list[Any]:
    """An answer + its fit -> every page as the tool sends it."""
    first = paged(answer, fit, 1, limit)
    found = [first]
    found += [paged(answer, fit, n, limit) for n in range(2, first.pages + 1)]
    return [sent(p.value, p.note(f"page={p.number + 1}")) for p in found]


def a_day(sessions: int, notes: int) -> dict[str, Any]:
    """Counts -> a day answer with that many sessions and notes, each about 100 characters of JSON."""
    return {
        "day": "2026-11-20",
        "summary": "Friday: zoom, Code and obsidian.",
        "sessions": [
            {"id": f"s{i}", "title": f"warelay sync {i:03d} " * 3} for i in range(sessions)
        ],
        "notes": [
            {"id": f"n{i}", "text": f"a note about the ryokan {i:03d}"} for i in range(notes)
        ],
    }


def test_an_answer_within_the_cap_is_sent_whole() -> None:
    answer = a_day(3, 2)
    page = paged(answer, DAY, 1, LIMIT)
    assert page.value == answer and page.pages == 1 and page.note("page=2") is None


def test_a_long_answer_is_pages_of_at_most_the_cap_that_together_are_the_answer() -> None:
    answer = a_day(60, 20)
    got = pages(answer, DAY)
    assert len(got) > 2
    assert all(size(p) <= LIMIT for p in got)
    first, *later = got
    # The first page is the answer's own shape; sessions are given up before the notes.
    assert first["summary"] == answer["summary"] and len(first["notes"]) == 20
    assert first["shortened"] == {
        "page": 1,
        "pages": len(got),
        "left_out": {"sessions": 60 - len(first["sessions"])},
        "limit_chars": LIMIT,
        "next": "page=2",
    }
    # A later page repeats the keys it is told to and holds only the lists it continues.
    assert all(p["day"] == "2026-11-20" and "summary" not in p and "notes" not in p for p in later)
    assert got[-1]["shortened"]["next"] == "this is the last page"
    assert [s for p in got for s in p.get("sessions", [])] == answer["sessions"]


def test_a_list_in_time_order_keeps_its_newest_items_first_each_page_in_time_order() -> None:
    answer = {
        "name": "Peter",
        "timeline": [{"ts": f"2026-11-{d:02d}", "text": "x" * 150} for d in range(1, 31)],
    }
    fit = Fit(("timeline",), keep=("name",), newest_last=("timeline",))
    got = pages(answer, fit)
    days = [[t["ts"] for t in p["timeline"]] for p in got]
    assert days[0][-1] == "2026-11-30" and all(d == sorted(d) for d in days)
    assert sorted(sum(days, [])) == [t["ts"] for t in answer["timeline"]]


def test_a_list_answer_is_paged_as_it_ranks_and_a_dict_by_its_entries() -> None:
    hits = [{"memory_id": f"m{i}", "content": "the ryokan in Higashiyama " * 4} for i in range(40)]
    got = pages(hits, Fit())
    assert all(size(p) <= LIMIT for p in got)
    assert [h for value, _ in got for h in value] == hits
    assert got[0][1]["left_out"] == {"items": 40 - len(got[0][0])}
    analyses = {"profile": {"name": "Aiko"}, "by_source": {f"s{i}": "y" * 300 for i in range(12)}}
    parts = pages(analyses, Fit(("by_source",)))
    assert len(parts) > 1 and all(size(p) <= LIMIT for p in parts)
    assert {k: v for p in parts for k, v in p.get("by_source", {}).items()} == analyses["by_source"]


def test_a_text_too_long_for_a_page_is_cut_and_said_so() -> None:
    answer = {"kind": "overview", "answer": "Mina moved to Berlin. " * 400, "citations": []}
    page = paged(answer, Fit(("citations",)), 1, LIMIT)
    note = page.note("page=2")
    assert size(sent(page.value, note)) <= LIMIT
    assert page.value["answer"].endswith("…") and page.value["answer"].startswith("Mina moved")
    assert note is not None and "cut" in note["texts_cut"]


def test_a_page_past_the_last_is_an_error() -> None:
    with pytest.raises(OmoideError, match="page 3: this answer has 1 page"):
        paged(a_day(1, 1), DAY, 3, LIMIT)
