"""Collectors: one module per input format, all returning the EVENTS schema."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from omoide.core.errors import SourceError
from omoide.core.settings import SourceConfig
from omoide.ingest.sources.base import Collected, Reject

Collector = Callable[[SourceConfig, datetime, datetime, datetime], Collected]

__all__ = ["Collected", "Reject", "collect"]


def _collector(kind: str) -> Collector:
    """Source kind -> its collect function (imported lazily: each pulls its own deps)."""
    if kind == "chrome":
        from omoide.ingest.sources.chrome import collect as fn
    elif kind == "firefox":
        from omoide.ingest.sources.firefox import collect as fn
    elif kind == "safari":
        from omoide.ingest.sources.safari import collect as fn
    elif kind == "activitywatch":
        from omoide.ingest.sources.activitywatch import collect as fn
    elif kind == "notes":
        from omoide.ingest.sources.notes import collect as fn
    elif kind == "chat":
        from omoide.ingest.sources.chat import collect as fn
    elif kind == "line":
        from omoide.ingest.sources.line import collect as fn
    elif kind == "chatgpt":
        from omoide.ingest.sources.chatgpt import collect as fn
    elif kind == "claude":
        from omoide.ingest.sources.claude import collect as fn
    elif kind == "discord":
        from omoide.ingest.sources.discord import collect as fn
    elif kind == "whatsapp":
        from omoide.ingest.sources.whatsapp import collect as fn
    elif kind == "telegram":
        from omoide.ingest.sources.telegram import collect as fn
    elif kind == "slack":
        from omoide.ingest.sources.slack import collect as fn
    else:  # pragma: no cover - SourceConfig.kind is a Literal
        raise ValueError(kind)
    return fn


def collect(source: SourceConfig, start: datetime, end: datetime, now: datetime) -> Collected:
    """Source + UTC [start, end) -> events of that window (raw, unsanitized) and rejects.

    A file-system error a collector did not name itself (a link that loops, a folder that
    cannot be listed) is a SourceError of this source naming the path: one source's folder
    never stops the day's key, or the other sources, with a traceback.
    """
    try:
        return _collector(source.kind)(source, start, end, now)
    except OSError as exc:
        where = exc.filename if exc.filename is not None else (source.path or source.name)
        raise SourceError(where, f"cannot be read: {exc.strerror or exc}") from exc
