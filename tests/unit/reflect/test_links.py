"""Memory links: related days by cosine (+ LLM check), idempotent, bidirectional, no chain reaction."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest

from omoide.core.errors import LLMUnavailableError
from omoide.core.markers import END as MAIN_END
from omoide.embed.minilm import MiniLMEmbedder
from omoide.llm.fence import FENCE
from omoide.memory.day_summary import DaySummary, Fact
from omoide.reflect.links import LinkReport, LinkVerdict, find_links
from omoide.store.memories import open_memories, upsert_memories
from omoide.vault.daily import memory_path, write_daily
from omoide.vault.related import (
    BACK_HEADING,
    BEGIN,
    END,
    HEADING,
    day_files,
    outgoing_lines,
    refresh_backlinks,
    write_related,
)
from tests.fakes import FakeLLM

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)
D1, D2, D3, D4 = "2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19"
FACTS = {
    D1: [
        (
            "W",
            "warelay's sync bug came from using UTC day boundaries instead of local ones.",
            ["warelay"],
        ),
        ("S", "Frustrating morning, good afternoon.", []),
    ],
    D2: [("B", "I shipped the warelay sync fix.", ["warelay"])],
    D3: [("B", "I had a dentist check-up; one small filling is due next month.", [])],
    D4: [("B", "Mina and I demoed the warelay sync fix to the team.", ["Mina", "warelay"])],
}
USER_NOTE = "My own words, kept as they are.  \n"


def digest(day: str) -> str:
    # The extractive digest template: near-identical every day, so never a reason to link.
    return f"{day}. About 9.0 h of recorded activity in 200 sessions. Most time went to Code."


def fact_rows(day: str) -> list[dict]:
    ts = datetime.fromisoformat(day).replace(hour=9, tzinfo=UTC)
    rows = [
        {
            "memory_id": f"{day}-{i}",
            "day": day,
            "ts": ts + timedelta(minutes=i),
            "kind": kind,
            "entities": ents,
            "content": text,
            "confidence": 1.0,
            "importance": 0.5,
            "source": f"notes/{day}.md#L{10 + i}",
            "source_refs": [f"notes/{day}.md#L{10 + i}"],
            "backend": "user",
            "recorded_at": NOW,
        }
        for i, (kind, text, ents) in enumerate(FACTS[day])
    ]
    rows.append({**rows[0], "memory_id": f"{day}-digest", "kind": "digest", "content": digest(day)})
    rows[-1]["source"] = f"vault/memory/{day}.md#L9"
    return rows


def summary(day: str, text: str = "A day.") -> DaySummary:
    facts = [
        Fact(
            k,
            c,
            tuple(e),
            1.0,
            0.5,
            (f"notes/{day}.md#L{10 + i}",),
            f"{day}T09:00:00+00:00",
            "retain",
            f"{day}-{i}",
        )
        for i, (k, c, e) in enumerate(FACTS[day])
    ]
    return DaySummary(
        day=day, backend="embedded", model="extractive-digest-v1", summary=text, facts=facts
    )


@pytest.fixture(scope="module")
def emb() -> MiniLMEmbedder:
    return MiniLMEmbedder()


@pytest.fixture
def world(tmp_path: Path, emb: MiniLMEmbedder):
    table = open_memories(tmp_path / "db", emb.model, emb.dim)
    rows = [r for day in FACTS for r in fact_rows(day)]
    upsert_memories(table, pd.DataFrame(rows), emb, NOW)
    vault = tmp_path / "vault"
    for day in FACTS:
        path = memory_path(vault, day)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(USER_NOTE, encoding="utf-8")
        write_daily(vault, summary(day), [], f"{day}-digest")
        # User text after omoide's block, too.
        with path.open("a", encoding="utf-8") as fh:
            fh.write("\nAfterthought by hand.\n")
    return table, vault


def link_days(table, vault: Path, days: list[str], now: datetime, llm=None) -> LinkReport:
    """What the links step does: find the days' links, then write every related block."""
    report = find_links(table, days, set(day_files(vault)), now, llm)
    report.written = write_related(vault, report.links)
    return report


def block(vault: Path, day: str) -> list[str]:
    lines = memory_path(vault, day).read_text(encoding="utf-8").splitlines()
    if BEGIN not in lines:
        return []
    return lines[lines.index(BEGIN) : lines.index(END) + 1]


def backlinks(vault: Path, day: str) -> list[str]:
    lines = block(vault, day)
    return lines[lines.index(BACK_HEADING) + 2 : -1] if BACK_HEADING in lines else []


def targets(lines: list[str]) -> list[str]:
    return [line[4:14] for line in lines]


def snapshot(vault: Path) -> dict[str, bytes]:
    return {d: memory_path(vault, d).read_bytes() for d in FACTS}


def test_links_related_days_with_reason_score_and_citations(world):
    table, vault = world
    report = link_days(table, vault, [D4], NOW)
    links = report.links[D4]
    assert [link.target for link in links] == [D2, D1]  # dentist day and digests don't link
    assert links[0].score > links[1].score >= 0.5
    assert links[0].memory_ids == (f"{D4}-0", f"{D2}-0")
    out = outgoing_lines(block(vault, D4))
    assert out[0].startswith(f'- [[{D2}]] — shared warelay; "Mina and I demoed')
    assert f"`notes/{D4}.md#L10`, `notes/{D2}.md#L10`" in out[0]
    assert out[0].endswith(f"(score {links[0].score:.2f})")
    assert block(vault, D4)[:2] == [BEGIN, HEADING]
    assert report.as_dict()["links"] == 2 and report.llm_checked == 0


