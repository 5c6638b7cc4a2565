"""Models that answer, but not with what was asked: malformed JSON and schema violations never reach the memory."""

from __future__ import annotations

import json

import pytest

from omoide.core.errors import LLMOutputError
from omoide.llm.ollama import error_locations
from tests.ollama_server import FakeOllama
from tests.unit.llm.test_ollama import SECRET, Facts, llm, valid_reply


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
