"""An Ollama that refuses, fails, hangs or lacks the model: one clear error naming host and model, retried only when it can pass."""

from __future__ import annotations

import logging
import time

import pytest

from omoide.core.errors import LLMUnavailableError
from omoide.core.settings import LLMSettings
from omoide.llm import get_llm
from omoide.llm.ollama import OllamaLLM
from tests.ollama_server import (
    CHAT_MODEL,
    EMBED_MODEL,
    FakeOllama,
)
from tests.unit.embed.test_ollama_embed import embedder
from tests.unit.llm.test_ollama import Facts, llm, valid_reply


def test_refused_connection_names_host_and_model_after_retries(
    refused_host: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="omoide.llm.retry")
    with pytest.raises(LLMUnavailableError) as err:
        llm(refused_host, retries=2).generate("s", "p", Facts)
    assert refused_host in str(err.value) and CHAT_MODEL in str(err.value)
    assert "3 attempt(s)" in str(err.value)
    assert len([r for r in caplog.records if "retry" in r.getMessage()]) == 2


def test_two_500s_then_success(fake_ollama: FakeOllama) -> None:
    fake_ollama.fail_next(2)
    fake_ollama.reply(valid_reply())
    out = llm(fake_ollama.url, retries=3).generate("s", "p", Facts)
    assert out.facts[0].content == "LanceDB is fast"
    assert len(fake_ollama.bodies("/api/chat")) == 3


def test_500_always_is_unavailable_after_retries(fake_ollama: FakeOllama) -> None:
    fake_ollama.fail_next(100)
    with pytest.raises(LLMUnavailableError, match="HTTP 500") as err:
        llm(fake_ollama.url, retries=2).generate("s", "p", Facts)
    assert fake_ollama.url in str(err.value) and CHAT_MODEL in str(err.value)
    assert len(fake_ollama.bodies("/api/chat")) == 3


def test_timeout_is_unavailable(fake_ollama: FakeOllama) -> None:
    fake_ollama.delay_s = 2.0
    start = time.monotonic()
    with pytest.raises(LLMUnavailableError, match="no answer within 0.2 s"):
        llm(fake_ollama.url, timeout_s=0.2, retries=1).generate("s", "p", Facts)
    assert time.monotonic() - start < 1.5
    assert len(fake_ollama.bodies("/api/chat")) == 2


def test_model_not_pulled_is_a_clear_error_without_retries(fake_ollama: FakeOllama) -> None:
    with pytest.raises(LLMUnavailableError, match=r"ollama pull mistral:7b") as err:
        OllamaLLM(fake_ollama.url, "mistral:7b", retries=3).generate("s", "p", Facts)
    assert "not pulled" in str(err.value) and fake_ollama.url in str(err.value)
    assert len(fake_ollama.bodies("/api/chat")) == 1


def test_ping_refused_is_unavailable(refused_host: str) -> None:
    with pytest.raises(LLMUnavailableError, match=refused_host):
        llm(refused_host).ping()


def test_500_then_success(fake_ollama: FakeOllama) -> None:
    fake_ollama.fail_next(1, status=503)
    assert embedder(fake_ollama.url, retries=1).embed(["x"]).shape == (1, fake_ollama.dim)
    assert len(fake_ollama.bodies("/api/embed")) == 2


def test_model_not_pulled(fake_ollama: FakeOllama) -> None:
    with pytest.raises(LLMUnavailableError, match="ollama pull mxbai-embed-large"):
        embedder(fake_ollama.url, model="mxbai-embed-large").embed(["x"])
    assert len(fake_ollama.bodies("/api/embed")) == 1


def test_refused_is_unavailable(refused_host: str) -> None:
    with pytest.raises(LLMUnavailableError) as err:
        embedder(refused_host, model=EMBED_MODEL, retries=1).embed(["x"])
    assert refused_host in str(err.value) and EMBED_MODEL in str(err.value)


def test_auto_with_server_down_is_none_quickly(
    refused_host: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="omoide.llm")
    start = time.monotonic()
    assert get_llm(LLMSettings(backend="auto", host=refused_host, retries=3)) is None
    assert time.monotonic() - start < 1.5  # no retries, no backoff waits
    assert any("embedded digest" in r.getMessage() for r in caplog.records)


def test_auto_with_slow_server_gives_up_within_the_timeout(fake_ollama: FakeOllama) -> None:
    fake_ollama.delay_s = 3.0
    start = time.monotonic()
    settings = LLMSettings(backend="auto", host=fake_ollama.url, model=CHAT_MODEL, timeout_s=0.3)
    assert get_llm(settings) is None
    assert time.monotonic() - start < 1.5


def test_auto_with_an_invalid_host_is_none() -> None:
    assert get_llm(LLMSettings(backend="auto", host="http://localhost:notaport")) is None


def test_backend_ollama_down_raises(refused_host: str) -> None:
    with pytest.raises(LLMUnavailableError, match=refused_host):
        get_llm(LLMSettings(backend="ollama", host=refused_host, retries=0))
