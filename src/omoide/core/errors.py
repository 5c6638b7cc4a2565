"""Domain exceptions; translated once at the edge (CLI message, flow failure state)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


class OmoideError(Exception):
    """Base of every error omoide raises on purpose."""


class ConfigError(OmoideError):
    """Settings or omoide.toml are invalid."""


class NoSourcesError(ConfigError):
    """The home lists no sources: a run would collect nothing and call the day done."""

    def __init__(self, home: Path) -> None:
        self.home = home
        toml = home / "omoide.toml"
        if toml.exists():
            how = (
                f" in {toml}: add a [[sources]] table with its kind and path, e.g. kind = "
                '"notes" and path = "/path/to/notes" (`omoide init` writes one per browser '
                "profile it finds, in a home without omoide.toml)"
            )
        else:
            how = (
                f": {home} has no omoide.toml; run `omoide init` to write one listing the browser "
                "profiles it finds, or write its [[sources]] tables (kind and path) yourself"
            )
        super().__init__(f"no sources configured{how}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.home,))


class Incomplete(OmoideError):
    """A run that finished with some parts failed; `partial` is what it still produced."""

    def __init__(self, message: str, partial: Any = None) -> None:
        super().__init__(message)
        self.partial = partial

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled with its partial result (Prefect may persist a failed run's exception).
        return (type(self), (str(self), self.partial))


class SourceError(OmoideError):
    """A source could not be read; the message names the file (and record when known)."""

    def __init__(self, path: object, reason: str, *, transient: bool = False) -> None:
        self.path = str(path)
        self.reason = reason
        self.transient = transient
        super().__init__(f"{self.path}: {reason}")


class SourceLockedError(SourceError):
    """The source database stayed locked; worth retrying later."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(path, reason, transient=True)


class DataQualityError(OmoideError):
    """A critical expectation failed; names the suite, the expectations and their counts."""

    def __init__(self, suite: str, failures: list[dict[str, Any]]) -> None:
        self.suite = suite
        self.failures = failures
        parts = ", ".join(
            f"{f['expectation']}({f.get('column') or '-'}): {f.get('unexpected_count', '?')} bad"
            for f in failures
        )
        super().__init__(f"data quality check '{suite}' failed: {parts}")


class LLMUnavailableError(OmoideError):
    """The configured LLM backend could not be reached; the message names host and model."""


class LLMOutputError(OmoideError):
    """The model answered, but not with JSON matching the requested schema."""


class EmbeddingMismatchError(OmoideError):
    """The store's vectors were made by another model or dimension than the configured one."""


class StoreUnavailableError(OmoideError):
    """The object store holding the lake and LanceDB could not be reached or refused a request."""
