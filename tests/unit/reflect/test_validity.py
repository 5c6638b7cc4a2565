"""Facts that change over time: the offline rule, the LLM judge, the fact_validity table and the vault's marks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pandas as pd
import pytest

from omoide.core.errors import LLMOutputError
from omoide.core.settings import EmbedSettings, LLMSettings
from omoide.embed import get_embedder
from omoide.llm import cached_ollama
from omoide.reflect.validity import PROMPT_VERSION, attribute_of, validities
from omoide.store.connect import connect_db
from omoide.store.validity_table import (
    TABLE,
    current_of,
    load_validity,
    open_validity,
    save_validity,
)
from omoide.vault.retain_marks import block_id, carried_marks, write_marks
from tests.fakes import FakeLLM
from tests.ollama_server import CHAT_MODEL

T0 = datetime(2026, 11, 19, 9, tzinfo=UTC)


@pytest.fixture(scope="module")
def embed():
    """The bundled embedded model (the rule's cosines are its cosines)."""
    embedder = get_embedder(EmbedSettings(), "http://127.0.0.1:9")
    return lambda texts: list(embedder.embed(texts))


def facts(embed, *items: tuple[str, str, list[str], int]) -> pd.DataFrame:
    """(id, text, entities, day offset) items -> W memory rows with real vectors."""
    rows = [
        {
            "memory_id": mid,
            "ts": T0 + timedelta(days=d),
            "day": (T0 + timedelta(days=d)).date().isoformat(),
            "entities": ents,
            "content": text,
        }
        for mid, text, ents, d in items
    ]
    frame = pd.DataFrame(rows)
    frame["vector"] = embed(frame["content"].tolist())
    return frame


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("Peter moved to the platform team.", "work"),
        ("Mina moved to Berlin last weekend.", "home"),
        ("warelay moves its vectors from Chroma to LanceDB.", "store"),
        ("ミナは京都に引っ越した。", "home"),
        ("ピーターはプラットフォームチームに異動した。", "work"),
        ("The ryokan in Higashiyama is booked for 3–7 April 2027.", None),
    ],
)
def test_each_fact_names_at_most_one_changing_attribute(text: str, attribute: str | None) -> None:
    assert attribute_of(text) == attribute


def test_a_later_fact_of_the_same_entity_and_attribute_supersedes_the_earlier(embed) -> None:
    found = validities(
        facts(
            embed,
            ("home1", "Mina lives in Hamburg.", ["Mina"], 0),
            ("team1", "Peter works on the payments team.", ["Peter"], 0),
            ("ryokan", "The ryokan in Higashiyama is booked.", ["Kyoto"], 0),
            ("home2", "Mina moved to Berlin last weekend.", ["Mina"], 1),
            ("team2", "Peter moved to the platform team.", ["Peter"], 1),
        )
    )
    assert found["home1"].superseded_by == "home2"
    assert found["home1"].valid_to == T0 + timedelta(days=1)
    assert (found["home1"].entity, found["home1"].attribute, found["home1"].method) == (
        "mina",
        "home",
        "rule",
    )
    assert found["team1"].superseded_by == "team2"
    # Nothing is deleted: the replaced facts keep when they began; the rest still stand.
    assert found["home1"].valid_from == T0
    assert [m for m, v in found.items() if v.superseded_by is None] == ["ryokan", "home2", "team2"]


def test_japanese_facts_change_by_the_same_rule(embed) -> None:
    found = validities(
        facts(
            embed,
            ("home1", "ミナはハンブルクに住んでいる。", ["ミナ"], 0),
            ("team1", "ピーターは決済チームで働いている。", ["ピーター"], 0),
            ("store1", "warelayのベクトルの保存先はChroma。", ["warelay"], 0),
            ("home2", "ミナはベルリンに引っ越した。", ["ミナ"], 1),
            ("team2", "ピーターはプラットフォームチームに異動した。", ["ピーター"], 1),
            ("store2", "warelayのベクトルの保存先をLanceDBに変えた。", ["warelay"], 1),
        )
    )
    assert {m: v.superseded_by for m, v in found.items() if v.superseded_by} == {
        "home1": "home2",
        "team1": "team2",
        "store1": "store2",
    }


