"""Who ("who is Mina", "ミナって誰") -> a card of the person: how the user knows them, what they do together, the facts that stand now, the last contact; each cited.

The name means the people, entity pages and chat speakers omoide.answer.names says it means.
From the lake (omoide.answer.person_records):

- how the user knows them: the circle the records naming them speak of (omoide.reflect.
  circles: a work workspace or work words -> colleague, a kinship word -> family, social
  words -> friend), with how many records say so and the latest of them;
- together: how many chat messages with them and where, and the latest note lines naming them;
- facts now: the W facts about them that stand, one of each attribute (where they live, their
  team, employer, role, age, a plan: omoide.answer.person_facts), newest first, then the
  others, each with the fact it replaced;
- last contact: the latest chat message with them, or note line naming them at a time of its own.

A name nobody in the memory has is said so.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from omoide.answer.cite import Answer, Citation, shown
from omoide.answer.lake_records import lake_days, quoted
from omoide.answer.language import Lang, date_text, moment_text
from omoide.answer.names import bare, meant, page_names, spellings
from omoide.answer.person_facts import Standing, ordered, standing
from omoide.answer.person_records import (
    Record,
    known_names,
    lake_records,
    stored_validity,
    w_facts,
    with_them,
)
from omoide.core.days import local_day, zone
from omoide.reflect.circles import COLLEAGUE, FAMILY, FRIEND, circle_evidence, circles_of

if TYPE_CHECKING:
    from omoide.answer.question import Question
    from omoide.core.settings import Settings

NOTES_SHOWN = 2
FACTS_SHOWN = 5
_CIRCLE = {
    "en": {COLLEAGUE: "a colleague", FAMILY: "family", FRIEND: "a friend"},
    "ja": {COLLEAGUE: "同僚", FAMILY: "家族", FRIEND: "友人"},
}
_EVIDENCE = {
    "en": {COLLEAGUE: "about work", FAMILY: "about family", FRIEND: "private"},
    "ja": {COLLEAGUE: "仕事の話", FAMILY: "家族の話", FRIEND: "プライベートの話"},
}
# How a card names the chat sources it counts.
SOURCE_NAMES = {
    "chat": "chat",
    "slack": "Slack",
    "whatsapp": "WhatsApp",
    "line": "LINE",
    "telegram": "Telegram",
    "discord": "Discord",
    "chatgpt": "ChatGPT",
    "claude": "Claude",
}


class _Card:
    """The sentences of a card and what they cite."""

    def __init__(self, tz: str, home: Path) -> None:
        self.parts: list[str] = []
        self.cites: list[Citation] = []
        self.tz = tz
        self.home = home

    def cite(self, ref: str, ts: datetime) -> None:
        """A record's ref + its time -> cited."""
        self.cites.append(Citation(shown(ref, self.home), local_day(ts, self.tz).isoformat()))


def who_answer(q: Question, settings: Settings, now: datetime) -> Answer:
    """A who question + settings + now -> the person's card, cited; or that no one of that name is in the memory."""
    lang: Lang = getattr(q, "lang", "en")
    tz = settings.timezone
    asked = bare(q.subject)
    records = lake_records(settings.lake_dir, lake_days(settings.lake_dir, None, tz), tz)
    person = person_named(asked, settings, known_names(records))
    if not asked or person is None:
        return Answer(
            "who",
            None,
            _unknown(asked or q.subject, lang),
            subject=q.subject,
            basis="none",
            matched=False,
        )
    name, names = person
    theirs = [r for r in with_them(records, names) if r.ts <= now]
    facts = w_facts(settings.lake_dir, names, stored_validity(settings.lancedb_dir))
    card = _Card(tz, settings.home)
    shown_as = asked if lang == "ja" else name
    _relation(card, shown_as, names, theirs, lang)
    _together(card, theirs, lang)
    _facts(card, standing(facts, now), lang)
    _last_contact(card, theirs, lang)
    if len(card.parts) == 1 and not theirs and not facts:
        card.parts.append(
            f"{shown_as}の名前がある記録はまだありません。"
            if lang == "ja"
            else f"No record names {shown_as} yet."
        )
    joined = "".join(card.parts) if lang == "ja" else " ".join(card.parts)
    return Answer("who", None, joined, card.cites, subject=q.subject, basis="lake")


def person_named(
    asked: str,
    settings: Settings,
    seen: Sequence[str],
    pages: dict[str, tuple[str, ...]] | None = None,
) -> tuple[str, list[str]] | None:
    """A name as asked + settings + the names the records know (+ the entity pages, read once by a caller asking many)
    -> (the person's name, every spelling of them), or None for no one (or the user)."""
    pages = page_names(settings.vault_dir) if pages is None else pages
    known = [*settings.people, *pages, *(a for al in pages.values() for a in al), *seen]
    me = {m.casefold() for m in settings.me}
    found = [n for n in meant(asked, dict.fromkeys(known)) if n.casefold() not in me]
    if not asked or not found:
        return None
    names = list(dict.fromkeys(n for f in found for n in spellings(f, pages, seen)))
    name = next((p for p in pages if any(p.casefold() == n.casefold() for n in names)), found[0])
    return name, names


