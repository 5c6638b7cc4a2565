"""Said by ("what did Peter say about the ryokan", "ピーターは旅館について何と言った") -> that speaker's own chat messages about the topic, quoted and cited.

The speaker is a chat record's `actor` (every chat source writes who spoke there); the name
asked means the actors that omoide.answer.names says it means (ピーター -> Peter). Only their
own lines count, never a line of the conversation someone else wrote. Messages about the
topic hold all its words (omoide.answer.lake_records; a Japanese topic's content words each
in either language, as omoide.answer.matching matches them: 旅館 is also "ryokan"); when none
does, those holding at least half of them are shown as near it. Newest first, up to SHOWN, each quoted as written and
cited. A question naming no topic shows the speaker's latest lines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

import pandas as pd

from omoide.answer.cite import Answer, Citation, shown
from omoide.answer.lake_records import (
    NEAR,
    NOTE_KINDS,
    lake_days,
    quoted,
    records_of,
    share,
    timed,
    topic_terms,
)
from omoide.answer.language import Lang, moment_text
from omoide.answer.matching import KANA, holds, key_terms
from omoide.answer.names import bare, meant, page_names, spellings
from omoide.core.days import local_day, zone
from omoide.core.kinds import CHAT_SOURCE_KINDS

if TYPE_CHECKING:
    from omoide.answer.question import Question
    from omoide.core.settings import Settings

SHOWN = 3
# A message of theirs this soon after another's in the same conversation answers it.
REPLY_GAP = pd.Timedelta(minutes=30)
REPLY_CHARS = 80
NEAR_REPLY = 0.99  # below "holds every word": shown only when no message holds them all
# What a question calls the person themself ("what did I say about …").
_MYSELF = frozenset({"i", "me", "myself", "私", "わたし", "僕", "ぼく", "俺", "自分"})


@dataclass(frozen=True)
class Said:
    """One message of the speaker's: when (UTC), its words, its ref, how much of the topic it holds."""

    ts: datetime
    text: str
    ref: str
    held: float
    clock: bool = True  # False: a note line dated by its day only
    reply_to: str = ""  # the message about the topic this one answers, when it holds less of it


def _held(text: str, wanted: list[str]) -> float:
    """A message + a Japanese topic's key terms -> the share of them it holds, in either language;
    at least NEAR when it holds the last one, the head the others qualify (全体会議の発表 is a 発表)."""
    share_held = sum(holds(text, [t]) for t in wanted) / len(wanted)
    if len(wanted) > 1 and holds(text, [wanted[-1]]):
        return max(share_held, NEAR)
    return share_held


def _window(q: Question) -> tuple[datetime, datetime] | None:
    """A question -> its UTC window, or None."""
    return (q.window.start, q.window.end) if q.window else None


def _theirs(events: pd.DataFrame, names: set[str]) -> pd.DataFrame:
    """A day's chat records + the speaker's spellings (case-folded) -> the messages they wrote."""
    actors = events["actor"].map(lambda a: a.strip().casefold() if isinstance(a, str) else "")
    return events[actors.isin(names)]


def said_by_answer(q: Question, settings: Settings, now: datetime) -> Answer:
    """A said-by question + settings + now -> the speaker's own messages about its topic, newest first, cited."""
    lang: Lang = getattr(q, "lang", "en")
    asked = bare(getattr(q, "speaker", "") or "")
    topic = q.subject.strip()
    tz = settings.timezone
    window = _window(q)
    if window is not None:
        window = (window[0], min(window[1], max(now, window[0])))
    if not asked:
        return _answer(q, _ask_whom(lang), [], "none", tz)
    days = lake_days(settings.lake_dir, window, tz)
    chats = list(records_of(settings.lake_dir, days, CHAT_SOURCE_KINDS))
    actors = [a for _, e in chats for a in e["actor"].dropna().astype(str).unique()]
    myself = asked.casefold() in _MYSELF
    if myself:
        names = list(settings.me)
    else:
        pages = page_names(settings.vault_dir)
        known = [*settings.people, *pages, *(a for al in pages.values() for a in al), *actors]
        found = meant(asked, dict.fromkeys(known))
        names = [n for f in found for n in spellings(f, pages, actors)]
    folded = {n.casefold() for n in names}
    theirs = [(d, _theirs(e, folded)) for d, e in chats]
    theirs = [(d, e) for d, e in theirs if not e.empty]
    if myself:
        # The person's own words are also what they wrote in their notes.
        theirs += list(records_of(settings.lake_dir, days, NOTE_KINDS))
    shown_as = asked if lang == "ja" or not names else names[0]
    if myself:
        shown_as = "あなた" if lang == "ja" else "You"
    if not theirs:
        return _answer(q, _no_speaker(shown_as, lang), [], "none", tz)
    japanese = bool(KANA.search(topic))
    wanted = key_terms(topic) if japanese else topic_terms(topic)
    measure = _held if japanese else share
    said = [
        Said(
            ts.to_pydatetime(),
            str(text),
            str(ref),
            measure(str(text), wanted) if wanted else 1.0,
            timed(ts, d, tz, str(source)),
        )
        for d, e in theirs
        for ts, text, ref, source in zip(
            e["ts"], e["text"], e["source_ref"], e["source"], strict=True
        )
        if isinstance(text, str) and text.strip()
    ]
    said = _with_replies(said, _replied_to(chats, folded, measure, wanted))
    about = [s for s in said if s.held == 1.0] or [s for s in said if s.held >= NEAR]
    count = len(said)
    if not about:
        return _answer(q, _never(shown_as, topic, wanted, count, lang), [], "lake", tz)
    about.sort(key=lambda s: s.ts, reverse=True)
    text = _quotes(shown_as, topic, about, tz, lang, near=about[0].held < 1.0)
    home = settings.home
    cites = [Citation(shown(s.ref, home), local_day(s.ts, tz).isoformat()) for s in about[:SHOWN]]
    return _answer(q, text, cites, "lake", tz)


