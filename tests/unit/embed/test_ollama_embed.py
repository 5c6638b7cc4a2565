"""OllamaEmbedder over real HTTP against the fake Ollama server."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from omoide.embed.ollama import OllamaEmbedder
from tests.ollama_server import (
    CHAT_MODEL,
    EMBED_MODEL,
    FakeOllama,
)

TEXTS = [
    "lancedb vector search spike",
    "lancedb vector index benchmark",
    "dinner with family",
    "prefect flow retries",
    "ollama embeddings batch",
    "weekly review notes",
    "dinner recipes",
]


def embedder(host: str, model: str = CHAT_MODEL, **kw: object) -> OllamaEmbedder:
    """Host -> an embedder on a prefix-free model with tiny backoff."""
    kw.setdefault("backoff_s", 0.01)
    return OllamaEmbedder(host, model, **kw)  # type: ignore[arg-type]


def test_vectors_are_normalised_float32_of_the_server_dim_in_batches(
    fake_ollama: FakeOllama,
) -> None:
    emb = embedder(fake_ollama.url, batch_size=3)
    vectors = emb.embed(TEXTS)
    assert vectors.dtype == np.float32 and vectors.shape == (7, fake_ollama.dim)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    inputs = [b["input"] for b in fake_ollama.bodies("/api/embed")]
    assert inputs == [TEXTS[0:3], TEXTS[3:6], TEXTS[6:7]]
    assert emb.dim == fake_ollama.dim and emb.backend == "ollama" and emb.model == CHAT_MODEL
    assert len(fake_ollama.bodies("/api/embed")) == 3  # dim was learnt, not asked again
    sims = vectors @ vectors.T
    assert sims[0, 1] > sims[0, 2]  # shared words -> closer, as a real model would be
    assert np.array_equal(emb.embed(TEXTS[:1])[0], vectors[0])


def test_dim_is_discovered_lazily_with_one_request(fake_ollama: FakeOllama) -> None:
    emb = embedder(fake_ollama.url)
    assert fake_ollama.requests == []
    assert emb.dim == fake_ollama.dim
    assert emb.dim == fake_ollama.dim
    assert len(fake_ollama.bodies("/api/embed")) == 1


def test_empty_input_gives_an_empty_matrix(fake_ollama: FakeOllama) -> None:
    out = embedder(fake_ollama.url).embed([])
    assert out.shape == (0, fake_ollama.dim) and out.dtype == np.float32


def test_task_prefixes_for_nomic(fake_ollama: FakeOllama) -> None:
    emb = embedder(fake_ollama.url, model="nomic-embed-text")
    emb.embed(["a memory"])
    emb.embed(["a question"], query=True)
    inputs = [b["input"] for b in fake_ollama.bodies("/api/embed")]
    assert inputs == [["search_document: a memory"], ["search_query: a question"]]
    assert fake_ollama.bodies("/api/embed")[0]["model"] == "nomic-embed-text"


def test_non_loopback_host_warns(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="omoide.llm.retry")
    OllamaEmbedder("https://gpu.example.org:11434", EMBED_MODEL)
    assert any("gpu.example.org" in r.getMessage() for r in caplog.records)
