"""A real HTTP server on 127.0.0.1 speaking Ollama's JSON API, with programmable replies and faults.

Use the fixtures by importing them into a test module (`from tests.ollama_server import
fake_ollama, refused_host`). Routes: POST /api/chat (non-streaming), POST /api/embed,
GET /api/tags; an unknown model gets 404 `{"error": "model 'x' not found"}` as from Ollama.

- Chat content comes from `replies` (a queue of strings, or callables taking the request
  body), then from `default_reply` (by default: a minimal JSON instance of the requested
  `format` schema, so any pydantic schema gets a valid answer).
- `fail_next(n, status)` answers the next n requests (any route) with that HTTP status.
- `delay_s` holds every answer back that long (to trigger client timeouts).
- `requests` records every request (method, path, JSON body), failed ones included.
- `InFlight` as `default_reply` holds every chat answer back and counts how many are being
  answered at once (for concurrency limits).
- Embeddings are deterministic and not normalised: the sum of one pseudo-random vector per
  lower-cased word (seeded by a hash of the word), so texts sharing words are similar.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

Body = dict[str, Any]
Reply = str | Callable[[Body], str]
CHAT_MODEL = "llama3.2:3b"
EMBED_MODEL = "nomic-embed-text:latest"
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Recorded:
    """One request the server received."""

    method: str
    path: str
    body: Body | None


class FakeOllama:
    """A threaded HTTP server answering like Ollama; `url` is its base URL."""

    def __init__(self, models: Sequence[str] = (CHAT_MODEL, EMBED_MODEL), dim: int = 16) -> None:
        self.models = list(models)
        self.dim = dim
        self.replies: deque[Reply] = deque()
        self.default_reply: Callable[[Body], str] = reply_from_schema
        self.delay_s = 0.0
        self.requests: list[Recorded] = []
        self._failures: deque[int] = deque()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.block_on_close = False  # a delayed handler must not hold up close()
        self._server.fake = self  # type: ignore[attr-defined]
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        # A short poll interval: shutdown() waits for the loop's next poll (0.5 s by default).
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()

    def reply(self, *contents: Reply) -> None:
        """Queue chat reply contents (strings or body -> string callables), used in order."""
        self.replies.extend(contents)

    def fail_next(self, n: int, status: int = 500) -> None:
        """Answer the next n requests with HTTP `status`."""
        self._failures.extend([status] * n)

    def bodies(self, path: str) -> list[Body]:
        """Path -> the JSON bodies of the requests received on it, in order."""
        return [r.body or {} for r in self.requests if r.path == path]

    def close(self) -> None:
        """Stop serving and wake delayed handlers."""
        self._closing.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeOllama:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def answer(self, method: str, path: str, body: Body | None) -> tuple[int, Body]:
        """Request -> (status, JSON payload), after recording it and applying faults."""
        with self._lock:
            self.requests.append(Recorded(method, path, body))
            failure = self._failures.popleft() if self._failures else None
            delay = self.delay_s
        if delay:
            self._closing.wait(delay)
        if failure is not None:
            return failure, {"error": f"fake failure (HTTP {failure})"}
        body = body or {}
        if (method, path) == ("GET", "/api/tags"):
            return 200, {"models": [_model_entry(m) for m in self.models]}
        if method != "POST" or path not in ("/api/chat", "/api/embed"):
            return 404, {"error": "404 page not found"}
        model = self._resolve(str(body.get("model", "")))
        if model is None:
            return 404, {"error": f"model '{body.get('model', '')}' not found"}
        if path == "/api/chat":
            with self._lock:
                reply = self.replies.popleft() if self.replies else self.default_reply
            content = reply if isinstance(reply, str) else reply(body)
            return 200, _chat_payload(model, content)
        texts = body.get("input", "")
        texts = [texts] if isinstance(texts, str) else list(texts)
        return 200, {
            "model": model,
            "embeddings": [word_vector(t, self.dim) for t in texts],
            "total_duration": 1_000_000,
            "load_duration": 1000,
            "prompt_eval_count": sum(len(_WORD.findall(t)) for t in texts),
        }

    def _resolve(self, name: str) -> str | None:
        """Requested model name -> the pulled name it means (bare name = ':latest'), or None."""
        for candidate in (name, f"{name}:latest"):
            if candidate in self.models:
                return candidate
        return None


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: pytest output should not fill with access lines."""

    def _handle(self, method: str) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except json.JSONDecodeError:
            status, payload = 400, {"error": "invalid JSON body"}
        else:
            status, payload = self.server.fake.answer(method, self.path, body)  # type: ignore[attr-defined]
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up waiting (timeout tests)


