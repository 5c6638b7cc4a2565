"""`omoide ask`: a question -> one short answer with citations, from the store that holds it (offline by default).

overview -> the digest pages; time_spent -> the lake's ActivityWatch events; when, count,
which_days and compare -> the lake's records; part_of_day, said_by, who and commitments -> the
modules of those names; lookup -> recall. See `omoide.answer.question` for how a question is
sorted; every answer is written in the question's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from omoide.answer.cite import Answer
from omoide.answer.forgotten import Forgotten, forgotten, gone_text, left_out_text
from omoide.answer.language import Lang
from omoide.answer.lookup import SHOWN, attribute_answer, lookup_answer
from omoide.answer.overview import overview
from omoide.answer.question import Question, classify
from omoide.answer.time_spent import default_window, time_spent_answer
from omoide.answer.when import when_answer
from omoide.answer.wording import reworded
from omoide.core.days import local_day
from omoide.core.errors import OmoideError

if TYPE_CHECKING:
    # Types only: an overview, a time or a when answers without LanceDB or the model loaded.
    from omoide.core.settings import Settings
    from omoide.llm.base import LLM
    from omoide.memory.recall import Recalled

Recall = Callable[[str], "Sequence[Recalled]"]
LOOKUP_K = 5


def _local_days(window: tuple[datetime, datetime], tz: str, now: datetime) -> tuple[date, date]:
    """UTC window + timezone + now -> its inclusive local days (a window running past now ends today)."""
    end = min(window[1], max(now, window[0] + timedelta(microseconds=1)))
    return local_day(window[0], tz), local_day(end - timedelta(microseconds=1), tz)


def answer_question(q: Question, settings: Settings, now: datetime, recall: Recall) -> Answer:
    """A sorted question + settings + now + a recall function -> its answer."""
    tz, lang = settings.timezone, q.lang
    window = (q.window.start, q.window.end) if q.window else None
    if q.kind == "overview" and window is not None:
        first, last = _local_days(window, tz, now)
        text, cites, basis = overview(settings.vault_dir, settings.home, first, last, lang=lang)
        return Answer("overview", (first, last), text, cites, subject=q.subject, basis=basis)
    routed = _routed(q, settings, now)
    if routed is not None:
        return routed
    gone = forgotten(settings.state_dir, q.subject)
    if q.kind == "time_spent":
        window = window or default_window(tz, now)
        # What has not happened yet holds no time: "this week" runs up to now.
        window = (window[0], max(window[0], min(window[1], now)))
        text, minutes, cites, basis = time_spent_answer(
            settings.lake_dir, q.subject, window, tz, lang=lang
        )
        days = _local_days(window, tz, now)
        found = Answer(
            "time_spent", days, text, cites, minutes=minutes, subject=q.subject, basis=basis
        )
        return _told(found, gone, bool(minutes), tz, lang)
    if q.kind == "when":
        text, moment, cites = when_answer(
            settings.lake_dir,
            settings.home,
            q.subject,
            window,
            tz,
            q.first,
            lang,
            settings.user_name,
        )
        days = _local_days(window, tz, now) if window else None
        found = Answer("when", days, text, cites, when=moment, subject=q.subject, basis="lake")
        return _told(found, gone, moment is not None, tz, lang)
    of_person = attribute_answer(q, settings, now)
    if of_person is not None:
        return _told(of_person, gone, True, tz, lang)
    results = recall(q.text)
    text, cites, matched = lookup_answer(results, lang=lang)
    days = _local_days(window, tz, now) if window else None
    found = Answer("lookup", days, text, cites, subject=q.subject, basis="recall", matched=matched)
    # Only a memory that still says it is an answer about it; any other is only near in meaning.
    kept = gone is not None and any(
        gone.what.casefold() in r.content.casefold() for r in results[:SHOWN]
    )
    return _told(found, gone, kept, tz, lang)


def _routed(q: Question, settings: Settings, now: datetime) -> Answer | None:
    """A question of a kind with a module of its own + settings + now -> that module's answer (None for the other kinds).

    Each module is imported only when its kind is asked. A thing the question names that was
    forgotten is said so when the module found nothing of it.
    """
    if q.kind in ("count", "which_days"):
        from omoide.answer.how_often import count_answer, which_days_answer

        found = (count_answer if q.kind == "count" else which_days_answer)(q, settings, now)
    elif q.kind == "compare":
        from omoide.answer.compare import compare_answer

        found = compare_answer(q, settings, now)
    elif q.kind == "part_of_day":
        from omoide.answer.part_of_day import part_of_day_answer

        found = part_of_day_answer(q, settings, now)
    elif q.kind == "said_by":
        from omoide.answer.said_by import said_by_answer

        found = said_by_answer(q, settings, now)
    elif q.kind == "who":
        from omoide.answer.who import who_answer

        found = who_answer(q, settings, now)
    elif q.kind == "did":
        from omoide.answer.did import did_answer

        found = did_answer(q, settings, now)
    elif q.kind == "decision":
        from omoide.answer.decisions import decision_answer

        found = decision_answer(q, settings, now)
    elif q.kind == "commitments":
        from omoide.answer.commitments import commitments_answer

        found = commitments_answer(q, settings, now)
    else:
        return None
    named = (q.speaker, *q.subjects, q.subject)
    gone = next((g for w in named if w and (g := forgotten(settings.state_dir, w))), None)
    return _told(found, gone, bool(found.citations), settings.timezone, q.lang)


def _told(found: Answer, gone: Forgotten | None, kept: bool, tz: str, lang: Lang) -> Answer:
    """An answer + what its subject names that was forgotten + whether anything of it was kept -> the answer that says so."""
    if gone is None:
        return found
    if kept:
        found.answer = f"{found.answer} {left_out_text(gone, tz, lang=lang)}"
        return found
    # No figure, moment or memory: "0 min" or the nearest memory would read as an answer.
    return Answer(
        found.kind,
        found.window,
        gone_text(gone, tz, lang=lang),
        subject=found.subject,
        basis="tombstones",
        matched=False,
    )


def ask(
    question: str,
    settings: Settings,
    now: datetime,
    recall: Recall | None = None,
    llm: LLM | None = None,
) -> Answer:
    """Question + settings + now (+ a recall function, default: this home's; + a model to word it) -> its answer.

    Offline unless a model is given (`omoide ask --llm`): then the model may reword the
    answer from its cited items, kept only when grounded in them. Only a lookup loads the
    embedding model and opens LanceDB; an ask never writes to the memory (a lookup's recall
    is not counted as a rehearsal).
    """
    if not question.strip():
        raise OmoideError("ask needs a question")
    chosen = classify(question, settings.timezone, now, settings.answer_language)
    found = answer_question(chosen, settings, now, recall or _home_recall(settings, now))
    # Memories only near the question in meaning are no answer a model should word as one.
    return reworded(question, found, llm) if llm is not None and found.matched else found


def _home_recall(settings: Settings, now: datetime) -> Recall:
    """Settings + now -> a recall over this home's memories (opened when first asked)."""

    def recall(text: str) -> Sequence[Recalled]:
        from omoide.embed import get_embedder, preload

        if not settings.lancedb_dir.exists():
            raise OmoideError(
                f"no memories yet in {settings.lancedb_dir}: run `omoide run` or `omoide backfill` first"
            )
        embedder = get_embedder(settings.embed, settings.llm.host)
        preload(embedder)  # while LanceDB is imported below
        from omoide.memory.recall import Asked, recall_asked
        from omoide.store.memories import open_memories
        from omoide.store.validity_table import load_validity

        table = open_memories(settings.lancedb_dir, embedder.model, embedder.dim, create=False)
        asked = Asked(text, k=LOOKUP_K)
        validity = load_validity(settings.lancedb_dir)
        return recall_asked(
            table,
            embedder,
            asked,
            settings.recall,
            settings.timezone,
            now,
            False,
            validity=validity,
        )

    return recall
