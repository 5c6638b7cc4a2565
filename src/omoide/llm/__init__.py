"""LLM backends: `get_llm(settings)` picks Ollama or none (the embedded extractive digest)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from omoide.core.errors import OmoideError
from omoide.llm.base import LLM
from omoide.llm.cache import CachedLLM

if TYPE_CHECKING:
    from omoide.core.settings import LLMSettings
    from omoide.llm.ollama import Gate, OllamaLLM

log = logging.getLogger(__name__)

# `auto` must not hold up a run on a machine without Ollama: one quick look, no retries.
AUTO_PING_TIMEOUT_S = 2.0

__all__ = ["LLM", "cached_ollama", "get_llm", "ollama_llm"]


def get_llm(settings: LLMSettings) -> LLM | None:
    """[llm] settings -> a reachable LLM with the model pulled, or None for the embedded digest."""
    # Imported on use: importing omoide.llm.base (the cache, the summarizer) should not pay
    # for loading the ollama client and httpx.
    from omoide.llm.retry import has_model, not_pulled

    if settings.backend == "none":
        return None
    if settings.backend == "ollama":
        llm = ollama_llm(settings)
        if not has_model(llm.ping(retries=settings.retries), settings.model):
            raise not_pulled(settings.host, settings.model)
        return llm
    try:
        llm = ollama_llm(settings)
        names = llm.ping(timeout_s=min(AUTO_PING_TIMEOUT_S, settings.timeout_s))
    except OmoideError as exc:
        log.info("no usable Ollama (%s); the embedded digest will be used", exc)
        return None
    if not has_model(names, settings.model):
        log.info(
            "Ollama at %s has no model %r (`ollama pull %s` adds it); "
            "the embedded digest will be used",
            settings.host,
            settings.model,
            settings.model,
        )
        return None
    return llm


def ollama_llm(settings: LLMSettings, gate: Gate | None = None) -> OllamaLLM:
    """[llm] settings (+ a gate for each chat request) -> an OllamaLLM (not contacted yet)."""
    from omoide.llm.ollama import OllamaLLM

    return OllamaLLM(
        settings.host,
        settings.model,
        timeout_s=settings.timeout_s,
        retries=settings.retries,
        gate=gate,
    )


def cached_ollama(
    settings: LLMSettings, cache_dir: Path, prompt_version: str, gate: Gate | None = None
) -> CachedLLM:
    """[llm] settings + cache folder (+ gate) -> the Ollama LLM behind the answer cache."""
    # The gate sits on the inner model, so a cache hit never waits for a slot.
    return CachedLLM(ollama_llm(settings, gate), cache_dir, prompt_version)
