"""An aw-server that fails or refuses: retried while it can pass, then a transient SourceError naming the URL."""

from __future__ import annotations

import socket
from collections.abc import Callable

import pytest

from omoide.core.errors import SourceError
from omoide.ingest.sources import aw_api
from omoide.ingest.sources.activitywatch import collect
from tests.aw_server import FakeAwServer
from tests.unit.ingest.sources.test_activitywatch import END, EXPECTED_DAY, NOW, START, _source


def test_rest_api_retries_a_transient_500(aw_server: Callable[[FakeAwServer], str]) -> None:
    backend = FakeAwServer(fail_first=2)
    out = collect(_source(url=aw_server(backend)), START, END, NOW)
    assert len(out.events) == len(EXPECTED_DAY)
    assert backend.requests[:3] == ["/api/0/buckets/"] * 3


def test_rest_api_persistent_500_is_a_transient_source_error(
    aw_server: Callable[[FakeAwServer], str],
) -> None:
    backend = FakeAwServer(fail_first=100)
    url = aw_server(backend)
    with pytest.raises(SourceError) as err:
        collect(_source(url=url), START, END, NOW)
    assert err.value.path == url
    assert "HTTP 500" in err.value.reason
    assert err.value.transient
    assert len(backend.requests) == aw_api.ATTEMPTS


def test_rest_api_refused_port_is_a_transient_source_error() -> None:
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    with pytest.raises(SourceError) as err:
        aw_api.fetch_buckets(url, START, END, attempts=2, backoff_s=0.01)
    assert err.value.path == url
    assert "ConnectError" in err.value.reason
    assert err.value.transient