def test_another_entity_another_attribute_or_a_restatement_replaces_nothing(embed) -> None:
    found = validities(
        facts(
            embed,
            ("a", "Mina lives in Hamburg.", ["Mina"], 0),
            ("b", "Peter lives in Munich.", ["Peter"], 1),  # another entity
            ("c", "Mina works on the sync team.", ["Mina"], 2),  # another attribute
            ("d", "Mina lives in Hamburg.", ["mina"], 3),  # said again
            ("e", "Peter likes coffee.", ["Peter"], 0),
            ("f", "Peter likes tea.", ["Peter"], 1),  # both can be true
        )
    )
    assert all(v.superseded_by is None for v in found.values())


def test_facts_of_no_listed_attribute_match_by_their_head(embed) -> None:
    found = validities(
        facts(
            embed,
            ("vim", "Peter's favourite editor is Vim.", ["Peter"], 0),
            ("emacs", "Peter's favourite editor is Emacs.", ["Peter"], 1),
        )
    )
    assert found["vim"].superseded_by == "emacs"
    assert found["vim"].attribute == "editor favourite"


def test_a_chain_of_replacements_leads_to_the_fact_standing_at_each_time(embed) -> None:
    found = validities(
        facts(
            embed,
            ("a", "Mina lives in Hamburg.", ["Mina"], 0),
            ("b", "Mina moved to Berlin.", ["Mina"], 2),
            ("c", "Mina moved to Kyoto.", ["Mina"], 4),
        )
    )
    assert [found[m].superseded_by for m in "abc"] == ["b", "c", None]
    assert current_of("a", found, T0 + timedelta(days=5)) == "c"
    assert current_of("a", found, T0 + timedelta(days=3)) == "b"
    assert current_of("a", found, T0 + timedelta(days=1)) == "a"


def test_the_llm_judge_decides_when_configured_and_the_rule_stands_in_for_a_bad_answer(
    embed,
) -> None:
    rows = facts(
        embed,
        ("a", "Mina lives in Hamburg.", ["Mina"], 0),
        ("b", "Mina moved to Berlin.", ["Mina"], 1),
        ("c", "Peter's standup is at nine.", ["Peter"], 0),
        ("d", "Peter's standup moved to ten.", ["Peter"], 1),
    )
    no = FakeLLM({"replaces": False})
    found = validities(rows, no)
    assert all(v.superseded_by is None for v in found.values())
    assert any("Mina lives in Hamburg." in p for p in no.user_prompts)

    def judge(system: str, prompt: str, schema: type) -> object:
        return (
            {"replaces": True, "attribute": "Time"} if "standup" in prompt else {"replaces": False}
        )

    found = validities(rows, FakeLLM(judge))
    assert (found["c"].superseded_by, found["c"].attribute, found["c"].method) == (
        "d",
        "time",
        "llm:fake:1b",
    )
    assert found["a"].superseded_by is None  # the judge overrules the rule
    broken = validities(rows, FakeLLM(LLMOutputError("not JSON")))
    assert broken["a"].superseded_by == "b" and broken["a"].method == "rule"


def test_the_judge_through_the_real_ollama_client_is_asked_once_then_cached(
    tmp_path: Path, embed, fake_ollama
) -> None:
    fake_ollama.reply('{"replaces": true, "attribute": "home city"}')
    llm = cached_ollama(
        LLMSettings(backend="ollama", host=fake_ollama.url, model=CHAT_MODEL),
        tmp_path,
        PROMPT_VERSION,
    )
    rows = facts(
        embed,
        ("a", "Mina lives in Hamburg.", ["Mina"], 0),
        ("b", "Mina moved to Berlin.", ["Mina"], 1),
    )
    found = validities(rows, llm)
    assert (found["a"].superseded_by, found["a"].attribute) == ("b", "home city")
    assert found["a"].method == f"llm:{CHAT_MODEL}"
    body = fake_ollama.bodies("/api/chat")[0]
    assert "<untrusted_data>" in body["messages"][1]["content"]
    assert validities(rows, llm) == found
    assert len(fake_ollama.bodies("/api/chat")) == 1  # the second reflection asked the cache


