"""The embedded digest: a deterministic, model-free summary of a day for when no LLM is reachable.

What it rests on:
- time per activity and the time at the computer, by ActivityWatch's arithmetic
  (`omoide.memory.active_time`: window time not AFK, a browser's focused time split into the
  sites its web events show; browser-history visits carry no duration and add nothing);
- the timeline: first and last activity and the number of sessions;
- the day's shape: with its activity blocks (`omoide.memory.blocks`), how many, their span and
  the longest of them with whom; without blocks, the first and last activity and the number
  of sessions;
- highlights: things done, decided, written or said, by an extractive ranking (centroid
  method, Radev et al. 2004): every note paragraph and every chat message of a person (not an
  assistant's reply) is a candidate, and a window or page title never is (it is what was on
  the screen, not what was done); each is a TF-IDF vector over the day's texts, the day's
  centroid also takes the session titles, weighted by the minutes spent on them, so what the
  day was spent on still pulls the ranking; candidates are ranked by cosine to the centroid;
  near-duplicates (term Jaccard > 0.5) are skipped; a quota per kind keeps the user's own
  notes in front of chat messages (up to 3 notes, 1 chat message, topped up from the overall
  ranking when a kind has fewer); terms are words of 3+ letters, and character bigrams in
  Chinese, Japanese and Korean (`omoide.memory.terms`), so that unspaced text has terms at
  all; a note or chat message needs about 3 words to be a candidate, where two CJK
  characters count as one word; a highlight shows the first HIGHLIGHT_WORDS (40) whole words
  of its text, or HIGHLIGHT_CJK (80) characters of Japanese or Chinese, "…" where cut: it
  points to the record it cites, which holds the text whole (an AI assistant's replies of
  ~300 words made a day's digest 2,000 words long);
- the people and projects the notes and chats name.
Facts come only from what the notes state explicitly (`## Retain`), added by summarize.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

import pandas as pd

from omoide.core.kinds import ASSISTANT_CHAT_KINDS, BOT_SPEAKERS
from omoide.core.quotes import whole_sentences
from omoide.memory.active_time import Spent, active_time, time_by_activity
from omoide.memory.blocks import Block
from omoide.memory.chat_window import cut
from omoide.memory.day_story import blocks_sentence, people_of
from omoide.memory.day_summary import DaySummary, Highlight
from omoide.memory.records import activity_sessions
from omoide.memory.terms import has_cjk, terms, word_count

DIGEST_MODEL = (
    "extractive-digest-v3"  # v3: blocks tell the day; a window title is never a highlight
)
N_HIGHLIGHTS = 6
HIGHLIGHT_WORDS = 40
HIGHLIGHT_CJK = 80
N_ACTIVITIES = 6
QUOTA = {"note": 3, "chat": 1}
KIND_WEIGHT = {"note": 1.5, "chat": 1.0, "session": 0.8}
_BROWSER_SUFFIX = re.compile(
    r"\s[-—–]\s(?:Google Chrome|Chromium|Mozilla Firefox|Firefox|Microsoft.? Edge|Brave|Safari)$"
)


@dataclass(frozen=True)
class _Candidate:
    kind: str
    text: str
    refs: tuple[str, ...]
    weight: float  # how much it pulls the centroid (minutes for sessions, 1 otherwise)


def _candidates(events: pd.DataFrame, sessions: pd.DataFrame) -> list[_Candidate]:
    """Events + sessions -> highlight candidates with the refs each stands for."""
    out: list[_Candidate] = []
    for e in events[events["event_type"].isin(["note", "chat"])].itertuples(index=False):
        if e.event_type == "chat" and str(e.actor or "").casefold() in BOT_SPEAKERS:
            continue  # an assistant's reply is not something the person did or was told
        if word_count(str(e.text)) >= 3:
            kind = "note" if e.event_type == "note" else "chat"
            out.append(_Candidate(kind, str(e.text).strip(), (e.source_ref,), 1.0))
    for s in activity_sessions(sessions).itertuples(index=False):
        minutes = max(float(s.duration_s) / 60.0, 0.1)
        titles = (
            _BROWSER_SUFFIX.sub("", t) for t in (s.titles if s.titles is not None else []) if t
        )
        for title in dict.fromkeys(titles):
            if word_count(title) >= 2:
                out.append(_Candidate("session", title, tuple(s.source_refs), minutes))
    return out


def rank_highlights(cands: Sequence[_Candidate], n: int = N_HIGHLIGHTS) -> list[_Candidate]:
    """Candidates -> the n most central, mutually distinct ones (centroid TF-IDF ranking)."""
    if not cands:
        return []
    bags = [Counter(terms(c.text)) for c in cands]
    df = Counter(t for bag in bags for t in bag)
    idf = {t: math.log((1 + len(cands)) / (1 + d)) + 1.0 for t, d in df.items()}
    # Merge identical texts first so a title seen 40 times counts by time, not by repeats.
    merged: dict[str, _Candidate] = {}
    for c in cands:
        prev = merged.get(c.text)
        if prev is None or KIND_WEIGHT[c.kind] > KIND_WEIGHT[prev.kind]:
            merged[c.text] = (
                c if prev is None else _Candidate(c.kind, c.text, c.refs, prev.weight + c.weight)
            )
        else:
            merged[c.text] = _Candidate(
                prev.kind, prev.text, prev.refs + c.refs, prev.weight + c.weight
            )
    uniq = list(merged.values())
    vecs = [{t: f * idf[t] for t, f in Counter(terms(c.text)).items()} for c in uniq]
    centroid: Counter[str] = Counter()
    for c, v in zip(uniq, vecs, strict=True):
        w = math.log1p(c.weight)
        for t, x in v.items():
            centroid[t] += w * x
    cnorm = math.sqrt(sum(x * x for x in centroid.values())) or 1.0

    def score(i: int) -> float:
        v = vecs[i]
        norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
        cos = sum(x * centroid[t] for t, x in v.items()) / (norm * cnorm)
        return cos * KIND_WEIGHT[uniq[i].kind]

    order = sorted(range(len(uniq)), key=lambda i: (-score(i), uniq[i].text))
    picked: list[int] = []
    for within_quota in (True, False):
        for i in order:
            if len(picked) == n:
                break
            kind = uniq[i].kind
            taken = sum(uniq[j].kind == kind for j in picked)
            # A window title tells what was on screen, not what was done: it pulls the
            # centroid by the time it was open, and is never a highlight itself.
            if kind == "session" or i in picked or (within_quota and taken >= QUOTA[kind]):
                continue
            if all(_jaccard(set(vecs[i]), set(vecs[j])) <= 0.5 for j in picked):
                picked.append(i)
    picked.sort(key=lambda i: order.index(i))
    return [uniq[i] for i in picked]


def _jaccard(a: set[str], b: set[str]) -> float:
    """Two term sets -> |a∩b| / |a∪b| (0 for two empty sets)."""
    return len(a & b) / len(a | b) if a or b else 0.0


def _duration(seconds: float) -> str:
    """Seconds -> "1.5 h" or "25 min"."""
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{max(1, round(seconds / 60))} min"


def _mentioned(events: pd.DataFrame) -> list[str]:
    """Events -> people/projects the notes @mention and the chats are with, most frequent first."""
    names: Counter[str] = Counter()
    for ents in events.loc[events["event_type"].isin(["note", "retain"]), "entities"]:
        names.update(ents if ents is not None else [])
    # An AI conversation's title is its topic, not someone the day was spent with.
    with_people = (events["event_type"] == "chat") & ~events["source"].isin(ASSISTANT_CHAT_KINDS)
    chats = events.loc[with_people, "title"].dropna()
    names.update(c for c in chats if c and c != "assistant")
    return [n for n, _ in names.most_common(8)]


def embedded_digest(
    events: pd.DataFrame,
    sessions: pd.DataFrame,
    day_name: str,
    tz: str,
    bounds: tuple[datetime, datetime],
    blocks: Sequence[Block] = (),
) -> DaySummary:
    """A day's sanitized events, sessions + its UTC bounds (+ its activity blocks) -> an extractive DaySummary, no model involved."""
    act = activity_sessions(sessions)
    spent = time_by_activity(events, N_ACTIVITIES, *bounds)
    top = rank_highlights(_candidates(events, sessions))
    parts = [f"{day_name}."]
    at = active_time(events, *bounds)
    if at.basis != "none":
        parts.append(f"{_duration(at.seconds)} {_at_computer(at)}.")
    if blocks:
        parts.append(_capital(blocks_sentence(blocks, tz)))
        with_whom = people_of(blocks)
        if with_whom:
            parts.append(f"With {_join(with_whom)}.")
    elif len(act):
        first = pd.Timestamp(act["start"].min()).tz_convert(tz).strftime("%H:%M")
        last = pd.Timestamp(act["end"].max()).tz_convert(tz).strftime("%H:%M")
        parts.append(f"{len(act)} activity sessions between {first} and {last}.")
    if (blocks or len(act)) and at.basis == "none":
        parts.append(
            "No ActivityWatch data: time spent is not known (history visits carry no duration)."
        )
    # With blocks the longest of them say where the day went; ### Time keeps the apps.
    if spent and not blocks:
        named = [f"{name} ({_duration(secs)})" for name, secs in spent[:3]]
        parts.append("Most time went to " + _join(named) + ".")
    names = [n for n in _mentioned(events) if n not in set(people_of(blocks))]
    if names:
        parts.append("Mentioned: " + ", ".join(names) + ".")
    n_notes = int((events["event_type"] == "note").sum())
    n_chat = int((events["event_type"] == "chat").sum())
    if n_notes or n_chat:
        parts.append(f"{n_notes} note paragraph(s) and {n_chat} chat message(s) were written.")
    highlights = [Highlight(_gist(c.text), c.refs) for c in top]
    refs = tuple(dict.fromkeys(r for h in highlights for r in h.refs))
    return DaySummary(
        day="",
        backend="embedded",
        model=DIGEST_MODEL,
        summary=" ".join(parts),
        highlights=highlights,
        time_by_activity=spent,
        refs=refs,
    )


