"""Ollama request slots: [llm] settings -> a gate over one Prefect global concurrency limit.

Every worker and process talking to the same Prefect server shares the limit, so a host
serving several workers is never asked for more answers at once than `max_concurrent`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager

from prefect import get_run_logger
from prefect.client.orchestration import get_client
from prefect.client.schemas.actions import (
    GlobalConcurrencyLimitCreate,
    GlobalConcurrencyLimitUpdate,
)
from prefect.concurrency.sync import concurrency
from prefect.exceptions import MissingContextError, ObjectAlreadyExists, ObjectNotFound

from omoide.core.settings import LLMSettings

log = logging.getLogger(__name__)

# Limit name -> the size this process last made sure of: the server is asked once per size,
# not before every request. The lock keeps a process's threads from all asking at once.
_ensured: dict[str, int] = {}
_ensured_lock = threading.Lock()


def _logger() -> logging.Logger | logging.LoggerAdapter[logging.Logger]:
    """-> the run logger inside a flow or task run (shown in the UI), else this module's logger."""
    try:
        return get_run_logger()
    except MissingContextError:
        return log


def ensure_limit(name: str, size: int) -> None:
    """Limit name + size -> None; afterwards the global concurrency limit exists with that size."""
    with get_client(sync_client=True) as client:
        try:
            current = client.read_global_concurrency_limit_by_name(name)
        except ObjectNotFound:
            try:
                client.create_global_concurrency_limit(
                    GlobalConcurrencyLimitCreate(name=name, limit=size)
                )
                _logger().info("created Prefect concurrency limit %r with %d slot(s)", name, size)
                return
            except ObjectAlreadyExists:
                # Another process created it between our read and our create: use theirs.
                current = client.read_global_concurrency_limit_by_name(name)
        if current.limit != size:
            # The settings of the process that starts last win; `active` is left alone, so a
            # limit switched off in the UI stays off.
            client.update_global_concurrency_limit(name, GlobalConcurrencyLimitUpdate(limit=size))
            _logger().info(
                "resized Prefect concurrency limit %r: %d -> %d", name, current.limit, size
            )


def _ensure_once(name: str, size: int) -> None:
    """Limit name + size -> None; `ensure_limit` unless this process did so for that size."""
    with _ensured_lock:
        if _ensured.get(name) != size:
            ensure_limit(name, size)
            _ensured[name] = size


def llm_gate(settings: LLMSettings) -> Callable[[], AbstractContextManager[object]]:
    """[llm] settings -> a factory of context managers, each holding a slot of the shared limit."""
    name, size = settings.concurrency_limit, settings.max_concurrent

    def gate() -> AbstractContextManager[object]:
        # Made sure of on the first request, not here: a run answered from the cache alone
        # never talks to the concurrency API.
        _ensure_once(name, size)
        # strict: a limit deleted while running fails the request instead of lifting the cap.
        return concurrency(name, occupy=1, strict=True)

    return gate
