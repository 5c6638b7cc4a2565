"""OllamaLLM over real HTTP against the fake Ollama server: structured output, retries, errors."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

from omoide.llm.cache import CachedLLM
from omoide.llm.ollama import OllamaLLM
from omoide.llm.retry import has_model, is_loopback
from tests.ollama_server import CHAT_MODEL, FakeOllama, InFlight

SECRET = "Alice told me her PIN is 4711"


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


def test_ping_lists_pulled_models(fake_ollama: FakeOllama) -> None:
    assert llm(fake_ollama.url).ping() == fake_ollama.models


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


class CountingGate:
    """A gate (factory of context managers) that counts how often it is held and whether it is now."""

    def __init__(self) -> None:
        self.entered = 0
        self.held = False

    @contextmanager
    def __call__(self) -> Iterator[None]:
        self.entered += 1
        self.held = True
        try:
            yield
        finally:
            self.held = False


def ask_side_by_side(model: OllamaLLM, n: int) -> None:
    """An LLM + a count -> n different prompts asked from n threads at once."""
    with ThreadPoolExecutor(n) as pool:
        list(pool.map(lambda i: model.generate("s", f"prompt {i}", Facts), range(n)))


def test_without_a_gate_requests_run_side_by_side(fake_ollama: FakeOllama) -> None:
    fake_ollama.default_reply = flight = InFlight()
    ask_side_by_side(llm(fake_ollama.url), 6)
    assert flight.peak == 6 and len(fake_ollama.bodies("/api/chat")) == 6


def test_a_gate_caps_requests_in_flight(fake_ollama: FakeOllama) -> None:
    fake_ollama.default_reply = flight = InFlight()
    slots = threading.BoundedSemaphore(2)
    ask_side_by_side(llm(fake_ollama.url, gate=lambda: slots), 6)
    assert flight.peak == 2 and len(fake_ollama.bodies("/api/chat")) == 6


def test_the_gate_is_held_for_each_request_and_only_then(fake_ollama: FakeOllama) -> None:
    gate = CountingGate()
    inside: list[bool] = []

    def answer(content: str) -> Callable[[dict[str, Any]], str]:
        """Reply content -> a fake reply noting whether the gate was held when it was asked."""

        def reply(body: dict[str, Any]) -> str:
            inside.append(gate.held)
            return content

        return reply

    fake_ollama.reply(answer('{"facts": ['), answer(valid_reply()))
    model = llm(fake_ollama.url, gate=gate)
    assert model.generate("s", "p", Facts).facts[0].kind == "W"
    # The reply that was not JSON is asked again: two requests, two turns of the gate.
    assert inside == [True, True] and gate.entered == 2 and not gate.held
    model.ping()
    assert gate.entered == 2  # listing models is not a chat request


def test_a_cache_hit_never_takes_the_gate(fake_ollama: FakeOllama, tmp_path: Path) -> None:
    gate = CountingGate()
    cached = CachedLLM(llm(fake_ollama.url, gate=gate), tmp_path, "v1")
    first = cached.generate("s", "p", Facts)
    assert cached.generate("s", "p", Facts) == first
    assert gate.entered == 1 and cached.hits == 1
    assert len(fake_ollama.bodies("/api/chat")) == 1


def test_an_error_taking_a_slot_is_not_reported_as_ollama(fake_ollama: FakeOllama) -> None:
    def closed() -> threading.Semaphore:
        raise TimeoutError("no slot within 1 s")

    with pytest.raises(TimeoutError, match="no slot"):
        llm(fake_ollama.url, gate=closed).generate("s", "p", Facts)
    assert fake_ollama.bodies("/api/chat") == []