def _gist(text: str) -> str:
    """A highlight's text -> one line of its first HIGHLIGHT_WORDS words (HIGHLIGHT_CJK characters when it holds Japanese or Chinese), '…' where cut."""
    line = cut(" ".join(text.split()), HIGHLIGHT_WORDS)
    if has_cjk(line) and len(line) > HIGHLIGHT_CJK:
        # Whole sentences when they fill a third of the room: a mixed paragraph ("… what
        # matters. 京都の…") is not cut after the first character of its next sentence.
        return whole_sentences(line, HIGHLIGHT_CJK) or line[:HIGHLIGHT_CJK].rstrip() + "…"
    return line


def _capital(sentence: str) -> str:
    """A sentence -> its first letter upper case."""
    return sentence[:1].upper() + sentence[1:]


def _at_computer(at: Spent) -> str:
    """Active time -> what it measures, said plainly."""
    if at.note:
        return "at the computer (ActivityWatch window time; no AFK data)"
    return "at the computer (ActivityWatch, not AFK)"


def _join(parts: Sequence[str]) -> str:
    """["a", "b", "c"] -> "a, b and c"."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


# The summary's own sentences, read back (an answer says their figures in another language):
# each pattern is the sentence `embedded_digest` writes, in the order it writes them.
DURATION = r"\d+\.\d h|\d+ min"
_MEASURED = {", not AFK": "not AFK", " window time; no AFK data": "window"}
_ITEM = re.compile(rf"(?P<name>.+?) \((?P<dur>{DURATION})\)(?:, | and |$)")
_DAY_SENTENCES = (
    ("day", r"[A-Z][a-z]+day (?P<day>\d{4}-\d{2}-\d{2})\."),
    (
        "active",
        rf"(?P<active>{DURATION}) at the computer(?: \(ActivityWatch(?P<how>, not AFK| window time; no AFK data)\))?\.",
    ),
    (
        "sessions",
        r"(?P<sessions>\d+) activity sessions between (?P<start>\d\d:\d\d) and (?P<end>\d\d:\d\d)\.",
    ),
    (
        "blocks",
        r"(?P<blocks>\d+) blocks? between (?P<bstart>\d\d:\d\d) and (?P<bend>\d\d:\d\d)"
        r"(?:; the longest: (?P<longest>.+?\)))?\.",
    ),
    ("with", r"With (?P<with>[^.]+?)\."),
    (
        "no_aw",
        r"No ActivityWatch data: time spent is not known \(history visits carry no duration\)\.",
    ),
    ("spent", r"Most time went to (?P<spent>.+?\))\."),
    ("mentioned", r"Mentioned: (?P<mentioned>.+?)\."),
    (
        "written",
        r"(?P<notes>\d+) note paragraph\(s\) and (?P<chats>\d+) chat message\(s\) were written\.",
    ),
)


@dataclass(frozen=True)
class DayFigures:
    """The figures an embedded day summary says: its day, time at the computer, sessions, time per activity, mentions, what was written."""

    day: date
    active: float | None = None  # seconds; None: the summary names no ActivityWatch time
    measured: str = ""  # "not AFK"; "window": no AFK data took the away time off; "": not said
    sessions: int = 0  # activity blocks when the page has them, else activity sessions
    span: tuple[str, str] | None = None  # first and last activity, "HH:MM"
    longest: tuple[
        tuple[str, float], ...
    ] = ()  # the longest blocks, what they were and their active time
    people: tuple[str, ...] = ()  # whom the day's blocks were with
    spent: tuple[tuple[str, float], ...] = ()
    mentioned: tuple[str, ...] = ()
    written: tuple[int, int] | None = None  # note paragraphs, chat messages


def seconds_of(duration: str) -> float:
    """ "1.5 h" or "25 min" as a summary writes it -> seconds."""
    number, unit = duration.split(" ")
    return float(number) * (3600 if unit == "h" else 60)


def spent_of(listed: str) -> tuple[tuple[str, float], ...] | None:
    """ "a (1.9 h), b (25 min) and c (1.3 h)" -> ((name, seconds), ...), or None when it is not such a list."""
    items, at = [], 0
    while at < len(listed):
        m = _ITEM.match(listed, at)
        if m is None:
            return None
        items.append((m["name"], seconds_of(m["dur"])))
        at = m.end()
    return tuple(items) or None


def read_sentences(
    text: str, patterns: Sequence[tuple[str, str]]
) -> dict[str, re.Match[str]] | None:
    """A summary + its sentence patterns in order -> each sentence's match by name, or None when the text is not those sentences."""
    found: dict[str, re.Match[str]] = {}
    at, rest = 0, list(patterns)
    text = text.strip()
    while at < len(text):
        for i, (name, pattern) in enumerate(rest):
            m = re.compile(pattern + r"(?:\s+|$)").match(text, at)
            if m:
                found[name], at, rest = m, m.end(), rest[i + 1 :]
                break
        else:
            return None
    return found


