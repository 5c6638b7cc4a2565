"""OllamaLLM over real HTTP against the fake Ollama server: structured output, retries, errors."""

from __future__ import annotations

import json
import logging
import time

import pytest
from pydantic import BaseModel, ConfigDict, Field

from omoide.core.errors import LLMOutputError, LLMUnavailableError
from omoide.llm.ollama import OllamaLLM, error_locations
from omoide.llm.retry import has_model, is_loopback
from tests import ollama_server
from tests.ollama_server import CHAT_MODEL, FakeOllama

SECRET = "Alice told me her PIN is 4711"

# Imported by assignment (not `from ... import`) so linters see a use, not a redefinition.
fake_ollama = ollama_server.fake_ollama
refused_host = ollama_server.refused_host


class Fact(BaseModel):
    kind: str
    content: str
    confidence: float = Field(ge=0, le=1)


class Facts(BaseModel):
    model_config = ConfigDict(extra="forbid")

    facts: list[Fact]
    people: dict[str, int] = {}


def llm(host: str, **kw: object) -> OllamaLLM:
    """Host -> an OllamaLLM with tiny backoff so retry tests stay fast."""
    kw.setdefault("backoff_s", 0.01)
    return OllamaLLM(host, CHAT_MODEL, **kw)  # type: ignore[arg-type]


def valid_reply() -> str:
    return json.dumps({"facts": [{"kind": "W", "content": "LanceDB is fast", "confidence": 0.8}]})


def test_structured_roundtrip_sends_schema_and_temperature_zero(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply(valid_reply())
    out = llm(fake_ollama.url).generate("You summarise.", "Summarise this day.", Facts)
    assert out == Facts(facts=[Fact(kind="W", content="LanceDB is fast", confidence=0.8)])
    (body,) = fake_ollama.bodies("/api/chat")
    assert body["model"] == CHAT_MODEL
    assert body["format"] == Facts.model_json_schema()
    assert body["options"]["temperature"] == 0
    assert body["stream"] is False
    assert body["messages"] == [
        {"role": "system", "content": "You summarise."},
        {"role": "user", "content": "Summarise this day."},
    ]


def test_extra_options_are_sent_alongside_temperature(fake_ollama: FakeOllama) -> None:
    llm(fake_ollama.url, options={"num_ctx": 8192}).generate("s", "p", Facts)
    (body,) = fake_ollama.bodies("/api/chat")
    assert body["options"] == {"temperature": 0, "num_ctx": 8192}


def test_default_fake_reply_is_a_valid_instance_of_any_schema(fake_ollama: FakeOllama) -> None:
    assert llm(fake_ollama.url).generate("s", "p", Facts) == Facts(facts=[])


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


def test_malformed_json_then_valid_takes_two_requests(fake_ollama: FakeOllama) -> None:
    fake_ollama.reply('{"facts": [', valid_reply())
    out = llm(fake_ollama.url).generate("s", "p", Facts)
    assert out.facts[0].kind == "W"
    assert len(fake_ollama.bodies("/api/chat")) == 2


def test_schema_violations_raise_output_error_without_the_reply(fake_ollama: FakeOllama) -> None:
    bad = json.dumps(
        {
            "facts": [{"kind": "W", "content": SECRET, "confidence": SECRET}],
            "people": {SECRET: SECRET},
            SECRET: 1,
        }
    )
    fake_ollama.reply(bad, bad, bad)
    with pytest.raises(LLMOutputError) as err:
        llm(fake_ollama.url).generate("s", "p", Facts)
    message = str(err.value)
    assert "Facts" in message and "facts.0.confidence (float_parsing)" in message
    assert "people.* (int_parsing)" in message and "* (extra_forbidden)" in message
    assert "Alice" not in message and "4711" not in message
    assert err.value.__cause__ is None and err.value.__suppress_context__
    assert len(fake_ollama.bodies("/api/chat")) == 2


def test_error_locations_are_capped() -> None:
    try:
        Facts.model_validate({"facts": [{}] * 4})
    except Exception as exc:
        text = error_locations(exc, Facts.model_json_schema())  # type: ignore[arg-type]
    assert text.count("(missing)") == 5 and text.endswith("and 7 more")


def test_model_not_pulled_is_a_clear_error_without_retries(fake_ollama: FakeOllama) -> None:
    with pytest.raises(LLMUnavailableError, match=r"ollama pull mistral:7b") as err:
        OllamaLLM(fake_ollama.url, "mistral:7b", retries=3).generate("s", "p", Facts)
    assert "not pulled" in str(err.value) and fake_ollama.url in str(err.value)
    assert len(fake_ollama.bodies("/api/chat")) == 1


def test_ping_lists_pulled_models(fake_ollama: FakeOllama) -> None:
    assert llm(fake_ollama.url).ping() == fake_ollama.models


def test_ping_refused_is_unavailable(refused_host: str) -> None:
    with pytest.raises(LLMUnavailableError, match=refused_host):
        llm(refused_host).ping()


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("http://127.0.0.1:11434", True),
        ("127.0.0.2:11434", True),
        ("localhost:11434", True),
        ("http://LOCALHOST", True),
        ("http://[::1]:11434", True),
        ("http://[::ffff:127.0.0.1]:11434", True),
        ("0.0.0.0:11434", True),
        ("http://192.0.2.10:11434", False),
        ("https://gpu.example.org", False),
        ("http://[2001:db8::1]:11434", False),
        ("http://[::1", False),
    ],
)
def test_is_loopback(host: str, local: bool) -> None:
    assert is_loopback(host) is local


def test_non_loopback_host_warns_on_construction(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="omoide.llm.retry")
    OllamaLLM("http://192.0.2.10:11434", CHAT_MODEL)
    (record,) = caplog.records
    assert record.levelno == logging.WARNING and "192.0.2.10" in record.getMessage()
    caplog.clear()
    OllamaLLM("http://localhost:11434", CHAT_MODEL)
    assert not caplog.records


def test_has_model_treats_bare_names_as_latest() -> None:
    names = ["llama3.2:latest", "qwen2.5:7b", "registry.local:5000/me/m:latest"]
    assert has_model(names, "llama3.2") and has_model(names, "qwen2.5:7b")
    assert not has_model(names, "qwen2.5") and not has_model(names, "llama3.2:3b")
    assert has_model(names, "registry.local:5000/me/m")
