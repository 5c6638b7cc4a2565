"""Ollama embedding backend: texts -> L2-normalised float32 vectors via POST /api/embed."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from omoide.core.errors import EmbeddingMismatchError, LLMOutputError
from omoide.llm.retry import call, make_client, warn_if_remote

log = logging.getLogger(__name__)

# Retrieval models trained with task prefixes embed badly without them; (query, document)
# prefixes from the model cards. Other models get the text as it is.
TASK_PREFIXES = {
    "nomic-embed-text": ("search_query: ", "search_document: "),
    "mxbai-embed-large": ("Represent this sentence for searching relevant passages: ", ""),
}
DIM_PROBE = "omoide dimension probe"


class OllamaEmbedder:
    """An Ollama embedding model; its dimension is learnt from the first answer."""

    backend = "ollama"

    def __init__(
        self,
        host: str,
        model: str,
        timeout_s: float = 60.0,
        retries: int = 3,
        *,
        batch_size: int = 64,
        backoff_s: float = 1.0,
    ) -> None:
        self.host = host
        self.model = model
        self.timeout_s = timeout_s
        self.retries = retries
        self.batch_size = max(batch_size, 1)
        self.backoff_s = backoff_s
        self._dim: int | None = None
        name = model.rsplit("/", 1)[-1].split(":", 1)[0]
        self._prefixes = TASK_PREFIXES.get(name, ("", ""))
        warn_if_remote(host, "memory text to embed")
        self._client = make_client(host, timeout_s)

    @property
    def dim(self) -> int:
        """-> the vector dimension (asks the model once when nothing was embedded yet)."""
        if self._dim is None:
            return int(self.embed([DIM_PROBE]).shape[1])
        return self._dim

    def load(self) -> None:
        """() -> nothing: the model lives in the Ollama server, which loads it when asked."""

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """Texts -> (len(texts), dim) float32 array, rows L2-normalised; `query` marks search text."""
        if not texts:
            return np.empty((0, self.dim), dtype=np.float32)
        prefix = self._prefixes[0] if query else self._prefixes[1]
        batches = [
            self._batch([prefix + t for t in texts[i : i + self.batch_size]])
            for i in range(0, len(texts), self.batch_size)
        ]
        vectors = np.concatenate(batches)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        vectors /= np.where(norms > 0, norms, 1.0)
        log.debug(
            "embedded %d text(s) in %d batch(es) with %s", len(texts), len(batches), self.model
        )
        return vectors

    def _batch(self, texts: list[str]) -> np.ndarray:
        """One batch of texts -> their raw vectors as a (n, dim) float32 array."""
        response = call(
            lambda: self._client.embed(self.model, input=texts),
            host=self.host,
            model=self.model,
            retries=self.retries,
            backoff_s=self.backoff_s,
            timeout_s=self.timeout_s,
        )
        sizes = {len(v) for v in response.embeddings}
        if len(response.embeddings) != len(texts) or len(sizes) != 1 or 0 in sizes:
            raise LLMOutputError(
                f"{self.model} on {self.host} returned {len(response.embeddings)} vector(s) "
                f"of size(s) {sorted(sizes)} for {len(texts)} text(s)"
            )
        vectors = np.asarray(response.embeddings, dtype=np.float32)
        if self._dim is None:
            self._dim = int(vectors.shape[1])
        elif vectors.shape[1] != self._dim:
            raise EmbeddingMismatchError(
                f"{self.model} on {self.host} returned {vectors.shape[1]}-dim vectors "
                f"after {self._dim}-dim ones (was the model replaced?)"
            )
        return vectors