def test_the_table_keeps_ids_and_times_and_writes_only_what_changed(tmp_path: Path, embed) -> None:
    found = validities(
        facts(
            embed,
            ("a", "Mina lives in Hamburg.", ["Mina"], 0),
            ("b", "Mina moved to Berlin.", ["Mina"], 1),
        )
    )
    table = open_validity(tmp_path)
    assert save_validity(table, found) == {"written": 2, "deleted": 0}
    version = table.version
    assert save_validity(table, found) == {"written": 0, "deleted": 0}
    assert table.version == version
    assert load_validity(tmp_path) == found
    assert "content" not in table.schema.names
    # A forgotten fact's row goes with the next reflection.
    assert save_validity(table, {"a": found["a"]})["deleted"] == 1


def test_a_long_lived_reader_reads_the_validities_again_only_after_a_write(
    tmp_path: Path, embed
) -> None:
    found = validities(
        facts(
            embed,
            ("a", "Mina lives in Hamburg.", ["Mina"], 0),
            ("b", "Mina moved to Berlin.", ["Mina"], 1),
        )
    )
    assert load_validity(tmp_path) == {}  # before the first reflection
    table = open_validity(tmp_path)
    assert load_validity(tmp_path) == {}  # made since: found, still empty
    save_validity(table, found)
    first = load_validity(tmp_path)
    assert first == found
    assert load_validity(tmp_path) is first  # nothing written: not read again
    with pytest.raises(TypeError):
        first["c"] = found["a"]  # type: ignore[index]  # shared by every question: read-only
    save_validity(table, {"a": found["a"]})  # a later reflection, by another handle
    assert load_validity(tmp_path) == {"a": found["a"]}
    # The table made again (as a reindex does), its version counted from 1 again.
    connect_db(tmp_path).drop_table(TABLE)
    save_validity(open_validity(tmp_path), {"b": found["b"]})
    assert load_validity(tmp_path) == {"b": found["b"]}
    connect_db(tmp_path).drop_table(TABLE)
    assert load_validity(tmp_path) == {}


def test_the_vault_marks_a_replaced_line_and_a_rewrite_of_its_day_keeps_the_mark(
    tmp_path: Path, embed
) -> None:
    found = validities(
        facts(
            embed,
            ("a" * 32, "Mina lives in Hamburg.", ["Mina"], 0),
            ("b" * 32, "Mina moved to Berlin.", ["Mina"], 1),
        )
    )
    day = tmp_path / "memory" / "2026-11-19.md"
    day.parent.mkdir(parents=True)
    line = f"- W @Mina: Mina lives in Hamburg. · direct ^{block_id('a' * 32)}"
    day.write_text(f"<!-- omoide:begin -->\n## Retain\n\n{line}\n<!-- omoide:end -->\n")
    days = {"a" * 32: "2026-11-19", "b" * 32: "2026-11-20"}
    assert write_marks(tmp_path, found, days) == [day]
    marked = day.read_text().splitlines()[3]
    assert marked == (
        "- W @Mina: Mina lives in Hamburg. · direct · superseded 2026-11-20 by "
        f"[[2026-11-20#^{block_id('b' * 32)}]] ^{block_id('a' * 32)}"
    )
    assert write_marks(tmp_path, found, days) == []  # marked once, then untouched
    assert carried_marks([marked], [line]) == [marked]
    # Once nothing replaces it any more (the later fact forgotten), the mark goes.
    assert write_marks(tmp_path, {"a" * 32: found["a" * 32].__class__("a" * 32, "", "", T0)}, days)
    assert day.read_text().splitlines()[3] == line
