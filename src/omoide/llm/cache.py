"""A content-addressed cache in front of an LLM: the same prompt to the same model is asked once."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from omoide.core.files import private_dir, write_text_atomic
from omoide.core.ids import stable_id
from omoide.llm.base import LLM

log = logging.getLogger(__name__)
T = TypeVar("T", bound=BaseModel)


class CachedLLM:
    """Wraps an LLM; answers are kept under `cache_dir/llm/<hash>.json`, keyed by model and prompt."""

    def __init__(self, inner: LLM, cache_dir: Path, prompt_version: str) -> None:
        self.inner = inner
        self.backend = inner.backend
        self.model = inner.model
        self.dir = cache_dir / "llm"
        self.prompt_version = prompt_version
        self.calls = 0
        self.hits = 0

    def key(self, system: str, prompt: str, schema: type[BaseModel]) -> str:
        """Prompt parts -> the cache key: hash(prompt version, backend, model, schema, text)."""
        shape = json.dumps(schema.model_json_schema(), sort_keys=True)
        return stable_id(self.prompt_version, self.backend, self.model, shape, system, prompt)

    def generate(self, system: str, prompt: str, schema: type[T]) -> T:
        """Prompt + schema -> the cached answer, or the model's (then cached)."""
        path = self.dir / f"{self.key(system, prompt, schema)}.json"
        if path.exists():
            try:
                out = schema.model_validate_json(path.read_text(encoding="utf-8"))
                self.hits += 1
                return out
            except ValidationError:
                log.warning("llm cache: unreadable entry %s, asking the model again", path.name)
        out = self.inner.generate(system, prompt, schema)
        self.calls += 1
        private_dir(self.dir)
        write_text_atomic(out.model_dump_json(), path)
        return out
