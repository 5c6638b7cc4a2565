"""The embedding protocol every backend implements."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np


class Embedder(Protocol):
    """Texts -> L2-normalised float32 vectors of a fixed dimension."""

    backend: str  # "embedded" or "ollama"
    model: str  # recorded on every row; a different model means a different vector space
    dim: int

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """Texts -> (len(texts), dim) float32 array, rows L2-normalised; `query` marks search text."""
        ...

    def load(self) -> None:
        """() -> the model ready in this process (once, safe from any thread; nothing where nothing loads)."""
        ...
