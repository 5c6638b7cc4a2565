from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from omoide.reflect.episodes import Episode
from omoide.vault.episodes_page import write_episodes_page
from omoide.vault.evidence import cited_memories
from tests.fakes import rows_at

rec = rows_at(datetime(2026, 11, 21, 12, tzinfo=UTC))


def test_episode_members_are_quoted_with_links_and_written_once(tmp_path: Path):
    rows = pd.DataFrame(
        [
            rec("k1", "Booked the ryokan in Kyoto.", day="2026-11-19", source="notes/a.md#L4"),
            rec("k2", "Peter recommends a quiet ryokan.", day="2026-11-20", kind="chat"),
        ]
    )
    trip = Episode(
        episode_id="e1",
        label="Kyoto trip",
        labelled_by="terms",
        terms=["kyoto", "ryokan"],
        member_ids=["k1", "k2"],
        sources=list(rows["source"]),
        entities=["Kyoto"],
        start="2026-11-19T09:00:00+00:00",
        end="2026-11-20T09:00:00+00:00",
        size=2,
    )
    vault, memories = tmp_path / "vault", cited_memories(rows, home=tmp_path)
    assert write_episodes_page(vault, [trip], "2026-11-14 – 2026-11-20", memories)
    text = (vault / "bank" / "episodes.md").read_text(encoding="utf-8")
    assert "## Kyoto trip\n\n2026-11-19 – 2026-11-20 · 2 memories · Kyoto\n" in text
    assert (
        "- 2026-11-19 “Booked the ryokan in Kyoto.” — [notes/a.md, line 4]"
        "(../../notes/a.md#L4) <!-- memory:k1 -->"
    ) in text
    assert (
        "- 2026-11-20 “Peter recommends a quiet ryokan.” — [memory/2026-11-20.md, line 2]"
        "(../memory/2026-11-20.md#L2) <!-- memory:k2 -->"
    ) in text
    assert not write_episodes_page(vault, [trip], "2026-11-14 – 2026-11-20", memories)
