"""Answers that say what they know: a window with no records says so, and a forgotten subject says it was forgotten and when."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pandas as pd

from omoide.answer.ask import ask
from omoide.answer.forgotten import forgotten
from omoide.core import schemas
from omoide.core.settings import get_settings
from omoide.forget.cascade import take_back
from omoide.forget.select import Selector, select_records
from omoide.store.lake import merge_events
from tests.unit.answer.test_overview_and_when import DAY, _events
from tests.unit.answer.test_wording import _recalled

FRIDAY = date(2026, 11, 20)
SATURDAY = datetime(2026, 11, 21, 10, tzinfo=UTC)
SITE = "seriouseats.com"


def _aw(kind: str, start: str, minutes: float, app: str = "", title: str = "", **kw: str) -> dict:
    """One ActivityWatch lake event starting at UTC `start` (as tests/unit/memory/test_active_time.py makes them)."""
    at = pd.Timestamp(start, tz="UTC")
    return {
        "event_id": f"{kind}-{start}-{app}-{title}",
        "ts": at,
        "duration_s": minutes * 60.0,
        "source": "activitywatch",
        "source_name": "aw",
        "event_type": kind,
        "app": "afk" if kind == "afk" else app,
        "title": title,
        "url": kw.get("url"),
        "source_ref": f"aw#{kind}@{start}",
        "recorded_at": at,
    }


def _friday(lake: Path, home: Path) -> None:
    """Lake -> a Friday with 20 min on two pages of seriouseats.com, 30 in zoom, and a chat with Quillon."""
    aw = [_aw("afk", "2026-11-20T09:00", 120, title="not-afk")]
    for start, page in (("09:00", "Oyakodon Recipe"), ("09:10", "Dashi Guide")):
        title, at = f"{page} | Serious Eats", f"2026-11-20T{start}"
        aw.append(_aw("window", at, 10, "Firefox", f"{title} — Mozilla Firefox"))
        aw.append(_aw("web", at, 10, "Firefox", title, url=f"https://www.{SITE}/{page[:4]}"))
    aw.append(_aw("window", "2026-11-20T09:30", 30, "zoom", "Zoom Meeting"))
    merge_events(lake, FRIDAY, "aw", schemas.conform(pd.DataFrame(aw), schemas.EVENTS))
    chat = {"source": "chat", "source_name": "chat", "event_type": "chat", "title": "Quillon"}
    said = {**chat, "event_id": "q1", "ts": "2026-11-20T18:00Z", "actor": "Quillon"}
    said |= {"text": "The Vantablue plan is on", "source_ref": f"{home}/chat.jsonl#L1"}
    merge_events(lake, FRIDAY, "chat", _events([said]))


def test_a_window_with_no_records_says_so_for_every_kind(omoide_home: Path) -> None:
    settings = get_settings()
    _friday(settings.lake_dir, omoide_home)
    (settings.vault_dir / "memory").mkdir(parents=True)
    (settings.vault_dir / "memory/2026-11-20.md").write_text(DAY.format(home=omoide_home))

    def asked(question: str, now: datetime) -> dict:
        return ask(question, settings, now, lambda _: []).to_json()

    tuesday = datetime(2026, 12, 1, 10, tzinfo=UTC)
    got = asked("what did I do yesterday", tuesday)
    assert got["answer"] == "Nothing was recorded on Monday, 30 November 2026."
    assert got["citations"] == [] and got["basis"] == "none"
    # A Japanese question: the same, said in Japanese.
    assert (
        asked("昨日は何をしましたか", tuesday)["answer"]
        == "2026年11月30日（月）には何も記録されていません。"
    )
    week = asked("what did I do last week", tuesday)["answer"]
    assert week == "Nothing was recorded in the week 2026-W48 (23 to 29 November 2026)."
    month = asked("what did I do in October", tuesday)["answer"]
    assert month == "Nothing was recorded in October 2026."
    this_week = asked("what did I do this week", tuesday)["answer"]
    assert this_week == (
        "Nothing was recorded between Monday, 30 November 2026 and Tuesday, 1 December 2026."
    )
    # The day with a page still answers from it.
    assert "Demo of the sync fix" in asked("what did I do yesterday", SATURDAY)["answer"]

    spent = asked("how long was I on github.com last week", tuesday)
    assert spent["answer"] == "Nothing was recorded in the week 2026-W48 (23 to 29 November 2026)."
    # Records in the window, none of the subject: no "About 0 min".
    none = asked("how long was I on github.com on Friday", SATURDAY)
    assert none["answer"] == (
        "ActivityWatch recorded no time on github.com on Friday, 20 November 2026 "
        "(focused and not away)."
    )
    assert none["minutes"] == 0.0 and none["citations"] == []
    assert asked("how long was I in zoom on Friday", SATURDAY)["answer"].startswith("About 30 min")
    when = asked("when did I last visit the dentist last week", tuesday)["answer"]
    assert (
        when
        == "No record in the week 2026-W48 (23 to 29 November 2026) matches “visit the dentist” "
        "(looked in notes, chats, pages and windows)."
    )
    lookup = asked("where does Mina live", tuesday)["answer"]
    assert lookup == "Nothing in your memory matches that."


def test_a_forgotten_domain_or_person_is_said_forgotten_and_when_never_zero_minutes(
    omoide_home: Path,
) -> None:
    settings = get_settings()
    _friday(settings.lake_dir, omoide_home)
    question = f"how long was I on {SITE} on Friday"
    assert ask(question, settings, SATURDAY, lambda _: []).minutes == 20.0

    forgot_at = datetime.now(UTC)
    for selector in (Selector(domain=SITE), Selector(entity="Quillon")):
        take_back(settings, selector, select_records(settings.lake_dir, selector))
    stones = (settings.state_dir / "tombstones.jsonl").read_text(encoding="utf-8")
    assert "seriouseats" not in stones.lower() and "quillon" not in stones.lower()
    on = f"on {forgot_at.day} {forgot_at:%B %Y}"

    spent = ask(question, settings, SATURDAY, lambda _: []).to_json()
    assert spent["answer"] == f"You asked omoide to forget {SITE} {on}; nothing of it is kept."
    assert spent["minutes"] is None and spent["citations"] == [] and "0 min" not in spent["answer"]
    assert spent["basis"] == "tombstones" and spent["kind"] == "time_spent"
    # A subdomain as asked names the forgotten domain; its site's name too.
    www = ask(f"how long on www.{SITE} last week", settings, SATURDAY, lambda _: []).answer
    assert www.startswith(f"You asked omoide to forget {SITE} ")
    site = ask("how much time on Serious Eats on Friday", settings, SATURDAY, lambda _: []).answer
    assert site.startswith("You asked omoide to forget Serious Eats ")
    page = ask("when did I last read dashi guide | serious eats", settings, SATURDAY, lambda _: [])
    assert page.answer.startswith("You asked omoide to forget dashi guide | serious eats ")

    when = ask("when did I last talk to Quillon", settings, SATURDAY, lambda _: []).to_json()
    assert when["answer"] == f"You asked omoide to forget Quillon {on}; nothing of it is kept."
    assert when["when"] is None
    # A lookup whose memories no longer say it: the forget, not the nearest memory.
    near = [_recalled("Peter moved to the platform team.", 0.0)]
    lookup = ask("what did Quillon's plan say", settings, SATURDAY, lambda _: near).to_json()
    assert lookup["answer"].startswith("You asked omoide to forget Quillon ")
    assert lookup["citations"] == []
    # What is kept of it still answers, and says what was left out.
    kept = [_recalled("Quillon called about the offsite.", 0.4)]
    # ("what did Quillon say" is a said-by question, answered from the chats: nothing kept there.)
    lookup = ask("what happened with Quillon", settings, SATURDAY, lambda _: kept).answer
    assert lookup.startswith("Quillon called about the offsite. (2026-11-20)")
    assert lookup.endswith(f"You asked omoide to forget Quillon {on}: that is left out.")
    # Time that was never forgotten is answered as before.
    zoom = ask("how long was I in zoom on Friday", settings, SATURDAY, lambda _: [])
    assert zoom.answer.startswith("About 30 min") and zoom.minutes == 30.0


def test_only_what_a_tombstone_holds_is_forgotten(omoide_home: Path) -> None:
    settings = get_settings()
    _friday(settings.lake_dir, omoide_home)
    assert forgotten(settings.state_dir, SITE) is None  # nothing forgotten yet: no file read
    selector = Selector(match="Vantablue plan")
    take_back(settings, selector, select_records(settings.lake_dir, selector))
    state = settings.state_dir
    assert forgotten(state, "the “Vantablue plan”?").what == "Vantablue plan"
    for other in ("Vantablue", "plan", "com", "github.com", ""):
        assert forgotten(state, other) is None
