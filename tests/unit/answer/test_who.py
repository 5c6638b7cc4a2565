"""Who: a person's card from evidence (how the user knows them, what they do together, the facts that stand with what they replaced, the last contact), each cited; an unknown name said so."""

from __future__ import annotations

from pathlib import Path

from omoide.answer.who import who_answer
from tests.unit.answer.person_days import NOW, Asked, build


def _who(name: str, lang: str = "en") -> Asked:
    """A who question."""
    return Asked(f"who is {name}", "who", None, name, lang=lang)


def test_a_colleague_is_a_colleague_with_her_facts_and_last_contact(omoide_home: Path) -> None:
    settings = build(omoide_home)
    got = who_answer(_who("Mina"), settings, NOW)
    assert got.kind == "who" and got.basis == "lake"
    text = got.answer
    # Slack messages and meetings in the notes: work, not a "friend" by the bond.
    assert text.startswith("Mina: a colleague (of the 5 records naming them, 5 about work; ")
    assert (
        "Together: 2 chat messages (Slack); “Demo of the sync fix to the team with @Mina”" in text
    )
    assert (
        "Facts now: “Mina moved to Berlin last weekend.” (since 20 November 2026, "
        "replacing “Mina lives in Hamburg.”); “Mina leads the warelay storage migration this sprint.”"
    ) in text
    assert "“Mina lives in Hamburg.” (since" not in text  # replaced: said only as what was
    assert text.endswith(
        "Last contact: Friday, 20 November 2026 at 09:30: “Demo of the sync fix to the team with @Mina”."
    )
    sources = {c.source for c in got.citations}
    assert {"notes/2026-11-20.md#L8", "notes/2026-11-11.md#L5"} <= sources
    assert "sources/notes/2026-11-20.md#L22" in sources  # the fact that stands
    assert "sources/notes/2026-11-11.md#L22" in sources  # and the one it replaced


def test_a_friend_from_chats_and_the_card_in_japanese(omoide_home: Path) -> None:
    settings = build(omoide_home)
    peter = who_answer(_who("Peter"), settings, NOW).answer
    assert peter.startswith(
        "Peter: a friend and a colleague (of the 6 records naming them, 5 private, 1 about work"
    )
    assert peter.endswith(
        "Last contact: Thursday, 12 November 2026 at 10:05: “Peter: Lunch at 13:00?”."
    )
    ja = who_answer(_who("ミナさん", "ja"), settings, NOW).answer
    assert ja.startswith("ミナ：同僚（名前のある記録5件のうち仕事の話5件。")
    assert (
        "一緒に：チャット2件（Slack）、「Demo of the sync fix to the team with @Mina」（2026年11月20日）"
        in ja
    )
    assert (
        "今の事実：「Mina moved to Berlin last weekend.」（2026年11月20日から、「Mina lives in Hamburg.」に代わって）"
        in ja
    )
    assert ja.endswith(
        "最後の接点：2026年11月20日（金）09:30「Demo of the sync fix to the team with @Mina」。"
    )
    assert who_answer(_who("ピーター", "ja"), settings, NOW).answer.startswith(
        "ピーター：友人・同僚（"
    )


def test_an_entity_pages_alias_names_the_person(omoide_home: Path) -> None:
    settings = build(omoide_home)
    pages = settings.vault_dir / "bank" / "entities"
    pages.mkdir(parents=True)
    (pages / "mina.md").write_text(
        "---\nname: Mina\naliases:\n- 美奈\n- mina\ntags:\n- omoide/entity\n---\n\n# Mina\n",
        encoding="utf-8",
    )
    got = who_answer(_who("美奈", "ja"), settings, NOW).answer
    assert got.startswith("美奈：同僚（")


def test_an_unknown_name_is_no_one_in_the_memory(omoide_home: Path) -> None:
    settings = build(omoide_home)
    for lang, said in (
        ("en", "No person called Zed is in your memory."),
        ("ja", "「Zed」という人物は記憶の中にいません。"),
    ):
        got = who_answer(_who("Zed", lang), settings, NOW)
        assert got.answer == said and got.citations == [] and got.basis == "none"
    # The person themself is no one to be introduced to.
    assert who_answer(_who("Aiko"), settings, NOW).answer.startswith("No person called Aiko")
