"""HostGuard in front of an ASGI app: a foreign Host or Origin never reaches the app, over HTTP or a websocket."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from omoide.cli.host_guard import HostGuard

PORT = 4200


class _Echo:
    """An ASGI app that counts the connections it was given and answers 200."""

    def __init__(self) -> None:
        self.seen = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.seen += 1
        if scope["type"] == "websocket":
            await send({"type": "websocket.accept"})
            return
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def _get(app: HostGuard, headers: dict[str, str]) -> httpx.Response:
    """A guarded app + request headers -> its answer to a POST of /api/artifacts/filter."""

    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=f"http://127.0.0.1:{PORT}") as c:
            return await c.post("/api/artifacts/filter", json={}, headers=headers)

    return asyncio.run(go())


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 200),
        ({"Origin": f"http://127.0.0.1:{PORT}"}, 200),
        ({"Host": f"localhost:{PORT}", "Origin": f"http://localhost:{PORT}"}, 200),
        ({"Host": "evil.example"}, 403),
        ({"Host": f"evil.example:{PORT}"}, 403),
        ({"Origin": "https://evil.example"}, 403),
    ],
)
def test_http_from_a_foreign_name_or_page_is_refused_before_the_app(
    headers: dict[str, str], status: int
) -> None:
    app = _Echo()
    answer = _get(HostGuard(app), headers)
    assert answer.status_code == status
    assert app.seen == (status == 200)
    if status == 403:
        assert "access-control-allow-origin" not in answer.headers


def _socket(app: HostGuard, origin: str) -> list[dict[str, Any]]:
    """A guarded app + a websocket's Origin -> what it sent back."""
    sent: list[dict[str, Any]] = []
    scope = {
        "type": "websocket",
        "path": "/api/events/out",
        "server": ("127.0.0.1", PORT),
        "headers": [(b"host", f"127.0.0.1:{PORT}".encode()), (b"origin", origin.encode())],
    }

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return sent


def test_a_websocket_from_another_page_is_closed_unopened() -> None:
    # Browsers apply no CORS to websockets: the Origin check is the only thing in their way.
    app = _Echo()
    sent = _socket(HostGuard(app), "https://evil.example")
    assert sent == [{"type": "websocket.close", "code": 1008, "reason": "foreign origin"}]
    assert app.seen == 0
    assert _socket(HostGuard(app), f"http://127.0.0.1:{PORT}") == [{"type": "websocket.accept"}]