def day_figures(summary: str) -> DayFigures | None:
    """A day page's summary -> the figures behind it, or None when it is not the embedded digest's (a model wrote it)."""
    found = read_sentences(summary, _DAY_SENTENCES)
    if not found or "day" not in found:
        return None
    spent = spent_of(found["spent"]["spent"]) if "spent" in found else ()
    if spent is None:
        return None
    active = found.get("active")
    sessions = found.get("sessions")
    written = found.get("written")
    mentioned = found.get("mentioned")
    blocks = found.get("blocks")
    longest = spent_of(blocks["longest"]) if blocks and blocks["longest"] else ()
    if blocks:
        sessions = None
    with_whom = found.get("with")
    return DayFigures(
        day=date.fromisoformat(found["day"]["day"]),
        active=seconds_of(active["active"]) if active else None,
        measured=_MEASURED.get(active["how"], "") if active else "",
        sessions=int(blocks["blocks"]) if blocks else int(sessions["sessions"]) if sessions else 0,
        span=(blocks["bstart"], blocks["bend"]) if blocks else _span(sessions),
        longest=longest or (),
        people=_names(with_whom["with"]) if with_whom else (),
        spent=spent,
        mentioned=tuple(mentioned["mentioned"].split(", ")) if mentioned else (),
        written=(int(written["notes"]), int(written["chats"])) if written else None,
    )


def _span(sessions: re.Match[str] | None) -> tuple[str, str] | None:
    """The sessions sentence's match -> its first and last activity."""
    return (sessions["start"], sessions["end"]) if sessions else None


def _names(listed: str) -> tuple[str, ...]:
    """ "a, b and c" -> ("a", "b", "c")."""
    head, _, last = listed.rpartition(" and ")
    return (*(n for n in head.split(", ") if n), last) if head else (listed,)
