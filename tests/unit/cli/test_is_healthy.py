"""`runtime.is_healthy` asks a real HTTP server's `/health` under the API path: true only for a
200 answering `true`, false for any other answer, a closed port or a malformed URL, and a proxy
named in the environment is never consulted for it."""

from __future__ import annotations

import pytest

from omoide.cli.runtime import is_healthy
from tests.prefect_server import free_port, health_endpoint


def test_true_only_for_a_200_saying_true():
    with health_endpoint() as port:
        assert is_healthy(f"http://127.0.0.1:{port}/api")
        assert is_healthy(f"http://127.0.0.1:{port}/api/")
        assert not is_healthy(f"http://127.0.0.1:{port}/other")  # a 404
    with health_endpoint(body=b"false") as port:
        assert not is_healthy(f"http://127.0.0.1:{port}/api")  # answers, but not healthy
    with health_endpoint(status=500) as port:
        assert not is_healthy(f"http://127.0.0.1:{port}/api")


def test_false_for_nothing_listening_or_a_bad_url():
    assert not is_healthy(f"http://127.0.0.1:{free_port()}/api", timeout_s=1.0)
    assert not is_healthy("http://127.0.0.1:notaport/api")
    assert not is_healthy("not a url")


def test_a_proxy_in_the_environment_is_not_asked(monkeypatch: pytest.MonkeyPatch):
    dead = f"http://127.0.0.1:{free_port()}"
    for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.setenv(name, dead)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    with health_endpoint() as port:
        assert is_healthy(f"http://127.0.0.1:{port}/api")
