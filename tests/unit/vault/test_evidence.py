from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from omoide.vault.evidence import cited, cited_memories, evidence, evidence_items, hidden_ids
from tests.fakes import rows_at

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)
rec = rows_at(NOW)


def test_evidence_is_day_short_quote_link_to_the_line_and_a_hidden_id(tmp_path: Path):
    long = (
        "Aiko: Ryokan rabbit hole. Higashiyama or Gion? Peter: Higashiyama, quieter. Go to sleep!"
    )
    row = rec("c1", long, day="2026-11-18", kind="chat", source="sources/chat/chat.jsonl#L2")
    memories = cited_memories(pd.DataFrame([row]), home=tmp_path)
    line = evidence("c1", memories, tmp_path / "vault" / "bank")
    quote = line.split("“")[1].split("”")[0]
    assert len(quote) <= 80 and quote.endswith("…") and long.startswith(quote[:-1])
    assert line == (
        f"2026-11-18 “{quote}” — [chat/chat.jsonl, line 2]"
        "(../../sources/chat/chat.jsonl#L2) <!-- memory:c1 -->"
    )


def test_a_citation_outside_the_home_links_by_its_absolute_path(tmp_path: Path):
    notes = tmp_path / "My Notes" / "2026-11-18.md"
    row = rec("n1", "Paired with Mina", day="2026-11-18", source=f"{notes}#L7")
    page_dir = tmp_path / "home" / "vault" / "bank"
    line = evidence("n1", {"n1": cited(row, tmp_path / "home")}, page_dir)
    # Spaces are escaped so the link survives Markdown; the target is that file at line 7.
    assert "[My Notes/2026-11-18.md, line 7](../../../My%20Notes/2026-11-18.md#L7)" in line
    assert (page_dir / "../../../My Notes/2026-11-18.md").resolve() == notes.resolve()


def test_a_citation_without_a_line_links_the_file_and_no_source_links_nothing(tmp_path: Path):
    page = tmp_path / "vault" / "bank"
    whole = cited(
        rec("d1", "digest", day="2026-11-18", source="vault/memory/2026-11-18.md"), tmp_path
    )
    assert "— [memory/2026-11-18.md](../memory/2026-11-18.md) <!--" in evidence(
        "d1", {"d1": whole}, page
    )
    bare = cited(rec("x1", "text", day="2026-11-18", source=""), tmp_path)
    assert evidence("x1", {"x1": bare}, page) == "2026-11-18 “text” <!-- memory:x1 -->"


def test_quoted_markup_is_shown_literally():
    row = rec("m1", "see [[secret]] <!-- x --> `code` #tag $5", day="2026-11-18", source="")
    line = evidence("m1", {"m1": cited(row, Path("/home"))}, Path("/home/vault/bank"))
    assert r"see \[\[secret\]\] \<!-- x --> \`code\` \#tag \$5" in line
    assert line.replace(r"\<!--", "").count("<!--") == 1  # only the hidden id opens a comment


def test_a_memory_no_longer_stored_keeps_its_id_and_a_list_counts_the_rest(tmp_path: Path):
    assert evidence("gone", {}, tmp_path) == "a memory no longer stored <!-- memory:gone -->"
    memories = cited_memories(
        pd.DataFrame([rec(f"m{i}", f"memory {i}", day="2026-11-18") for i in range(4)]), tmp_path
    )
    lines = evidence_items(["m0", "m1", "m2", "m3"], memories, tmp_path / "vault" / "bank", 2)
    assert [ln.split(" “")[0] for ln in lines[:2]] == ["  - 2026-11-18"] * 2
    assert lines[2] == "  - and 2 more" and len(lines) == 3
    assert hidden_ids(["a1"], "analysis") == "<!-- analysis:a1 -->"