def _unknown(name: str, lang: Lang) -> str:
    """A name no one in the memory has -> the sentence saying so."""
    if lang == "ja":
        return f"「{name}」という人物は記憶の中にいません。"
    return f"No person called {name} is in your memory."


def _relation(
    card: _Card, name: str, names: Sequence[str], theirs: Sequence[Record], lang: Lang
) -> None:
    """The records with them -> the sentence saying how the user knows them, citing the latest record that shows it."""
    said = [(r, circle_evidence(r.text, names, chat_kind=r.source, ref=r.ref)) for r in theirs]
    ranked = circles_of(c for _, c in said)
    if not ranked:
        card.parts.append(
            f"{name}：関係（仕事・家族・友人）を示す記録はありません。"
            if lang == "ja"
            else f"{name}: no record says how you know them (work, family or friends)."
        )
        return
    first = ranked[0][0]
    latest = next(r for r, c in reversed(said) if c == first)
    quote = quoted(latest.text, 100)
    if lang == "ja":
        what = "・".join(_CIRCLE[lang][c] for c, _ in ranked)
        counts = "、".join(f"{_EVIDENCE[lang][c]}{n}件" for c, n in ranked)
        card.parts.append(
            f"{name}：{what}（名前のある記録{len(theirs)}件のうち{counts}。最新：「{quote}」）。"
        )
    else:
        what = " and ".join(_CIRCLE[lang][c] for c, _ in ranked)
        counts = ", ".join(f"{n} {_EVIDENCE[lang][c]}" for c, n in ranked)
        card.parts.append(
            f"{name}: {what} (of the {len(theirs)} records naming them, {counts}; "
            f"the latest: “{quote}”)."
        )
    card.cite(latest.ref, latest.ts)


def _together(card: _Card, theirs: Sequence[Record], lang: Lang) -> None:
    """The records with them -> what the two do together: chats (how many, where) and the latest note lines naming them."""
    chats = [r for r in theirs if r.is_chat]
    # A retained fact is said under the facts, not as something done together.
    notes = [r for r in theirs if not r.is_chat and r.kind != "retain"]
    where = list(dict.fromkeys(SOURCE_NAMES.get(r.source, r.source) for r in chats))
    latest = notes[-NOTES_SHOWN:][::-1]
    if not chats and not latest:
        return
    tz = zone(card.tz)
    if lang == "ja":
        bits = [f"チャット{len(chats)}件（{'、'.join(where)}）"] if chats else []
        bits += [
            f"「{quoted(r.text, 100)}」（{date_text(r.ts.astimezone(tz).date(), lang)}）"
            for r in latest
        ]
        card.parts.append("一緒に：" + "、".join(bits) + "。")
    else:
        messages = "message" if len(chats) == 1 else "messages"
        bits = [f"{len(chats)} chat {messages} ({', '.join(where)})"] if chats else []
        bits += [
            f"“{quoted(r.text, 100)}” ({date_text(r.ts.astimezone(tz).date(), lang)})"
            for r in latest
        ]
        card.parts.append("Together: " + "; ".join(bits) + ".")
    for r in latest:
        card.cite(r.ref, r.ts)


def _facts(card: _Card, found: Sequence[Standing], lang: Lang) -> None:
    """The W facts that stand -> said, those of an attribute first, each with the fact it replaced."""
    shown_facts = ordered(found)[:FACTS_SHOWN]
    if not shown_facts:
        return
    tz = zone(card.tz)
    items = []
    for s in shown_facts:
        f, old = s.fact, s.replaced
        since = date_text(s.since.astimezone(tz).date(), lang)
        if lang == "ja":
            was = f"、「{quoted(old.text, 100)}」に代わって" if old else ""
            items.append(f"「{quoted(f.text, 140)}」（{since}から{was}）")
        else:
            was = f", replacing “{quoted(old.text, 100)}”" if old else ""
            items.append(f"“{quoted(f.text, 140)}” (since {since}{was})")
        card.cite(f.ref, f.ts)
        if old is not None:
            card.cite(old.ref, old.ts)
    if lang == "ja":
        card.parts.append("今の事実：" + "、".join(items) + "。")
    else:
        card.parts.append("Facts now: " + "; ".join(items) + ".")


def _last_contact(card: _Card, theirs: Sequence[Record], lang: Lang) -> None:
    """The records with them -> the latest chat message with them or timed note line naming them, with its time."""
    contacts = [r for r in theirs if r.is_chat or r.timed]
    if not contacts:
        return
    last = max(contacts, key=lambda r: r.ts)
    moment = moment_text(last.ts.astimezone(zone(card.tz)), lang)
    who = f"{last.actor}: " if last.is_chat and last.actor else ""
    if lang == "ja":
        card.parts.append(f"最後の接点：{moment}「{who}{quoted(last.text, 120)}」。")
    else:
        card.parts.append(f"Last contact: {moment}: “{who}{quoted(last.text, 120)}”.")
    card.cite(last.ref, last.ts)
