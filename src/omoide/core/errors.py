"""Domain exceptions; translated once at the edge (CLI message, flow failure state)."""

from __future__ import annotations

from typing import Any


class OmoideError(Exception):
    """Base of every error omoide raises on purpose."""


class ConfigError(OmoideError):
    """Settings or omoide.toml are invalid."""


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
