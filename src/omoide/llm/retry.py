"""Shared Ollama plumbing: client construction, retry policy, error translation, loopback check."""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable, Sequence
from typing import TypeVar
from urllib.parse import urlsplit

import httpx
import ollama
from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
)

from omoide.core.errors import ConfigError, LLMUnavailableError

log = logging.getLogger(__name__)

T = TypeVar("T")
MAX_WAIT_S = 30.0
# Error bodies of a non-Ollama server (a proxy's HTML page) can be long; a message needs the start.
ERROR_CHARS = 200


def make_client(host: str, timeout_s: float) -> ollama.Client:
    """Host + timeout -> an ollama Client; ConfigError when the host is not a usable URL."""
    try:
        return ollama.Client(host=host, timeout=timeout_s)
    except ValueError as exc:
        raise ConfigError(f"invalid Ollama host {host!r}: {exc}") from exc


def is_loopback(host: str) -> bool:
    """Ollama host setting -> whether it names this machine (loopback address or 'localhost')."""
    try:
        name = urlsplit(host if "://" in host else f"http://{host}").hostname
    except ValueError:
        return False
    if not name:
        return True  # the ollama client falls back to 127.0.0.1
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(name)
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    # Connecting to the unspecified address (0.0.0.0, ::) reaches this machine's own listeners.
    return (mapped or ip).is_loopback or ip.is_unspecified


def warn_if_remote(host: str, what: str) -> None:
    """Host + what would be sent -> None; logs a warning when the host is not this machine."""
    if not is_loopback(host):
        log.warning(
            "Ollama host %s is not this machine: %s will leave it over the network", host, what
        )


def has_model(names: Sequence[str], model: str) -> bool:
    """Pulled model names + a model -> whether it is pulled (a name without tag means ':latest')."""
    tagged = ":" in model.rsplit("/", 1)[-1]
    return model in names or (not tagged and f"{model}:latest" in names)


def not_pulled(host: str, model: str, detail: str = "") -> LLMUnavailableError:
    """Host + model (+ server detail) -> the error telling the user to pull the model."""
    extra = f" ({detail})" if detail else ""
    return LLMUnavailableError(
        f"model {model!r} is not pulled on the Ollama at {host}{extra}; "
        f"run `ollama pull {model}` there, or change the configured model"
    )


def is_transient(exc: BaseException) -> bool:
    """Exception -> whether a later attempt may succeed (connection trouble, timeout, HTTP 5xx)."""
    if isinstance(exc, ollama.ResponseError):
        return exc.status_code >= 500
    # ollama turns httpx.ConnectError into the builtin ConnectionError; timeouts stay httpx's.
    return isinstance(exc, ConnectionError | httpx.TransportError)


def _reason(exc: BaseException, timeout_s: float) -> str:
    """Transport exception -> a short reason for a message."""
    if isinstance(exc, httpx.TimeoutException):
        return f"no answer within {timeout_s:g} s ({type(exc).__name__})"
    if isinstance(exc, ConnectionError):
        return "connection failed (is `ollama serve` running there?)"
    if isinstance(exc, ollama.ResponseError):
        return f"HTTP {exc.status_code}: {str(exc.error)[:ERROR_CHARS]}"
    return type(exc).__name__


def call(
    fn: Callable[[], T],
    *,
    host: str,
    model: str,
    retries: int,
    backoff_s: float,
    timeout_s: float,
) -> T:
    """Ollama request -> its response, retried with exponential backoff; LLMUnavailableError otherwise."""
    attempts = max(retries, 0) + 1

    def before_sleep(state: RetryCallState) -> None:
        exc = state.outcome.exception() if state.outcome else None
        wait = state.next_action.sleep if state.next_action else 0.0
        log.warning(
            "Ollama at %s (model %s): %s; retry %d/%d in %.2f s",
            host,
            model,
            _reason(exc, timeout_s) if exc else "failed",
            state.attempt_number,
            attempts - 1,
            wait,
        )

    retrying = Retrying(
        stop=stop_after_attempt(attempts),
        wait=wait_exponential(multiplier=backoff_s, max=MAX_WAIT_S),
        retry=retry_if_exception(is_transient),
        before_sleep=before_sleep,
        reraise=True,
    )
    try:
        return retrying(fn)
    except ollama.ResponseError as exc:
        if exc.status_code == 404:
            raise not_pulled(host, model, _reason(exc, timeout_s)) from exc
        if exc.status_code >= 500:
            raise LLMUnavailableError(
                f"Ollama at {host} failed for model {model!r} after {attempts} attempt(s): "
                f"{_reason(exc, timeout_s)}"
            ) from exc
        raise LLMUnavailableError(
            f"Ollama at {host} refused the request for model {model!r}: {_reason(exc, timeout_s)}"
        ) from exc
    except (ConnectionError, httpx.TransportError) as exc:
        raise LLMUnavailableError(
            f"cannot reach Ollama at {host} for model {model!r} after {attempts} attempt(s): "
            f"{_reason(exc, timeout_s)}"
        ) from exc
    except ValueError as exc:
        # Undecodable JSON or a pydantic error on the API answer: not an Ollama server. No
        # chaining: the validation error would carry the body, which may hold model output.
        raise LLMUnavailableError(
            f"{host} did not answer like an Ollama server for model {model!r} "
            f"({type(exc).__name__})"
        ) from None
