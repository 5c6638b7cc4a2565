"""get_llm over real HTTP: auto picks Ollama only when it is up with the model pulled."""

from __future__ import annotations

import logging

import pytest

from omoide.core.errors import LLMUnavailableError
from omoide.core.settings import LLMSettings
from omoide.llm import get_llm
from omoide.llm.ollama import OllamaLLM
from tests.ollama_server import CHAT_MODEL, FakeOllama


def test_auto_with_server_up_and_model_pulled_is_ollama(fake_ollama: FakeOllama) -> None:
    llm = get_llm(LLMSettings(backend="auto", host=fake_ollama.url, model=CHAT_MODEL))
    assert isinstance(llm, OllamaLLM)
    assert (llm.backend, llm.model, llm.host) == ("ollama", CHAT_MODEL, fake_ollama.url)


def test_auto_without_the_model_is_none(
    fake_ollama: FakeOllama, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="omoide.llm")
    assert get_llm(LLMSettings(backend="auto", host=fake_ollama.url, model="mistral")) is None
    assert any("ollama pull mistral" in r.getMessage() for r in caplog.records)


def test_backend_none_is_none_without_contacting_ollama(fake_ollama: FakeOllama) -> None:
    assert get_llm(LLMSettings(backend="none", host=fake_ollama.url, model=CHAT_MODEL)) is None
    assert fake_ollama.requests == []


def test_backend_ollama_up_is_ollama(fake_ollama: FakeOllama) -> None:
    llm = get_llm(LLMSettings(backend="ollama", host=fake_ollama.url, model=CHAT_MODEL))
    assert isinstance(llm, OllamaLLM)
    assert [r.path for r in fake_ollama.requests] == ["/api/tags"]


def test_backend_ollama_without_the_model_raises(fake_ollama: FakeOllama) -> None:
    settings = LLMSettings(backend="ollama", host=fake_ollama.url, model="mistral")
    with pytest.raises(LLMUnavailableError, match="ollama pull mistral"):
        get_llm(settings)
