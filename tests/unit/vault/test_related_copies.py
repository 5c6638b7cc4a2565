"""Related memories on a day page never pair a sentence with itself or a near-copy of it."""

from __future__ import annotations

from pathlib import Path

from omoide.reflect.links import DayLink
from omoide.vault.related import link_line, near_copies, write_related


def _link(a: str, b: str, sources: tuple[str, str] = ("n/20.md#L23", "n/18.md#L25")) -> DayLink:
    return DayLink(
        "2026-11-20", "2026-11-18", 0.9, f"shared warelay; {a} ~ {b}", ("m1", "m2"), sources
    )


def test_one_sentence_on_two_days_is_said_once():
    same = '"Lance is the right store for warelay."'
    line = link_line(_link(same, same))
    assert line is not None and " ~ " not in line
    assert f"shared warelay; {same} written on both days" in line
    near = link_line(
        _link('"Mina and I demoed the sync fix."', '"Mina and I demoed the sync fix!"')
    )
    assert near is not None and " ~ " not in near


def test_two_different_sentences_stay_a_pair_and_one_record_is_no_link():
    pair = link_line(
        _link('"warelay moves its vectors to LanceDB."', '"warelay keeps its vectors in Chroma."')
    )
    assert pair is not None and " ~ " in pair
    assert not near_copies('"Mina moved to Berlin."', '"Mina lives in Hamburg."')
    assert link_line(_link('"a b c"', '"a b c"', ("n/20.md#L3", "n/20.md#L3"))) is None


def test_the_page_gets_no_self_pair(tmp_path: Path):
    memory = tmp_path / "memory"
    memory.mkdir()
    for day in ("2026-11-18", "2026-11-20"):
        (memory / f"{day}.md").write_text(f"# {day}\n", encoding="utf-8")
    same = '"Lance is the right store for warelay."'
    write_related(tmp_path, {"2026-11-20": [_link(same, same)]})
    text = (memory / "2026-11-20.md").read_text(encoding="utf-8")
    assert "written on both days" in text and f"{same} ~ {same}" not in text
    assert "[[2026-11-20]]" in (memory / "2026-11-18.md").read_text(encoding="utf-8")