def test_block_sits_after_the_main_block_and_user_text_survives(world):
    table, vault = world
    link_days(table, vault, [D4], NOW)
    text = memory_path(vault, D4).read_text(encoding="utf-8")
    assert text.index(MAIN_END) < text.index(BEGIN) < text.index("Afterthought by hand.")
    assert USER_NOTE in text


def test_second_run_writes_nothing(world):
    table, vault = world
    link_days(table, vault, list(FACTS), NOW)
    before = snapshot(vault)
    mtimes = {d: memory_path(vault, d).stat().st_mtime_ns for d in FACTS}
    again = link_days(table, vault, list(FACTS), NOW)
    assert again.written == []
    assert snapshot(vault) == before
    assert {d: memory_path(vault, d).stat().st_mtime_ns for d in FACTS} == mtimes
    assert sum(block(vault, d).count(BEGIN) for d in FACTS) == 3  # one block per linked file


def test_links_point_back_in_time_and_are_bidirectional_through_backlinks(world):
    table, vault = world
    link_days(table, vault, list(FACTS), NOW)
    pairs = {(d, t) for d in FACTS for t in targets(outgoing_lines(block(vault, d)))}
    assert (D4, D2) in pairs and (D2, D1) in pairs
    assert all(target < source for source, target in pairs)  # only to earlier days
    for source, target in pairs:
        assert source in targets(backlinks(vault, target))
    shown = {(s, d) for d in FACTS for s in targets(backlinks(vault, d))}
    assert shown == pairs
    assert block(vault, D3) == []  # the dentist day links nowhere and nothing links it


def test_backlinks_do_not_chain(world):
    table, vault = world
    report = link_days(table, vault, [D4], NOW)
    assert list(report.links) == [D4]
    for day in (D1, D2):
        # The targets show who links them, but get no outgoing links of their own,
        # although D1 and D2 are related to each other.
        assert outgoing_lines(block(vault, day)) == []
        assert targets(backlinks(vault, day)) == [D4]
    assert refresh_backlinks(vault) == []  # recomputing backlinks alone changes nothing


def test_dropped_links_remove_their_backlinks_and_restore_the_file(world):
    table, vault = world
    before = snapshot(vault)
    link_days(table, vault, [D4], NOW)
    written = write_related(vault, {D4: []})
    assert sorted(p.stem for p in written) == [D1, D2, D4]
    assert snapshot(vault) == before


def test_main_writer_keeps_the_related_block(world):
    table, vault = world
    link_days(table, vault, list(FACTS), NOW)
    kept = block(vault, D4)
    w = write_daily(vault, summary(D4, "A new summary after a re-run."), [], f"{D4}-digest")
    assert w.changed
    text = memory_path(vault, D4).read_text(encoding="utf-8")
    assert "A new summary after a re-run." in text
    assert block(vault, D4) == kept and text.count(BEGIN) == 1
    assert link_days(table, vault, list(FACTS), NOW).written == []


def link_judge(reject: set[str] = frozenset()) -> FakeLLM:
    """Days to reject -> a fake judge that rejects links to them and explains the others."""

    def answer(system: str, prompt: str, schema: type) -> LinkVerdict:
        assert schema is LinkVerdict
        related = not any(f"and {d} related" in prompt for d in reject)
        return LinkVerdict(related=related, why="both about the sync fix")

    return FakeLLM(answer, model="judge")


def test_llm_check_filters_and_explains(world):
    table, vault = world
    llm = link_judge(reject={D1})
    report = link_days(table, vault, [D4], NOW, llm=llm)
    assert [link.target for link in report.links[D4]] == [D2]
    assert report.links[D4][0].reason.startswith("both about the sync fix; ")
    assert (report.llm_checked, report.llm_rejected) == (2, 1)
    assert all(f"<{FENCE}>" in p and "Mina and I demoed" in p for p in llm.user_prompts)


def test_dead_llm_falls_back_to_cosine(world):
    table, vault = world
    llm = FakeLLM(LLMUnavailableError("no model at 127.0.0.1"))
    report = link_days(table, vault, list(FACTS), NOW, llm=llm)
    assert [link.target for link in report.links[D4]] == [D2, D1]
    assert report.llm_failed == 1 and report.llm_checked == 0
    assert len(llm.prompts) == 1  # a dead model is not asked again for the other days


def test_a_long_memory_is_quoted_to_a_whole_word_and_cannot_open_a_link() -> None:
    from omoide.reflect.links import QUOTE_CHARS, _quote

    text = "Compared three ryokans in Higashiyama, Gion and Arashiyama for the April trip [[x]]"
    got = _quote(text)
    assert len(got) <= QUOTE_CHARS and got.endswith("…")
    assert text.startswith(got[:-1]) and text[len(got) - 1] == " "  # cut before a space
    assert "[[" not in _quote("see [[2026-11-18]] <!-- x -->") and "<" not in _quote("a <b")
