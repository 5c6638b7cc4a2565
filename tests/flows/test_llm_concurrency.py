"""The `ollama` global concurrency limit: Prefect tasks on a thread pool share its slots over real HTTP."""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from prefect import flow, task
from prefect.cache_policies import NO_CACHE
from prefect.client.orchestration import SyncPrefectClient, get_client
from prefect.client.schemas.responses import GlobalConcurrencyLimitResponse
from prefect.exceptions import ObjectNotFound
from prefect.task_runners import ThreadPoolTaskRunner
from pydantic import BaseModel

from omoide.core.settings import LLMSettings
from omoide.llm.ollama import OllamaLLM
from omoide.tasks import llm_slots
from omoide.tasks.llm_slots import ensure_limit, llm_gate
from tests.ollama_server import FakeOllama, InFlight

pytestmark = pytest.mark.usefixtures("prefect_harness")
CALLS = 6


class Answer(BaseModel):
    text: str


def limit(name: str) -> GlobalConcurrencyLimitResponse:
    """Limit name -> the global concurrency limit as the Prefect API has it."""
    with get_client(sync_client=True) as client:
        return client.read_global_concurrency_limit_by_name(name)


def delete_limit(name: str) -> None:
    """Limit name -> None; the limit is gone (if it was there)."""
    with get_client(sync_client=True) as client:
        try:
            client.delete_global_concurrency_limit_by_name(name)
        except ObjectNotFound:
            pass


@pytest.fixture
def fresh_process(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No limit called `ollama` on the server and none made sure of by this process yet."""
    delete_limit("ollama")
    monkeypatch.setattr(llm_slots, "_ensured", {})
    yield


def peak_in_flight(fake: FakeOllama, settings: LLMSettings) -> int:
    """Fake Ollama + [llm] settings -> most chat requests answered at once when 6 tasks ask."""
    fake.default_reply = flight = InFlight(hold_s=0.3)
    model = OllamaLLM(settings.host, settings.model, gate=llm_gate(settings))

    @task(cache_policy=NO_CACHE, persist_result=False)
    def ask(i: int) -> str:
        return model.generate("You answer.", f"question {i}", Answer).text

    @flow(task_runner=ThreadPoolTaskRunner(max_workers=CALLS), persist_result=False)
    def ask_all() -> list[str]:
        return [f.result() for f in ask.map(range(CALLS))]

    before = len(fake.bodies("/api/chat"))
    assert len(ask_all()) == CALLS
    assert len(fake.bodies("/api/chat")) - before == CALLS
    return flight.peak


@pytest.mark.usefixtures("fresh_process")
def test_tasks_on_six_threads_never_ask_more_than_max_concurrent(fake_ollama: FakeOllama) -> None:
    settings = LLMSettings(host=fake_ollama.url, max_concurrent=2)
    assert peak_in_flight(fake_ollama, settings) == 2
    created = limit("ollama")
    assert created.limit == 2 and created.active and created.active_slots == 0

    # A worker configured with another size resizes the shared limit on its first request.
    bigger = settings.model_copy(update={"max_concurrent": 3})
    assert peak_in_flight(fake_ollama, bigger) == 3
    assert limit("ollama").limit == 3 and limit("ollama").active_slots == 0


@pytest.mark.usefixtures("fresh_process")
def test_the_limit_is_made_sure_of_once_per_size_not_per_request(
    fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[tuple[str, int]] = []
    real = llm_slots.ensure_limit

    def counted(name: str, size: int) -> None:
        asked.append((name, size))
        real(name, size)

    monkeypatch.setattr(llm_slots, "ensure_limit", counted)
    settings = LLMSettings(host=fake_ollama.url, max_concurrent=2)
    gate = llm_gate(settings)
    for _ in range(3):
        with gate():
            pass
    with llm_gate(settings)():  # a later task of the same process
        pass
    assert asked == [("ollama", 2)] and limit("ollama").limit == 2


def test_processes_racing_to_create_the_limit_all_succeed() -> None:
    name = "ollama-race"
    delete_limit(name)
    start = threading.Barrier(8)

    def ensure() -> None:
        start.wait()
        ensure_limit(name, 4)

    # Each thread runs in a copy of this context: it holds the test harness's API URL.
    with ThreadPoolExecutor(8) as pool:
        runs = [pool.submit(contextvars.copy_context().run, ensure) for _ in range(8)]
        for run in runs:
            run.result()
    assert limit(name).limit == 4


def test_a_create_that_loses_the_race_reads_and_resizes(monkeypatch: pytest.MonkeyPatch) -> None:
    name = "ollama-lost-race"
    delete_limit(name)
    ensure_limit(name, 5)  # "another process" made it, with its own size
    real = SyncPrefectClient.read_global_concurrency_limit_by_name
    reads: list[str] = []

    def not_yet_there(self: SyncPrefectClient, limit_name: str) -> GlobalConcurrencyLimitResponse:
        # The first read happens before the other process's create lands.
        reads.append(limit_name)
        if len(reads) == 1:
            raise ObjectNotFound(http_exc=Exception("not found"))
        return real(self, limit_name)

    monkeypatch.setattr(SyncPrefectClient, "read_global_concurrency_limit_by_name", not_yet_there)
    ensure_limit(name, 2)
    assert reads == [name, name]
    monkeypatch.undo()
    assert limit(name).limit == 2
