"""Progress hook: the CLI installs a reporter; flows and library code only call advance()."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

_reporter: ContextVar[Callable[[str], None] | None] = ContextVar("omoide_progress", default=None)


def install(reporter: Callable[[str], None] | None) -> None:
    """Reporter (label -> None) -> installed for this context (None removes it)."""
    _reporter.set(reporter)


def advance(label: str) -> None:
    """Label -> one step reported to the installed reporter, if any."""
    fn = _reporter.get()
    if fn is not None:
        fn(label)
