"""Prefect's server app -> the same app answering only requests addressed to it from no page or its own.

Prefect's own settings give the auth string and the CORS origins (`server_auth` and
`runtime.server_settings`), but nothing checks `Host`: a page whose name is rebound to 127.0.0.1
reaches the API as its own origin. Starlette's TrustedHostMiddleware ignores the port and lets
any `Origin` through (CORS hides only the answer, and websockets have no CORS at all), so this
is a small middleware of its own.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from omoide.core.server_auth import refusal

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


class HostGuard:
    """ASGI app -> the app, with a foreign Host or Origin refused (403) before it sees the request."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """One connection -> passed on when addressed to this server, refused otherwise."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)  # lifespan
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        # The port the connection came in on: whoever started the server, it is the one to name.
        port = (scope.get("server") or ("", 0))[1] or 0
        why = refusal(port, headers.get("host"), headers.get("origin"))
        if why is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": why})
        else:
            body = json.dumps({"exception_message": f"refused: {why}"}).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})


def guard(create_app: Callable[..., Any]) -> Callable[..., Any]:
    """Prefect's app factory -> one whose app is wrapped in HostGuard."""

    def guarded(*args: Any, **kwargs: Any) -> HostGuard:
        return HostGuard(create_app(*args, **kwargs))

    return guarded


def create_app() -> HostGuard:
    """-> Prefect's app for this process's settings, guarded (the uvicorn factory of the early server)."""
    from prefect.server.api.server import create_app as prefect_app

    return guard(prefect_app)()
