"""The one set of test doubles and factories: a fake embedder, a fake LLM, memory rows, the CLI.

One fake per external service, used by every test (after simonw/llm's tests/conftest.py).
They are deterministic: the same input gives the same vector or answer on every run.
`tests/ollama_server.py` is not a fake of this kind: it is a real HTTP server speaking
Ollama's API, for testing the real `ollama` client.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from pydantic import BaseModel

from omoide.core.settings import SourceConfig


def _seeded(text: str, dim: int) -> np.ndarray:
    """Text -> a fixed random vector (the same text, the same vector)."""
    seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
    return np.random.default_rng(seed).standard_normal(dim)


class FakeEmbedder:
    """Deterministic embedder: hashed words -> fixed random vectors, summed, unit length.

    `aliases` sends a word to another word's vector (a synonym the text index cannot see);
    `pinned` gives whole texts a chosen vector, so a test can set every cosine;
    `whole_text` hashes the text as one token, so any two different texts are unrelated.
    Every call is recorded in `calls`.
    """

    backend = "fake"

    def __init__(
        self,
        dim: int = 16,
        model: str | None = None,
        aliases: dict[str, str] | None = None,
        pinned: dict[str, np.ndarray] | None = None,
        whole_text: bool = False,
    ) -> None:
        self.dim, self.model = dim, model or f"fake-{dim}"
        self.aliases, self.pinned, self.whole_text = aliases or {}, pinned or {}, whole_text
        self.calls: list[list[str]] = []

    def word(self, word: str) -> np.ndarray:
        """Word -> its vector (through `aliases`)."""
        return _seeded(self.aliases.get(word, word), self.dim)

    def load(self) -> None:
        """() -> nothing to load."""

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """Texts -> unit vectors, one row each."""
        self.calls.append(list(texts))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            if text in self.pinned:
                out[i] = self.pinned[text]
            elif self.whole_text:
                out[i] = _seeded(text, self.dim)
            else:
                for w in re.findall(r"\w+", text.lower()) or ["<empty>"]:
                    out[i] += self.word(w)
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    @property
    def embedded(self) -> int:
        """-> how many texts were embedded in all."""
        return sum(len(c) for c in self.calls)


Answer = BaseModel | dict[str, Any] | Exception
Answerer = Callable[[str, str, type[BaseModel]], Answer]


class FakeLLM:
    """Deterministic LLM: answers with `answer` (a fixed reply, or a function of the prompt).

    A reply may be a pydantic object, a dict validated against the requested schema, or an
    exception, which is raised (a dead or confused model). Every prompt is recorded in
    `prompts` as (system, prompt, schema name).
    """

    def __init__(self, answer: Answer | Answerer, model: str = "fake:1b", backend: str = "fake"):
        self.answer, self.model, self.backend = answer, model, backend
        self.prompts: list[tuple[str, str, str]] = []

    def generate(self, system: str, prompt: str, schema: type[BaseModel]) -> Any:
        """Prompt + schema -> the scripted reply, validated against the schema."""
        self.prompts.append((system, prompt, schema.__name__))
        reply = self.answer(system, prompt, schema) if callable(self.answer) else self.answer
        if isinstance(reply, Exception):
            raise reply
        return reply if isinstance(reply, schema) else schema.model_validate(reply)

    @property
    def user_prompts(self) -> list[str]:
        """-> the prompts alone, in the order they were asked."""
        return [p for _, p, _ in self.prompts]


def memory_row(
    memory_id: str,
    content: str,
    days_ago: float = 1.0,
    kind: str = "note",
    *,
    now: datetime,
    **overrides: Any,
) -> dict[str, Any]:
    """Id + content + when (`days_ago` before `now`, `ts=`, or `day=` at 09:00) -> one FACTS-schema row.

    Defaults: no entities, confidence 1.0, importance 0.5, cited at its day's vault file on
    line len(memory_id), made by the collector; any column can be overridden.
    """
    day = overrides.pop("day", None)
    ts = overrides.pop("ts", None)
    if ts is None:
        at_nine = day and datetime.fromisoformat(day).replace(hour=9, tzinfo=now.tzinfo)
        ts = at_nine or now - timedelta(days=days_ago)
    day = day or ts.date().isoformat()
    row = {
        "memory_id": memory_id,
        "day": day,
        "ts": ts,
        "kind": kind,
        "entities": [],
        "content": content,
        "confidence": 1.0,
        "importance": 0.5,
        "source": f"vault/memory/{day}.md#L{len(memory_id)}",
        "source_refs": [],
        "backend": "collector",
        "recorded_at": now,
    }
    return {**row, **overrides}


def stored_memories(db_dir: Path, embedder: Any, now: datetime, *rows: dict[str, Any]) -> Any:
    """A folder + embedder + now + memory rows -> a real LanceDB `memories` table holding them."""
    from omoide.store.memories import open_memories, upsert_memories

    table = open_memories(db_dir, embedder.model, embedder.dim)
    upsert_memories(table, pd.DataFrame(list(rows)), embedder, now)
    return table


def memory_rows(*rows: dict[str, Any]) -> pd.DataFrame:
    """Memory rows -> one DataFrame."""
    return pd.DataFrame(list(rows))


def rows_at(now: datetime) -> Callable[..., dict[str, Any]]:
    """Now -> `memory_row` with that `now` filled in (each test module's `rec`)."""
    return functools.partial(memory_row, now=now)


def source_config(kind: str, path: Path | None = None, name: str | None = None) -> SourceConfig:
    """Source kind + path (+ name, default the kind) -> its SourceConfig, as omoide.toml would give."""
    return SourceConfig(kind=kind, path=path, name=name or kind)


CLI = [sys.executable, "-c", "from omoide.cli.app import main; main()"]
# The commands that run flows: each would start a short-lived Prefect server of its own (~8 s of
# CPU); a test's run them on its worker's long-lived one unless it names a Prefect home or API URL.
FLOW_COMMANDS = {"run", "backfill", "reflect", "forget", "profile"}
# `run_cli(..., **OWN_SERVER)`: the command starts its own short-lived server, as by hand.
OWN_SERVER = {"PREFECT_API_URL": ""}


def cli_env(home: Path, **extra: str) -> dict[str, str]:
    """OMOIDE_HOME (+ variables) -> the environment a user's shell would give the command."""
    return {**os.environ, "OMOIDE_HOME": str(home), **extra}


def flow_env(args: Sequence[str], home: Path, **extra: str) -> dict[str, str]:
    """Command line + OMOIDE_HOME (+ variables) -> its environment; a flow command on the worker's
    shared Prefect server unless a Prefect home or API URL is named ("": its own server)."""
    from tests.prefect_server import WORKER_SERVER

    env = cli_env(home, **extra)
    if env.get("PREFECT_API_URL") == "":
        env.pop("PREFECT_API_URL")
    elif (
        args
        and args[0] in FLOW_COMMANDS
        and "PREFECT_API_URL" not in env
        and "PREFECT_HOME" not in extra
    ):
        env["PREFECT_API_URL"] = WORKER_SERVER.url()
    return env


def run_cli(
    *args: str, home: Path, input: str | None = None, timeout: int = 300, **env: str
) -> subprocess.CompletedProcess[str]:
    """Arguments + OMOIDE_HOME (+ variables) -> the `omoide` command run as a user runs it."""
    return subprocess.run(
        [*CLI, *args],
        input=input,
        capture_output=True,
        text=True,
        env=flow_env(args, home, **env),
        timeout=timeout,
    )


def backfilled_sample(home: Path, days: int) -> Path:
    """A folder + a number of days -> the sample's last days written there and backfilled by `omoide`."""
    from omoide.sample import write_sample

    first, last = write_sample(home, days=days)
    # On its own short-lived server, as a person's first `omoide backfill` runs.
    r = run_cli(
        "backfill", "--start", str(first), "--end", str(last), home=home, timeout=600, **OWN_SERVER
    )
    assert r.returncode == 0, r.stderr[-2000:]
    return home


class FakeServiceTool:
    """A service manager's command-line tool (systemctl, launchctl, schtasks): records each command
    line and answers from a table of command-line prefixes (default: success), never touching the machine."""

    def __init__(self, answers: dict[str, Any] | None = None) -> None:
        self.answers = answers or {}
        self.calls: list[list[str]] = []

    def __call__(self, command: Sequence[str]) -> Any:
        from omoide.service.control import Answer

        self.calls.append(list(command))
        line = " ".join(command)
        for start, answer in self.answers.items():
            if line.startswith(start):
                return answer
        return Answer(0, "", "")


def a_block(n: int, start: str, end: str, kind: str, label: str, **kw: object) -> Any:
    """Number + UTC start and end + kind + label (+ any other Block field) -> a hand-made activity block, busy all its span."""
    import pandas as pd

    from omoide.memory.blocks import Block

    s, e = pd.Timestamp(start), pd.Timestamp(end)
    base: dict[str, object] = {
        "block_id": f"b{n}",
        "start": s,
        "end": e,
        "active_s": (e - s).total_seconds(),
        "kind": kind,
        "label": label,
        "topic": None,
        "apps": (),
        "sites": (),
        "people": (),
        "entities": (),
        "note": None,
        "refs": (),
        "session_ids": (),
    }
    return Block(**{**base, **kw})  # type: ignore[arg-type]