def _now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def _model_entry(name: str) -> Body:
    """Model name -> one /api/tags entry shaped like Ollama's."""
    digest = hashlib.sha256(name.encode()).hexdigest()
    return {
        "name": name,
        "model": name,
        "modified_at": _now(),
        "size": 2_019_393_189,
        "digest": digest,
        "details": {
            "parent_model": "",
            "format": "gguf",
            "family": "llama",
            "families": ["llama"],
            "parameter_size": "3.2B",
            "quantization_level": "Q4_K_M",
        },
    }


def _chat_payload(model: str, content: str) -> Body:
    """Model + reply content -> a non-streaming /api/chat answer."""
    return {
        "model": model,
        "created_at": _now(),
        "message": {"role": "assistant", "content": content},
        "done": True,
        "done_reason": "stop",
        "total_duration": 5_000_000,
        "load_duration": 1_000_000,
        "prompt_eval_count": 10,
        "prompt_eval_duration": 1_000_000,
        "eval_count": max(1, len(content) // 4),
        "eval_duration": 2_000_000,
    }


class InFlight:
    """A chat reply (body -> content) that takes `hold_s` and records the most answered at once."""

    def __init__(self, hold_s: float = 0.3) -> None:
        self.hold_s = hold_s
        self.now = 0
        self.peak = 0
        self._lock = threading.Lock()

    def __call__(self, body: Body) -> str:
        with self._lock:
            self.now += 1
            self.peak = max(self.peak, self.now)
        try:
            time.sleep(self.hold_s)
            return reply_from_schema(body)
        finally:
            with self._lock:
                self.now -= 1


def word_vector(text: str, dim: int) -> list[float]:
    """Text -> a deterministic, unnormalised vector: one seeded random vector per word, summed."""
    total = [0.0] * dim
    for word in _WORD.findall(text.lower()) or [""]:
        rng = random.Random(hashlib.sha256(word.encode()).digest())
        total = [t + rng.gauss(0.0, 1.0) for t in total]
    return total


def reply_from_schema(body: Body) -> str:
    """Chat request body -> a minimal JSON instance of its `format` schema ('{}' without one)."""
    fmt = body.get("format")
    return json.dumps(minimal_instance(fmt, fmt) if isinstance(fmt, dict) else {})


def minimal_instance(schema: Body, root: Body) -> Any:
    """JSON schema (+ root for $refs) -> the smallest value it accepts (required fields only)."""
    if "$ref" in schema:
        return minimal_instance(root["$defs"][schema["$ref"].rsplit("/", 1)[-1]], root)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return minimal_instance(schema[key][0], root)
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        props = schema.get("properties", {})
        return {k: minimal_instance(props[k], root) for k in schema.get("required", [])}
    if kind == "array":
        return [minimal_instance(schema.get("items", {}), root)] * schema.get("minItems", 0)
    if kind == "string":
        fmt = schema.get("format")
        if fmt == "date-time":
            return "2024-01-01T00:00:00Z"
        if fmt == "date":
            return "2024-01-01"
        return "x" * schema.get("minLength", 0)
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", 0))
        value = low + (1 if "exclusiveMinimum" in schema and "minimum" not in schema else 0)
        return int(value) if kind == "integer" else float(value)
    if kind == "boolean":
        return False
    return None


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    """A fresh fake Ollama on 127.0.0.1 with a chat and an embedding model pulled."""
    with FakeOllama() as server:
        yield server


@pytest.fixture
def refused_host() -> Iterator[str]:
    """A http://127.0.0.1:PORT where connections are refused (bound, never listening)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
