"""Health checks for `omoide doctor`: configuration, sources, backends."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx

from omoide.days import day_bounds, yesterday
from omoide.errors import OmoideError
from omoide.fingerprint import input_files
from omoide.settings import Settings, SourceConfig
from omoide.sources import collect

Check = tuple[str, bool | None, str]
OLLAMA_DEFAULT_HOST = "http://127.0.0.1:11434"


def checks(settings: Settings, now: datetime | None = None) -> list[Check]:
    """Settings -> (name, ok / None for not applicable, detail) rows."""
    now = now or datetime.now(UTC)
    rows: list[Check] = [
        ("home", settings.home.exists(), str(settings.home)),
        ("timezone", True, settings.timezone),
        ("sources", bool(settings.sources), f"{len(settings.sources)} configured"),
    ]
    day = yesterday(settings.timezone, now)
    rows += [_source_check(s, day, settings.timezone, now) for s in settings.sources]
    rows.append(
        _http_check(
            "ollama (optional, used by later stages)",
            OLLAMA_DEFAULT_HOST + "/api/tags",
            optional=True,
        )
    )
    return rows


def _source_check(source: SourceConfig, day, tz: str, now: datetime) -> Check:  # noqa: ANN001
    """One source -> can it be read, and how many events does yesterday have?"""
    label = f"source {source.name} ({source.kind})"
    if source.url is not None:
        return _http_check(label, source.url.rstrip("/") + "/api/0/info")
    if source.path is None or not source.path.exists():
        return (label, False, f"not found: {source.path}")
    if not input_files(source, day) and source.kind == "notes":
        return (label, True, f"{source.path} (no note for {day})")
    start, end = day_bounds(day, tz)
    try:
        got = collect(source, start, end, now)
    except OmoideError as exc:
        return (label, False, str(exc))
    return (
        label,
        True,
        f"{source.path}: {len(got.events)} events on {day}, {len(got.rejects)} rejected",
    )


def _http_check(label: str, url: str, optional: bool = False) -> Check:
    """URL -> whether it answers within 2 s (only loopback or configured hosts are asked)."""
    try:
        httpx.get(url, timeout=2.0).raise_for_status()
    except httpx.HTTPError as exc:
        return (label, None if optional else False, f"{url}: not reachable ({type(exc).__name__})")
    return (label, True, f"{url}: reachable")