def _replied_to(
    chats: list[tuple[date, pd.DataFrame]],
    speakers: set[str],
    measure: Callable[[str, list[str]], float],
    wanted: list[str],
) -> dict[str, tuple[str, float]]:
    """Each day's chat records + the speaker's spellings + how a text holds the topic -> for each
    of their messages that answers another's (the one before it in the conversation, by someone
    else, within REPLY_GAP), that message's words and how much of the topic it holds, by ref."""
    out: dict[str, tuple[str, float]] = {}
    if not wanted:
        return out
    for _, e in chats:
        for _, talk in e.sort_values("ts", kind="stable").groupby("title", sort=False):
            rows = list(
                zip(talk["ts"], talk["actor"], talk["text"], talk["source_ref"], strict=True)
            )
            for (ts0, who0, text0, _), (ts1, who1, _, ref1) in zip(rows, rows[1:], strict=False):
                mine = isinstance(who1, str) and who1.strip().casefold() in speakers
                other = isinstance(who0, str) and who0.strip().casefold() not in speakers
                if mine and other and isinstance(text0, str) and ts1 - ts0 <= REPLY_GAP:
                    out[str(ref1)] = (text0, measure(text0, wanted))
    return out


def _with_replies(said: list[Said], parents: dict[str, tuple[str, float]]) -> list[Said]:
    """The speaker's messages + what each answers -> a reply holds as much of the topic as the
    question it answers; an answer to a statement is only near it (the talk may have moved on)."""
    out = []
    for s in said:
        parent = parents.get(s.ref)
        if parent is not None and parent[1] > s.held:
            asked = "?" in parent[0] or "？" in parent[0]
            held = parent[1] if asked else min(parent[1], NEAR_REPLY)
            s = replace(s, held=max(s.held, held), reply_to=parent[0])
        out.append(s)
    return out


def _answer(q: Question, text: str, cites: list[Citation], basis: str, tz: str) -> Answer:
    """A question + the text + citations + the basis + timezone -> its Answer (the window as local days)."""
    days = None
    if q.window is not None:
        end = max(q.window.start, q.window.end - timedelta(microseconds=1))
        days = (local_day(q.window.start, tz), local_day(end, tz))
    return Answer("said_by", days, text, cites, subject=q.subject, basis=basis, matched=bool(cites))


def _ask_whom(lang: Lang) -> str:
    """-> the answer to a said-by question that names no speaker."""
    if lang == "ja":
        return "誰の発言を探すかを書いてください（例：「ピーターは旅館について何と言った」）。"
    return "Say whose words to look for (e.g. “what did Peter say about the ryokan”)."


def _no_speaker(name: str, lang: Lang) -> str:
    """A speaker no chat record has -> the sentence saying so."""
    if lang == "ja":
        return f"チャットに「{name}」の発言は記録されていません。"
    return f"No chat message by {name} is recorded."


def _never(name: str, topic: str, wanted: list[str], count: int, lang: Lang) -> str:
    """A speaker + a topic none of their messages holds + what was searched -> the sentence saying so."""
    words = ", ".join(wanted) if wanted else topic
    if lang == "ja":
        return (
            f"{name}が「{topic}」について話したメッセージはありません"
            f"（{name}のメッセージ{count}件から「{'、'.join(wanted) or topic}」を探しました）。"
        )
    messages = "message" if count == 1 else "messages"
    return (
        f"{name} never spoke of “{topic}” in the chats "
        f"(searched {count} {messages} of {name}'s for: {words})."
    )


def _quotes(name: str, topic: str, about: list[Said], tz: str, lang: Lang, near: bool) -> str:
    """The speaker + the topic + their messages about it (newest first) -> the answer quoting up to SHOWN of them."""
    local = [(s, s.ts.astimezone(zone(tz))) for s in about[:SHOWN]]
    rest = len(about) - SHOWN
    if lang == "ja":
        items = "、".join(
            f"「{quoted(s.text)}」（{moment_text(t, lang, s.clock)}"
            + (f"、「{quoted(s.reply_to, REPLY_CHARS)}」への返事" if s.reply_to else "")
            + "）"
            for s, t in local
        )
        more = f"ほか{rest}件。" if rest > 0 else ""
        if near:
            lead = f"{name}の発言で「{topic}」に近いもの："
        else:
            lead = f"{name}が「{topic}」について言ったこと：" if topic else f"{name}の最近の発言："
        return f"{lead}{items}。{more}"
    items = "; ".join(
        f"“{quoted(s.text)}” ({moment_text(t, lang, s.clock)}"
        + (f", in reply to “{quoted(s.reply_to, REPLY_CHARS)}”" if s.reply_to else "")
        + ")"
        for s, t in local
    )
    more = f" And {rest} more." if rest > 0 else ""
    if near:
        lead = f"Closest to “{topic}” in what {'you' if name == 'You' else name} wrote:"
    else:
        lead = f"{name} said about “{topic}”:" if topic else f"{name} said most recently:"
    return f"{lead} {items}.{more}"
