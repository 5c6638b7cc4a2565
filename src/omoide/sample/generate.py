"""Folder + number of days -> a deterministic sample home in the real formats: Chrome, Firefox, ActivityWatch, notes, chat."""

from __future__ import annotations

import json
import logging
import random
from datetime import date, timedelta
from pathlib import Path

from omoide.core.errors import ConfigError
from omoide.sample.activitywatch import afk_spans, aw_export
from omoide.sample.browsers import focus_visits, phone_visits, write_chrome, write_firefox
from omoide.sample.content import Planted, content
from omoide.sample.desk import day_focus, plant
from omoide.sample.texts import chat_records, note_markdown

log = logging.getLogger(__name__)

CHROME_DB = Path("sources/chrome/Default/History")
FIREFOX_DB = Path("sources/firefox/places.sqlite")
AW_EXPORT = Path("sources/activitywatch/aw-buckets-export.json")
NOTES_DIR = Path("sources/notes")
CHAT_LOG = Path("sources/chat/chat.jsonl")
SCRIPT = Path("sample-script.json")  # what happened when (omoide.sample.script), beside the sources


def _toml() -> str:
    """-> omoide.toml text pointing at the sample sources by paths relative to the home."""
    lines = [
        f"timezone = {json.dumps(content().timezone)}",
        f"user_name = {json.dumps(content().user_speaker)}",
        f"people = {json.dumps(list(content().people))}",
        f"excluded_domains = [{json.dumps(content().excluded_domain)}]",
        "",
    ]
    for kind, path in (
        ("chrome", CHROME_DB),
        ("firefox", FIREFOX_DB),
        ("activitywatch", AW_EXPORT),
        ("notes", NOTES_DIR),
        ("chat", CHAT_LOG),
    ):
        lines += [
            "[[sources]]",
            f"kind = {json.dumps(kind)}",
            f"path = {json.dumps(path.as_posix())}",
            "",
        ]
    return "\n".join(lines)


def _write_text(path: Path, text: str) -> None:
    """Path + text -> file written as UTF-8 with LF line ends (parents created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")


def write_sample(
    out: Path,
    days: int = 7,
    end: date = date(2026, 11, 20),
    seed: int = 7,
    volume: float = 1.0,
) -> tuple[date, date]:
    """Folder + days ending at `end` (+ activity volume) -> sample sources and omoide.toml; (first, last) day.

    Days of the story month (the 30 days ending 20 November 2026) are written from their own
    note and chat, any other day from its weekday's routine. `volume` scales how often the
    person switches windows and pages (1: about 1,200 events a day across the five sources;
    3: about 3,400, a heavy day); the story (notes, chats, planted facts) is the same.
    """
    if days < 1:
        raise ConfigError(f"days must be at least 1, got {days}")
    if not 0.25 <= volume <= 10:
        raise ConfigError(f"volume must be between 0.25 and 10, got {volume}")
    first = end - timedelta(days=days - 1)
    span = [first + timedelta(days=i) for i in range(days)]
    planted: list[list[Planted]] = [[] for _ in span]
    # The planted items go where a three-day sample puts them, over the last three days, so
    # a longer sample ends in the very days the short one holds.
    window = min(days, 3)
    for k, item in enumerate(content().planted):
        planted[days - window + k % window].append(item)
    focus, visits, afk, chat = [], [], [], []
    notes_dir = out / NOTES_DIR
    (out / SCRIPT).unlink(missing_ok=True)  # it told of the sources written before
    if notes_dir.is_dir():
        for old in notes_dir.glob("[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9].md"):
            old.unlink()
    for idx, day in enumerate(span):
        rng = random.Random(f"{seed}:{day.isoformat()}")
        script = content().day_script(day)
        plan = script.segments
        if idx == 0 and not plan.startswith("00:"):
            # Always some activity just after local midnight: it belongs to the previous UTC day.
            plan = "00:14-00:38 personal news; " + plan
        focused = day_focus(day, plan, rng, volume)
        for item in planted[idx]:
            if item.kind in ("visits", "window"):
                focused = plant(focused, day, item)
        focus += focused
        visits += focus_visits(focused, rng) + phone_visits(day, rng)
        afk += afk_spans(focused)
        _write_text(
            notes_dir / f"{day.isoformat()}.md",
            note_markdown(day, script.note, [p for p in planted[idx] if p.kind == "note"]),
        )
        chat += chat_records(day, script.chat, [p for p in planted[idx] if p.kind == "chat"], rng)
    write_chrome(out / CHROME_DB, visits)
    write_firefox(out / FIREFOX_DB, visits, random.Random(f"{seed}:firefox"))
    export = aw_export(focus, afk, random.Random(f"{seed}:aw"))
    _write_text(out / AW_EXPORT, json.dumps(export, ensure_ascii=False))
    chat.sort(key=lambda m: m["_ms"])
    for m in chat:
        del m["_ms"]
    _write_text(out / CHAT_LOG, "".join(json.dumps(m, ensure_ascii=False) + "\n" for m in chat))
    _write_text(out / "omoide.toml", _toml())
    log.info(
        "sample written: %d days, %d visits, %d window events, %d chat messages",
        days,
        len(visits),
        len(focus),
        len(chat),
    )
    return first, end
