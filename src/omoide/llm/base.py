"""The LLM protocol: a prompt and a pydantic schema in, a validated instance out."""

from __future__ import annotations

from typing import Protocol, TypeVar

from pydantic import BaseModel

T = TypeVar("T", bound=BaseModel)


class LLM(Protocol):
    """A chat model that answers with JSON matching a pydantic schema."""

    backend: str  # "ollama"
    model: str

    def generate(self, system: str, prompt: str, schema: type[T]) -> T:
        """System + user prompt + schema -> a validated instance; raises LLMUnavailableError/LLMOutputError."""
        ...
