"""Ollama chat backend: system + user prompt + pydantic schema -> a validated instance."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from omoide.core.errors import LLMOutputError
from omoide.llm.retry import call, make_client, warn_if_remote

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

# A reply that is not valid JSON for the schema gets one more request, then LLMOutputError.
OUTPUT_ATTEMPTS = 2
MAX_ERRORS_SHOWN = 5

# A slot-holding context manager factory, e.g. a shared concurrency limit (see OllamaLLM).
Gate = Callable[[], AbstractContextManager[object]]


class OllamaLLM:
    """An Ollama chat model whose output is constrained by (and validated against) a JSON schema."""

    backend = "ollama"

    def __init__(
        self,
        host: str,
        model: str,
        timeout_s: float = 120.0,
        retries: int = 3,
        options: Mapping[str, Any] | None = None,
        *,
        backoff_s: float = 1.0,
        gate: Gate | None = None,
    ) -> None:
        self.host = host
        self.model = model
        self.timeout_s = timeout_s
        self.retries = retries
        self.backoff_s = backoff_s
        # Held around every chat request, so callers sharing one host take turns.
        self.gate = gate
        # Temperature 0: the same chunk should give the same summary, so caches stay valid.
        self.options: dict[str, Any] = {"temperature": 0, **(options or {})}
        warn_if_remote(host, "prompts made from your activity")
        self._client = make_client(host, timeout_s)

    def generate(self, system: str, prompt: str, schema: type[T]) -> T:
        """System + user prompt + schema -> a validated instance; LLMUnavailableError/LLMOutputError."""
        json_schema = schema.model_json_schema()
        messages = [{"role": "system", "content": system}, {"role": "user", "content": prompt}]
        error: ValidationError | None = None
        for attempt in range(1, OUTPUT_ATTEMPTS + 1):
            # The gate goes around `call`, not inside it: an error taking a slot is not Ollama's
            # and must not be retried or reported as one, and a caller backing off from a
            # failing host keeps its slot rather than handing the host to another caller.
            with self.gate() if self.gate is not None else nullcontext():
                response = call(
                    lambda: self._client.chat(
                        self.model, messages=messages, format=json_schema, options=self.options
                    ),
                    host=self.host,
                    model=self.model,
                    retries=self.retries,
                    backoff_s=self.backoff_s,
                    timeout_s=self.timeout_s,
                )
            try:
                return schema.model_validate_json(response.message.content or "")
            except ValidationError as exc:
                error = exc
                log.warning(
                    "%s answered %d chars that do not match %s (%d error(s)), attempt %d/%d",
                    self.model,
                    len(response.message.content or ""),
                    schema.__name__,
                    exc.error_count(),
                    attempt,
                    OUTPUT_ATTEMPTS,
                )
        where = error_locations(error, json_schema) if error else ""
        # No chaining: a ValidationError prints the model's raw output, which may be personal.
        raise LLMOutputError(
            f"{self.model} on {self.host} did not answer with JSON matching {schema.__name__} "
            f"after {OUTPUT_ATTEMPTS} attempts: {where}"
        ) from None

    def ping(self, *, timeout_s: float | None = None, retries: int = 0) -> list[str]:
        """-> names of the models pulled on the host (GET /api/tags); LLMUnavailableError if unreachable."""
        timeout = self.timeout_s if timeout_s is None else timeout_s
        with make_client(self.host, timeout) as client:
            listed = call(
                client.list,
                host=self.host,
                model=self.model,
                retries=retries,
                backoff_s=self.backoff_s,
                timeout_s=timeout,
            )
        return [m.model for m in listed.models if m.model]


def error_locations(error: ValidationError, json_schema: Mapping[str, Any]) -> str:
    """Validation error + schema -> 'field.path (error type)' list that cannot quote the model."""
    # Locations can contain dict keys or unexpected field names taken from the model's output,
    # so only names the schema itself declares are shown.
    known = _property_names(json_schema)
    parts = []
    for e in error.errors(include_input=False, include_url=False)[:MAX_ERRORS_SHOWN]:
        loc = ".".join(str(p) if isinstance(p, int) or p in known else "*" for p in e["loc"])
        parts.append(f"{loc or '(root)'} ({e['type']})")
    more = error.error_count() - MAX_ERRORS_SHOWN
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def _property_names(node: Any) -> set[str]:
    """JSON schema -> every property name declared anywhere in it (including $defs)."""
    names: set[str] = set()
    if isinstance(node, Mapping):
        props = node.get("properties")
        if isinstance(props, Mapping):
            names.update(str(k) for k in props)
        for value in node.values():
            names |= _property_names(value)
    elif isinstance(node, list):
        for value in node:
            names |= _property_names(value)
    return names
