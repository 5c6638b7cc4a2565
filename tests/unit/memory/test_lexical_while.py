"""The full-text pool runs on threads kept between questions (`pools.lexical_while`): the same
threads answer the next question, an error in the work beside it is the error raised (after the
search ends), and a forked child searches on threads of its own."""

from __future__ import annotations

import multiprocessing
import os
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from omoide.memory import pools
from omoide.memory.pools import lexical_scores, lexical_while
from tests.fakes import FakeEmbedder, rows_at, stored_memories

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)
rec = rows_at(NOW)


@pytest.fixture
def table(tmp_path: Path):
    return stored_memories(
        tmp_path / "db",
        FakeEmbedder(),
        NOW,
        rec("a", "booked the ryokan in Kyoto"),
        rec("b", "bread dough needs more water"),
    )


def _fts_threads() -> set[int]:
    """() -> idents of the live full-text search threads."""
    return {t.ident for t in threading.enumerate() if t.name.startswith("omoide-fts")}


def test_the_search_threads_are_kept_between_questions(table):
    first, done = lexical_while(table, "ryokan kyoto", [None], 10, lambda: "embedded")
    assert done == "embedded" and first == lexical_scores(table, "ryokan kyoto", [None], 10)
    assert first, "the full-text pool found the ryokan"
    threads = _fts_threads()
    for _ in range(5):
        lexical_while(table, "bread water", [None], 10, lambda: None)
    assert _fts_threads() == threads  # no thread per question


def test_an_error_beside_the_search_is_the_error_raised(table):
    def fails() -> None:
        raise ValueError("the embedding failed")

    with pytest.raises(ValueError, match="the embedding failed"):
        lexical_while(table, "ryokan", [None], 10, fails)
    # the threads still answer the next question
    found, _ = lexical_while(table, "ryokan", [None], 10, lambda: None)
    assert found


def _threads_in_child(out) -> None:
    """A queue -> the child's search executor (its id) and the pid its thread ran in, on the queue."""
    mine = pools._fts_threads(os.getpid())
    out.put((id(mine), mine.submit(os.getpid).result(timeout=30)))


def test_a_forked_child_searches_on_threads_of_its_own(table):
    # The child asks its executor for work but runs no LanceDB search: LanceDB 0.40's runtime
    # does not survive a fork after it has run (the child segfaulted in about one run in four),
    # and omoide never forks after searching. What the pid key is for is the executor.
    lexical_while(table, "ryokan", [None], 10, lambda: None)  # the parent's threads exist
    parent = pools._fts_threads(os.getpid())
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=_threads_in_child, args=(out,))
    child.start()
    try:
        # with the parent's executor the child would wait forever: its threads are not forked
        executor, ran_in = out.get(timeout=60)
        child.join(60)
    finally:
        if child.is_alive():
            child.kill()
    assert child.exitcode == 0 and executor != id(parent) and ran_in == child.pid
